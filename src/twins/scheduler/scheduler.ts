/**
 * The scheduler's loop: pop the next pod, find the nodes that pass every filter, score them,
 * pick one of the best uniformly at random, assume the pod onto it, reserve, and bind in the
 * background while the next pod is already being scheduled.
 *
 * Mirrors pkg/scheduler/{schedule_one.go,scheduler.go,eventhandlers.go} at Kubernetes v1.24:
 * scheduleOne, schedulePod (no nodes -> ErrNoNodesAvailable; none feasible -> FitError with a
 * reason histogram; one feasible -> no scoring), findNodesThatFitPod, findNodesThatPassFilters
 * (starting where the last cycle stopped, stopping after numFeasibleNodesToFind), prioritizeNodes,
 * selectHost (reservoir sampling among the top scores), assume, the binding goroutine (bind,
 * finishBinding, ForgetPod and requeue on failure), handleSchedulingFailure with
 * MakeDefaultErrorFunc, and the informer event handlers (pending pods to the queue, assigned pods
 * to the cache, node events moving unschedulable pods).
 * In v1.15..v1.21 the algorithm lived in pkg/scheduler/core (genericScheduler.Schedule,
 * findNodesThatFitPod, selectHost); tags name those too.
 * Left out: preemption (PostFilter), Permit/PreBind/PostBind, extenders, multiple profiles,
 * nominated nodes, and the pod-scheduled condition's fields beyond reason and message.
 */
import { sleep, type Proc, type StopChannel, type VirtualClock } from '../sim/clock.js';
import type { SeededRandom } from '../sim/random.js';
import type { Timeline } from '../sim/timeline.js';
import type { FakeApiServer } from '../apiserver.js';
import {
  FilteringResourceEventHandler,
  ResourceEventHandlerFuncs,
  waitForCacheSync,
  type SharedIndexInformer,
} from '../informer.js';
import {
  DeletedFinalStateUnknown,
  metaNamespaceKeyFunc,
  type CacheEntry,
  type Node,
  type Pod,
} from '../objects.js';
import type { Status } from './framework.js';
import {
  CycleState,
  type Framework,
  type NodeInfo,
  type NodeScore,
  type QueuedPodInfo,
} from './framework.js';
import { SchedulerCache, Snapshot } from './cache.js';
import { PriorityQueue } from './queue.js';
import { newDefaultFramework } from './plugins.js';

/** @mirrors k8s.io/kubernetes/pkg/scheduler.ErrNoNodesAvailable */
export const ErrNoNodesAvailable = new Error('no nodes available to schedule pods');

/** Fewer nodes than this are all searched. @mirrors k8s.io/kubernetes/pkg/scheduler.minFeasibleNodesToFind */
const minFeasibleNodesToFind = 100;
/** @mirrors k8s.io/kubernetes/pkg/scheduler.minFeasibleNodesPercentageToFind */
const minFeasibleNodesPercentageToFind = 5;

/**
 * No node passed the filters: the message is the reason histogram users see in events.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/framework.FitError
 */
export class FitError extends Error {
  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly nodeToStatus: ReadonlyMap<string, Status>,
    readonly unschedulablePlugins: ReadonlySet<string>,
  ) {
    super(fitErrorMessage(numAllNodes, nodeToStatus));
    this.name = 'FitError';
  }
}

