/**
 * controller-runtime in miniature: a Manager that owns the shared informer cache and runs
 * controllers; a Builder that says what a controller reconciles (For), what it creates (Owns:
 * events on those map to the owner) and what else it watches; a Controller whose workers call
 * Reconcile(Request) and read its Result. The point it makes: reconciliation is level-triggered.
 * A Request carries only a name; the reconciler reads the whole current state from the cache,
 * so a missed or merged event costs nothing as long as some later event (or the periodic resync)
 * names the object again.
 *
 * Mirrors sigs.k8s.io/controller-runtime at v0.12: pkg/manager (New, controllerManager.Start:
 * caches first, then controllers), pkg/builder/controller.go (ControllerManagedBy, For, Owns,
 * Watches, WithEventFilter, Named, Complete/Build, doWatch), pkg/internal/controller/controller.go
 * (Watch, Start, processNextWorkItem, reconcileHandler: error -> AddRateLimited, RequeueAfter ->
 * Forget + AddAfter, Requeue -> AddRateLimited, success -> Forget), pkg/handler (enqueue for the
 * object, for its owner, from a map function), pkg/source (Kind over the cache's informer),
 * pkg/cache (informerCache) and pkg/client (reads from the cache, writes to the API server), and
 * pkg/reconcile (Request, Result, Func). v0.15+ made handlers and controllers generic; tags name
 * the new spellings where they differ.
 * Left out: leader election, webhooks, metrics and health probes, schemes and GVKs (kinds are
 * strings), RecoverPanic, CacheSyncTimeout, and garbage collection of owned objects (the example
 * reconciler deletes its children itself).
 */
import { isProc, sleep, type Proc, type StopChannel, type VirtualClock } from './sim/clock.js';
import type { SeededRandom } from './sim/random.js';
import { formatMs, type Timeline } from './sim/timeline.js';
import type { FakeApiServer, NewObject } from './apiserver.js';
import { SharedIndexInformer, waitForCacheSync, type ResourceEventHandler } from './informer.js';
import { NamespaceIndex } from './indexer.js';
import { RateLimitingQueue } from './workqueue.js';
import {
  DeletedFinalStateUnknown,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
  type CacheEntry,
  type KubeObject,
} from './objects.js';

/** @mirrors sigs.k8s.io/controller-runtime/pkg/reconcile.Request */
export interface Request {
  namespace: string;
  name: string;
}

/** @mirrors sigs.k8s.io/controller-runtime/pkg/reconcile.Result */
export interface Result {
  requeue?: boolean;
  requeueAfterMs?: number;
}

/** What Reconcile returns: a Result, or an error (then the Result is ignored). */
export interface ReconcileOutcome {
  result?: Result;
  err?: Error;
}

/**
 * Reconciles one object, reading everything it needs itself. A plain function takes no virtual
 * time; a generator may (`yield* sleep(...)`).
 * @mirrors sigs.k8s.io/controller-runtime/pkg/reconcile.Reconciler
 */
export interface Reconciler {
  reconcile(request: Request): Proc<ReconcileOutcome> | ReconcileOutcome;
}

/**
 * The string form a Request takes in the work queue (Go compares the struct by value).
 * @mirrors (k8s.io/apimachinery/pkg/types.NamespacedName).String
 */
export function requestKey(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** The queue the handlers fill. */
export type RequestQueue = RateLimitingQueue<string>;

/**
 * @mirrors sigs.k8s.io/controller-runtime/pkg/handler.EventHandler
 */
export interface EventHandler {
  create(obj: KubeObject, queue: RequestQueue): void;
  update(oldObj: KubeObject, newObj: KubeObject, queue: RequestQueue): void;
  delete(obj: KubeObject, queue: RequestQueue): void;
}

/**
 * Enqueues the object's own name.
 * @mirrors sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForObject
 */
export class EnqueueRequestForObject implements EventHandler {
  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForObject).Create
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.TypedEnqueueRequestForObject[T]).Create
   */
  create(obj: KubeObject, queue: RequestQueue): void {
    queue.add(metaNamespaceKeyFunc(obj));
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForObject).Update
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.TypedEnqueueRequestForObject[T]).Update
   */
  update(_oldObj: KubeObject, newObj: KubeObject, queue: RequestQueue): void {
    queue.add(metaNamespaceKeyFunc(newObj));
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForObject).Delete
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.TypedEnqueueRequestForObject[T]).Delete
   */
  delete(obj: KubeObject, queue: RequestQueue): void {
    queue.add(metaNamespaceKeyFunc(obj));
  }
}

