/**
 * The reflector: list everything once, then watch from the list's resource version, feeding every
 * event into a store (a DeltaFIFO in an informer). When the watch ends normally it re-watches from
 * the last version it saw; when the server says that version is gone (410 Expired) or the watch
 * dies young, it backs off and relists, and the store's Replace reconciles what was missed.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/reflector.go at Kubernetes v1.24 (client-go
 * v0.24): Run (BackoffUntil over ListAndWatch with the 800ms..30s exponential manager),
 * ListAndWatch (list at relistResourceVersion — "0" first, the last synced version later, "" after
 * an Expired list — then watch with a jittered 5..10 minute timeout), the resync goroutine
 * (ShouldResync, store.Resync every resyncPeriod), watchHandler (ERROR events become errors, the
 * "very short watch" check), and relistResourceVersion.
 * Left out: pagination and the pager, the expected-type checks, bookmarks, the watch-list
 * streaming of later versions, and ResourceVersionUpdater.
 */
import { StopChannel, sleepUntilStopped, type Proc, type VirtualClock } from './sim/clock.js';
import type { SeededRandom } from './sim/random.js';
import type { Timeline } from './sim/timeline.js';
import {
  ApiError,
  isConnectionRefused,
  isResourceExpired,
  isTooManyRequests,
  type FakeWatch,
  type KindListerWatcher,
  type ListResult,
} from './apiserver.js';
import { ExponentialBackoffManager, backoffUntil } from './backoff.js';
import {
  describeObject,
  metaNamespaceKeyFunc,
  type CacheEntry,
  type KubeObject,
} from './objects.js';

/** @mirrors k8s.io/client-go/tools/cache.ListerWatcher */
export type ListerWatcher = KindListerWatcher;

/** What a reflector writes into: a DeltaFIFO or a plain store. */
export interface ReflectorStore {
  add(obj: CacheEntry): void;
  update(obj: CacheEntry): void;
  delete(obj: CacheEntry): void;
  replace(list: readonly CacheEntry[], resourceVersion: string): void;
  resync(): void;
}

/** Watches shorter than this with no events count as failures ("very short watch"). */
const minWatchDurationMs = 1000;
/** minWatchTimeout: watches are asked to end after 5..10 minutes so that none hang forever. */
const minWatchTimeoutMs = 5 * 60 * 1000;

export interface ReflectorOptions {
  /** Used in the timeline, as the reflector's name is in klog lines. */
  name: string;
  listerWatcher: ListerWatcher;
  store: ReflectorStore;
  /** 0 disables resync. */
  resyncPeriodMs: number;
  clock: VirtualClock;
  rand: SeededRandom;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/client-go/tools/cache.Reflector
 * @mirrors k8s.io/client-go/tools/cache.NewReflector
 * @mirrors k8s.io/client-go/tools/cache.NewNamedReflector
 */
export class Reflector {
  /** Asked before each periodic resync; the informer plugs its listeners' schedule in here. */
  shouldResync: (() => boolean) | undefined;
  private lastSyncResourceVersionValue = '';
  private isLastSyncResourceVersionUnavailable = false;
  private readonly backoffManager: ExponentialBackoffManager;
  private readonly initConnBackoffManager: ExponentialBackoffManager;
  readonly name: string;
  private readonly listerWatcher: ListerWatcher;
  private readonly store: ReflectorStore;
  /** How the timeline names the store: `DeltaFIFO` in an informer. */
  private readonly storeName: string;
  private readonly resyncPeriodMs: number;
  private readonly clock: VirtualClock;
  private readonly rand: SeededRandom;
  private readonly timeline: Timeline | undefined;
  /** How many times the reflector has listed (tests and timelines count relists). */
  listCount = 0;

  constructor(options: ReflectorOptions) {
    this.name = options.name;
    this.listerWatcher = options.listerWatcher;
    this.store = options.store;
    const className = (options.store as { constructor?: { name?: string } }).constructor?.name;
    this.storeName = className && className !== 'Object' ? className : 'store';
    this.resyncPeriodMs = options.resyncPeriodMs;
    this.clock = options.clock;
    this.rand = options.rand;
    this.timeline = options.timeline;
    this.backoffManager = ExponentialBackoffManager.forReflector(options.clock, options.rand);
    this.initConnBackoffManager = ExponentialBackoffManager.forReflector(
      options.clock,
      options.rand,
    );
  }

