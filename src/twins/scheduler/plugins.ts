/**
 * The in-tree plugins the twin scheduler runs: the ones that decide most placements in a real
 * cluster, with their real messages, scores and weights.
 *
 * Mirrors, at Kubernetes v1.24, pkg/scheduler/framework/plugins/:
 * queuesort/priority_sort.go (priority, then queue time), nodename/node_name.go,
 * nodeunschedulable/node_unschedulable.go, tainttoleration/taint_toleration.go (Filter on
 * NoSchedule/NoExecute, Score counts intolerable PreferNoSchedule taints, reversed normalization),
 * nodeaffinity/node_affinity.go (nodeSelector and required terms in Filter, preferred terms'
 * weights in Score), noderesources/{fit.go,least_allocated.go} (Filter on pods/cpu/memory,
 * LeastAllocated score over cpu and memory with non-zero defaults), helper/normalize_score.go,
 * defaultbinder/default_binder.go, and the default profile's plugin order and score weights from
 * pkg/scheduler/apis/config/v1beta3/default_plugins.go (TaintToleration 3, NodeAffinity 2,
 * NodeResourcesFit 1).
 * Left out: every other default plugin (ports, volumes, topology spread, inter-pod affinity,
 * image locality, balanced allocation), extended resources, matchFields, and plugin args.
 */
import type { Timeline } from '../sim/timeline.js';
import type { FakeApiServer } from '../apiserver.js';
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  Taint,
  Toleration,
} from '../objects.js';
import {
  Framework,
  MaxNodeScore,
  Status,
  asStatus,
  nonZeroRequests,
  podRequests,
  type BindPlugin,
  type ClusterEvent,
  type CycleState,
  type FilterPlugin,
  type NodeInfo,
  type NodeScore,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type QueuedPodInfo,
  type ScoreExtensions,
  type ScorePlugin,
} from './framework.js';

/** What plugins may ask of the scheduler: the node snapshot of this cycle. */
export interface Handle {
  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.Snapshot).Get */
  nodeInfo(name: string): NodeInfo | undefined;
}

/**
 * Higher priority first, then the pod that has waited longest.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort.PrioritySort
 * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort.PrioritySort).Less
 */
export class PrioritySort implements QueueSortPlugin {
  name(): string {
    return 'PrioritySort';
  }

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.pod.spec.priority ?? 0;
    const pb = b.pod.spec.priority ?? 0;
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}

/**
 * A pod that names its node fits only that node.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodename.NodeName
 */
export class NodeName implements FilterPlugin {
  name(): string {
    return 'NodeName';
  }

  eventsToRegister(): readonly ClusterEvent[] {
    return ['NodeAdd'];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodename.NodeName).Filter */
  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    if (!pod.spec.nodeName || pod.spec.nodeName === nodeInfo.name) return Status.success;
    return new Status('UnschedulableAndUnresolvable', [
      "node(s) didn't match the requested node name",
    ]);
  }
}

/**
 * Cordoned nodes take no new pods, unless the pod tolerates the unschedulable taint.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeunschedulable.NodeUnschedulable
 */
export class NodeUnschedulable implements FilterPlugin {
  name(): string {
    return 'NodeUnschedulable';
  }

  eventsToRegister(): readonly ClusterEvent[] {
    return ['NodeAdd', 'NodeUpdate'];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeunschedulable.NodeUnschedulable).Filter */
  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    if (!nodeInfo.node.spec.unschedulable) return Status.success;
    const taint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
    if ((pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, taint))) return Status.success;
    return new Status('UnschedulableAndUnresolvable', ['node(s) were unschedulable']);
  }
}

