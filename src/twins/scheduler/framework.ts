/**
 * The scheduling framework: extension points that plugins implement, the cycle state they share
 * within one scheduling attempt, the per-node view (NodeInfo) they filter and score, and the
 * runner that calls them in order with weights.
 *
 * Mirrors pkg/scheduler/framework/{interface.go,types.go,cycle_state.go} and
 * pkg/scheduler/framework/runtime/framework.go at Kubernetes v1.24: Status codes, CycleState,
 * NodeInfo (requested and non-zero requested resources), RunPreFilterPlugins (a PreFilterResult
 * may narrow the nodes), RunFilterPlugins (the first failure wins; an error is not a rejection),
 * RunPreScorePlugins, RunScorePlugins (score, then NormalizeScore, then weights, scores checked
 * against [0, 100]), Reserve/Unreserve, and RunBindPlugins (the first binder that does not Skip).
 * Left out: PostFilter (preemption), Permit and waiting pods, PreBind/PostBind, nominated pods,
 * parallelism (16 goroutines in Go; plugins here run in node order, which changes nothing but
 * speed), metrics, and profiles (one framework).
 */
import type { Timeline } from '../sim/timeline.js';
import type { Node, Pod, Resources } from '../objects.js';

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.Code */
export type Code =
  'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Wait' | 'Skip';

/**
 * A plugin's answer: a code, reasons, and the plugin that failed.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.Status
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.NewStatus
 */
export class Status {
  failedPlugin = '';

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
  ) {}

  /** The nil status of Go: success, shared so that 100 nodes x 1000 pods allocate nothing. */
  static readonly success = new Status('Success');

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.Status).IsSuccess */
  isSuccess(): boolean {
    return this.code === 'Success';
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.Status).IsUnschedulable */
  isUnschedulable(): boolean {
    return this.code === 'Unschedulable' || this.code === 'UnschedulableAndUnresolvable';
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.Status).Message */
  message(): string {
    return this.reasons.join(', ');
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.Status).WithFailedPlugin */
  withFailedPlugin(plugin: string): Status {
    if (this === Status.success) return this;
    this.failedPlugin = plugin;
    return this;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.Status).AsError */
  asError(): Error {
    return new Error(this.message() || this.code);
  }
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.AsStatus */
export function asStatus(err: Error): Status {
  return new Status('Error', [err.message]);
}

/**
 * Data plugins pass from one extension point to the next within one scheduling attempt.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.CycleState
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.NewCycleState
 */
export class CycleState {
  private readonly storage = new Map<string, unknown>();

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.CycleState).Read */
  read<T>(key: string): T {
    if (!this.storage.has(key)) throw new Error(`${key} not found in cycle state`);
    return this.storage.get(key) as T;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.CycleState).Write */
  write(key: string, value: unknown): void {
    this.storage.set(key, value);
  }
}

/** Requests the scheduler assumes for a container that asks for nothing (100m cpu, 200Mi). */
export const DefaultMilliCPURequest = 100;
export const DefaultMemoryRequest = 200 * 1024 * 1024;

/**
 * The pod's requests, or zero.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.calculateResource
 */
export function podRequests(pod: Pod): Resources {
  return { cpu: pod.spec.requests?.cpu ?? 0, memory: pod.spec.requests?.memory ?? 0 };
}

/**
 * The pod's requests with zero replaced by the defaults, as scoring counts them.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/util.GetNonzeroRequests
 */
export function nonZeroRequests(pod: Pod): Resources {
  const r = podRequests(pod);
  return { cpu: r.cpu || DefaultMilliCPURequest, memory: r.memory || DefaultMemoryRequest };
}

/**
 * A node and what the scheduler believes runs on it (bound and assumed pods).
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.NodeInfo
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.NewNodeInfo
 */
export class NodeInfo {
  readonly pods = new Map<string, Pod>();
  readonly requested: Resources = { cpu: 0, memory: 0 };
  readonly nonZeroRequested: Resources = { cpu: 0, memory: 0 };
  /** Bumped on every change; the snapshot rebuilds its list only when nodes come and go. */
  generation = 0;

  constructor(public node: Node) {}

  get name(): string {
    return this.node.metadata.name;
  }

