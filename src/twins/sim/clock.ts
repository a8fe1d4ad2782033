/**
 * The virtual clock every twin runs on: a discrete-event loop with goroutines written as
 * generators. Go code blocks (`cond.Wait()`, `<-ch`, `time.Sleep`); a twin `yield*`s instead, and
 * the clock resumes it when the condition holds or the virtual time arrives. Nothing here touches
 * real time, so a run is a pure function of its inputs and its seed, tests never sleep, and a
 * 100-second scenario finishes in milliseconds.
 *
 * Ordering is total and deterministic: tasks run by (virtual time, scheduling order). A woken
 * goroutine runs as a new task at the current time, as a Go goroutine made runnable would run
 * "soon", never re-entrantly inside the code that woke it.
 *
 * Mirrors the role of k8s.io/utils/clock/testing/fake_clock.go (FakeClock) as vendored in
 * Kubernetes v1.24: Kubernetes tests inject a fake clock and step it; the twins go further and let
 * the clock drive every goroutine. Left out: real parallelism (one task runs at a time, so the
 * twins need no locks; the Go locks they mirror only make that same atomicity hold), `select` over
 * arbitrary channels (a goroutine waits on one thing at a time; stopping closes what it waits on).
 */
import { RingGrowing } from './buffer.js';

/** What a goroutine yields: a function that arranges for `wake` to be called once, later. */
export type Park = (wake: (value?: unknown) => void) => void;

/** A goroutine body: a generator that yields parks and returns a value. */
export type Proc<T = void> = Generator<Park, T, unknown>;

/** A pending callback on the clock; `stop` cancels it if it has not fired. */
export interface Timer {
  /** The virtual time (ms) the timer fires at. */
  readonly at: number;
  /** Cancels the timer; true if it had not fired yet (as Go's `Timer.Stop`). */
  stop(): boolean;
}

interface Task {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
  fired: boolean;
}

/** A binary min-heap of tasks ordered by (at, seq). */
class TaskHeap {
  private items: Task[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Task | undefined {
    return this.items[0];
  }

  push(task: Task): void {
    const items = this.items;
    items.push(task);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): Task | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && before(items[l]!, items[m]!)) m = l;
        if (r < items.length && before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Task, b: Task): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export interface RunOptions {
  /** Stop once virtual time would pass this instant (ms); tasks at exactly `until` still run. */
  until?: number;
  /**
   * Give up after this many tasks: a guard against a scenario that never settles.
   * @default 50_000_000
   */
  maxTasks?: number;
}

/**
 * @mirrors k8s.io/utils/clock/testing.FakeClock
 * @mirrors k8s.io/utils/clock/testing.NewFakeClock
 */
export class VirtualClock {
  private current = 0;
  private seq = 0;
  private readonly timers = new TaskHeap();
  private readonly ready = new RingGrowing<Task>(1024);
  private tasksRun = 0;

  constructor(start = 0) {
    this.current = start;
  }

  /** Virtual milliseconds since the start of the run. */
  now(): number {
    return this.current;
  }

  /** How many tasks have run so far (a cheap progress measure for benchmarks). */
  get steps(): number {
    return this.tasksRun;
  }

  /**
   * Runs `fn` after `ms` virtual milliseconds (at once, as a new task, when `ms <= 0`).
   * @mirrors (*k8s.io/utils/clock/testing.FakeClock).AfterFunc
   */
  after(ms: number, fn: () => void): Timer {
    const task: Task = {
      at: this.current + Math.max(0, ms),
      seq: this.seq++,
      fn,
      cancelled: false,
      fired: false,
    };
    if (task.at === this.current) this.ready.writeOne(task);
    else this.timers.push(task);
    return {
      at: task.at,
      stop: () => {
        if (task.fired || task.cancelled) return false;
        task.cancelled = true;
        return true;
      },
    };
  }

  /** Runs `fn` as a new task at the current time, after the tasks already due now. */
  defer(fn: () => void): void {
    this.ready.writeOne({ at: this.current, seq: this.seq++, fn, cancelled: false, fired: false });
  }

  /** Starts a goroutine: `go f()`. Its first step runs as a new task at the current time. */
  go(body: Proc<unknown>): void {
    const step = (value?: unknown): void => {
      const next = body.next(value);
      if (next.done) return;
      let woken = false;
      next.value((result) => {
        if (woken) return;
        woken = true;
        this.defer(() => step(result));
      });
    };
    this.defer(() => step());
  }

