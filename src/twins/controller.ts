/**
 * The controller worker loop: wait for the caches, start N workers, and let each one take a key,
 * sync it, and tell the queue how it went — Forget on success, AddRateLimited on failure, and
 * after too many failures Forget and drop the key (the next event for it starts afresh).
 *
 * Mirrors staging/src/k8s.io/sample-controller/controller.go and
 * staging/src/k8s.io/client-go/examples/workqueue/main.go at Kubernetes v1.24: Run (WaitForCacheSync,
 * `go wait.Until(runWorker, time.Second, stopCh)` per worker, ShutDown on exit), runWorker,
 * processNextWorkItem / processNextItem (Get, defer Done, sync), handleErr (NumRequeues < max ->
 * AddRateLimited, else Forget and drop).
 * Left out: event recording, klog, and wait.Until's restart of a worker that returned (twin
 * workers only return on shutdown).
 */
import { isProc, sleep, type Proc, type StopChannel, type VirtualClock } from './sim/clock.js';
import type { Timeline } from './sim/timeline.js';
import { ResourceEventHandlerFuncs, waitForCacheSync } from './informer.js';
import { deletionHandlingMetaNamespaceKeyFunc, metaNamespaceKeyFunc } from './objects.js';
import type { RateLimitingQueue } from './workqueue.js';

/**
 * Syncs one key and returns an error to have it retried. A plain function takes no virtual time;
 * a generator may (`yield* sleep(...)`) to model a slow sync.
 */
export type SyncHandler = (key: string) => Proc<Error | undefined> | Error | undefined;

export interface ControllerOptions {
  clock: VirtualClock;
  queue: RateLimitingQueue<string>;
  syncHandler: SyncHandler;
  /** What must have synced before workers start (the informers' HasSynced). */
  cacheSyncs?: (() => boolean)[];
  /**
   * Failures after which a key is dropped (the workqueue example's 5).
   * @default 5
   */
  maxRetries?: number;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/sample-controller.Controller
 * @mirrors k8s.io/client-go/examples/workqueue.Controller
 * @mirrors k8s.io/client-go/examples/workqueue.NewController
 */
export class Controller {
  private readonly clock: VirtualClock;
  readonly queue: RateLimitingQueue<string>;
  private readonly syncHandler: SyncHandler;
  private readonly cacheSyncs: (() => boolean)[];
  private readonly maxRetries: number;
  private readonly timeline: Timeline | undefined;
  /** Keys dropped after maxRetries failures. */
  readonly dropped: string[] = [];

  constructor(options: ControllerOptions) {
    this.clock = options.clock;
    this.queue = options.queue;
    this.syncHandler = options.syncHandler;
    this.cacheSyncs = options.cacheSyncs ?? [];
    this.maxRetries = options.maxRetries ?? 5;
    this.timeline = options.timeline;
  }

  /**
   * @mirrors (*k8s.io/sample-controller.Controller).Run
   * @mirrors (*k8s.io/client-go/examples/workqueue.Controller).Run
   */
  *run(workers: number, stop: StopChannel): Proc {
    if (!(yield* waitForCacheSync(this.clock, stop, ...this.cacheSyncs))) {
      this.timeline?.emit(
        'controller',
        'stopped',
        '-',
        'caches never synced',
        'k8s.io/client-go/tools/cache.WaitForCacheSync',
      );
      this.queue.shutDown();
      return;
    }
    this.timeline?.emit(
      'controller',
      'caches synced',
      '-',
      `starting ${workers} worker(s)`,
      '(*k8s.io/sample-controller.Controller).Run',
    );
    for (let i = 1; i <= workers; i++) this.clock.go(this.runWorker(i));
    yield* stop.wait();
    this.queue.shutDown();
  }

  /**
   * @mirrors (*k8s.io/sample-controller.Controller).runWorker
   * @mirrors (*k8s.io/client-go/examples/workqueue.Controller).runWorker
   */
  *runWorker(id: number): Proc {
    while (yield* this.processNextWorkItem(id)) {
      // Each iteration handles one key; yield to let other goroutines run between keys.
      yield* sleep(this.clock, 0);
    }
  }

  /**
   * @mirrors (*k8s.io/sample-controller.Controller).processNextWorkItem
   * @mirrors (*k8s.io/client-go/examples/workqueue.Controller).processNextItem
   */
  *processNextWorkItem(id: number): Proc<boolean> {
    const [key, quit] = yield* this.queue.get();
    if (quit || key === undefined) return false;
    const worker = `worker-${id}`;
    this.timeline?.emit(
      worker,
      'Get',
      key,
      'sync starts',
      '(*k8s.io/sample-controller.Controller).processNextWorkItem',
    );
    try {
      const outcome = this.syncHandler(key);
      const err = isProc<Error | undefined>(outcome) ? yield* outcome : outcome;
      this.handleErr(err, key, worker);
    } finally {
      this.queue.done(key);
    }
    return true;
  }

  /**
   * @mirrors (*k8s.io/client-go/examples/workqueue.Controller).handleErr
   * @mirrors (*k8s.io/sample-controller.Controller).processNextWorkItem$1
   */
  handleErr(err: Error | undefined, key: string, worker = 'worker'): void {
    if (!err) {
      this.timeline?.emit(
        worker,
        'synced',
        key,
        'Forget: reset its backoff',
        '(*k8s.io/client-go/examples/workqueue.Controller).handleErr',
      );
      this.queue.forget(key);
      return;
    }
    if (this.queue.numRequeues(key) < this.maxRetries) {
      this.timeline?.emit(
        worker,
        'sync failed',
        key,
        `${err.message}; AddRateLimited`,
        '(*k8s.io/client-go/examples/workqueue.Controller).handleErr',
      );
      this.queue.addRateLimited(key);
      return;
    }
    this.timeline?.emit(
      worker,
      'dropped',
      key,
      `${err.message}; gave up after ${this.maxRetries} retries: Forget`,
      '(*k8s.io/client-go/examples/workqueue.Controller).handleErr',
    );
    this.queue.forget(key);
    this.dropped.push(key);
  }
}

/**
 * The handler a controller registers on its informer: every add, update and delete puts the
 * object's key in the queue (a tombstone's key for a delete noticed by a relist). Keys, not
 * objects: the worker reads the latest state from the indexer when it gets to the key.
 * @mirrors (*k8s.io/sample-controller.Controller).enqueueFoo
 * @mirrors k8s.io/client-go/examples/workqueue.main$1
 */
export function enqueueingHandler(queue: { add(key: string): void }): ResourceEventHandlerFuncs {
  return new ResourceEventHandlerFuncs({
    addFunc: (obj) => queue.add(metaNamespaceKeyFunc(obj)),
    updateFunc: (_old, obj) => queue.add(metaNamespaceKeyFunc(obj)),
    deleteFunc: (obj) => queue.add(deletionHandlingMetaNamespaceKeyFunc(obj)),
  });
}