/**
 * Enqueues the owner named in the object's owner references (only the controller owner when
 * `isController`): a child's change wakes its parent.
 * @mirrors sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForOwner
 */
export class EnqueueRequestForOwner implements EventHandler {
  constructor(
    readonly ownerKind: string,
    readonly isController: boolean,
  ) {}

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForOwner).Create
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.enqueueRequestForOwner[object]).Create
   */
  create(obj: KubeObject, queue: RequestQueue): void {
    for (const key of this.getOwnerReconcileRequests(obj)) queue.add(key);
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForOwner).Update
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.enqueueRequestForOwner[object]).Update
   */
  update(oldObj: KubeObject, newObj: KubeObject, queue: RequestQueue): void {
    const keys = new Set([
      ...this.getOwnerReconcileRequests(oldObj),
      ...this.getOwnerReconcileRequests(newObj),
    ]);
    for (const key of keys) queue.add(key);
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForOwner).Delete
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.enqueueRequestForOwner[object]).Delete
   */
  delete(obj: KubeObject, queue: RequestQueue): void {
    for (const key of this.getOwnerReconcileRequests(obj)) queue.add(key);
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestForOwner).getOwnerReconcileRequest
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/handler.enqueueRequestForOwner[object]).getOwnerReconcileRequest
   */
  private getOwnerReconcileRequests(obj: KubeObject): string[] {
    return (obj.metadata.ownerReferences ?? [])
      .filter(
        (ref) => ref.kind === this.ownerKind && (!this.isController || ref.controller === true),
      )
      .map((ref) => requestKey({ namespace: obj.metadata.namespace, name: ref.name }));
  }
}

/**
 * Enqueues whatever a function maps the object to.
 * @mirrors sigs.k8s.io/controller-runtime/pkg/handler.EnqueueRequestsFromMapFunc
 */
export class EnqueueRequestsFromMapFunc implements EventHandler {
  constructor(private readonly toRequests: (obj: KubeObject) => Request[]) {}

  create(obj: KubeObject, queue: RequestQueue): void {
    for (const r of this.toRequests(obj)) queue.add(requestKey(r));
  }

  update(oldObj: KubeObject, newObj: KubeObject, queue: RequestQueue): void {
    for (const r of [...this.toRequests(oldObj), ...this.toRequests(newObj)])
      queue.add(requestKey(r));
  }

  delete(obj: KubeObject, queue: RequestQueue): void {
    for (const r of this.toRequests(obj)) queue.add(requestKey(r));
  }
}

/**
 * Filters events before the handler sees them.
 * @mirrors sigs.k8s.io/controller-runtime/pkg/predicate.Predicate
 */
export interface Predicate {
  create?(obj: KubeObject): boolean;
  update?(oldObj: KubeObject, newObj: KubeObject): boolean;
  delete?(obj: KubeObject): boolean;
}

/**
 * The informers of the manager, one per kind, started together.
 * @mirrors sigs.k8s.io/controller-runtime/pkg/cache.informerCache
 * @mirrors sigs.k8s.io/controller-runtime/pkg/cache/internal.InformersMap
 */
export class InformerCache {
  private readonly informers = new Map<string, SharedIndexInformer>();
  private started = false;
  private stop: StopChannel | undefined;

  constructor(
    private readonly apiserver: FakeApiServer,
    private readonly clock: VirtualClock,
    private readonly rand: SeededRandom,
    private readonly syncPeriodMs: number,
    private readonly timeline: Timeline | undefined,
  ) {}

