/**
 * The ReplicaSet controller: keep spec.replicas pods alive. It counts the active pods it owns
 * (adopting matching orphans, releasing pods that no longer match), creates the missing ones in
 * slow-start batches (1, 2, 4, ... so that a quota error costs one request, not five hundred),
 * deletes the surplus (unscheduled and pending ones first, newest first), and records what it
 * expects to see so that it does not act again before its own creations and deletions come back
 * through the informer.
 *
 * Mirrors pkg/controller/replicaset/{replica_set.go,replica_set_utils.go} and
 * pkg/controller/{controller_utils.go,controller_ref_manager.go} at Kubernetes v1.24:
 * ControllerExpectations (add/del counters with a 5 minute TTL), UIDTrackingControllerExpectations
 * (deletions tracked by pod key), slowStartBatch, manageReplicas (burstReplicas cap, skipped
 * creations decrement the expectations, failed deletions too), syncReplicaSet (expectations gate
 * manageReplicas; status is always written back), the pod and ReplicaSet event handlers
 * (creation/deletion observed, tombstones unwrapped, resync updates ignored), claimPods, and
 * ActivePods ordering for deletion.
 * Left out: the goroutines within a batch (a batch's calls run one after another; the API is
 * in-process), pod readiness and minReadySeconds, conditions, deletion cost and node ranks, the
 * uncached recheck before adoption, events.
 */
import { sleep, type Proc, type StopChannel, type VirtualClock } from './sim/clock.js';
import type { Timeline } from './sim/timeline.js';
import { isNotFound, type FakeApiServer } from './apiserver.js';
import {
  ResourceEventHandlerFuncs,
  waitForCacheSync,
  type SharedIndexInformer,
} from './informer.js';
import { NamespaceIndex } from './indexer.js';
import { RateLimitingQueue } from './workqueue.js';
import {
  DeletedFinalStateUnknown,
  getControllerOf,
  metaNamespaceKeyFunc,
  selectorMatches,
  splitMetaNamespaceKey,
  type CacheEntry,
  type KubeObject,
  type OwnerReference,
  type Pod,
  type PodSpec,
  type ReplicaSet,
} from './objects.js';

/** How long unmet expectations block a sync before they are considered lost. */
export const ExpectationsTimeoutMs = 5 * 60 * 1000;
/** The first slow-start batch. @mirrors k8s.io/kubernetes/pkg/controller.SlowStartInitialBatchSize */
export const SlowStartInitialBatchSize = 1;
/** @mirrors k8s.io/kubernetes/pkg/controller/replicaset.BurstReplicas */
export const BurstReplicas = 500;

/**
 * What one controller expects: creations and deletions still to be observed.
 * @mirrors k8s.io/kubernetes/pkg/controller.ControlleeExpectations
 */
export class ControlleeExpectations {
  constructor(
    public add: number,
    public del: number,
    readonly key: string,
    readonly timestamp: number,
  ) {}

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControlleeExpectations).Fulfilled */
  fulfilled(): boolean {
    return this.add <= 0 && this.del <= 0;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControlleeExpectations).isExpired */
  isExpired(now: number): boolean {
    return now - this.timestamp > ExpectationsTimeoutMs;
  }
}

/**
 * @mirrors k8s.io/kubernetes/pkg/controller.ControllerExpectations
 * @mirrors k8s.io/kubernetes/pkg/controller.NewControllerExpectations
 */
export class ControllerExpectations {
  private readonly store = new Map<string, ControlleeExpectations>();

  constructor(private readonly clock: VirtualClock) {}

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).GetExpectations */
  getExpectations(controllerKey: string): ControlleeExpectations | undefined {
    return this.store.get(controllerKey);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).DeleteExpectations */
  deleteExpectations(controllerKey: string): void {
    this.store.delete(controllerKey);
  }

  /**
   * True when the controller may act: nothing recorded, everything observed, or the record is
   * older than the TTL (a watch event was lost; do not wait forever).
   * @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).SatisfiedExpectations
   */
  satisfiedExpectations(controllerKey: string): boolean {
    const exp = this.store.get(controllerKey);
    if (!exp) return true;
    return exp.fulfilled() || exp.isExpired(this.clock.now());
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).SetExpectations */
  setExpectations(controllerKey: string, add: number, del: number): void {
    this.store.set(
      controllerKey,
      new ControlleeExpectations(add, del, controllerKey, this.clock.now()),
    );
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).ExpectCreations */
  expectCreations(controllerKey: string, adds: number): void {
    this.setExpectations(controllerKey, adds, 0);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).ExpectDeletions */
  expectDeletions(controllerKey: string, dels: number): void {
    this.setExpectations(controllerKey, 0, dels);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).LowerExpectations */
  lowerExpectations(controllerKey: string, add: number, del: number): void {
    const exp = this.store.get(controllerKey);
    if (!exp) return;
    exp.add -= add;
    exp.del -= del;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).CreationObserved */
  creationObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 1, 0);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.ControllerExpectations).DeletionObserved */
  deletionObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 0, 1);
  }
}

