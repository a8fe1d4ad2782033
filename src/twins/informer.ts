/**
 * The shared informer: one reflector and one DeltaFIFO per resource, an indexer that mirrors the
 * server's state, and any number of event handlers, each behind its own unbounded buffer so that a
 * slow handler delays nobody else.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/{shared_informer.go,controller.go} at
 * Kubernetes v1.24 (client-go v0.24): sharedIndexInformer.Run (a DeltaFIFO with the indexer as
 * known objects and Replaced deltas), HandleDeltas and processDeltas (indexer first, then
 * notifications; Sync/Replaced/Added/Updated become OnUpdate when the key exists, OnAdd when not),
 * OnUpdate's "same resource version means resync" rule, AddEventHandlerWithResyncPeriod (late
 * handlers get an Add for every object in the indexer; resync period clamping), sharedProcessor
 * (distribute to all listeners, or to the syncing ones for resyncs; shouldResync picks the
 * listeners that are due), processorListener (its ring buffer and handler loop), the low-level
 * controller (Run, processLoop, HasSynced), and WaitForCacheSync.
 * Left out: the cache mutation detector, transforms, watch error handlers, SetTransform, the
 * separate pop()/run() goroutines of a listener (one twin goroutine drains the same buffer), and
 * handler registrations' removal (v0.26+).
 */
import {
  Cond,
  StopChannel,
  sleep,
  sleepUntilStopped,
  type Proc,
  type VirtualClock,
} from './sim/clock.js';
import { RingGrowing } from './sim/buffer.js';
import type { SeededRandom } from './sim/random.js';
import type { Timeline } from './sim/timeline.js';
import { DeltaFIFO, ErrFIFOClosed, type Deltas, type PopProcessFunc } from './deltafifo.js';
import { Indexer, NamespaceIndex, metaNamespaceIndexFunc, type Indexers } from './indexer.js';
import { Reflector, type ListerWatcher } from './reflector.js';
import {
  deletionHandlingMetaNamespaceKeyFunc,
  describeObject,
  metaNamespaceKeyFunc,
  type CacheEntry,
  type KubeObject,
} from './objects.js';

/**
 * @mirrors k8s.io/client-go/tools/cache.ResourceEventHandler
 */
export interface ResourceEventHandler {
  onAdd(obj: KubeObject): void;
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void;
  /** The final state, or a DeletedFinalStateUnknown when the delete was noticed by a relist. */
  onDelete(obj: CacheEntry): void;
}

/**
 * Handler functions, any of them optional.
 * @mirrors k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs
 */
export class ResourceEventHandlerFuncs implements ResourceEventHandler {
  constructor(
    private readonly funcs: {
      addFunc?: (obj: KubeObject) => void;
      updateFunc?: (oldObj: KubeObject, newObj: KubeObject) => void;
      deleteFunc?: (obj: CacheEntry) => void;
    },
  ) {}

  /** @mirrors (k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs).OnAdd */
  onAdd(obj: KubeObject): void {
    this.funcs.addFunc?.(obj);
  }

  /** @mirrors (k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs).OnUpdate */
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    this.funcs.updateFunc?.(oldObj, newObj);
  }

  /** @mirrors (k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs).OnDelete */
  onDelete(obj: CacheEntry): void {
    this.funcs.deleteFunc?.(obj);
  }
}

/**
 * Passes on only objects that satisfy a filter; an update that crosses the filter becomes an Add
 * or a Delete (the scheduler splits pods into "assigned" and "pending" this way).
 * @mirrors k8s.io/client-go/tools/cache.FilteringResourceEventHandler
 */
export class FilteringResourceEventHandler implements ResourceEventHandler {
  constructor(
    private readonly filterFunc: (obj: CacheEntry) => boolean,
    private readonly handler: ResourceEventHandler,
  ) {}

  /** @mirrors (k8s.io/client-go/tools/cache.FilteringResourceEventHandler).OnAdd */
  onAdd(obj: KubeObject): void {
    if (this.filterFunc(obj)) this.handler.onAdd(obj);
  }

  /** @mirrors (k8s.io/client-go/tools/cache.FilteringResourceEventHandler).OnUpdate */
  onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    const newer = this.filterFunc(newObj);
    const older = this.filterFunc(oldObj);
    if (newer && older) this.handler.onUpdate(oldObj, newObj);
    else if (newer && !older) this.handler.onAdd(newObj);
    else if (!newer && older) this.handler.onDelete(oldObj);
  }

  /** @mirrors (k8s.io/client-go/tools/cache.FilteringResourceEventHandler).OnDelete */
  onDelete(obj: CacheEntry): void {
    if (this.filterFunc(obj)) this.handler.onDelete(obj);
  }
}