  /**
   * Runs tasks in (time, order) until none is left or `until` is reached; returns the virtual time.
   * @mirrors (*k8s.io/utils/clock/testing.FakeClock).Step
   */
  run(options: RunOptions = {}): number {
    const until = options.until ?? Number.POSITIVE_INFINITY;
    const maxTasks = options.maxTasks ?? 50_000_000;
    for (;;) {
      const task = this.ready.readOne();
      if (task) {
        if (task.cancelled) continue;
        task.fired = true;
        this.tasksRun++;
        if (this.tasksRun > maxTasks) {
          throw new Error(
            `virtual clock: more than ${maxTasks} tasks by t=${this.current}ms; the run does not settle`,
          );
        }
        task.fn();
        continue;
      }
      const next = this.timers.peek();
      if (!next) return this.current;
      if (next.cancelled) {
        this.timers.pop();
        continue;
      }
      if (next.at > until) {
        this.current = Math.max(this.current, until);
        return this.current;
      }
      // Advance time and move every timer due at that instant to the ready queue, in order: they
      // were scheduled before anything that will be scheduled at this instant.
      this.current = next.at;
      while (this.timers.peek() && this.timers.peek()!.at === this.current) {
        const due = this.timers.pop()!;
        if (!due.cancelled) this.ready.writeOne(due);
      }
    }
  }
}

/** Whether a value is a goroutine body (a generator) rather than a plain result. */
export function isProc<T>(value: unknown): value is Proc<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { next?: unknown }).next === 'function' &&
    Symbol.iterator in value
  );
}

/** `time.Sleep(ms)` for a goroutine. */
export function* sleep(clock: VirtualClock, ms: number): Proc {
  yield (wake) => {
    clock.after(ms, () => wake());
  };
}

/**
 * A condition variable, as sync.Cond: `while (!ready) yield* cond.wait();`. Waiters are woken in
 * the order they started waiting.
 */
export class Cond {
  private readonly waiters = new RingGrowing<(value?: unknown) => void>(8);

  *wait(): Proc {
    yield (wake) => this.waiters.writeOne(wake);
  }

  signal(): void {
    this.waiters.readOne()?.();
  }

  broadcast(): void {
    let wake = this.waiters.readOne();
    while (wake) {
      wake();
      wake = this.waiters.readOne();
    }
  }

  get waiting(): number {
    return this.waiters.length;
  }
}

/**
 * An unbounded channel with close: `send` never blocks; `recv` yields until a value or close,
 * and returns `[value, ok]` as Go's `v, ok := <-ch`.
 */
export class Chan<T> {
  private readonly buffer = new RingGrowing<T>(16);
  private readonly cond = new Cond();
  private isClosed = false;

  send(value: T): void {
    if (this.isClosed) return; // a send on a closed channel panics in Go; the twins never do it
    this.buffer.writeOne(value);
    this.cond.signal();
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.cond.broadcast();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get length(): number {
    return this.buffer.length;
  }

  *recv(): Proc<[T | undefined, boolean]> {
    while (this.buffer.length === 0 && !this.isClosed) yield* this.cond.wait();
    if (this.buffer.length === 0) return [undefined, false];
    return [this.buffer.readOne() as T, true];
  }
}

/** A stop channel: closed once; goroutines check `closed` and may wait for it. */
export class StopChannel {
  private isClosed = false;
  private readonly callbacks = new Set<() => void>();

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const callbacks = [...this.callbacks];
    this.callbacks.clear();
    for (const callback of callbacks) callback();
  }

  /** Calls `fn` when the channel closes (at once if it already has); returns an unsubscribe. */
  onClose(fn: () => void): () => void {
    if (this.isClosed) {
      fn();
      return () => undefined;
    }
    this.callbacks.add(fn);
    return () => this.callbacks.delete(fn);
  }

  /** `<-stopCh` for a goroutine. */
  *wait(): Proc {
    if (this.isClosed) return;
    yield (wake) => this.onClose(() => wake());
  }
}

/** A goroutine-friendly sleep that ends early when `stop` closes; true if it slept the full time. */
export function* sleepUntilStopped(
  clock: VirtualClock,
  ms: number,
  stop: StopChannel,
): Proc<boolean> {
  if (stop.closed) return false;
  const full = yield (wake) => {
    const timer = clock.after(ms, () => {
      unsubscribe();
      wake(true);
    });
    const unsubscribe = stop.onClose(() => {
      timer.stop();
      wake(false);
    });
  };
  return full === true;
}
