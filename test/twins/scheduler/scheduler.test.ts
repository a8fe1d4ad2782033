import { describe, expect, it } from 'vitest';
import { selectHost } from '../../../src/twins/scheduler/scheduler.js';
import { Status } from '../../../src/twins/scheduler/framework.js';
import { PriorityQueue } from '../../../src/twins/scheduler/queue.js';
import { PrioritySort } from '../../../src/twins/scheduler/plugins.js';
import { startScheduler } from '../../../src/twins/runs/scheduler.js';
import { StopChannel, VirtualClock, sleep } from '../../../src/twins/sim/clock.js';
import { SeededRandom } from '../../../src/twins/sim/random.js';
import { Timeline } from '../../../src/twins/sim/timeline.js';
import { FakeApiServer, type NewObject } from '../../../src/twins/apiserver.js';
import type { Node, Pod, Taint, Toleration } from '../../../src/twins/objects.js';
import { pod, runProc } from '../harness.js';

function world(seed: number) {
  const clock = new VirtualClock();
  const rand = new SeededRandom(seed);
  const timeline = new Timeline(clock);
  return {
    clock,
    rand,
    timeline,
    apiserver: new FakeApiServer({ clock, rand, timeline }),
    stop: new StopChannel(),
  };
}

/** An independent check of the filters, written from the Kubernetes docs rather than the plugins. */
function fits(p: Pod, n: Node, podsOnNode: Pod[]): boolean {
  const cpu = podsOnNode.reduce((sum, q) => sum + (q.spec.requests?.cpu ?? 0), 0);
  const memory = podsOnNode.reduce((sum, q) => sum + (q.spec.requests?.memory ?? 0), 0);
  const alloc = n.status.allocatable;
  if (podsOnNode.length > alloc.pods || cpu > alloc.cpu || memory > alloc.memory) return false;
  const tolerated = (t: Taint) =>
    (p.spec.tolerations ?? []).some(
      (tol: Toleration) =>
        (!tol.key || tol.key === t.key) &&
        (!tol.effect || tol.effect === t.effect) &&
        (tol.operator === 'Exists' || (tol.value ?? '') === (t.value ?? '')),
    );
  if ((n.spec.taints ?? []).some((t) => t.effect !== 'PreferNoSchedule' && !tolerated(t)))
    return false;
  if (n.spec.unschedulable) return false;
  return Object.entries(p.spec.nodeSelector ?? {}).every(([k, v]) => n.metadata.labels[k] === v);
}