/** @mirrors k8s.io/client-go/tools/cache.addNotification */
type Notification =
  | { type: 'add'; newObj: KubeObject }
  | { type: 'update'; oldObj: KubeObject; newObj: KubeObject }
  | { type: 'delete'; oldObj: CacheEntry };

/** Go's minimumResyncPeriod: handlers cannot ask for resyncs more often than once a second. */
const minimumResyncPeriodMs = 1000;
/** Go's initialBufferSize for a listener's ring buffer. */
const initialBufferSize = 1024;

export interface ListenerOptions {
  /** The handler's name in the timeline. */
  name: string;
  /**
   * Virtual time each notification takes the handler: a slow handler only delays its own buffer.
   * @default 0
   */
  latencyMs?: number;
}

/**
 * Relays notifications to one handler through an unbounded buffer.
 * @mirrors k8s.io/client-go/tools/cache.processorListener
 * @mirrors k8s.io/client-go/tools/cache.newProcessListener
 */
export class ProcessorListener {
  readonly pendingNotifications = new RingGrowing<Notification>(initialBufferSize);
  private readonly cond = new Cond();
  private stopped = false;
  private nextResync = 0;
  /** Notifications handed to the handler so far. */
  delivered = 0;

  constructor(
    readonly handler: ResourceEventHandler,
    readonly requestedResyncPeriodMs: number,
    private resyncPeriodMs: number,
    now: number,
    readonly options: ListenerOptions,
    private readonly clock: VirtualClock,
    private readonly timeline: Timeline | undefined,
  ) {
    this.determineNextResync(now);
  }

  /**
   * Never blocks the informer: the notification waits in this listener's buffer.
   * @mirrors (*k8s.io/client-go/tools/cache.processorListener).add
   * @mirrors (*k8s.io/client-go/tools/cache.processorListener).pop
   */
  add(notification: Notification): void {
    this.pendingNotifications.writeOne(notification);
    this.cond.signal();
  }

  /**
   * Hands each notification to the handler, in order, one at a time.
   * @mirrors (*k8s.io/client-go/tools/cache.processorListener).run
   */
  *run(): Proc {
    for (;;) {
      while (this.pendingNotifications.length === 0 && !this.stopped) yield* this.cond.wait();
      if (this.stopped) return;
      const next = this.pendingNotifications.readOne()!;
      this.delivered++;
      const waiting = this.pendingNotifications.length;
      switch (next.type) {
        case 'update':
          this.timeline?.emit(
            `handler ${this.options.name}`,
            'OnUpdate',
            metaNamespaceKeyFunc(next.newObj),
            `rv ${next.oldObj.metadata.resourceVersion} -> ${next.newObj.metadata.resourceVersion}; ${waiting} buffered`,
            '(*k8s.io/client-go/tools/cache.processorListener).run',
          );
          this.handler.onUpdate(next.oldObj, next.newObj);
          break;
        case 'add':
          this.timeline?.emit(
            `handler ${this.options.name}`,
            'OnAdd',
            metaNamespaceKeyFunc(next.newObj),
            `${describeObject(next.newObj)}; ${waiting} buffered`,
            '(*k8s.io/client-go/tools/cache.processorListener).run',
          );
          this.handler.onAdd(next.newObj);
          break;
        case 'delete':
          this.timeline?.emit(
            `handler ${this.options.name}`,
            'OnDelete',
            deletionHandlingMetaNamespaceKeyFunc(next.oldObj),
            `${describeObject(next.oldObj)}; ${waiting} buffered`,
            '(*k8s.io/client-go/tools/cache.processorListener).run',
          );
          this.handler.onDelete(next.oldObj);
          break;
      }
      if (this.options.latencyMs) yield* sleep(this.clock, this.options.latencyMs);
    }
  }

  stop(): void {
    this.stopped = true;
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.processorListener).shouldResync */
  shouldResync(now: number): boolean {
    if (this.resyncPeriodMs === 0) return false;
    return now >= this.nextResync;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.processorListener).determineNextResync */
  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriodMs;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.processorListener).setResyncPeriod */
  setResyncPeriod(resyncPeriodMs: number): void {
    this.resyncPeriodMs = resyncPeriodMs;
  }

  get resyncPeriod(): number {
    return this.resyncPeriodMs;
  }
}

/**
 * @mirrors k8s.io/client-go/tools/cache.sharedProcessor
 */