  get allocatable(): Resources & { pods: number } {
    return this.node.status.allocatable;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.NodeInfo).AddPod */
  addPod(pod: Pod): void {
    const key = podKey(pod);
    if (this.pods.has(key)) this.removePod(this.pods.get(key)!);
    this.pods.set(key, pod);
    const r = podRequests(pod);
    const nz = nonZeroRequests(pod);
    this.requested.cpu += r.cpu;
    this.requested.memory += r.memory;
    this.nonZeroRequested.cpu += nz.cpu;
    this.nonZeroRequested.memory += nz.memory;
    this.generation++;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.NodeInfo).RemovePod */
  removePod(pod: Pod): boolean {
    const key = podKey(pod);
    const existing = this.pods.get(key);
    if (!existing) return false;
    this.pods.delete(key);
    const r = podRequests(existing);
    const nz = nonZeroRequests(existing);
    this.requested.cpu -= r.cpu;
    this.requested.memory -= r.memory;
    this.nonZeroRequested.cpu -= nz.cpu;
    this.nonZeroRequested.memory -= nz.memory;
    this.generation++;
    return true;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.NodeInfo).SetNode */
  setNode(node: Node): void {
    this.node = node;
    this.generation++;
  }
}

/**
 * The key pods are tracked by in the scheduler: the UID.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.GetPodKey
 */
export function podKey(pod: Pod): string {
  return pod.metadata.uid;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.NodeScore */
export interface NodeScore {
  name: string;
  score: number;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.MaxNodeScore */
export const MaxNodeScore = 100;
/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.MinNodeScore */
export const MinNodeScore = 0;

/** A scheduling attempt's pod, with its queue bookkeeping. @mirrors k8s.io/kubernetes/pkg/scheduler/framework.QueuedPodInfo */
export interface QueuedPodInfo {
  pod: Pod;
  /** When the pod last entered a queue (virtual ms). */
  timestamp: number;
  attempts: number;
  initialAttemptTimestamp: number;
  /** The plugins that rejected the pod last time: only events they care about move it. */
  unschedulablePlugins: Set<string>;
}

/** The cluster events a plugin says can make its rejected pods schedulable. */
export type ClusterEvent =
  'NodeAdd' | 'NodeUpdate' | 'AssignedPodAdd' | 'AssignedPodDelete' | 'UnschedulableTimeout';

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.Plugin */
export interface Plugin {
  name(): string;
  /** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.EnqueueExtensions */
  eventsToRegister?(): readonly ClusterEvent[];
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.QueueSortPlugin */
export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.PreFilterResult */
export interface PreFilterResult {
  /** Only these nodes can fit; undefined means all nodes. */
  nodeNames?: ReadonlySet<string>;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.PreFilterPlugin */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: Status };
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.FilterPlugin */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.PreScorePlugin */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly Node[]): Status;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.ScoreExtensions */
export interface ScoreExtensions {
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.ScorePlugin */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, nodeName: string): [number, Status];
  scoreExtensions(): ScoreExtensions | undefined;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.ReservePlugin */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler/framework.BindPlugin */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): Status;
}

/** Which plugins run at which point, and the score weights (the profile's plugin config). */
export interface FrameworkPlugins {
  queueSort: QueueSortPlugin;
  preFilter: PreFilterPlugin[];
  filter: FilterPlugin[];
  preScore: PreScorePlugin[];
  score: { plugin: ScorePlugin; weight: number }[];
  reserve: ReservePlugin[];
  bind: BindPlugin[];
}

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework/runtime.NewFramework
 */