  /**
   * The informer for a kind, created on first use (and started at once if the cache runs).
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache.informerCache).GetInformer
   */
  getInformer(kind: string): SharedIndexInformer {
    let informer = this.informers.get(kind);
    if (!informer) {
      informer = new SharedIndexInformer({
        name: kind,
        listerWatcher: this.apiserver.listerWatcher(kind),
        defaultEventHandlerResyncPeriodMs: this.syncPeriodMs,
        clock: this.clock,
        rand: this.rand,
        ...(this.timeline ? { timeline: this.timeline } : {}),
      });
      this.informers.set(kind, informer);
      if (this.started && this.stop) this.clock.go(informer.run(this.stop));
    }
    return informer;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache/internal.InformersMap).Start
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache/internal.Informers).Start
   */
  start(stop: StopChannel): void {
    this.started = true;
    this.stop = stop;
    for (const informer of this.informers.values()) this.clock.go(informer.run(stop));
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache/internal.InformersMap).WaitForCacheSync
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache/internal.Informers).WaitForCacheSync
   */
  *waitForCacheSync(stop: StopChannel): Proc<boolean> {
    return yield* waitForCacheSync(
      this.clock,
      stop,
      ...[...this.informers.values()].map((i) => () => i.hasSynced()),
    );
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache.informerCache).Get */
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined {
    return this.getInformer(kind).indexer.getByKey(namespace ? `${namespace}/${name}` : name) as
      T | undefined;
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/cache.informerCache).List */
  list<T extends KubeObject>(kind: string, namespace: string): T[] {
    return this.getInformer(kind).indexer.byIndex(NamespaceIndex, namespace) as T[];
  }
}

/**
 * Reads from the cache, writes to the API server (the manager's default client).
 * @mirrors sigs.k8s.io/controller-runtime/pkg/client.NewDelegatingClient
 * @mirrors sigs.k8s.io/controller-runtime/pkg/client.delegatingReader
 */
export class Client {
  constructor(
    private readonly cache: InformerCache,
    private readonly apiserver: FakeApiServer,
  ) {}

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/client.delegatingReader).Get */
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined {
    return this.cache.get<T>(kind, namespace, name);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/client.delegatingReader).List */
  list<T extends KubeObject>(kind: string, namespace: string): T[] {
    return this.cache.list<T>(kind, namespace);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/client.client).Create */
  create<T extends KubeObject>(obj: NewObject): T {
    return this.apiserver.create<T>(obj);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/client.client).Update */
  update<T extends KubeObject>(obj: KubeObject): T {
    return this.apiserver.update<T>(obj);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/client.client).Delete */
  delete(obj: KubeObject): void {
    this.apiserver.delete(obj.kind, obj.metadata.namespace, obj.metadata.name);
  }
}

interface WatchDescription {
  kind: string;
  handler: EventHandler;
  predicates: Predicate[];
}

export interface ControllerOptions {
  name: string;
  reconciler: Reconciler;
  /** @default 1 */
  maxConcurrentReconciles?: number;
}

/**
 * @mirrors sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller
 * @mirrors sigs.k8s.io/controller-runtime/pkg/controller.NewUnmanaged
 */
export class Controller {
  readonly name: string;
  readonly queue: RequestQueue;
  private readonly reconciler: Reconciler;
  private readonly maxConcurrentReconciles: number;
  private readonly startWatches: WatchDescription[] = [];
  private started = false;
  /** Reconciles run so far, by request key (tests read it). */
  readonly reconciles = new Map<string, number>();

  constructor(
    options: ControllerOptions,
    private readonly cache: InformerCache,
    private readonly clock: VirtualClock,
    private readonly timeline: Timeline | undefined,
  ) {
    this.name = options.name;
    this.reconciler = options.reconciler;
    this.maxConcurrentReconciles = options.maxConcurrentReconciles ?? 1;
    this.queue = new RateLimitingQueue<string>({
      clock,
      name: `${options.name}-queue`,
      ...(timeline ? { timeline } : {}),
    });
  }

  /**
   * Registers a source of events; before Start the watch is only remembered.
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).Watch
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller[request]).Watch
   */
  watch(kind: string, handler: EventHandler, ...predicates: Predicate[]): void {
    const watch = { kind, handler, predicates };
    if (!this.started) {
      this.startWatches.push(watch);
      return;
    }
    this.startSource(watch);
  }

  /**
   * Starts the sources, waits for their caches, then runs the workers until `stop`.
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).Start
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller[request]).Start
   */
  *start(stop: StopChannel): Proc {
    stop.onClose(() => this.queue.shutDown());
    for (const watch of this.startWatches) this.startSource(watch);
    const informers = this.startWatches.map((w) => this.cache.getInformer(w.kind));
    if (!(yield* waitForCacheSync(this.clock, stop, ...informers.map((i) => () => i.hasSynced()))))
      return;
    this.startWatches.length = 0;
    this.started = true;
    this.timeline?.emit(
      `controller ${this.name}`,
      'Starting workers',
      '-',
      `worker count ${this.maxConcurrentReconciles}`,
      '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).Start',
    );
    for (let i = 1; i <= this.maxConcurrentReconciles; i++) this.clock.go(this.worker(i));
    yield* stop.wait();
  }