export class SharedProcessor {
  readonly listeners: ProcessorListener[] = [];
  private syncingListeners: ProcessorListener[] = [];
  private listenersStarted = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly timeline: Timeline | undefined,
  ) {}

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedProcessor).addListener */
  addListener(listener: ProcessorListener): void {
    this.listeners.push(listener);
    this.syncingListeners.push(listener);
    if (this.listenersStarted) this.clock.go(listener.run());
  }

  /**
   * Sends a notification to every listener, or only to those due for a resync.
   * @mirrors (*k8s.io/client-go/tools/cache.sharedProcessor).distribute
   */
  distribute(notification: Notification, sync: boolean): void {
    const targets = sync ? this.syncingListeners : this.listeners;
    for (const listener of targets) listener.add(notification);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedProcessor).run */
  *run(stop: StopChannel): Proc {
    for (const listener of this.listeners) this.clock.go(listener.run());
    this.listenersStarted = true;
    yield* stop.wait();
    for (const listener of this.listeners) listener.stop();
  }

  /**
   * Whether any listener is due for a resync; remembers which ones for the Sync deltas to come.
   * @mirrors (*k8s.io/client-go/tools/cache.sharedProcessor).shouldResync
   */
  shouldResync(): boolean {
    this.syncingListeners = [];
    let resyncNeeded = false;
    const now = this.clock.now();
    for (const listener of this.listeners) {
      if (listener.shouldResync(now)) {
        resyncNeeded = true;
        this.syncingListeners.push(listener);
        listener.determineNextResync(now);
      }
    }
    if (resyncNeeded) {
      this.timeline?.emit(
        'informer',
        'resync due',
        '-',
        `listeners: ${this.syncingListeners.map((l) => l.options.name).join(', ')}`,
        '(*k8s.io/client-go/tools/cache.sharedProcessor).shouldResync',
      );
    }
    return resyncNeeded;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedProcessor).resyncCheckPeriodChanged */
  resyncCheckPeriodChanged(resyncCheckPeriodMs: number): void {
    for (const listener of this.listeners) {
      listener.setResyncPeriod(
        determineResyncPeriod(listener.requestedResyncPeriodMs, resyncCheckPeriodMs),
      );
    }
  }
}

/** @mirrors k8s.io/client-go/tools/cache.determineResyncPeriod */
export function determineResyncPeriod(desiredMs: number, checkMs: number): number {
  if (desiredMs === 0) return 0;
  if (checkMs === 0) return 0; // this informer does not resync at all
  return Math.max(desiredMs, checkMs);
}

/** @mirrors k8s.io/client-go/tools/cache.Config */
export interface CacheControllerConfig {
  queue: DeltaFIFO;
  listerWatcher: ListerWatcher;
  name: string;
  fullResyncPeriodMs: number;
  shouldResync?: () => boolean;
  process: PopProcessFunc;
  retryOnError: boolean;
}

/**
 * The low-level controller under an informer: a reflector filling the queue and a loop popping it.
 * @mirrors k8s.io/client-go/tools/cache.controller
 * @mirrors k8s.io/client-go/tools/cache.New
 */
export class CacheController {
  reflector: Reflector | undefined;

  constructor(
    private readonly config: CacheControllerConfig,
    private readonly clock: VirtualClock,
    private readonly rand: SeededRandom,
    private readonly timeline: Timeline | undefined,
  ) {}

  /** @mirrors (*k8s.io/client-go/tools/cache.controller).Run */
  *run(stop: StopChannel): Proc {
    stop.onClose(() => this.config.queue.close());
    const reflector = new Reflector({
      name: this.config.name,
      listerWatcher: this.config.listerWatcher,
      store: this.config.queue,
      resyncPeriodMs: this.config.fullResyncPeriodMs,
      clock: this.clock,
      rand: this.rand,
      ...(this.timeline ? { timeline: this.timeline } : {}),
    });
    reflector.shouldResync = this.config.shouldResync;
    this.reflector = reflector;
    this.clock.go(reflector.run(stop));
    yield* this.processLoop();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.controller).HasSynced */
  hasSynced(): boolean {
    return this.config.queue.hasSynced();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.controller).LastSyncResourceVersion */
  lastSyncResourceVersion(): string {
    return this.reflector?.lastSyncResourceVersion() ?? '';
  }

  /**
   * Pops the DeltaFIFO until it closes.
   * @mirrors (*k8s.io/client-go/tools/cache.controller).processLoop
   */
  *processLoop(): Proc {
    for (;;) {
      const { deltas, err } = yield* this.config.queue.pop(this.config.process);
      if (err === ErrFIFOClosed) return;
      if (err && this.config.retryOnError && deltas) this.config.queue.addIfNotPresent(deltas);
    }
  }
}

