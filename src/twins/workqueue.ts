/**
 * The work queue every controller drains: a queue of keys with two sets that make it safe for
 * many workers. `dirty` holds keys that need processing; `processing` holds keys a worker has.
 * A key is queued at most once; a key that is being processed is never handed to a second worker,
 * and if it is added meanwhile it comes back, once, after Done. On top: a delaying queue (AddAfter)
 * and a rate-limited queue (per-item exponential backoff, an overall token bucket, Forget).
 *
 * Mirrors staging/src/k8s.io/client-go/util/workqueue/{queue.go,delaying_queue.go,
 * rate_limiting_queue.go,default_rate_limiters.go} at Kubernetes v1.24 (client-go v0.24), and the
 * token bucket of vendor/golang.org/x/time/rate/rate.go. Since client-go v0.31 the same types are
 * generic (Typed[T], delayingType[T], rateLimitingType[T]); tags name both.
 * Left out: metrics, the delaying queue's 10s heartbeat (the virtual clock fires the head timer
 * exactly), and the fast/slow limiter. Items are compared with `===`, so use strings (Go compares
 * comparable values; controller-runtime's Request struct becomes its `namespace/name` here).
 */
import { Cond, type Proc, type Timer, type VirtualClock } from './sim/clock.js';
import { RingGrowing } from './sim/buffer.js';
import { KeyedHeap } from './sim/heap.js';
import { formatMs, type Timeline } from './sim/timeline.js';

export interface WorkQueueOptions {
  clock: VirtualClock;
  /** The queue's name in the timeline. @default 'workqueue' */
  name?: string;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/client-go/util/workqueue.Type
 * @mirrors k8s.io/client-go/util/workqueue.New
 * @mirrors k8s.io/client-go/util/workqueue.NewNamed
 * @mirrors k8s.io/client-go/util/workqueue.Typed
 */
export class WorkQueue<T> {
  /** Keys waiting for a worker, in order. */
  private readonly queue = new RingGrowing<T>(64);
  /** Keys that need processing (queued, or added again while being processed). */
  private readonly dirty = new Set<T>();
  /** Keys a worker holds right now. */
  private readonly processing = new Set<T>();
  private readonly cond = new Cond();
  private shuttingDownFlag = false;
  private drain = false;
  protected readonly clock: VirtualClock;
  readonly name: string;
  protected readonly timeline: Timeline | undefined;

  constructor(options: WorkQueueOptions) {
    this.clock = options.clock;
    this.name = options.name ?? 'workqueue';
    this.timeline = options.timeline;
  }

  /**
   * Marks the item as needing processing. Already dirty: nothing to do (deduplicated). Being
   * processed: only marked dirty; Done will queue it again.
   * @mirrors (*k8s.io/client-go/util/workqueue.Type).Add
   * @mirrors (*k8s.io/client-go/util/workqueue.Typed[T]).Add
   */
  add(item: T): void {
    if (this.shuttingDownFlag) return;
    if (this.dirty.has(item)) {
      this.timeline?.emit(
        this.name,
        'Add',
        String(item),
        'already queued: deduplicated',
        '(*k8s.io/client-go/util/workqueue.Type).Add',
      );
      return;
    }
    this.dirty.add(item);
    if (this.processing.has(item)) {
      this.timeline?.emit(
        this.name,
        'Add',
        String(item),
        'being processed: marked dirty, back after Done',
        '(*k8s.io/client-go/util/workqueue.Type).Add',
      );
      return;
    }
    this.queue.writeOne(item);
    this.timeline?.emit(
      this.name,
      'Add',
      String(item),
      `queued (depth ${this.queue.length})`,
      '(*k8s.io/client-go/util/workqueue.Type).Add',
    );
    this.cond.signal();
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.Type).Len */
  len(): number {
    return this.queue.length;
  }

  /**
   * Waits for an item and moves it from dirty to processing. `[undefined, true]` means shut down.
   * @mirrors (*k8s.io/client-go/util/workqueue.Type).Get
   * @mirrors (*k8s.io/client-go/util/workqueue.Typed[T]).Get
   */
  *get(): Proc<[T | undefined, boolean]> {
    while (this.queue.length === 0 && !this.shuttingDownFlag) yield* this.cond.wait();
    if (this.queue.length === 0) return [undefined, true];
    const item = this.queue.readOne() as T;
    this.processing.add(item);
    this.dirty.delete(item);
    return [item, false];
  }