/**
 * Expectations that remember which pods are to be deleted, so that a deletion seen twice (an
 * update with a deletion timestamp, then the delete) is counted once.
 * @mirrors k8s.io/kubernetes/pkg/controller.UIDTrackingControllerExpectations
 * @mirrors k8s.io/kubernetes/pkg/controller.NewUIDTrackingControllerExpectations
 */
export class UIDTrackingControllerExpectations {
  private readonly uidStore = new Map<string, Set<string>>();

  constructor(readonly expectations: ControllerExpectations) {}

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.UIDTrackingControllerExpectations).GetUIDs */
  getUIDs(controllerKey: string): ReadonlySet<string> | undefined {
    return this.uidStore.get(controllerKey);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.UIDTrackingControllerExpectations).ExpectDeletions */
  expectDeletions(rcKey: string, deletedKeys: readonly string[]): void {
    this.uidStore.set(rcKey, new Set(deletedKeys));
    this.expectations.expectDeletions(rcKey, deletedKeys.length);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.UIDTrackingControllerExpectations).DeletionObserved */
  deletionObserved(rcKey: string, deleteKey: string): void {
    const uids = this.uidStore.get(rcKey);
    if (uids?.has(deleteKey)) {
      this.expectations.deletionObserved(rcKey);
      uids.delete(deleteKey);
    }
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller.UIDTrackingControllerExpectations).DeleteExpectations */
  deleteExpectations(rcKey: string): void {
    this.expectations.deleteExpectations(rcKey);
    this.uidStore.delete(rcKey);
  }

  satisfiedExpectations(key: string): boolean {
    return this.expectations.satisfiedExpectations(key);
  }

  expectCreations(key: string, adds: number): void {
    this.expectations.expectCreations(key, adds);
  }

  creationObserved(key: string): void {
    this.expectations.creationObserved(key);
  }
}

/**
 * How a controller creates and deletes pods (the seam tests fake).
 * @mirrors k8s.io/kubernetes/pkg/controller.PodControlInterface
 */
export interface PodControlInterface {
  createPods(
    namespace: string,
    template: ReplicaSetTemplate,
    controllerObject: KubeObject,
    controllerRef: OwnerReference,
  ): void;
  deletePod(namespace: string, podName: string, controllerObject: KubeObject): void;
}

type ReplicaSetTemplate = { labels: Readonly<Record<string, string>>; spec: PodSpec };

/**
 * Pod control against the (fake) API server: errors are thrown ApiErrors.
 * @mirrors k8s.io/kubernetes/pkg/controller.RealPodControl
 */
export class RealPodControl implements PodControlInterface {
  constructor(
    private readonly apiserver: FakeApiServer,
    private readonly timeline?: Timeline,
  ) {}

  /**
   * @mirrors (k8s.io/kubernetes/pkg/controller.RealPodControl).CreatePods
   * @mirrors (k8s.io/kubernetes/pkg/controller.RealPodControl).createPods
   */
  createPods(
    namespace: string,
    template: ReplicaSetTemplate,
    controllerObject: KubeObject,
    controllerRef: OwnerReference,
  ): void {
    const pod = this.apiserver.create<Pod>({
      kind: 'Pod',
      metadata: {
        namespace,
        generateName: `${controllerObject.metadata.name}-`,
        labels: template.labels,
        ownerReferences: [controllerRef],
      },
      spec: template.spec,
      status: { phase: 'Pending' },
    });
    this.timeline?.emit(
      'podControl',
      'CreatePods',
      metaNamespaceKeyFunc(pod),
      `owner ${metaNamespaceKeyFunc(controllerObject)}`,
      '(k8s.io/kubernetes/pkg/controller.RealPodControl).CreatePods',
    );
  }