/** The store side of processDeltas: an indexer, or anything keyed the same way. */
export interface ClientState {
  get(obj: CacheEntry): CacheEntry | undefined;
  add(obj: CacheEntry): void;
  update(obj: CacheEntry): void;
  delete(obj: CacheEntry): void;
}

/**
 * Applies deltas, oldest first, to the store and tells the handler: the store is updated before
 * the notification, so a handler that reads the cache sees at least the state it is told about.
 * @mirrors k8s.io/client-go/tools/cache.processDeltas
 * @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).HandleDeltas
 */
export function processDeltas(
  handler: ResourceEventHandler,
  clientState: ClientState,
  deltas: Deltas,
  timeline?: Timeline,
): Error | undefined {
  for (const d of deltas) {
    const obj = d.object;
    switch (d.type) {
      case 'Sync':
      case 'Replaced':
      case 'Added':
      case 'Updated': {
        const old = clientState.get(obj);
        if (old !== undefined) {
          clientState.update(obj);
          timeline?.emit(
            'indexer',
            'Update',
            deletionHandlingMetaNamespaceKeyFunc(obj),
            `${d.type} delta: ${describeObject(obj)} -> OnUpdate`,
            'k8s.io/client-go/tools/cache.processDeltas',
          );
          handler.onUpdate(old as KubeObject, obj as KubeObject);
        } else {
          clientState.add(obj);
          timeline?.emit(
            'indexer',
            'Add',
            deletionHandlingMetaNamespaceKeyFunc(obj),
            `${d.type} delta: ${describeObject(obj)} -> OnAdd`,
            'k8s.io/client-go/tools/cache.processDeltas',
          );
          handler.onAdd(obj as KubeObject);
        }
        break;
      }
      case 'Deleted':
        clientState.delete(obj);
        timeline?.emit(
          'indexer',
          'Delete',
          deletionHandlingMetaNamespaceKeyFunc(obj),
          `Deleted delta: ${describeObject(obj)} -> OnDelete`,
          'k8s.io/client-go/tools/cache.processDeltas',
        );
        handler.onDelete(obj);
        break;
    }
  }
  return undefined;
}

export interface SharedIndexInformerOptions {
  /** The resource's name in the timeline: `Pod`, `ReplicaSet`. */
  name: string;
  listerWatcher: ListerWatcher;
  /** The default resync period of handlers; 0 turns resync off. @default 0 */
  defaultEventHandlerResyncPeriodMs?: number;
  /** @default the namespace index */
  indexers?: Indexers;
  clock: VirtualClock;
  rand: SeededRandom;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/client-go/tools/cache.sharedIndexInformer
 * @mirrors k8s.io/client-go/tools/cache.NewSharedIndexInformer
 */
export class SharedIndexInformer {
  readonly indexer: Indexer;
  readonly processor: SharedProcessor;
  private controller: CacheController | undefined;
  private started = false;
  private stopped = false;
  private resyncCheckPeriodMs: number;
  private readonly defaultEventHandlerResyncPeriodMs: number;
  readonly name: string;
  private readonly listerWatcher: ListerWatcher;
  private readonly clock: VirtualClock;
  private readonly rand: SeededRandom;
  private readonly timeline: Timeline | undefined;
  /** The informer's own handler: what processDeltas calls, turning deltas into notifications. */
  private readonly distributor: ResourceEventHandler;

  constructor(options: SharedIndexInformerOptions) {
    this.name = options.name;
    this.listerWatcher = options.listerWatcher;
    this.clock = options.clock;
    this.rand = options.rand;
    this.timeline = options.timeline;
    this.defaultEventHandlerResyncPeriodMs = options.defaultEventHandlerResyncPeriodMs ?? 0;
    this.resyncCheckPeriodMs = this.defaultEventHandlerResyncPeriodMs;
    this.indexer = new Indexer(
      deletionHandlingMetaNamespaceKeyFunc,
      options.indexers ?? { [NamespaceIndex]: metaNamespaceIndexFunc },
    );
    this.processor = new SharedProcessor(options.clock, options.timeline);
    this.distributor = {
      onAdd: (obj) => this.onAdd(obj),
      onUpdate: (oldObj, newObj) => this.onUpdate(oldObj, newObj),
      onDelete: (obj) => this.onDelete(obj),
    };
  }