/**
 * @mirrors (*k8s.io/api/core/v1.Toleration).ToleratesTaint
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/**
 * Taints repel pods that do not tolerate them: NoSchedule and NoExecute in Filter, and
 * PreferNoSchedule as a lower score.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration
 */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions {
  constructor(private readonly handle: Handle) {}

  name(): string {
    return 'TaintToleration';
  }

  eventsToRegister(): readonly ClusterEvent[] {
    return ['NodeAdd', 'NodeUpdate'];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration).Filter */
  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const tolerations = pod.spec.tolerations ?? [];
    for (const taint of nodeInfo.node.spec.taints ?? []) {
      if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
      if (!tolerations.some((t) => toleratesTaint(t, taint))) {
        return new Status('UnschedulableAndUnresolvable', [
          `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
        ]);
      }
    }
    return Status.success;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration).PreScore */
  preScore(state: CycleState, pod: Pod, nodes: readonly Node[]): Status {
    if (nodes.length === 0) return Status.success;
    const tolerations = (pod.spec.tolerations ?? []).filter(
      (t) => !t.effect || t.effect === 'PreferNoSchedule',
    );
    state.write('PreScoreTaintToleration', tolerations);
    return Status.success;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration).Score */
  score(state: CycleState, _pod: Pod, nodeName: string): [number, Status] {
    const nodeInfo = this.handle.nodeInfo(nodeName);
    if (!nodeInfo)
      return [0, asStatus(new Error(`getting node "${nodeName}" from Snapshot: not found`))];
    const tolerations = state.read<Toleration[]>('PreScoreTaintToleration');
    let intolerable = 0;
    for (const taint of nodeInfo.node.spec.taints ?? []) {
      if (taint.effect === 'PreferNoSchedule' && !tolerations.some((t) => toleratesTaint(t, taint)))
        intolerable++;
    }
    return [intolerable, Status.success];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration).NormalizeScore */
  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return defaultNormalizeScore(MaxNodeScore, true, scores);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }
}

/**
 * Scales scores to [0, maxPriority] by the highest; `reverse` turns "fewer is better" around.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/helper.DefaultNormalizeScore
 */
export function defaultNormalizeScore(
  maxPriority: number,
  reverse: boolean,
  scores: NodeScore[],
): Status {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return Status.success;
  }
  for (const s of scores) {
    let score = Math.trunc((maxPriority * s.score) / maxCount);
    if (reverse) score = maxPriority - score;
    s.score = score;
  }
  return Status.success;
}

/** @mirrors (*k8s.io/component-helpers/scheduling/corev1/nodeaffinity.nodeSelectorTerm).match */
export function nodeSelectorTermMatches(
  term: NodeSelectorTerm,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (term.matchExpressions.length === 0) return false; // an empty term matches nothing
  return term.matchExpressions.every((req) => requirementMatches(req, labels));
}

function requirementMatches(
  req: NodeSelectorRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return has && values.includes(value!);
    case 'NotIn':
      return !has || !values.includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const left = Number.parseInt(value!, 10);
      const right = Number.parseInt(values[0]!, 10);
      if (Number.isNaN(left) || Number.isNaN(right)) return false;
      return req.operator === 'Gt' ? left > right : left < right;
    }
  }
}

/**
 * A pod's nodeSelector and required node affinity must match the node's labels (Filter); its
 * preferred terms add their weights (Score).
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity
 */
export class NodeAffinity
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions
{
  constructor(private readonly handle: Handle) {}

  name(): string {
    return 'NodeAffinity';
  }

  eventsToRegister(): readonly ClusterEvent[] {
    return ['NodeAdd', 'NodeUpdate'];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity).PreFilter */
  preFilter(state: CycleState, pod: Pod): { status: Status } {
    state.write('PreFilterNodeAffinity', {
      nodeSelector: pod.spec.nodeSelector ?? {},
      required:
        pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms,
    });
    return { status: Status.success };
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity).Filter */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const { nodeSelector, required } = state.read<{
      nodeSelector: Record<string, string>;
      required?: readonly NodeSelectorTerm[];
    }>('PreFilterNodeAffinity');
    const labels = nodeInfo.node.metadata.labels;
    const selectorOk = Object.entries(nodeSelector).every(([k, v]) => labels[k] === v);
    // Required terms are ORed; the expressions within a term are ANDed.
    const requiredOk =
      required === undefined || required.some((term) => nodeSelectorTermMatches(term, labels));
    if (selectorOk && requiredOk) return Status.success;
    return new Status('UnschedulableAndUnresolvable', [
      "node(s) didn't match Pod's node affinity/selector",
    ]);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity).PreScore */
  preScore(state: CycleState, pod: Pod, _nodes: readonly Node[]): Status {
    state.write(
      'PreScoreNodeAffinity',
      pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [],
    );
    return Status.success;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity).Score */
  score(state: CycleState, _pod: Pod, nodeName: string): [number, Status] {
    const nodeInfo = this.handle.nodeInfo(nodeName);
    if (!nodeInfo)
      return [0, asStatus(new Error(`getting node "${nodeName}" from Snapshot: not found`))];
    const preferred =
      state.read<readonly { weight: number; preference: NodeSelectorTerm }[]>(
        'PreScoreNodeAffinity',
      );
    let count = 0;
    for (const term of preferred)
      if (nodeSelectorTermMatches(term.preference, nodeInfo.node.metadata.labels))
        count += term.weight;
    return [count, Status.success];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity.NodeAffinity).NormalizeScore */
  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return defaultNormalizeScore(MaxNodeScore, false, scores);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }
}

interface FitState {
  cpu: number;
  memory: number;
}

/**
 * Enough allocatable pods, cpu and memory left (Filter); prefer the emptiest node (Score,
 * LeastAllocated over cpu and memory, weight 1 each).
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.Fit
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.NewFit
 */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, ScorePlugin {
  constructor(private readonly handle: Handle) {}

  name(): string {
    return 'NodeResourcesFit';
  }

  eventsToRegister(): readonly ClusterEvent[] {
    return ['AssignedPodDelete', 'NodeAdd', 'NodeUpdate'];
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.Fit).PreFilter
   * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.computePodResourceRequest
   */
  preFilter(state: CycleState, pod: Pod): { status: Status } {
    const r = podRequests(pod);
    state.write('PreFilterNodeResourcesFit', { cpu: r.cpu, memory: r.memory } satisfies FitState);
    return { status: Status.success };
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.Fit).Filter
   * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.fitsRequest
   */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const request = state.read<FitState>('PreFilterNodeResourcesFit');
    const reasons: string[] = [];
    const allocatable = nodeInfo.allocatable;
    if (nodeInfo.pods.size + 1 > allocatable.pods) reasons.push('Too many pods');
    if (request.cpu !== 0 || request.memory !== 0) {
      if (request.cpu > allocatable.cpu - nodeInfo.requested.cpu) reasons.push('Insufficient cpu');
      if (request.memory > allocatable.memory - nodeInfo.requested.memory)
        reasons.push('Insufficient memory');
    }
    return reasons.length === 0 ? Status.success : new Status('Unschedulable', reasons);
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.Fit).Score
   * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.leastResourceScorer
   */
  score(_state: CycleState, pod: Pod, nodeName: string): [number, Status] {
    const nodeInfo = this.handle.nodeInfo(nodeName);
    if (!nodeInfo)
      return [0, asStatus(new Error(`getting node "${nodeName}" from Snapshot: not found`))];
    const request = nonZeroRequests(pod);
    const cpu = leastRequestedScore(
      nodeInfo.nonZeroRequested.cpu + request.cpu,
      nodeInfo.allocatable.cpu,
    );
    const memory = leastRequestedScore(
      nodeInfo.nonZeroRequested.memory + request.memory,
      nodeInfo.allocatable.memory,
    );
    return [Math.trunc((cpu + memory) / 2), Status.success];
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources.leastRequestedScore */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

/**
 * Posts the Binding to the API server.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder.DefaultBinder
 */
export class DefaultBinder implements BindPlugin {
  constructor(
    private readonly apiserver: FakeApiServer,
    private readonly timeline?: Timeline,
  ) {}

  name(): string {
    return 'DefaultBinder';
  }

  /** @mirrors (k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder.DefaultBinder).Bind */
  bind(_state: CycleState, pod: Pod, nodeName: string): Status {
    this.timeline?.emit(
      'framework',
      'Bind',
      `${pod.metadata.namespace}/${pod.metadata.name}`,
      `DefaultBinder: POST binding -> ${nodeName}`,
      '(k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder.DefaultBinder).Bind',
    );
    try {
      this.apiserver.bind(pod.metadata.namespace, pod.metadata.name, nodeName);
      return Status.success;
    } catch (err) {
      return asStatus(err as Error);
    }
  }
}

/**
 * The default profile with the twin's plugins, in v1.24's order and weights.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/apis/config/v1beta3.getDefaultPlugins
 */
export function newDefaultFramework(
  handle: Handle,
  apiserver: FakeApiServer,
  timeline?: Timeline,
): Framework {
  const fit = new NodeResourcesFit(handle);
  const taints = new TaintToleration(handle);
  const affinity = new NodeAffinity(handle);
  return new Framework(
    {
      queueSort: new PrioritySort(),
      preFilter: [fit, affinity],
      filter: [new NodeUnschedulable(), new NodeName(), taints, affinity, fit],
      preScore: [taints, affinity],
      score: [
        { plugin: taints, weight: 3 },
        { plugin: affinity, weight: 2 },
        { plugin: fit, weight: 1 },
      ],
      reserve: [],
      bind: [new DefaultBinder(apiserver, timeline)],
    },
    timeline,
  );
}