  /** @mirrors (k8s.io/kubernetes/pkg/controller.RealPodControl).DeletePod */
  deletePod(namespace: string, podName: string, controllerObject: KubeObject): void {
    this.timeline?.emit(
      'podControl',
      'DeletePod',
      `${namespace}/${podName}`,
      `owner ${metaNamespaceKeyFunc(controllerObject)}`,
      '(k8s.io/kubernetes/pkg/controller.RealPodControl).DeletePod',
    );
    this.apiserver.delete('Pod', namespace, podName);
  }
}

/**
 * Calls `fn` `count` times in batches of 1, 2, 4, ...; stops after the first batch with a
 * failure. Returns how many calls succeeded and the first error.
 * @mirrors k8s.io/kubernetes/pkg/controller/replicaset.slowStartBatch
 */
export function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Error | undefined,
  onBatch?: (size: number) => void,
): { successes: number; err: Error | undefined } {
  let remaining = count;
  let successes = 0;
  for (
    let batchSize = Math.min(remaining, initialBatchSize);
    batchSize > 0;
    batchSize = Math.min(2 * batchSize, remaining)
  ) {
    onBatch?.(batchSize);
    const errors: Error[] = [];
    for (let i = 0; i < batchSize; i++) {
      const err = fn();
      if (err) errors.push(err);
    }
    successes += batchSize - errors.length;
    if (errors.length > 0) return { successes, err: errors[0] };
    remaining -= batchSize;
  }
  return { successes, err: undefined };
}

/** @mirrors k8s.io/kubernetes/pkg/controller.IsPodActive */
export function isPodActive(pod: Pod): boolean {
  return (
    pod.status.phase !== 'Succeeded' &&
    pod.status.phase !== 'Failed' &&
    pod.metadata.deletionTimestamp === undefined
  );
}

const podPhaseToOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Deletion preference: unscheduled before scheduled, pending before running, newer before older.
 * @mirrors (k8s.io/kubernetes/pkg/controller.ActivePods).Less
 * @mirrors (k8s.io/kubernetes/pkg/controller.ActivePodsWithRanks).Less
 */
export function activePodsLess(a: Pod, b: Pod): boolean {
  const aNode = a.spec.nodeName ?? '';
  const bNode = b.spec.nodeName ?? '';
  if (aNode !== bNode && (aNode === '' || bNode === '')) return aNode === '';
  const aPhase = podPhaseToOrdinal[a.status.phase ?? 'Pending'] ?? 1;
  const bPhase = podPhaseToOrdinal[b.status.phase ?? 'Pending'] ?? 1;
  if (aPhase !== bPhase) return aPhase < bPhase;
  if (a.metadata.creationTimestamp !== b.metadata.creationTimestamp)
    return a.metadata.creationTimestamp > b.metadata.creationTimestamp;
  return a.metadata.name > b.metadata.name;
}

/** @mirrors k8s.io/kubernetes/pkg/controller/replicaset.getPodsToDelete */
export function getPodsToDelete(filteredPods: readonly Pod[], diff: number): Pod[] {
  const pods = [...filteredPods];
  if (diff < pods.length)
    pods.sort((a, b) => (activePodsLess(a, b) ? -1 : activePodsLess(b, a) ? 1 : 0));
  return pods.slice(0, diff);
}

export interface ReplicaSetControllerOptions {
  clock: VirtualClock;
  apiserver: FakeApiServer;
  rsInformer: SharedIndexInformer;
  podInformer: SharedIndexInformer;
  podControl?: PodControlInterface;
  /** @default BurstReplicas (500) */
  burstReplicas?: number;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController
 * @mirrors k8s.io/kubernetes/pkg/controller/replicaset.NewBaseController
 */
export class ReplicaSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: UIDTrackingControllerExpectations;
  private readonly podControl: PodControlInterface;
  private readonly burstReplicas: number;
  private readonly clock: VirtualClock;
  private readonly apiserver: FakeApiServer;
  private readonly rsInformer: SharedIndexInformer;
  private readonly podInformer: SharedIndexInformer;
  private readonly timeline: Timeline | undefined;
  /** Syncs run so far (tests read it). */
  syncs = 0;

