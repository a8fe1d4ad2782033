/**
 * The scheduling queue: three places a pending pod can be. activeQ (a heap in PrioritySort
 * order) feeds scheduleOne; a pod that failed waits in unschedulablePods until a cluster event
 * that one of its rejecting plugins cares about (a node added, a pod deleted), or in podBackoffQ
 * (1s doubling to 10s per attempt) when such an event already happened during its attempt, or
 * after five minutes regardless.
 *
 * Mirrors pkg/scheduler/internal/queue/scheduling_queue.go at Kubernetes v1.24 (PriorityQueue:
 * Add, Pop with schedulingCycle, AddUnschedulableIfNotPresent with moveRequestCycle,
 * flushBackoffQCompleted every second, flushUnschedulablePodsLeftover every 30s,
 * MoveAllToActiveOrBackoffQueue / movePodsToActiveOrBackoffQueue with podMatchesEvent, Update,
 * Delete, AssignedPodAdded, backoff arithmetic). In v1.23 and before, unschedulablePods was
 * unschedulableQ; tags name both.
 * Left out: the nominator (no preemption), inter-pod affinity lookups for AssignedPodAdded,
 * Activate, metrics, and PreEnqueue (v1.26+).
 */
import {
  Cond,
  sleepUntilStopped,
  type Proc,
  type StopChannel,
  type VirtualClock,
} from '../sim/clock.js';
import { KeyedHeap } from '../sim/heap.js';
import type { Timeline } from '../sim/timeline.js';
import { metaNamespaceKeyFunc, type Pod } from '../objects.js';
import type { ClusterEvent, Plugin, QueuedPodInfo } from './framework.js';

export interface PriorityQueueOptions {
  clock: VirtualClock;
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  /** The plugins, to learn which cluster events each one registers for. */
  plugins: readonly Plugin[];
  /** @default 1000 */
  podInitialBackoffMs?: number;
  /** @default 10000 */
  podMaxBackoffMs?: number;
  /** @default 300000 (5 minutes) */
  podMaxInUnschedulablePodsDurationMs?: number;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/queue.NewPriorityQueue
 */
export class PriorityQueue {
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly podBackoffQ: KeyedHeap<QueuedPodInfo>;
  /** @mirrors k8s.io/kubernetes/pkg/scheduler/internal/queue.UnschedulablePods */
  private readonly unschedulablePods = new Map<string, QueuedPodInfo>();
  /** Incremented by every Pop. */
  private schedulingCycle = 0;
  /** The cycle of the last move request: pods that failed in or before it go to backoff. */
  private moveRequestCycle = -1;
  private closed = false;
  private readonly cond = new Cond();
  private readonly clock: VirtualClock;
  private readonly podInitialBackoffMs: number;
  private readonly podMaxBackoffMs: number;
  private readonly podMaxInUnschedulablePodsDurationMs: number;
  /** event -> names of plugins that registered for it */
  private readonly clusterEventMap = new Map<ClusterEvent, Set<string>>();
  private readonly timeline: Timeline | undefined;

  constructor(options: PriorityQueueOptions) {
    this.clock = options.clock;
    this.timeline = options.timeline;
    this.podInitialBackoffMs = options.podInitialBackoffMs ?? 1000;
    this.podMaxBackoffMs = options.podMaxBackoffMs ?? 10_000;
    this.podMaxInUnschedulablePodsDurationMs =
      options.podMaxInUnschedulablePodsDurationMs ?? 300_000;
    const key = (p: QueuedPodInfo) => metaNamespaceKeyFunc(p.pod);
    this.activeQ = new KeyedHeap(key, options.less);
    this.podBackoffQ = new KeyedHeap(
      key,
      (a, b) => this.getBackoffTime(a) < this.getBackoffTime(b),
    );
    for (const plugin of options.plugins) {
      for (const event of plugin.eventsToRegister?.() ?? []) {
        let names = this.clusterEventMap.get(event);
        if (!names) this.clusterEventMap.set(event, (names = new Set()));
        names.add(plugin.name());
      }
    }
  }

  /**
   * Starts the two pumps: backoffQ -> activeQ every second, stale unschedulable pods every 30s.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Run
   */
  run(stop: StopChannel): void {
    this.clock.go(this.every(1000, stop, () => this.flushBackoffQCompleted()));
    this.clock.go(this.every(30_000, stop, () => this.flushUnschedulablePodsLeftover()));
  }

  private *every(periodMs: number, stop: StopChannel, fn: () => void): Proc {
    while (yield* sleepUntilStopped(this.clock, periodMs, stop)) fn();
  }