describe('Scheduler', () => {
  it('never places a pod on a node that fails a filter (seeded clusters)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const w = world(seed);
      const r = new SeededRandom(seed * 101);
      for (let i = 0; i < 8; i++) {
        w.apiserver.create({
          kind: 'Node',
          metadata: {
            name: `node-${i}`,
            labels: { zone: `z${r.intn(3)}`, ...(r.chance(0.5) ? { disk: 'ssd' } : {}) },
          },
          spec: {
            ...(r.chance(0.3)
              ? { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }
              : {}),
            ...(r.chance(0.1) ? { unschedulable: true } : {}),
          },
          status: {
            allocatable: {
              cpu: 1000 * (1 + r.intn(4)),
              memory: 2 ** 30 * (1 + r.intn(8)),
              pods: 2 + r.intn(6),
            },
          },
        });
      }
      startScheduler(w, { percentageOfNodesToScore: 0, bindLatency: 1 });
      for (let i = 0; i < 40; i++) {
        const spec: NewObject['spec'] = {
          requests: { cpu: 100 * (1 + r.intn(10)), memory: 2 ** 28 * (1 + r.intn(8)) },
          ...(r.chance(0.3) ? { nodeSelector: { disk: 'ssd' } } : {}),
          ...(r.chance(0.3)
            ? {
                tolerations: [
                  { key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' },
                ],
              }
            : {}),
        };
        w.clock.after(100 + i * 50, () =>
          w.apiserver.create({
            kind: 'Pod',
            metadata: { namespace: 'default', name: `pod-${i}` },
            spec,
            status: { phase: 'Pending' },
          }),
        );
      }
      w.clock.after(120_000, () => w.stop.close());
      w.clock.run();
      const pods = w.apiserver.objectsOf<Pod>('Pod');
      const nodes = new Map(w.apiserver.objectsOf<Node>('Node').map((n) => [n.metadata.name, n]));
      let placed = 0;
      for (const p of pods) {
        if (!p.spec.nodeName) continue;
        placed++;
        const onNode = pods.filter((q) => q.spec.nodeName === p.spec.nodeName);
        expect({
          seed,
          pod: p.metadata.name,
          fits: fits(p, nodes.get(p.spec.nodeName)!, onNode),
        }).toEqual({ seed, pod: p.metadata.name, fits: true });
      }
      expect(placed).toBeGreaterThan(0);
    }
  });

  it('leaves a pod that fits nowhere unschedulable until a node that fits arrives', () => {
    const w = world(1);
    w.apiserver.create({
      kind: 'Node',
      metadata: { name: 'small' },
      status: { allocatable: { cpu: 1000, memory: 2 ** 30, pods: 10 } },
    });
    const scheduler = startScheduler(w, { percentageOfNodesToScore: 0, bindLatency: 1 });
    w.clock.after(100, () =>
      w.apiserver.create({
        kind: 'Pod',
        metadata: { namespace: 'default', name: 'big' },
        spec: { requests: { cpu: 4000, memory: 0 } },
      }),
    );
    w.clock.after(60_000, () => {
      expect(w.apiserver.get<Pod>('Pod', 'default', 'big').spec.nodeName).toBeUndefined();
      expect(w.apiserver.get<Pod>('Pod', 'default', 'big').status.message).toBe(
        '0/1 nodes are available: 1 Insufficient cpu.',
      );
      expect(scheduler.queue.pendingPods().unschedulable).toBe(1);
      w.apiserver.create({
        kind: 'Node',
        metadata: { name: 'large' },
        status: { allocatable: { cpu: 8000, memory: 2 ** 33, pods: 10 } },
      });
    });
    w.clock.after(61_000, () => w.stop.close());
    w.clock.run();
    expect(w.apiserver.get<Pod>('Pod', 'default', 'big').spec.nodeName).toBe('large');
  });

  it('places the same pods on the same nodes for the same seed', () => {
    const placements = (seed: number) => {
      const w = world(seed);
      for (let i = 0; i < 5; i++)
        w.apiserver.create({
          kind: 'Node',
          metadata: { name: `n${i}` },
          status: { allocatable: { cpu: 8000, memory: 2 ** 34, pods: 50 } },
        });
      startScheduler(w, { percentageOfNodesToScore: 0, bindLatency: 1 });
      w.clock.after(100, () => {
        for (let i = 0; i < 20; i++)
          w.apiserver.create({
            kind: 'Pod',
            metadata: { namespace: 'default', name: `p${i}` },
            spec: { requests: { cpu: 100, memory: 2 ** 20 } },
          });
      });
      w.clock.after(5000, () => w.stop.close());
      w.clock.run();
      return w.apiserver.objectsOf<Pod>('Pod').map((p) => `${p.metadata.name}->${p.spec.nodeName}`);
    };
    expect(placements(9)).toEqual(placements(9));
    expect(placements(9).every((p) => !p.endsWith('undefined'))).toBe(true);
  });
});

