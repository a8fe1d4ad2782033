import { describe, expect, it } from 'vitest';
import {
  CycleState,
  NodeInfo,
  Status,
  type NodeScore,
} from '../../../src/twins/scheduler/framework.js';
import {
  NodeAffinity,
  NodeName,
  NodeResourcesFit,
  NodeUnschedulable,
  TaintToleration,
  defaultNormalizeScore,
  leastRequestedScore,
  toleratesTaint,
  type Handle,
} from '../../../src/twins/scheduler/plugins.js';
import type { Node, Pod, PodSpec } from '../../../src/twins/objects.js';

function node(
  name: string,
  options: {
    cpu?: number;
    memory?: number;
    pods?: number;
    labels?: Record<string, string>;
    taints?: Node['spec']['taints'];
    unschedulable?: boolean;
  } = {},
): Node {
  return {
    kind: 'Node',
    metadata: {
      namespace: '',
      name,
      uid: `uid-${name}`,
      resourceVersion: '1',
      generation: 1,
      labels: options.labels ?? {},
      creationTimestamp: 0,
    },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      allocatable: {
        cpu: options.cpu ?? 4000,
        memory: options.memory ?? 8 * 2 ** 30,
        pods: options.pods ?? 110,
      },
    },
  };
}

function podWith(spec: PodSpec, name = 'p'): Pod {
  return {
    kind: 'Pod',
    metadata: {
      namespace: 'default',
      name,
      uid: `uid-${name}`,
      resourceVersion: '1',
      generation: 1,
      labels: {},
      creationTimestamp: 0,
    },
    spec,
    status: { phase: 'Pending' },
  };
}

function handleFor(...infos: NodeInfo[]): Handle {
  const byName = new Map(infos.map((i) => [i.name, i]));
  return { nodeInfo: (name) => byName.get(name) };
}

describe('NodeResourcesFit', () => {
  it('rejects a node without room and names every resource that is short', () => {
    const info = new NodeInfo(node('n', { cpu: 1000, memory: 2 ** 30, pods: 1 }));
    info.addPod(podWith({ requests: { cpu: 600, memory: 0 } }, 'existing'));
    const plugin = new NodeResourcesFit(handleFor(info));
    const state = new CycleState();
    const pod = podWith({ requests: { cpu: 500, memory: 2 * 2 ** 30 } });
    plugin.preFilter(state, pod);
    const status = plugin.filter(state, pod, info);
    expect(status.code).toBe('Unschedulable');
    expect(status.reasons).toEqual(['Too many pods', 'Insufficient cpu', 'Insufficient memory']);
  });

  it('scores the emptier node higher (least allocated, counting non-zero defaults)', () => {
    const empty = new NodeInfo(node('empty'));
    const busy = new NodeInfo(node('busy'));
    busy.addPod(podWith({ requests: { cpu: 2000, memory: 4 * 2 ** 30 } }, 'x'));
    const plugin = new NodeResourcesFit(handleFor(empty, busy));
    const pod = podWith({});
    const [e] = plugin.score(new CycleState(), pod, 'empty');
    const [b] = plugin.score(new CycleState(), pod, 'busy');
    expect(e).toBeGreaterThan(b);
    expect(leastRequestedScore(1000, 4000)).toBe(75);
    expect(leastRequestedScore(5000, 4000)).toBe(0);
  });
});