  /**
   * A new pending pod goes straight to activeQ.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Add
   */
  add(pod: Pod): void {
    const pInfo = this.newQueuedPodInfo(pod);
    const key = metaNamespaceKeyFunc(pod);
    this.activeQ.add(pInfo);
    this.unschedulablePods.delete(key);
    this.podBackoffQ.delete(key);
    this.timeline?.emit(
      'schedulingQueue',
      'Add',
      key,
      `activeQ (${this.activeQ.length} pending)`,
      '(*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Add',
    );
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).SchedulingCycle */
  getSchedulingCycle(): number {
    return this.schedulingCycle;
  }

  /**
   * Parks a pod that could not be scheduled: in backoffQ if a move request arrived since its
   * cycle began (the event it needed may already have happened), in unschedulablePods otherwise.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).AddUnschedulableIfNotPresent
   */
  addUnschedulableIfNotPresent(
    pInfo: QueuedPodInfo,
    podSchedulingCycle: number,
  ): Error | undefined {
    const key = metaNamespaceKeyFunc(pInfo.pod);
    if (this.unschedulablePods.has(key))
      return new Error(`Pod ${key} is already present in unschedulable queue`);
    if (this.activeQ.has(key))
      return new Error(`Pod ${key} is already present in the active queue`);
    if (this.podBackoffQ.has(key))
      return new Error(`Pod ${key} is already present in the backoff queue`);
    pInfo.timestamp = this.clock.now();
    if (this.moveRequestCycle >= podSchedulingCycle) {
      this.podBackoffQ.add(pInfo);
      this.timeline?.emit(
        'schedulingQueue',
        'backoffQ',
        key,
        `attempt ${pInfo.attempts}; a cluster event arrived meanwhile: retry after ${this.calculateBackoffDuration(pInfo)}ms`,
        '(*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).AddUnschedulableIfNotPresent',
      );
    } else {
      this.unschedulablePods.set(key, pInfo);
      this.timeline?.emit(
        'schedulingQueue',
        'unschedulable',
        key,
        `attempt ${pInfo.attempts}; waits for an event on: ${[...pInfo.unschedulablePlugins].join(', ') || 'any'}`,
        '(*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).AddUnschedulableIfNotPresent',
      );
    }
    return undefined;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).flushBackoffQCompleted
   */
  flushBackoffQCompleted(): void {
    let moved = false;
    for (let head = this.podBackoffQ.peek(); head; head = this.podBackoffQ.peek()) {
      if (this.getBackoffTime(head) > this.clock.now()) break;
      this.podBackoffQ.pop();
      this.activeQ.add(head);
      this.timeline?.emit(
        'schedulingQueue',
        'backoff done',
        metaNamespaceKeyFunc(head.pod),
        'backoffQ -> activeQ',
        '(*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).flushBackoffQCompleted',
      );
      moved = true;
    }
    if (moved) this.cond.broadcast();
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).flushUnschedulablePodsLeftover
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).flushUnschedulableQLeftover
   */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const stale = [...this.unschedulablePods.values()].filter(
      (p) => now - p.timestamp > this.podMaxInUnschedulablePodsDurationMs,
    );
    if (stale.length > 0) this.movePodsToActiveOrBackoffQueue(stale, 'UnschedulableTimeout');
  }

  /**
   * Waits for a pod in activeQ; counts a scheduling cycle and an attempt. Undefined once closed.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Pop
   */
  *pop(): Proc<QueuedPodInfo | undefined> {
    while (this.activeQ.length === 0) {
      if (this.closed) return undefined;
      yield* this.cond.wait();
    }
    const pInfo = this.activeQ.pop()!;
    pInfo.attempts++;
    this.schedulingCycle++;
    return pInfo;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Update
   */
  update(oldPod: Pod, newPod: Pod): void {
    const key = metaNamespaceKeyFunc(newPod);
    const inActive = this.activeQ.get(key);
    if (inActive) {
      this.activeQ.add({ ...inActive, pod: newPod });
      return;
    }
    const inBackoff = this.podBackoffQ.get(key);
    if (inBackoff) {
      this.podBackoffQ.add({ ...inBackoff, pod: newPod });
      return;
    }
    const unschedulable = this.unschedulablePods.get(key);
    if (unschedulable) {
      const pInfo = { ...unschedulable, pod: newPod };
      if (isPodUpdated(oldPod, newPod)) {
        this.unschedulablePods.delete(key);
        if (this.isPodBackingoff(unschedulable)) {
          this.podBackoffQ.add(pInfo);
        } else {
          this.activeQ.add(pInfo);
          this.cond.broadcast();
        }
      } else {
        this.unschedulablePods.set(key, pInfo);
      }
      return;
    }
    this.activeQ.add(this.newQueuedPodInfo(newPod));
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Delete */
  delete(pod: Pod): void {
    const key = metaNamespaceKeyFunc(pod);
    this.activeQ.delete(key);
    this.podBackoffQ.delete(key);
    this.unschedulablePods.delete(key);
  }

  /**
   * A pod was bound: pods waiting on affinity to it could move (the twin has no inter-pod
   * affinity, so none does), and the move request is recorded all the same.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).AssignedPodAdded
   */
  assignedPodAdded(_pod: Pod): void {
    this.movePodsToActiveOrBackoffQueue([], 'AssignedPodAdd');
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).MoveAllToActiveOrBackoffQueue
   */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent): void {
    this.movePodsToActiveOrBackoffQueue([...this.unschedulablePods.values()], event);
  }

  /**
   * Moves the pods whose rejecting plugins care about `event`, to backoffQ while their backoff
   * lasts and to activeQ after; records the move request's cycle.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).movePodsToActiveOrBackoffQueue
   */
  private movePodsToActiveOrBackoffQueue(
    podInfoList: readonly QueuedPodInfo[],
    event: ClusterEvent,
  ): void {
    let moved = 0;
    for (const pInfo of podInfoList) {
      if (pInfo.unschedulablePlugins.size !== 0 && !this.podMatchesEvent(pInfo, event)) continue;
      const key = metaNamespaceKeyFunc(pInfo.pod);
      if (this.isPodBackingoff(pInfo)) this.podBackoffQ.add(pInfo);
      else this.activeQ.add(pInfo);
      this.unschedulablePods.delete(key);
      moved++;
    }
    this.moveRequestCycle = this.schedulingCycle;
    if (moved > 0) {
      this.timeline?.emit(
        'schedulingQueue',
        'move',
        event,
        `${moved} unschedulable pod(s) moved to activeQ/backoffQ`,
        '(*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).movePodsToActiveOrBackoffQueue',
      );
      this.cond.broadcast();
    }
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).podMatchesEvent */
  private podMatchesEvent(pInfo: QueuedPodInfo, event: ClusterEvent): boolean {
    if (event === 'UnschedulableTimeout') return true; // a wildcard event
    const names = this.clusterEventMap.get(event);
    if (!names) return false;
    for (const plugin of pInfo.unschedulablePlugins) if (names.has(plugin)) return true;
    return false;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).Close */
  close(): void {
    this.closed = true;
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).PendingPods */
  pendingPods(): { active: number; backoff: number; unschedulable: number } {
    return {
      active: this.activeQ.length,
      backoff: this.podBackoffQ.length,
      unschedulable: this.unschedulablePods.size,
    };
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).isPodBackingoff */
  private isPodBackingoff(pInfo: QueuedPodInfo): boolean {
    return this.getBackoffTime(pInfo) > this.clock.now();
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).getBackoffTime */
  private getBackoffTime(pInfo: QueuedPodInfo): number {
    return pInfo.timestamp + this.calculateBackoffDuration(pInfo);
  }

  /**
   * 1s, 2s, 4s, ... capped at 10s, by attempts.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).calculateBackoffDuration
   */
  private calculateBackoffDuration(pInfo: QueuedPodInfo): number {
    let duration = this.podInitialBackoffMs;
    for (let i = 1; i < pInfo.attempts; i++) {
      if (duration > this.podMaxBackoffMs - duration) return this.podMaxBackoffMs;
      duration += duration;
    }
    return duration;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/queue.PriorityQueue).newQueuedPodInfo */
  private newQueuedPodInfo(pod: Pod): QueuedPodInfo {
    const now = this.clock.now();
    return {
      pod,
      timestamp: now,
      attempts: 0,
      initialAttemptTimestamp: now,
      unschedulablePlugins: new Set(),
    };
  }
}

/**
 * Whether an update may make the pod schedulable: anything but status and resource version.
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/queue.isPodUpdated
 */
export function isPodUpdated(oldPod: Pod, newPod: Pod): boolean {
  const strip = (p: Pod) =>
    JSON.stringify({
      ...p,
      metadata: { ...p.metadata, resourceVersion: '', generation: 0 },
      status: {},
    });
  return strip(oldPod) !== strip(newPod);
}