export class Framework {
  constructor(
    readonly plugins: FrameworkPlugins,
    private readonly timeline?: Timeline,
  ) {}

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).QueueSortFunc */
  queueSortFunc(): (a: QueuedPodInfo, b: QueuedPodInfo) => boolean {
    const plugin = this.plugins.queueSort;
    return (a, b) => plugin.less(a, b);
  }

  /** Every plugin by name (to ask which cluster events each one cares about). */
  allPlugins(): Plugin[] {
    const p = this.plugins;
    const all: Plugin[] = [
      p.queueSort,
      ...p.preFilter,
      ...p.filter,
      ...p.preScore,
      ...p.score.map((s) => s.plugin),
      ...p.reserve,
      ...p.bind,
    ];
    return [...new Map(all.map((plugin) => [plugin.name(), plugin])).values()];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).HasFilterPlugins */
  hasFilterPlugins(): boolean {
    return this.plugins.filter.length > 0;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).HasScorePlugins */
  hasScorePlugins(): boolean {
    return this.plugins.score.length > 0;
  }

  /**
   * Runs every PreFilter plugin; the intersection of their node sets limits the nodes to filter.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunPreFilterPlugins
   */
  runPreFilterPlugins(state: CycleState, pod: Pod): { result: PreFilterResult; status: Status } {
    let nodeNames: Set<string> | undefined;
    for (const plugin of this.plugins.preFilter) {
      const { result, status } = plugin.preFilter(state, pod);
      if (!status.isSuccess()) {
        status.withFailedPlugin(plugin.name());
        if (status.isUnschedulable()) return { result: {}, status };
        return {
          result: {},
          status: asStatus(
            new Error(`running PreFilter plugin "${plugin.name()}": ${status.message()}`),
          ).withFailedPlugin(plugin.name()),
        };
      }
      if (result?.nodeNames) {
        nodeNames = nodeNames
          ? new Set([...nodeNames].filter((n) => result.nodeNames!.has(n)))
          : new Set(result.nodeNames);
      }
    }
    return { result: nodeNames ? { nodeNames } : {}, status: Status.success };
  }

  /**
   * Runs the Filter plugins for one node; the first rejection ends it (runAllFilters is false).
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunFilterPlugins
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunFilterPluginsWithNominatedPods
   */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    for (const plugin of this.plugins.filter) {
      const status = plugin.filter(state, pod, nodeInfo);
      if (status.isSuccess()) continue;
      if (!status.isUnschedulable()) {
        return asStatus(
          new Error(`running "${plugin.name()}" filter plugin: ${status.message()}`),
        ).withFailedPlugin(plugin.name());
      }
      return status.withFailedPlugin(plugin.name());
    }
    return Status.success;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunPreScorePlugins */
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly Node[]): Status {
    for (const plugin of this.plugins.preScore) {
      const status = plugin.preScore(state, pod, nodes);
      if (!status.isSuccess())
        return asStatus(
          new Error(`running PreScore plugin "${plugin.name()}": ${status.message()}`),
        );
    }
    return Status.success;
  }

  /**
   * Scores every node with every Score plugin, normalizes each plugin's scores, checks them
   * against [MinNodeScore, MaxNodeScore] and multiplies by the plugin's weight.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunScorePlugins
   */
  runScorePlugins(
    state: CycleState,
    pod: Pod,
    nodes: readonly Node[],
  ): { scores: Map<string, NodeScore[]>; status: Status } {
    const scores = new Map<string, NodeScore[]>();
    for (const { plugin } of this.plugins.score) {
      const list: NodeScore[] = new Array(nodes.length);
      for (let i = 0; i < nodes.length; i++) {
        const name = nodes[i]!.metadata.name;
        const [score, status] = plugin.score(state, pod, name);
        if (!status.isSuccess())
          return {
            scores,
            status: asStatus(
              new Error(`plugin "${plugin.name()}" failed with: ${status.message()}`),
            ),
          };
        list[i] = { name, score };
      }
      scores.set(plugin.name(), list);
    }
    for (const { plugin } of this.plugins.score) {
      const extensions = plugin.scoreExtensions();
      if (!extensions) continue;
      const status = extensions.normalizeScore(state, pod, scores.get(plugin.name())!);
      if (!status.isSuccess())
        return {
          scores,
          status: asStatus(new Error(`plugin "${plugin.name()}" failed with: ${status.message()}`)),
        };
    }
    for (const { plugin, weight } of this.plugins.score) {
      for (const nodeScore of scores.get(plugin.name())!) {
        if (nodeScore.score > MaxNodeScore || nodeScore.score < MinNodeScore) {
          return {
            scores,
            status: asStatus(
              new Error(
                `plugin "${plugin.name()}" returns an invalid score ${nodeScore.score}, it should in the range of [${MinNodeScore}, ${MaxNodeScore}] after normalizing`,
              ),
            ),
          };
        }
        nodeScore.score *= weight;
      }
    }
    return { scores, status: Status.success };
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunReservePluginsReserve */
  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status {
    for (const plugin of this.plugins.reserve) {
      const status = plugin.reserve(state, pod, nodeName);
      if (!status.isSuccess()) {
        return asStatus(
          new Error(`running Reserve plugin "${plugin.name()}": ${status.message()}`),
        ).withFailedPlugin(plugin.name());
      }
    }
    return Status.success;
  }

  /**
   * Undoes Reserve, in reverse order, on every plugin (also those that never reserved).
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunReservePluginsUnreserve
   */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.plugins.reserve.length - 1; i >= 0; i--)
      this.plugins.reserve[i]!.unreserve(state, pod, nodeName);
  }

  /**
   * The first bind plugin that does not Skip binds the pod.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunBindPlugins
   */
  runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Status {
    if (this.plugins.bind.length === 0) return new Status('Skip');
    let status: Status = new Status('Skip');
    for (const plugin of this.plugins.bind) {
      status = plugin.bind(state, pod, nodeName);
      if (status.code === 'Skip') continue;
      if (!status.isSuccess()) {
        this.timeline?.emit(
          'framework',
          'Bind failed',
          `${pod.metadata.namespace}/${pod.metadata.name}`,
          `${plugin.name()}: ${status.message()}`,
          '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunBindPlugins',
        );
        return asStatus(new Error(`running Bind plugin "${plugin.name()}": ${status.message()}`));
      }
      return status;
    }
    return status;
  }
}