describe('selectHost', () => {
  it('picks uniformly among the nodes tied at the top score, and never a lower one', () => {
    const rand = new SeededRandom(2024);
    const list = [
      { name: 'low', score: 10 },
      { name: 'a', score: 90 },
      { name: 'b', score: 90 },
      { name: 'mid', score: 50 },
      { name: 'c', score: 90 },
      { name: 'd', score: 90 },
    ];
    const counts = new Map<string, number>();
    const n = 40_000;
    for (let i = 0; i < n; i++) {
      const host = selectHost(list, rand);
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    for (const count of counts.values()) expect(Math.abs(count / n - 0.25)).toBeLessThan(0.015);
  });

  it('repeats its choices for the same seed', () => {
    const list = ['a', 'b', 'c'].map((name) => ({ name, score: 1 }));
    const run = (seed: number) => {
      const rand = new SeededRandom(seed);
      return Array.from({ length: 20 }, () => selectHost(list, rand));
    };
    expect(run(5)).toEqual(run(5));
  });
});

describe('PriorityQueue', () => {
  function queue(clock: VirtualClock) {
    return new PriorityQueue({
      clock,
      less: new PrioritySort().less.bind(new PrioritySort()),
      plugins: [],
    });
  }

  it('pops higher priority first, then the pod that has waited longest', () => {
    const clock = new VirtualClock();
    const q = queue(clock);
    const withPriority = (name: string, priority: number): Pod => ({
      ...pod(name),
      spec: { priority },
    });
    q.add(withPriority('old-low', 0));
    clock.after(10, () => q.add(withPriority('high', 100)));
    clock.after(20, () => q.add(withPriority('new-low', 0)));
    clock.run();
    const order = [runProc(clock, q.pop()), runProc(clock, q.pop()), runProc(clock, q.pop())].map(
      (p) => p!.pod.metadata.name,
    );
    expect(order).toEqual(['high', 'old-low', 'new-low']);
  });

  it('backs a pod off 1s, 2s, 4s, ... up to 10s by attempts when a move request raced its attempt', () => {
    const clock = new VirtualClock();
    const q = queue(clock);
    q.add(pod('p'));
    const backoffs: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const info = runProc(clock, q.pop())!;
      q.moveAllToActiveOrBackoffQueue('NodeAdd');
      const start = clock.now();
      q.addUnschedulableIfNotPresent(info, q.getSchedulingCycle());
      // The queue's own pump: flushBackoffQCompleted every second.
      clock.go(
        (function* () {
          for (;;) {
            yield* sleep(clock, 1000);
            q.flushBackoffQCompleted();
            if (q.pendingPods().active > 0) return;
          }
        })(),
      );
      clock.run();
      backoffs.push(clock.now() - start);
    }
    expect(backoffs).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('moves a pod that stayed unschedulable for five minutes back to the active queue', () => {
    const clock = new VirtualClock();
    const q = queue(clock);
    q.add(pod('p'));
    const info = runProc(clock, q.pop())!;
    info.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulableIfNotPresent(info, q.getSchedulingCycle());
    expect(q.pendingPods()).toEqual({ active: 0, backoff: 0, unschedulable: 1 });
    clock.after(300_001, () => q.flushUnschedulablePodsLeftover());
    clock.run();
    expect(q.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
  });
});

describe('Scheduler binding and Reserve', () => {
  it('forgets the assumed pod when binding fails and schedules it again', () => {
    const w = world(1);
    w.apiserver.create({
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { allocatable: { cpu: 4000, memory: 2 ** 32, pods: 10 } },
    });
    const scheduler = startScheduler(w, { percentageOfNodesToScore: 0, bindLatency: 1 });
    w.apiserver.injectFaults([{ verb: 'bind', times: 1 }]);
    w.clock.after(100, () =>
      w.apiserver.create({ kind: 'Pod', metadata: { namespace: 'default', name: 'p' } }),
    );
    w.clock.after(30_000, () => w.stop.close());
    w.clock.run();
    expect(w.apiserver.get<Pod>('Pod', 'default', 'p').spec.nodeName).toBe('n1');
    expect(
      w.timeline.events.filter((e) => e.event === 'FailedScheduling').map((e) => e.detail),
    ).toEqual([
      'binding rejected: running Bind plugin "DefaultBinder": injected failure: bind Pod default/p',
    ]);
    expect(scheduler.bound).toBe(1);
  });

  it('unreserves and requeues when a Reserve plugin fails, and binds once it succeeds', () => {
    const w = world(1);
    w.apiserver.create({
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { allocatable: { cpu: 4000, memory: 2 ** 32, pods: 10 } },
    });
    const scheduler = startScheduler(w, { percentageOfNodesToScore: 0, bindLatency: 1 });
    const calls: string[] = [];
    let failures = 1;
    scheduler.framework.plugins.reserve.push({
      name: () => 'Volumes',
      eventsToRegister: () => ['NodeAdd'],
      reserve: (_state, p, node) => {
        calls.push(`reserve ${p.metadata.name} ${node}`);
        return failures-- > 0 ? new Status('Unschedulable', ['volume not ready']) : Status.success;
      },
      unreserve: (_state, p, node) => calls.push(`unreserve ${p.metadata.name} ${node}`),
    });
    w.clock.after(100, () =>
      w.apiserver.create({ kind: 'Pod', metadata: { namespace: 'default', name: 'p' } }),
    );
    w.clock.after(400_000, () => w.stop.close());
    w.clock.run();
    expect(calls).toEqual(['reserve p n1', 'unreserve p n1', 'reserve p n1']);
    expect(w.apiserver.get<Pod>('Pod', 'default', 'p').spec.nodeName).toBe('n1');
  });
});
