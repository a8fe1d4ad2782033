import { describe, expect, it } from 'vitest';
import {
  BucketRateLimiter,
  DelayingQueue,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  RateLimitingQueue,
  WorkQueue,
} from '../../src/twins/workqueue.js';
import { VirtualClock, sleep, type Proc } from '../../src/twins/sim/clock.js';
import { SeededRandom } from '../../src/twins/sim/random.js';
import { runProc } from './harness.js';

describe('WorkQueue', () => {
  it('never hands one key to two workers at once, whatever the interleaving (seeded)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const clock = new VirtualClock();
      const rand = new SeededRandom(seed);
      const queue = new WorkQueue<string>({ clock });
      const holding = new Set<string>();
      let overlaps = 0;
      let processed = 0;
      const worker = function* (): Proc {
        for (;;) {
          const [key, shutdown] = yield* queue.get();
          if (shutdown) return;
          if (holding.has(key!)) overlaps++;
          holding.add(key!);
          yield* sleep(clock, 1 + rand.intn(20));
          holding.delete(key!);
          processed++;
          queue.done(key!);
        }
      };
      for (let w = 0; w < 4; w++) clock.go(worker());
      for (let t = 0; t < 2000; t++) clock.after(t, () => queue.add(`k${rand.intn(5)}`));
      clock.after(3000, () => queue.shutDown());
      clock.run();
      expect(overlaps).toBe(0);
      expect(processed).toBeGreaterThan(100);
    }
  });

  it('brings back a key added while it was processed exactly once, after Done', () => {
    const clock = new VirtualClock();
    const queue = new WorkQueue<string>({ clock });
    queue.add('a');
    const [key] = runProc(clock, queue.get());
    queue.add('a');
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.done(key!);
    expect(queue.snapshot().queue).toEqual(['a']);
    runProc(clock, queue.get());
    queue.done('a');
    expect(queue.len()).toBe(0);
  });

  it('deduplicates a key that is already waiting', () => {
    const clock = new VirtualClock();
    const queue = new WorkQueue<string>({ clock });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.snapshot().queue).toEqual(['a', 'b']);
  });

  it('lets workers drain what is queued after ShutDown, then tells them to stop, and ignores new adds', () => {
    const clock = new VirtualClock();
    const queue = new WorkQueue<string>({ clock });
    queue.add('a');
    queue.shutDown();
    queue.add('b');
    expect(runProc(clock, queue.get())).toEqual(['a', false]);
    expect(runProc(clock, queue.get())).toEqual([undefined, true]);
  });

  it('waits in ShutDownWithDrain until every key being processed is Done', () => {
    const clock = new VirtualClock();
    const queue = new WorkQueue<string>({ clock });
    queue.add('a');
    runProc(clock, queue.get());
    clock.after(50, () => queue.done('a'));
    runProc(clock, queue.shutDownWithDrain());
    expect(clock.now()).toBe(50);
  });
});

describe('DelayingQueue', () => {
  it('adds a key when its delay is over, in readiness order, and lets an earlier AddAfter win', () => {
    const clock = new VirtualClock();
    const queue = new DelayingQueue<string>({ clock });
    const arrivals: string[] = [];
    clock.go(
      (function* (): Proc {
        for (;;) {
          const [key, shutdown] = yield* queue.get();
          if (shutdown) return;
          arrivals.push(`${key}@${clock.now()}`);
          queue.done(key!);
        }
      })(),
    );
    queue.addAfter('slow', 300);
    queue.addAfter('fast', 100);
    queue.addAfter('fast', 500);
    queue.addAfter('slow', 200);
    queue.addAfter('now', 0);
    clock.after(1000, () => queue.shutDown());
    clock.run();
    expect(arrivals).toEqual(['now@0', 'fast@100', 'slow@200']);
  });
});

describe('rate limiters', () => {
  it('backs an item off exponentially until Forget, counting its requeues', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(() => limiter.when('a'))).toEqual([
      5, 10, 20, 40, 80, 160, 320, 640,
    ]);
    expect(limiter.when('a')).toBe(1000);
    expect(limiter.numRequeues('a')).toBe(9);
    expect(limiter.when('b')).toBe(5);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
  });

  it('lets the overall bucket through at once for its burst, then at qps', () => {
    const clock = new VirtualClock();
    const bucket = new BucketRateLimiter<string>(10, 3, clock);
    expect([0, 1, 2, 3, 4].map((i) => bucket.when(`k${i}`))).toEqual([0, 0, 0, 100, 200]);
    clock.after(1000, () => expect(bucket.when('later')).toBe(0));
    clock.run();
  });

  it('takes the longest delay of its limiters', () => {
    const clock = new VirtualClock();
    const limiter = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter<string>(5, 1000),
      new BucketRateLimiter<string>(10, 1, clock),
    );
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('a')).toBe(100);
  });

  it("re-adds an item after the rate limiter's delay through AddRateLimited", () => {
    const clock = new VirtualClock();
    const queue = new RateLimitingQueue<string>({
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(50, 1000),
    });
    queue.addRateLimited('a');
    queue.addRateLimited('a');
    clock.run({ until: 49 });
    expect(queue.len()).toBe(0);
    clock.run({ until: 50 });
    expect(queue.snapshot().queue).toEqual(['a']);
    expect(queue.numRequeues('a')).toBe(2);
  });
});