  private *worker(id: number): Proc {
    while (yield* this.processNextWorkItem(id)) yield* sleep(this.clock, 0);
  }

  /**
   * Connects an informer to the handler through the predicates: source.Kind.Start and the
   * internal EventHandler adapter.
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/source.Kind).Start
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/source.Kind[object, request]).Start
   * @mirrors sigs.k8s.io/controller-runtime/pkg/source/internal.EventHandler
   * @mirrors sigs.k8s.io/controller-runtime/pkg/internal/source.EventHandler
   */
  private startSource(watch: WatchDescription): void {
    const { handler, predicates, kind } = watch;
    const adapter: ResourceEventHandler = {
      onAdd: (obj) => {
        if (predicates.every((p) => p.create?.(obj) ?? true)) handler.create(obj, this.queue);
      },
      onUpdate: (oldObj, newObj) => {
        if (predicates.every((p) => p.update?.(oldObj, newObj) ?? true))
          handler.update(oldObj, newObj, this.queue);
      },
      onDelete: (obj: CacheEntry) => {
        const last = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        if (!last) return;
        if (predicates.every((p) => p.delete?.(last) ?? true)) handler.delete(last, this.queue);
      },
    };
    this.cache.getInformer(kind).addEventHandler(adapter, { name: `${this.name}/${kind}` });
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).processNextWorkItem
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller[request]).processNextWorkItem
   */
  *processNextWorkItem(id: number): Proc<boolean> {
    const [key, shutdown] = yield* this.queue.get();
    if (shutdown || key === undefined) return false;
    try {
      yield* this.reconcileHandler(key, `worker-${id}`);
    } finally {
      this.queue.done(key);
    }
    return true;
  }

  /**
   * Calls Reconcile and turns its answer into a queue operation.
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller[request]).reconcileHandler
   */
  private *reconcileHandler(key: string, worker: string): Proc {
    const component = `controller ${this.name}`;
    const request = splitMetaNamespaceKey(key);
    this.reconciles.set(key, (this.reconciles.get(key) ?? 0) + 1);
    this.timeline?.emit(
      component,
      'Reconcile',
      key,
      `${worker}`,
      '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).Reconcile',
    );
    const outcome = this.reconciler.reconcile(request);
    const { result = {}, err } = isProc<ReconcileOutcome>(outcome) ? yield* outcome : outcome;
    if (err) {
      this.timeline?.emit(
        component,
        'Reconciler error',
        key,
        `${err.message}; AddRateLimited`,
        '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      );
      this.queue.addRateLimited(key);
    } else if (result.requeueAfterMs && result.requeueAfterMs > 0) {
      this.timeline?.emit(
        component,
        'RequeueAfter',
        key,
        `Forget; AddAfter ${formatMs(result.requeueAfterMs)}`,
        '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      );
      this.queue.forget(key);
      this.queue.addAfter(key, result.requeueAfterMs);
    } else if (result.requeue) {
      this.timeline?.emit(
        component,
        'Requeue',
        key,
        'AddRateLimited',
        '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      );
      this.queue.addRateLimited(key);
    } else {
      this.timeline?.emit(
        component,
        'Reconciled',
        key,
        'Forget',
        '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      );
      this.queue.forget(key);
    }
  }
}

export interface ManagerOptions {
  clock: VirtualClock;
  rand: SeededRandom;
  /**
   * How often the informers resync (re-deliver every object as an update). controller-runtime's
   * default is 10 hours; scenarios use seconds.
   * @default 36_000_000
   */
  syncPeriodMs?: number;
  timeline?: Timeline;
}

/** Something the manager starts: a controller, or any loop. @mirrors sigs.k8s.io/controller-runtime/pkg/manager.Runnable */
export type Runnable = (stop: StopChannel) => Proc;

/**
 * @mirrors sigs.k8s.io/controller-runtime/pkg/manager.controllerManager
 * @mirrors sigs.k8s.io/controller-runtime/pkg/manager.New
 */
export class Manager {
  readonly cache: InformerCache;
  readonly client: Client;
  readonly clock: VirtualClock;
  readonly timeline: Timeline | undefined;
  private readonly runnables: Runnable[] = [];

  constructor(
    readonly apiserver: FakeApiServer,
    options: ManagerOptions,
  ) {
    this.clock = options.clock;
    this.timeline = options.timeline;
    this.cache = new InformerCache(
      apiserver,
      options.clock,
      options.rand,
      options.syncPeriodMs ?? 36_000_000,
      options.timeline,
    );
    this.client = new Client(this.cache, apiserver);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/manager.controllerManager).Add */
  add(runnable: Runnable): void {
    this.runnables.push(runnable);
  }

  /** @mirrors (*sigs.k8s.io/controller-runtime/pkg/manager.controllerManager).GetClient */
  getClient(): Client {
    return this.client;
  }

  /**
   * Starts the caches, waits for them, then starts every runnable.
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/manager.controllerManager).Start
   */
  *start(stop: StopChannel): Proc {
    this.cache.start(stop);
    if (!(yield* this.cache.waitForCacheSync(stop))) return;
    this.timeline?.emit(
      'manager',
      'caches synced',
      '-',
      `starting ${this.runnables.length} runnable(s)`,
      '(*sigs.k8s.io/controller-runtime/pkg/manager.controllerManager).Start',
    );
    for (const runnable of this.runnables) this.clock.go(runnable(stop));
    yield* stop.wait();
  }
}

/**
 * @mirrors sigs.k8s.io/controller-runtime/pkg/builder.Builder
 * @mirrors sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder
 */
export class Builder {
  private forKind: string | undefined;
  private readonly ownsKinds: string[] = [];
  private readonly watchesInput: { kind: string; handler: EventHandler }[] = [];
  private readonly globalPredicates: Predicate[] = [];
  private name: string | undefined;
  private maxConcurrentReconciles = 1;

  constructor(private readonly mgr: Manager) {}

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).For
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).For
   */
  for(kind: string): this {
    if (this.forKind !== undefined)
      throw new Error(
        'For(...) should only be called once, could not assign multiple objects for reconciliation',
      );
    this.forKind = kind;
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Owns
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).Owns
   */
  owns(kind: string): this {
    this.ownsKinds.push(kind);
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Watches
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).Watches
   */
  watches(kind: string, handler: EventHandler): this {
    this.watchesInput.push({ kind, handler });
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).WithEventFilter
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).WithEventFilter
   */
  withEventFilter(predicate: Predicate): this {
    this.globalPredicates.push(predicate);
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Named
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).Named
   */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).WithOptions
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).WithOptions
   */
  withOptions(options: { maxConcurrentReconciles?: number }): this {
    this.maxConcurrentReconciles = options.maxConcurrentReconciles ?? this.maxConcurrentReconciles;
    return this;
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Complete
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).Complete
   */
  complete(reconciler: Reconciler): Controller {
    return this.build(reconciler);
  }

  /**
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Build
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).Build
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).doController
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).doController
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.Builder).doWatch
   * @mirrors (*sigs.k8s.io/controller-runtime/pkg/builder.TypedBuilder[request]).doWatch
   */
  build(reconciler: Reconciler): Controller {
    if (this.forKind === undefined) throw new Error('must provide an object for reconciliation');
    const ctrl = new Controller(
      {
        name: this.name ?? this.forKind.toLowerCase(),
        reconciler,
        maxConcurrentReconciles: this.maxConcurrentReconciles,
      },
      this.mgr.cache,
      this.mgr.clock,
      this.mgr.timeline,
    );
    ctrl.watch(this.forKind, new EnqueueRequestForObject(), ...this.globalPredicates);
    for (const kind of this.ownsKinds)
      ctrl.watch(kind, new EnqueueRequestForOwner(this.forKind, true), ...this.globalPredicates);
    for (const w of this.watchesInput) ctrl.watch(w.kind, w.handler, ...this.globalPredicates);
    this.mgr.add((stop) => ctrl.start(stop));
    return ctrl;
  }
}

/** @mirrors sigs.k8s.io/controller-runtime/pkg/builder.ControllerManagedBy */
export function controllerManagedBy(mgr: Manager): Builder {
  return new Builder(mgr);
}