  /**
   * Marks the item done; if it was added again while processed, it goes back in the queue now.
   * @mirrors (*k8s.io/client-go/util/workqueue.Type).Done
   * @mirrors (*k8s.io/client-go/util/workqueue.Typed[T]).Done
   */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.queue.writeOne(item);
      this.timeline?.emit(
        this.name,
        'Done',
        String(item),
        're-queued: it was added while being processed',
        '(*k8s.io/client-go/util/workqueue.Type).Done',
      );
      this.cond.signal();
    } else if (this.processing.size === 0) {
      this.cond.signal();
    }
  }

  /**
   * Ignores new items and tells the workers to exit once the queue is empty.
   * @mirrors (*k8s.io/client-go/util/workqueue.Type).ShutDown
   * @mirrors (*k8s.io/client-go/util/workqueue.Typed[T]).ShutDown
   */
  shutDown(): void {
    this.drain = false;
    this.shutdown();
  }

  /**
   * Shuts down and waits until every item being processed is Done.
   * @mirrors (*k8s.io/client-go/util/workqueue.Type).ShutDownWithDrain
   */
  *shutDownWithDrain(): Proc {
    this.drain = true;
    this.shutdown();
    while (this.processing.size !== 0 && this.drain) yield* this.cond.wait();
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.Type).ShuttingDown */
  shuttingDown(): boolean {
    return this.shuttingDownFlag;
  }

  /** What the queue holds: for timelines and tests of the invariant. */
  snapshot(): { queue: T[]; dirty: T[]; processing: T[] } {
    return {
      queue: this.queue.toArray(),
      dirty: [...this.dirty],
      processing: [...this.processing],
    };
  }

  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  protected shutdown(): void {
    if (this.shuttingDownFlag) return;
    this.shuttingDownFlag = true;
    this.timeline?.emit(
      this.name,
      'ShutDown',
      '-',
      `${this.queue.length} queued, ${this.processing.size} processing`,
      '(*k8s.io/client-go/util/workqueue.Type).ShutDown',
    );
    this.cond.broadcast();
  }
}

interface WaitFor<T> {
  data: T;
  readyAt: number;
  seq: number;
}

/**
 * A work queue whose items can be added after a delay. Waiting items sit in a heap ordered by
 * readiness; adding an item that already waits only ever moves it earlier.
 * @mirrors k8s.io/client-go/util/workqueue.delayingType
 * @mirrors k8s.io/client-go/util/workqueue.NewDelayingQueue
 */
export class DelayingQueue<T> extends WorkQueue<T> {
  private readonly waiting = new KeyedHeap<WaitFor<T>, T>(
    (w) => w.data,
    (a, b) => a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq),
  );
  private seq = 0;
  private headTimer: Timer | undefined;

  /**
   * @mirrors (*k8s.io/client-go/util/workqueue.delayingType).AddAfter
   * @mirrors (*k8s.io/client-go/util/workqueue.delayingType[T]).AddAfter
   */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    this.timeline?.emit(
      this.name,
      'AddAfter',
      String(item),
      `ready in ${formatMs(delayMs)}`,
      '(*k8s.io/client-go/util/workqueue.delayingType).AddAfter',
    );
    this.insert({ data: item, readyAt: this.clock.now() + delayMs, seq: this.seq++ });
    this.armHeadTimer();
  }

  /** How many items wait for their delay. */
  waitingCount(): number {
    return this.waiting.length;
  }

  protected override shutdown(): void {
    this.headTimer?.stop();
    super.shutdown();
  }

  /**
   * @mirrors k8s.io/client-go/util/workqueue.insert
   */
  private insert(entry: WaitFor<T>): void {
    const existing = this.waiting.get(entry.data);
    if (existing) {
      if (existing.readyAt > entry.readyAt) {
        existing.readyAt = entry.readyAt;
        this.waiting.update(entry.data);
      }
      return;
    }
    this.waiting.add(entry);
  }

  /**
   * Moves every ready item into the queue and sleeps until the next one is due.
   * @mirrors (*k8s.io/client-go/util/workqueue.delayingType).waitingLoop
   */
  private armHeadTimer(): void {
    this.headTimer?.stop();
    this.headTimer = undefined;
    const head = this.waiting.peek();
    if (!head || this.shuttingDown()) return;
    this.headTimer = this.clock.after(head.readyAt - this.clock.now(), () => {
      const now = this.clock.now();
      for (
        let next = this.waiting.peek();
        next && next.readyAt <= now;
        next = this.waiting.peek()
      ) {
        this.waiting.pop();
        this.add(next.data);
      }
      this.armHeadTimer();
    });
  }
}

/**
 * @mirrors k8s.io/client-go/util/workqueue.RateLimiter
 */