  /**
   * @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).Run
   */
  *run(stop: StopChannel): Proc {
    if (this.started) return; // "run more than once is not allowed"
    const fifo = new DeltaFIFO({
      knownObjects: this.indexer,
      emitDeltaTypeReplaced: true,
      ...(this.timeline ? { timeline: this.timeline } : {}),
    });
    this.controller = new CacheController(
      {
        queue: fifo,
        listerWatcher: this.listerWatcher,
        name: this.name,
        fullResyncPeriodMs: this.resyncCheckPeriodMs,
        shouldResync: () => this.processor.shouldResync(),
        process: (deltas) => this.handleDeltas(deltas),
        retryOnError: false,
      },
      this.clock,
      this.rand,
      this.timeline,
    );
    this.started = true;
    // The processor stops strictly after the controller, as Go's separate processorStopCh ensures.
    const processorStop = new StopChannel();
    this.clock.go(this.processor.run(processorStop));
    yield* this.controller.run(stop);
    this.stopped = true;
    processorStop.close();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).HasSynced */
  hasSynced(): boolean {
    return this.controller?.hasSynced() ?? false;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).LastSyncResourceVersion */
  lastSyncResourceVersion(): string {
    return this.controller?.lastSyncResourceVersion() ?? '';
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).GetIndexer */
  getIndexer(): Indexer {
    return this.indexer;
  }

  /** How many times the reflector listed (1 after start; more after each forced relist). */
  get listCount(): number {
    return this.controller?.reflector?.listCount ?? 0;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).AddEventHandler */
  addEventHandler(
    handler: ResourceEventHandler,
    options: ListenerOptions,
  ): ProcessorListener | undefined {
    return this.addEventHandlerWithResyncPeriod(
      handler,
      this.defaultEventHandlerResyncPeriodMs,
      options,
    );
  }

  /**
   * Registers a handler. Added after the informer started, it first gets an Add for every object
   * already in the indexer, so every handler sees the same world whenever it joins.
   * @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).AddEventHandlerWithResyncPeriod
   */
  addEventHandlerWithResyncPeriod(
    handler: ResourceEventHandler,
    resyncPeriodMs: number,
    options: ListenerOptions,
  ): ProcessorListener | undefined {
    if (this.stopped) return undefined;
    let period = resyncPeriodMs;
    if (period > 0) {
      if (period < minimumResyncPeriodMs) period = minimumResyncPeriodMs;
      if (period < this.resyncCheckPeriodMs) {
        if (this.started) {
          period = this.resyncCheckPeriodMs;
        } else {
          this.resyncCheckPeriodMs = period;
          this.processor.resyncCheckPeriodChanged(period);
        }
      }
    }
    const listener = new ProcessorListener(
      handler,
      period,
      determineResyncPeriod(period, this.resyncCheckPeriodMs),
      this.clock.now(),
      options,
      this.clock,
      this.timeline,
    );
    this.processor.addListener(listener);
    if (!this.started) return listener;
    const existing = this.indexer.objects();
    this.timeline?.emit(
      'informer',
      'late handler',
      options.name,
      `replaying ${existing.length} object(s) from the indexer as Add`,
      '(*k8s.io/client-go/tools/cache.sharedIndexInformer).AddEventHandlerWithResyncPeriod',
    );
    for (const item of existing) listener.add({ type: 'add', newObj: item });
    return listener;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).HandleDeltas */
  handleDeltas(deltas: Deltas): Error | undefined {
    return processDeltas(this.distributor, this.indexer, deltas, this.timeline);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).OnAdd */
  private onAdd(obj: KubeObject): void {
    this.processor.distribute({ type: 'add', newObj: obj }, false);
  }

  /**
   * An update that did not change the resource version is a resync: only listeners due for a
   * resync hear of it.
   * @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).OnUpdate
   */
  private onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    const isSync = oldObj.metadata.resourceVersion === newObj.metadata.resourceVersion;
    this.processor.distribute({ type: 'update', oldObj, newObj }, isSync);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.sharedIndexInformer).OnDelete */
  private onDelete(obj: CacheEntry): void {
    this.processor.distribute({ type: 'delete', oldObj: obj }, false);
  }
}

/** Go's syncedPollPeriod. */
const syncedPollPeriodMs = 100;

/**
 * Polls every 100ms until every informer has synced; false if `stop` closed first.
 * @mirrors k8s.io/client-go/tools/cache.WaitForCacheSync
 * @mirrors k8s.io/client-go/tools/cache.WaitForNamedCacheSync
 */
export function* waitForCacheSync(
  clock: VirtualClock,
  stop: StopChannel,
  ...synced: (() => boolean)[]
): Proc<boolean> {
  for (;;) {
    if (synced.every((fn) => fn())) return true;
    if (!(yield* sleepUntilStopped(clock, syncedPollPeriodMs, stop))) return false;
  }
}