  constructor(options: ReplicaSetControllerOptions) {
    this.clock = options.clock;
    this.apiserver = options.apiserver;
    this.rsInformer = options.rsInformer;
    this.podInformer = options.podInformer;
    this.timeline = options.timeline;
    this.burstReplicas = options.burstReplicas ?? BurstReplicas;
    this.podControl = options.podControl ?? new RealPodControl(options.apiserver, options.timeline);
    this.expectations = new UIDTrackingControllerExpectations(
      new ControllerExpectations(options.clock),
    );
    this.queue = new RateLimitingQueue<string>({
      clock: options.clock,
      name: 'replicaset-queue',
      ...(options.timeline ? { timeline: options.timeline } : {}),
    });
    this.rsInformer.addEventHandler(
      new ResourceEventHandlerFuncs({
        addFunc: (obj) => this.addRS(obj as ReplicaSet),
        updateFunc: (oldObj, newObj) => this.updateRS(oldObj as ReplicaSet, newObj as ReplicaSet),
        deleteFunc: (obj) => this.deleteRS(obj),
      }),
      { name: 'replicaset' },
    );
    this.podInformer.addEventHandler(
      new ResourceEventHandlerFuncs({
        addFunc: (obj) => this.addPod(obj as Pod),
        updateFunc: (oldObj, newObj) => this.updatePod(oldObj as Pod, newObj as Pod),
        deleteFunc: (obj) => this.deletePod(obj),
      }),
      { name: 'replicaset-pods' },
    );
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).Run */
  *run(workers: number, stop: StopChannel): Proc {
    if (
      !(yield* waitForCacheSync(
        this.clock,
        stop,
        () => this.rsInformer.hasSynced(),
        () => this.podInformer.hasSynced(),
      ))
    )
      return;
    for (let i = 1; i <= workers; i++) this.clock.go(this.worker(i));
    yield* stop.wait();
    this.queue.shutDown();
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).worker */
  *worker(id: number): Proc {
    while (yield* this.processNextWorkItem(id)) yield* sleep(this.clock, 0);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).processNextWorkItem */
  *processNextWorkItem(id: number): Proc<boolean> {
    const [key, quit] = yield* this.queue.get();
    if (quit || key === undefined) return false;
    try {
      const err = this.syncReplicaSet(key, `worker-${id}`);
      if (!err) {
        this.queue.forget(key);
      } else {
        this.timeline?.emit(
          `worker-${id}`,
          'sync failed',
          key,
          `${err.message}; AddRateLimited`,
          '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).processNextWorkItem',
        );
        this.queue.addRateLimited(key);
      }
    } finally {
      this.queue.done(key);
    }
    return true;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet
   */
  syncReplicaSet(key: string, worker = 'worker'): Error | undefined {
    this.syncs++;
    const cached = this.rsInformer.indexer.getByKey(key);
    if (cached === undefined) {
      this.timeline?.emit(
        worker,
        'sync',
        key,
        'ReplicaSet gone: drop its expectations',
        '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet',
      );
      this.expectations.deleteExpectations(key);
      return undefined;
    }
    const rs = cached as ReplicaSet;
    const rsNeedsSync = this.expectations.satisfiedExpectations(key);
    const allPods = this.podInformer.indexer.byIndex(
      NamespaceIndex,
      rs.metadata.namespace,
    ) as Pod[];
    const active = allPods.filter(isPodActive);
    let filteredPods: Pod[];
    try {
      filteredPods = this.claimPods(rs, active);
    } catch (err) {
      return err as Error;
    }
    const exp = this.expectations.expectations.getExpectations(key);
    this.timeline?.emit(
      worker,
      'sync',
      key,
      `${filteredPods.length}/${rs.spec.replicas} pods; expectations ${rsNeedsSync ? 'satisfied' : `pending (add ${exp?.add ?? 0}, del ${exp?.del ?? 0})`}`,
      '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet',
    );
    let manageReplicasErr: Error | undefined;
    if (rsNeedsSync && rs.metadata.deletionTimestamp === undefined) {
      manageReplicasErr = this.manageReplicas(filteredPods, rs, worker);
    }
    const statusErr = this.updateReplicaSetStatus(rs, filteredPods.length);
    return statusErr ?? manageReplicasErr;
  }

  /**
   * @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).manageReplicas
   */
  manageReplicas(
    filteredPods: readonly Pod[],
    rs: ReplicaSet,
    worker = 'worker',
  ): Error | undefined {
    let diff = filteredPods.length - rs.spec.replicas;
    const rsKey = metaNamespaceKeyFunc(rs);
    if (diff < 0) {
      diff = Math.min(-diff, this.burstReplicas);
      // Expect them all before the first create: the informer may deliver a creation before
      // the create call returns.
      this.expectations.expectCreations(rsKey, diff);
      this.timeline?.emit(
        worker,
        'too few replicas',
        rsKey,
        `creating ${diff} (slow start)`,
        '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).manageReplicas',
      );
      const controllerRef: OwnerReference = {
        kind: 'ReplicaSet',
        name: rs.metadata.name,
        uid: rs.metadata.uid,
        controller: true,
      };
      const { successes, err } = slowStartBatch(
        diff,
        SlowStartInitialBatchSize,
        () => {
          try {
            this.podControl.createPods(rs.metadata.namespace, rs.spec.template, rs, controllerRef);
            return undefined;
          } catch (e) {
            return e as Error;
          }
        },
        (size) =>
          this.timeline?.emit(
            worker,
            'slow-start batch',
            rsKey,
            `${size} create(s)`,
            'k8s.io/kubernetes/pkg/controller/replicaset.slowStartBatch',
          ),
      );
      const skipped = diff - successes;
      if (skipped > 0) {
        // The informer will never see these; stop waiting for them.
        this.timeline?.emit(
          worker,
          'skipped creations',
          rsKey,
          `${skipped} not created: lower expectations`,
          '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).manageReplicas',
        );
        for (let i = 0; i < skipped; i++) this.expectations.creationObserved(rsKey);
      }
      return err;
    }
    if (diff > 0) {
      diff = Math.min(diff, this.burstReplicas);
      const podsToDelete = getPodsToDelete(filteredPods, diff);
      this.expectations.expectDeletions(rsKey, podsToDelete.map(metaNamespaceKeyFunc));
      this.timeline?.emit(
        worker,
        'too many replicas',
        rsKey,
        `deleting ${podsToDelete.map((p) => p.metadata.name).join(', ')}`,
        '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).manageReplicas',
      );
      let firstErr: Error | undefined;
      for (const pod of podsToDelete) {
        try {
          this.podControl.deletePod(rs.metadata.namespace, pod.metadata.name, rs);
        } catch (err) {
          // The informer will not observe this deletion; do not wait for it.
          this.expectations.deletionObserved(rsKey, metaNamespaceKeyFunc(pod));
          if (!isNotFound(err)) firstErr ??= err as Error;
        }
      }
      return firstErr;
    }
    return undefined;
  }

  /**
   * Adopts matching orphans and releases owned pods that stopped matching; returns the pods this
   * ReplicaSet owns and that match.
   * @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).claimPods
   * @mirrors (*k8s.io/kubernetes/pkg/controller.PodControllerRefManager).ClaimPods
   */
  claimPods(rs: ReplicaSet, pods: readonly Pod[]): Pod[] {
    const claimed: Pod[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      const matches = selectorMatches(rs.spec.selector, pod.metadata.labels);
      if (ref) {
        if (ref.uid !== rs.metadata.uid) continue; // someone else's
        if (matches) {
          claimed.push(pod);
        } else if (rs.metadata.deletionTimestamp === undefined) {
          this.timeline?.emit(
            'replicaset',
            'release',
            metaNamespaceKeyFunc(pod),
            'labels no longer match the selector',
            '(*k8s.io/kubernetes/pkg/controller.PodControllerRefManager).ReleasePod',
          );
          this.apiserver.update({
            ...pod,
            metadata: {
              ...pod.metadata,
              ownerReferences: (pod.metadata.ownerReferences ?? []).filter(
                (r) => r.uid !== rs.metadata.uid,
              ),
            },
          });
        }
        continue;
      }
      if (
        !matches ||
        rs.metadata.deletionTimestamp !== undefined ||
        pod.metadata.deletionTimestamp !== undefined
      )
        continue;
      this.timeline?.emit(
        'replicaset',
        'adopt',
        metaNamespaceKeyFunc(pod),
        `orphan matches ${metaNamespaceKeyFunc(rs)}`,
        '(*k8s.io/kubernetes/pkg/controller.PodControllerRefManager).AdoptPod',
      );
      const adopted = this.apiserver.update<Pod>({
        ...pod,
        metadata: {
          ...pod.metadata,
          ownerReferences: [
            ...(pod.metadata.ownerReferences ?? []),
            { kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true },
          ],
        },
      });
      claimed.push(adopted);
    }
    return claimed;
  }

  /**
   * Writes status.replicas back when it changed (one retry on conflict, as Go's statusUpdateRetries).
   * @mirrors k8s.io/kubernetes/pkg/controller/replicaset.updateReplicaSetStatus
   * @mirrors k8s.io/kubernetes/pkg/controller/replicaset.calculateStatus
   */
  private updateReplicaSetStatus(rs: ReplicaSet, replicas: number): Error | undefined {
    let current = rs;
    for (let attempt = 0; ; attempt++) {
      if (
        current.status.replicas === replicas &&
        current.status.observedGeneration === current.metadata.generation
      )
        return undefined;
      try {
        this.apiserver.update({
          ...current,
          status: { replicas, observedGeneration: current.metadata.generation },
        });
        return undefined;
      } catch (err) {
        if (attempt >= 1) return err as Error;
        try {
          current = this.apiserver.get<ReplicaSet>(
            'ReplicaSet',
            rs.metadata.namespace,
            rs.metadata.name,
          );
        } catch (getErr) {
          return getErr as Error;
        }
      }
    }
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).resolveControllerRef */
  private resolveControllerRef(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsInformer.indexer.getByKey(
      namespace ? `${namespace}/${ref.name}` : ref.name,
    ) as ReplicaSet | undefined;
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).getPodReplicaSets */
  private getPodReplicaSets(pod: Pod): ReplicaSet[] {
    return (
      this.rsInformer.indexer.byIndex(NamespaceIndex, pod.metadata.namespace) as ReplicaSet[]
    ).filter((rs) => selectorMatches(rs.spec.selector, pod.metadata.labels));
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).enqueueRS */
  private enqueueRS(rs: ReplicaSet): void {
    this.queue.add(metaNamespaceKeyFunc(rs));
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).addRS */
  private addRS(rs: ReplicaSet): void {
    this.enqueueRS(rs);
  }

  /**
   * Any update requeues: a resync then retries a ReplicaSet whose creations failed earlier.
   * @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).updateRS
   */
  private updateRS(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (curRS.metadata.uid !== oldRS.metadata.uid) {
      this.deleteRS(new DeletedFinalStateUnknown(metaNamespaceKeyFunc(oldRS), oldRS));
    }
    this.enqueueRS(curRS);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).deleteRS */
  private deleteRS(obj: CacheEntry): void {
    const rs = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as ReplicaSet | undefined;
    if (!rs) return;
    const key = metaNamespaceKeyFunc(rs);
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).addPod */
  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp !== undefined) {
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
      if (!rs) return;
      const rsKey = metaNamespaceKeyFunc(rs);
      this.expectations.creationObserved(rsKey);
      this.timeline?.emit(
        'replicaset',
        'creation observed',
        metaNamespaceKeyFunc(pod),
        `expectations of ${rsKey}: add ${this.expectations.expectations.getExpectations(rsKey)?.add ?? 0} left`,
        '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).addPod',
      );
      this.queue.add(rsKey);
      return;
    }
    for (const rs of this.getPodReplicaSets(pod)) this.enqueueRS(rs);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).updatePod */
  private updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return; // a resync
    const labelChanged =
      JSON.stringify(curPod.metadata.labels) !== JSON.stringify(oldPod.metadata.labels);
    if (curPod.metadata.deletionTimestamp !== undefined) {
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = JSON.stringify(curRef) !== JSON.stringify(oldRef);
    if (refChanged && oldRef) {
      const rs = this.resolveControllerRef(oldPod.metadata.namespace, oldRef);
      if (rs) this.enqueueRS(rs);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(curPod.metadata.namespace, curRef);
      if (rs) this.enqueueRS(rs);
      return;
    }
    if (labelChanged || refChanged)
      for (const rs of this.getPodReplicaSets(curPod)) this.enqueueRS(rs);
  }

  /**
   * obj may be a tombstone: the delete was noticed by a relist and the final state is unknown.
   * @mirrors (*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).deletePod
   */
  private deletePod(obj: CacheEntry): void {
    const pod = (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as Pod | undefined;
    if (!pod) return;
    const ref = getControllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
    if (!rs) return;
    const rsKey = metaNamespaceKeyFunc(rs);
    this.expectations.deletionObserved(rsKey, metaNamespaceKeyFunc(pod));
    this.timeline?.emit(
      'replicaset',
      'deletion observed',
      metaNamespaceKeyFunc(pod),
      `requeue ${rsKey}`,
      '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).deletePod',
    );
    this.queue.add(rsKey);
  }

  /** Active pods owned by the ReplicaSet, as the API server has them (for checks). */
  ownedActivePods(key: string): Pod[] {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const rs = this.apiserver
      .objectsOf<ReplicaSet>('ReplicaSet')
      .find((r) => r.metadata.namespace === namespace && r.metadata.name === name);
    if (!rs) return [];
    return this.apiserver
      .objectsOf<Pod>('Pod')
      .filter((p) => isPodActive(p) && getControllerOf(p)?.uid === rs.metadata.uid);
  }
}