  /**
   * ListAndWatch again and again, with backoff between attempts, until `stop` closes.
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).Run
   */
  *run(stop: StopChannel): Proc {
    yield* backoffUntil(
      this.clock,
      () => this.runListAndWatchOnce(stop),
      this.backoffManager,
      stop,
      (ms) =>
        this.timeline?.emit(
          'reflector',
          'backoff',
          this.name,
          `ListAndWatch again in ${Math.round(ms)}ms`,
          'k8s.io/apimachinery/pkg/util/wait.BackoffUntil',
        ),
    );
  }

  private *runListAndWatchOnce(stop: StopChannel): Proc {
    const err = yield* this.listAndWatch(stop);
    if (err) {
      // DefaultWatchErrorHandler: log and let Run back off.
      this.timeline?.emit(
        'reflector',
        'error',
        this.name,
        err.message,
        'k8s.io/client-go/tools/cache.DefaultWatchErrorHandler',
      );
    }
  }

  /**
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).ListAndWatch
   */
  *listAndWatch(stop: StopChannel): Proc<Error | undefined> {
    let resourceVersion: string;
    let listed: ListResult;
    try {
      listed = this.listOnce(this.relistResourceVersion());
    } catch (err) {
      if (!(isResourceExpired(err) || isTooLargeResourceVersionError(err))) {
        return new Error(`failed to list: ${(err as Error).message}`);
      }
      // The version we listed at is gone: fall back to a consistent read of the latest state.
      this.setIsLastSyncResourceVersionUnavailable(true);
      try {
        listed = this.listOnce(this.relistResourceVersion());
      } catch (retryErr) {
        return new Error(`failed to list: ${(retryErr as Error).message}`);
      }
    }
    this.setIsLastSyncResourceVersionUnavailable(false);
    resourceVersion = listed.resourceVersion;
    this.syncWith(listed.items, resourceVersion);
    this.setLastSyncResourceVersion(resourceVersion);

    // The resync goroutine lives as long as this ListAndWatch call (Go closes cancelCh on return).
    const cancel = new StopChannel();
    const unsubscribe = stop.onClose(() => cancel.close());
    if (this.resyncPeriodMs > 0) this.clock.go(this.resyncLoop(cancel));
    try {
      while (!stop.closed) {
        const timeoutSeconds = Math.floor((minWatchTimeoutMs / 1000) * (this.rand.float64() + 1));
        const start = this.clock.now();
        let w: FakeWatch;
        try {
          w = this.listerWatcher.watch({ resourceVersion, timeoutSeconds });
        } catch (err) {
          if (isConnectionRefused(err) || isTooManyRequests(err)) {
            // The server is probably down; keep our place and retry the watch, without a relist.
            const ms = this.initConnBackoffManager.next();
            this.timeline?.emit(
              'reflector',
              'watch refused',
              this.name,
              `${(err as Error).message}; retry in ${Math.round(ms)}ms`,
              '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
            );
            if (!(yield* sleepUntilStopped(this.clock, ms, stop))) return undefined;
            continue;
          }
          return err as Error;
        }
        const rvRef = { value: resourceVersion };
        const err = yield* this.watchHandler(start, w, rvRef, stop);
        resourceVersion = rvRef.value;
        if (err) {
          if (err !== errorStopRequested) {
            if (isResourceExpired(err)) {
              this.timeline?.emit(
                'reflector',
                'watch expired',
                this.name,
                `${err.message}; relist`,
                '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
              );
            } else if (isTooManyRequests(err)) {
              const ms = this.initConnBackoffManager.next();
              if (!(yield* sleepUntilStopped(this.clock, ms, stop))) return undefined;
              continue;
            } else {
              this.timeline?.emit(
                'reflector',
                'watch ended',
                this.name,
                `${err.message}; relist`,
                '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
              );
            }
          }
          return undefined;
        }
        this.timeline?.emit(
          'reflector',
          'rewatch',
          this.name,
          `watch closed; resume from rv=${resourceVersion}`,
          '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
        );
      }
      return undefined;
    } finally {
      unsubscribe();
      cancel.close();
    }
  }

  private listOnce(resourceVersion: string): ListResult {
    this.listCount++;
    const listed = this.listerWatcher.list({ resourceVersion });
    this.timeline?.emit(
      'reflector',
      'list',
      this.name,
      `${listed.items.length} items at rv=${listed.resourceVersion} (asked rv=${JSON.stringify(resourceVersion)}) -> ${this.storeName}.Replace`,
      '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
    );
    return listed;
  }