/** @mirrors (*k8s.io/kubernetes/pkg/scheduler/framework.FitError).Error */
function fitErrorMessage(numAllNodes: number, nodeToStatus: ReadonlyMap<string, Status>): string {
  const reasons = new Map<string, number>();
  for (const status of nodeToStatus.values())
    for (const r of status.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  const histogram = [...reasons].map(([reason, count]) => `${count} ${reason}`).sort();
  return `0/${numAllNodes} nodes are available: ${histogram.join(', ')}.`;
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler.ScheduleResult */
export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

/**
 * Picks the highest score; among equal top scores, each is kept with probability 1/count as it is
 * met (reservoir sampling), so every top node is equally likely without a second pass.
 * @mirrors k8s.io/kubernetes/pkg/scheduler.selectHost
 * @mirrors (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).selectHost
 */
export function selectHost(nodeScoreList: readonly NodeScore[], rand: SeededRandom): string {
  const first = nodeScoreList[0];
  if (!first) throw new Error('empty priorityList');
  let maxScore = first.score;
  let selected = first.name;
  let cntOfMaxScore = 1;
  for (let i = 1; i < nodeScoreList.length; i++) {
    const ns = nodeScoreList[i]!;
    if (ns.score > maxScore) {
      maxScore = ns.score;
      selected = ns.name;
      cntOfMaxScore = 1;
    } else if (ns.score === maxScore) {
      cntOfMaxScore++;
      if (rand.intn(cntOfMaxScore) === 0) selected = ns.name;
    }
  }
  return selected;
}

export interface SchedulerOptions {
  clock: VirtualClock;
  rand: SeededRandom;
  apiserver: FakeApiServer;
  podInformer: SharedIndexInformer;
  nodeInformer: SharedIndexInformer;
  /** @default the default profile (newDefaultFramework) */
  framework?: Framework;
  /** 0 means adaptive (50% minus 1% per 125 nodes, at least 5%, at least 100 nodes). @default 0 */
  percentageOfNodesToScore?: number;
  /** Virtual time the binding call takes. @default 1 */
  bindLatencyMs?: number;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler.Scheduler
 * @mirrors k8s.io/kubernetes/pkg/scheduler.New
 */
export class Scheduler {
  readonly cache = new SchedulerCache();
  readonly queue: PriorityQueue;
  readonly framework: Framework;
  private readonly nodeInfoSnapshot = new Snapshot();
  private nextStartNodeIndex = 0;
  private readonly clock: VirtualClock;
  private readonly rand: SeededRandom;
  private readonly apiserver: FakeApiServer;
  private readonly podInformer: SharedIndexInformer;
  private readonly nodeInformer: SharedIndexInformer;
  private readonly percentageOfNodesToScore: number;
  private readonly bindLatencyMs: number;
  private readonly timeline: Timeline | undefined;
  /** Pods bound so far, and scheduling attempts that failed (for tests and benchmarks). */
  bound = 0;
  failedAttempts = 0;

  constructor(options: SchedulerOptions) {
    this.clock = options.clock;
    this.rand = options.rand;
    this.apiserver = options.apiserver;
    this.podInformer = options.podInformer;
    this.nodeInformer = options.nodeInformer;
    this.timeline = options.timeline;
    this.percentageOfNodesToScore = options.percentageOfNodesToScore ?? 0;
    this.bindLatencyMs = options.bindLatencyMs ?? 1;
    this.framework =
      options.framework ??
      newDefaultFramework(
        { nodeInfo: (name) => this.nodeInfoSnapshot.get(name) },
        options.apiserver,
        options.timeline,
      );
    this.queue = new PriorityQueue({
      clock: options.clock,
      less: this.framework.queueSortFunc(),
      plugins: this.framework.allPlugins(),
      ...(options.timeline ? { timeline: options.timeline } : {}),
    });
    this.addAllEventHandlers();
  }

  /** The snapshot plugins read during a cycle. */
  snapshot(): Snapshot {
    return this.nodeInfoSnapshot;
  }

  /**
   * Pending pods go to the queue, bound pods to the cache, nodes to the cache (moving pods).
   * @mirrors k8s.io/kubernetes/pkg/scheduler.addAllEventHandlers
   */
  private addAllEventHandlers(): void {
    this.podInformer.addEventHandler(
      new FilteringResourceEventHandler(
        (obj) => assignedPod(obj),
        new ResourceEventHandlerFuncs({
          addFunc: (obj) => this.addPodToCache(obj as Pod),
          updateFunc: (oldObj, newObj) => this.updatePodInCache(oldObj as Pod, newObj as Pod),
          deleteFunc: (obj) => this.deletePodFromCache(obj),
        }),
      ),
      { name: 'scheduler-assigned-pods' },
    );
    this.podInformer.addEventHandler(
      new FilteringResourceEventHandler(
        (obj) => !assignedPod(obj),
        new ResourceEventHandlerFuncs({
          addFunc: (obj) => this.addPodToSchedulingQueue(obj as Pod),
          updateFunc: (oldObj, newObj) =>
            this.updatePodInSchedulingQueue(oldObj as Pod, newObj as Pod),
          deleteFunc: (obj) => this.deletePodFromSchedulingQueue(obj),
        }),
      ),
      { name: 'scheduler-pending-pods' },
    );
    this.nodeInformer.addEventHandler(
      new ResourceEventHandlerFuncs({
        addFunc: (obj) => this.addNodeToCache(obj as Node),
        updateFunc: (oldObj, newObj) => this.updateNodeInCache(oldObj as Node, newObj as Node),
        deleteFunc: (obj) => this.deleteNodeFromCache(obj),
      }),
      { name: 'scheduler-nodes' },
    );
  }

  /**
   * Waits for the caches, then schedules one pod after another until `stop`.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run
   */
  *run(stop: StopChannel): Proc {
    this.queue.run(stop);
    stop.onClose(() => this.queue.close());
    if (
      !(yield* waitForCacheSync(
        this.clock,
        stop,
        () => this.podInformer.hasSynced(),
        () => this.nodeInformer.hasSynced(),
      ))
    )
      return;
    while (!stop.closed) {
      const more = yield* this.scheduleOne();
      if (!more) return;
      yield* sleep(this.clock, 0);
    }
  }

  /**
   * One scheduling cycle; false once the queue is closed.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne
   */
  *scheduleOne(): Proc<boolean> {
    const podInfo = yield* this.queue.pop();
    if (!podInfo) return false;
    const pod = podInfo.pod;
    const key = metaNamespaceKeyFunc(pod);
    if (pod.metadata.deletionTimestamp !== undefined || this.cache.isAssumedPod(pod)) return true; // skipPodSchedule
    this.timeline?.emit(
      'scheduler',
      'scheduleOne',
      key,
      `attempt ${podInfo.attempts}, cycle ${this.queue.getSchedulingCycle()}`,
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
    );
    const state = new CycleState();
    let result: ScheduleResult;
    try {
      result = this.schedulePod(state, pod);
    } catch (err) {
      this.failedAttempts++;
      this.handleSchedulingFailure(podInfo, err as Error, 'Unschedulable');
      return true;
    }
    // Assume: count the pod on its node now, so the next cycle sees the node's capacity taken.
    const assumedPod: Pod = { ...pod, spec: { ...pod.spec, nodeName: result.suggestedHost } };
    const assumeErr = this.assume(assumedPod, result.suggestedHost);
    if (assumeErr) {
      this.handleSchedulingFailure(podInfo, assumeErr, 'SchedulerError');
      return true;
    }
    const reserve = this.framework.runReservePluginsReserve(
      state,
      assumedPod,
      result.suggestedHost,
    );
    if (!reserve.isSuccess()) {
      this.framework.runReservePluginsUnreserve(state, assumedPod, result.suggestedHost);
      this.cache.forgetPod(assumedPod);
      this.handleSchedulingFailure(podInfo, reserve.asError(), 'SchedulerError');
      return true;
    }
    this.clock.go(this.bindingCycle(state, podInfo, assumedPod, result.suggestedHost));
    return true;
  }

  /**
   * The binding half of scheduleOne, in its own goroutine (`go func() {...}()` in Go).
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne$1
   */
  private *bindingCycle(
    state: CycleState,
    podInfo: QueuedPodInfo,
    assumedPod: Pod,
    host: string,
  ): Proc {
    if (this.bindLatencyMs > 0) yield* sleep(this.clock, this.bindLatencyMs);
    const err = this.bind(state, assumedPod, host);
    if (err) {
      this.framework.runReservePluginsUnreserve(state, assumedPod, host);
      if (!this.cache.forgetPod(assumedPod))
        this.queue.moveAllToActiveOrBackoffQueue('AssignedPodDelete');
      this.handleSchedulingFailure(
        podInfo,
        new Error(`binding rejected: ${err.message}`),
        'SchedulerError',
      );
      return;
    }
    this.bound++;
    this.timeline?.emit(
      'scheduler',
      'bound',
      metaNamespaceKeyFunc(assumedPod),
      `on ${host}`,
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne$1',
    );
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule
   */
  schedulePod(state: CycleState, pod: Pod): ScheduleResult {
    this.cache.updateSnapshot(this.nodeInfoSnapshot);
    if (this.nodeInfoSnapshot.numNodes() === 0) throw ErrNoNodesAvailable;
    const { feasible, nodeToStatus } = this.findNodesThatFitPod(state, pod);
    const key = metaNamespaceKeyFunc(pod);
    if (feasible.length === 0) {
      const plugins = new Set(
        [...nodeToStatus.values()].map((s) => s.failedPlugin).filter((p) => p !== ''),
      );
      throw new FitError(pod, this.nodeInfoSnapshot.numNodes(), nodeToStatus, plugins);
    }
    if (feasible.length === 1) {
      this.timeline?.emit(
        'scheduler',
        'one feasible node',
        key,
        `-> ${feasible[0]!.metadata.name}: no scoring`,
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      );
      return {
        suggestedHost: feasible[0]!.metadata.name,
        evaluatedNodes: 1 + nodeToStatus.size,
        feasibleNodes: 1,
      };
    }
    const priorityList = this.prioritizeNodes(state, pod, feasible);
    const host = selectHost(priorityList, this.rand);
    if (this.timeline) {
      const top = Math.max(...priorityList.map((s) => s.score));
      const best = priorityList.filter((s) => s.score === top).map((s) => s.name);
      this.timeline.emit(
        'scheduler',
        'selectHost',
        key,
        `-> ${host} (score ${top}; ${best.length} node(s) tied at the top: ${abbreviate(best)})`,
        'k8s.io/kubernetes/pkg/scheduler.selectHost',
      );
    }
    return {
      suggestedHost: host,
      evaluatedNodes: feasible.length + nodeToStatus.size,
      feasibleNodes: feasible.length,
    };
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatFitPod
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).findNodesThatFitPod
   */
  findNodesThatFitPod(
    state: CycleState,
    pod: Pod,
  ): { feasible: Node[]; nodeToStatus: Map<string, Status> } {
    const nodeToStatus = new Map<string, Status>();
    const key = metaNamespaceKeyFunc(pod);
    const allNodes = this.nodeInfoSnapshot.nodeInfoList;
    const { result, status } = this.framework.runPreFilterPlugins(state, pod);
    if (!status.isSuccess()) {
      if (!status.isUnschedulable()) throw status.asError();
      for (const n of allNodes) nodeToStatus.set(n.name, status);
      this.timeline?.emit(
        'framework',
        'PreFilter',
        key,
        `rejected by ${status.failedPlugin}: ${status.message()}`,
        '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunPreFilterPlugins',
      );
      return { feasible: [], nodeToStatus };
    }
    const nodes = result.nodeNames
      ? [...result.nodeNames]
          .map((n) => this.nodeInfoSnapshot.get(n))
          .filter((n): n is NodeInfo => n !== undefined)
      : allNodes;
    const feasible = this.findNodesThatPassFilters(state, pod, nodeToStatus, nodes);
    if (this.timeline) {
      const reasons = [...nodeToStatus]
        .slice(0, 3)
        .map(([node, s]) => `${node}: ${s.failedPlugin} ${s.message()}`);
      this.timeline.emit(
        'framework',
        'Filter',
        key,
        `${feasible.length}/${nodes.length} nodes feasible${reasons.length ? `; ${reasons.join('; ')}${nodeToStatus.size > 3 ? '; ...' : ''}` : ''}`,
        '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunFilterPluginsWithNominatedPods',
      );
    }
    return { feasible, nodeToStatus };
  }

  /**
   * Filters nodes starting after where the previous cycle stopped, until enough fit.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatPassFilters
   */
  private findNodesThatPassFilters(
    state: CycleState,
    pod: Pod,
    nodeToStatus: Map<string, Status>,
    nodes: readonly NodeInfo[],
  ): Node[] {
    if (nodes.length === 0) return [];
    const numNodesToFind = this.numFeasibleNodesToFind(nodes.length);
    const feasible: Node[] = [];
    let processed = 0;
    for (let i = 0; i < nodes.length && feasible.length < numNodesToFind; i++) {
      const nodeInfo = nodes[(this.nextStartNodeIndex + i) % nodes.length]!;
      processed++;
      const status = this.framework.runFilterPlugins(state, pod, nodeInfo);
      if (status.code === 'Error') throw status.asError();
      if (status.isSuccess()) feasible.push(nodeInfo.node);
      else nodeToStatus.set(nodeInfo.name, status);
    }
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % nodes.length;
    return feasible;
  }

  /**
   * How many feasible nodes are enough: all of them in small clusters, a shrinking percentage in
   * big ones.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).numFeasibleNodesToFind
   */
  numFeasibleNodesToFind(numAllNodes: number): number {
    if (numAllNodes < minFeasibleNodesToFind || this.percentageOfNodesToScore >= 100)
      return numAllNodes;
    let adaptivePercentage = this.percentageOfNodesToScore;
    if (adaptivePercentage <= 0) {
      adaptivePercentage = 50 - Math.trunc(numAllNodes / 125);
      if (adaptivePercentage < minFeasibleNodesPercentageToFind)
        adaptivePercentage = minFeasibleNodesPercentageToFind;
    }
    const numNodes = Math.trunc((numAllNodes * adaptivePercentage) / 100);
    return numNodes < minFeasibleNodesToFind ? minFeasibleNodesToFind : numNodes;
  }

  /**
   * Sums the weighted plugin scores per node.
   * @mirrors k8s.io/kubernetes/pkg/scheduler.prioritizeNodes
   */
  prioritizeNodes(state: CycleState, pod: Pod, nodes: readonly Node[]): NodeScore[] {
    if (!this.framework.hasScorePlugins())
      return nodes.map((n) => ({ name: n.metadata.name, score: 1 }));
    const pre = this.framework.runPreScorePlugins(state, pod, nodes);
    if (!pre.isSuccess()) throw pre.asError();
    const { scores, status } = this.framework.runScorePlugins(state, pod, nodes);
    if (!status.isSuccess()) throw status.asError();
    const result: NodeScore[] = nodes.map((n) => ({ name: n.metadata.name, score: 0 }));
    for (const list of scores.values())
      for (let i = 0; i < list.length; i++) result[i]!.score += list[i]!.score;
    if (this.timeline) {
      const sorted = [...result].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
      this.timeline.emit(
        'framework',
        'Score',
        metaNamespaceKeyFunc(pod),
        sorted
          .slice(0, 4)
          .map((s) => `${s.name}=${s.score}`)
          .join(' ') + (sorted.length > 4 ? ' ...' : ''),
        '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunScorePlugins',
      );
    }
    return result;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).assume
   */
  private assume(assumed: Pod, host: string): Error | undefined {
    const err = this.cache.assumePod(assumed);
    if (!err)
      this.timeline?.emit(
        'scheduler',
        'assume',
        metaNamespaceKeyFunc(assumed),
        `counted on ${host} before binding`,
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).assume',
      );
    return err;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).finishBinding
   */
  private bind(state: CycleState, assumed: Pod, targetNode: string): Error | undefined {
    const status = this.framework.runBindPlugins(state, assumed, targetNode);
    this.cache.finishBinding(assumed);
    if (status.isSuccess()) return undefined;
    return status.code === 'Error'
      ? status.asError()
      : new Error(`bind status: ${status.code}, ${status.message()}`);
  }

  /**
   * Requeues the pod (unless it is gone or bound meanwhile) and records why on its status.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).handleSchedulingFailure
   * @mirrors k8s.io/kubernetes/pkg/scheduler.MakeDefaultErrorFunc
   */
  private handleSchedulingFailure(podInfo: QueuedPodInfo, err: Error, reason: string): void {
    const key = metaNamespaceKeyFunc(podInfo.pod);
    if (err instanceof FitError) podInfo.unschedulablePlugins = new Set(err.unschedulablePlugins);
    this.timeline?.emit(
      'scheduler',
      'FailedScheduling',
      key,
      err.message,
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).handleSchedulingFailure',
    );
    const cached = this.podInformer.indexer.getByKey(key) as Pod | undefined;
    if (!cached || cached.spec.nodeName) return;
    podInfo.pod = cached;
    const queueErr = this.queue.addUnschedulableIfNotPresent(
      podInfo,
      this.queue.getSchedulingCycle(),
    );
    if (queueErr)
      this.timeline?.emit(
        'scheduler',
        'requeue failed',
        key,
        queueErr.message,
        'k8s.io/kubernetes/pkg/scheduler.MakeDefaultErrorFunc',
      );
    // Patch the pod's status only when the condition changes, as Go's updatePod does.
    if (cached.status.reason !== reason || cached.status.message !== err.message) {
      try {
        this.apiserver.update({
          ...cached,
          metadata: { ...cached.metadata, resourceVersion: '' },
          status: { ...cached.status, reason, message: err.message },
        });
      } catch {
        // The pod may be gone or bound; the informer will tell.
      }
    }
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).addNodeToCache */
  private addNodeToCache(node: Node): void {
    this.cache.addNode(node);
    this.queue.moveAllToActiveOrBackoffQueue('NodeAdd');
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).updateNodeInCache */
  private updateNodeInCache(oldNode: Node, newNode: Node): void {
    this.cache.updateNode(oldNode, newNode);
    if (
      JSON.stringify(oldNode.spec) !== JSON.stringify(newNode.spec) ||
      JSON.stringify(oldNode.metadata.labels) !== JSON.stringify(newNode.metadata.labels) ||
      JSON.stringify(oldNode.status) !== JSON.stringify(newNode.status)
    ) {
      this.queue.moveAllToActiveOrBackoffQueue('NodeUpdate');
    }
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).deleteNodeFromCache */
  private deleteNodeFromCache(obj: CacheEntry): void {
    const node = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as Node | undefined;
    if (node) this.cache.removeNode(node);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).addPodToSchedulingQueue */
  private addPodToSchedulingQueue(pod: Pod): void {
    this.queue.add(pod);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).updatePodInSchedulingQueue */
  private updatePodInSchedulingQueue(oldPod: Pod, newPod: Pod): void {
    if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
    if (this.cache.isAssumedPod(newPod)) return;
    this.queue.update(oldPod, newPod);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).deletePodFromSchedulingQueue */
  private deletePodFromSchedulingQueue(obj: CacheEntry): void {
    const pod = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as Pod | undefined;
    if (pod) this.queue.delete(pod);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).addPodToCache */
  private addPodToCache(pod: Pod): void {
    this.cache.addPod(pod);
    this.queue.assignedPodAdded(pod);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).updatePodInCache */
  private updatePodInCache(oldPod: Pod, newPod: Pod): void {
    this.cache.updatePod(oldPod, newPod);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler.Scheduler).deletePodFromCache */
  private deletePodFromCache(obj: CacheEntry): void {
    const pod = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as Pod | undefined;
    if (!pod) return;
    this.cache.removePod(pod);
    this.queue.moveAllToActiveOrBackoffQueue('AssignedPodDelete');
  }
}

/** @mirrors k8s.io/kubernetes/pkg/scheduler.assignedPod */
function assignedPod(obj: CacheEntry): boolean {
  const pod = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as Pod | undefined;
  return Boolean(pod?.spec.nodeName);
}

function abbreviate(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names.slice(0, 4).join(', ')}, ...`;
}