describe('TaintToleration', () => {
  it('rejects a node whose NoSchedule taint the pod does not tolerate, and accepts with a toleration', () => {
    const info = new NodeInfo(
      node('gpu', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
    );
    const plugin = new TaintToleration(handleFor(info));
    expect(plugin.filter(new CycleState(), podWith({}), info).reasons).toEqual([
      'node(s) had untolerated taint {gpu: true}',
    ]);
    expect(
      plugin
        .filter(
          new CycleState(),
          podWith({ tolerations: [{ key: 'gpu', operator: 'Exists' }] }),
          info,
        )
        .isSuccess(),
    ).toBe(true);
  });

  it('prefers nodes with fewer intolerable PreferNoSchedule taints after reversing the normalized counts', () => {
    const clean = new NodeInfo(node('clean'));
    const soft = new NodeInfo(
      node('soft', {
        taints: [
          { key: 'a', effect: 'PreferNoSchedule' },
          { key: 'b', effect: 'PreferNoSchedule' },
        ],
      }),
    );
    const plugin = new TaintToleration(handleFor(clean, soft));
    const state = new CycleState();
    const pod = podWith({});
    plugin.preScore(state, pod, [clean.node, soft.node]);
    const scores: NodeScore[] = ['clean', 'soft'].map((name) => ({
      name,
      score: plugin.score(state, pod, name)[0],
    }));
    plugin.normalizeScore(state, pod, scores);
    expect(scores).toEqual([
      { name: 'clean', score: 100 },
      { name: 'soft', score: 0 },
    ]);
  });

  it('matches tolerations the way v1.Toleration.ToleratesTaint does', () => {
    const taint = { key: 'k', value: 'v', effect: 'NoSchedule' as const };
    expect(toleratesTaint({ key: 'k', operator: 'Equal', value: 'v' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Equal', value: 'w' }, taint)).toBe(false);
    expect(toleratesTaint({ operator: 'Exists' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(
      false,
    );
  });
});

describe('NodeAffinity, NodeName and NodeUnschedulable', () => {
  it('requires the nodeSelector and one of the required terms, with numeric Gt/Lt', () => {
    const big = new NodeInfo(node('big', { labels: { disk: 'ssd', cores: '64' } }));
    const small = new NodeInfo(node('small', { labels: { disk: 'ssd', cores: '8' } }));
    const plugin = new NodeAffinity(handleFor(big, small));
    const pod = podWith({
      nodeSelector: { disk: 'ssd' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['16'] }] },
            ],
          },
        },
      },
    });
    const state = new CycleState();
    plugin.preFilter(state, pod);
    expect(plugin.filter(state, pod, big).isSuccess()).toBe(true);
    expect(plugin.filter(state, pod, small).reasons).toEqual([
      "node(s) didn't match Pod's node affinity/selector",
    ]);
  });

  it('adds the weights of the preferred terms a node matches', () => {
    const a = new NodeInfo(node('a', { labels: { zone: 'a' } }));
    const plugin = new NodeAffinity(handleFor(a));
    const pod = podWith({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 30,
              preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
            },
            {
              weight: 5,
              preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
            },
          ],
        },
      },
    });
    const state = new CycleState();
    plugin.preScore(state, pod, [a.node]);
    expect(plugin.score(state, pod, 'a')[0]).toBe(30);
  });

  it('pins a pod with spec.nodeName to that node and keeps pods off cordoned nodes', () => {
    const n1 = new NodeInfo(node('n1'));
    const cordoned = new NodeInfo(node('n2', { unschedulable: true }));
    expect(new NodeName().filter(new CycleState(), podWith({ nodeName: 'n2' }), n1).code).toBe(
      'UnschedulableAndUnresolvable',
    );
    expect(new NodeUnschedulable().filter(new CycleState(), podWith({}), cordoned).reasons).toEqual(
      ['node(s) were unschedulable'],
    );
  });
});

describe('defaultNormalizeScore', () => {
  it('scales to [0, max] by the highest score, and reversed gives max to the lowest', () => {
    const scores = [
      { name: 'a', score: 2 },
      { name: 'b', score: 4 },
      { name: 'c', score: 0 },
    ];
    expect(defaultNormalizeScore(100, false, scores)).toBe(Status.success);
    expect(scores.map((s) => s.score)).toEqual([50, 100, 0]);
    const reversed = [
      { name: 'a', score: 0 },
      { name: 'b', score: 0 },
    ];
    defaultNormalizeScore(100, true, reversed);
    expect(reversed.map((s) => s.score)).toEqual([100, 100]);
  });
});