  /**
   * Every resyncPeriod, if the informer's listeners want it, re-deliver the store.
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).ListAndWatch$2
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).startResync
   */
  private *resyncLoop(cancel: StopChannel): Proc {
    for (;;) {
      if (!(yield* sleepUntilStopped(this.clock, this.resyncPeriodMs, cancel))) return;
      if (this.shouldResync === undefined || this.shouldResync()) {
        this.timeline?.emit(
          'reflector',
          'resync',
          this.name,
          'store.Resync()',
          '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch$2',
        );
        this.store.resync();
      }
    }
  }

  /**
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).syncWith
   */
  syncWith(items: readonly KubeObject[], resourceVersion: string): void {
    this.store.replace(items, resourceVersion);
  }

  /**
   * Feeds watch events into the store until the watch closes, an ERROR event arrives or `stop`
   * closes.
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).watchHandler
   * @mirrors k8s.io/client-go/tools/cache.watchHandler
   * @mirrors k8s.io/client-go/tools/cache.handleWatch
   */
  *watchHandler(
    start: number,
    w: FakeWatch,
    resourceVersion: { value: string },
    stop: StopChannel,
  ): Proc<Error | undefined> {
    let eventCount = 0;
    const unsubscribe = stop.onClose(() => w.stop());
    try {
      for (;;) {
        const [event, ok] = yield* w.resultChan.recv();
        if (stop.closed) return errorStopRequested;
        if (!ok || !event) break;
        if (event.type === 'ERROR') return ApiError.fromStatus(event.object as never);
        const obj = event.object as KubeObject;
        const key = metaNamespaceKeyFunc(obj);
        switch (event.type) {
          case 'ADDED':
            this.timeline?.emit(
              'reflector',
              'watch ADDED',
              key,
              `${describeObject(obj)} -> ${this.storeName}.Add`,
              '(*k8s.io/client-go/tools/cache.Reflector).watchHandler',
            );
            this.store.add(obj);
            break;
          case 'MODIFIED':
            this.timeline?.emit(
              'reflector',
              'watch MODIFIED',
              key,
              `${describeObject(obj)} -> ${this.storeName}.Update`,
              '(*k8s.io/client-go/tools/cache.Reflector).watchHandler',
            );
            this.store.update(obj);
            break;
          case 'DELETED':
            this.timeline?.emit(
              'reflector',
              'watch DELETED',
              key,
              `${describeObject(obj)} -> ${this.storeName}.Delete`,
              '(*k8s.io/client-go/tools/cache.Reflector).watchHandler',
            );
            this.store.delete(obj);
            break;
          case 'BOOKMARK':
            break;
        }
        resourceVersion.value = obj.metadata.resourceVersion;
        this.setLastSyncResourceVersion(obj.metadata.resourceVersion);
        eventCount++;
      }
    } finally {
      unsubscribe();
      w.stop();
    }
    if (this.clock.now() - start < minWatchDurationMs && eventCount === 0) {
      return new Error(
        `very short watch: ${this.name}: Unexpected watch close - watch lasted less than a second and no items received`,
      );
    }
    return undefined;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.Reflector).LastSyncResourceVersion */
  lastSyncResourceVersion(): string {
    return this.lastSyncResourceVersionValue;
  }

  private setLastSyncResourceVersion(rv: string): void {
    this.lastSyncResourceVersionValue = rv;
  }

  /**
   * "0" for the first list (any cached state will do), the last seen version afterwards, and ""
   * (a quorum read) after the server said that version is unavailable.
   * @mirrors (*k8s.io/client-go/tools/cache.Reflector).relistResourceVersion
   */
  relistResourceVersion(): string {
    if (this.isLastSyncResourceVersionUnavailable) return '';
    if (this.lastSyncResourceVersionValue === '') return '0';
    return this.lastSyncResourceVersionValue;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.Reflector).setIsLastSyncResourceVersionUnavailable */
  private setIsLastSyncResourceVersionUnavailable(unavailable: boolean): void {
    this.isLastSyncResourceVersionUnavailable = unavailable;
  }
}

/** @mirrors k8s.io/client-go/tools/cache.errorStopRequested */
const errorStopRequested = new Error('stop requested');

function isTooLargeResourceVersionError(err: unknown): boolean {
  return err instanceof ApiError && err.message.startsWith('Too large resource version');
}