export interface RateLimiter<T> {
  /** How long to wait before the item may be processed again (and count a failure). */
  when(item: T): number;
  /** Stops tracking the item: its next failure starts from the base delay. */
  forget(item: T): void;
  numRequeues(item: T): number;
}

/**
 * baseDelay * 2^failures, capped at maxDelay, per item.
 * @mirrors k8s.io/client-go/util/workqueue.ItemExponentialFailureRateLimiter
 * @mirrors k8s.io/client-go/util/workqueue.NewItemExponentialFailureRateLimiter
 */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs: number,
    private readonly maxDelayMs: number,
  ) {}

  /** @mirrors (*k8s.io/client-go/util/workqueue.ItemExponentialFailureRateLimiter).When */
  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    return Math.min(this.baseDelayMs * 2 ** exp, this.maxDelayMs);
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.ItemExponentialFailureRateLimiter).NumRequeues */
  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.ItemExponentialFailureRateLimiter).Forget */
  forget(item: T): void {
    this.failures.delete(item);
  }
}

/**
 * An overall token bucket (qps, burst) shared by every item: retries of everything together
 * cannot exceed qps once the burst is spent.
 * @mirrors k8s.io/client-go/util/workqueue.BucketRateLimiter
 * @mirrors (*golang.org/x/time/rate.Limiter).Reserve
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: VirtualClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /**
   * Reserves a token; the delay is how long until that token exists.
   * @mirrors (*k8s.io/client-go/util/workqueue.BucketRateLimiter).When
   * @mirrors (*golang.org/x/time/rate.Limiter).reserveN
   */
  when(_item: T): number {
    const now = this.clock.now();
    const elapsedSeconds = Math.max(0, now - this.last) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsedSeconds * this.qps) - 1;
    this.last = now;
    return this.tokens < 0 ? (-this.tokens / this.qps) * 1000 : 0;
  }

  numRequeues(_item: T): number {
    return 0;
  }

  forget(_item: T): void {
    // The bucket is shared; there is nothing per item to forget.
  }
}

/**
 * The worst (longest) of several limiters.
 * @mirrors k8s.io/client-go/util/workqueue.MaxOfRateLimiter
 * @mirrors k8s.io/client-go/util/workqueue.NewMaxOfRateLimiter
 */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.MaxOfRateLimiter).When */
  when(item: T): number {
    let ret = 0;
    for (const limiter of this.limiters) ret = Math.max(ret, limiter.when(item));
    return ret;
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.MaxOfRateLimiter).NumRequeues */
  numRequeues(item: T): number {
    let ret = 0;
    for (const limiter of this.limiters) ret = Math.max(ret, limiter.numRequeues(item));
    return ret;
  }

  /** @mirrors (*k8s.io/client-go/util/workqueue.MaxOfRateLimiter).Forget */
  forget(item: T): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }
}

/**
 * Per item 5ms doubling to 1000s, and overall 10 qps with a burst of 100.
 * @mirrors k8s.io/client-go/util/workqueue.DefaultControllerRateLimiter
 */
export function defaultControllerRateLimiter<T>(clock: VirtualClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    new BucketRateLimiter<T>(10, 100, clock),
  );
}

export interface RateLimitingQueueOptions<T> extends WorkQueueOptions {
  /** @default defaultControllerRateLimiter */
  rateLimiter?: RateLimiter<T>;
}

/**
 * @mirrors k8s.io/client-go/util/workqueue.rateLimitingType
 * @mirrors k8s.io/client-go/util/workqueue.NewRateLimitingQueue
 * @mirrors k8s.io/client-go/util/workqueue.NewNamedRateLimitingQueue
 */
export class RateLimitingQueue<T> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T>) {
    super(options);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(options.clock);
  }

  /**
   * Adds the item after the rate limiter says it may go again.
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType).AddRateLimited
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType[T]).AddRateLimited
   */
  addRateLimited(item: T): void {
    const delay = this.rateLimiter.when(item);
    this.timeline?.emit(
      this.name,
      'AddRateLimited',
      String(item),
      `retry #${this.rateLimiter.numRequeues(item)} after ${formatMs(delay)}`,
      '(*k8s.io/client-go/util/workqueue.rateLimitingType).AddRateLimited',
    );
    this.addAfter(item, delay);
  }

  /**
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType).NumRequeues
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType[T]).NumRequeues
   */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * Stops the backoff for an item: after success, or after giving up.
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType).Forget
   * @mirrors (*k8s.io/client-go/util/workqueue.rateLimitingType[T]).Forget
   */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }
}
