import { describe, expect, it } from 'vitest';
import { Controller } from '../../src/twins/controller.js';
import { RateLimitingQueue, ItemExponentialFailureRateLimiter } from '../../src/twins/workqueue.js';
import { StopChannel, VirtualClock, sleep, type Proc } from '../../src/twins/sim/clock.js';

function controllerWith(failuresByKey: Record<string, number>, maxRetries = 5) {
  const clock = new VirtualClock();
  const queue = new RateLimitingQueue<string>({
    clock,
    rateLimiter: new ItemExponentialFailureRateLimiter<string>(10, 10_000),
  });
  const attempts: string[] = [];
  const left = new Map(Object.entries(failuresByKey));
  const controller = new Controller({
    clock,
    queue,
    maxRetries,
    syncHandler: function* (key: string): Proc<Error | undefined> {
      yield* sleep(clock, 1);
      attempts.push(`${key}@${clock.now()}`);
      const n = left.get(key) ?? 0;
      if (n > 0) {
        left.set(key, n - 1);
        return new Error('boom');
      }
      return undefined;
    },
  });
  const stop = new StopChannel();
  clock.go(controller.run(1, stop));
  return { clock, queue, controller, attempts, stop };
}

describe('Controller (the sample-controller worker loop)', () => {
  it('forgets a key after a successful sync: its requeue count is back to zero', () => {
    const { clock, queue, attempts, stop } = controllerWith({ a: 1 });
    queue.add('a');
    clock.after(5000, () => stop.close());
    clock.run();
    expect(attempts).toEqual(['a@1', 'a@12']);
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('retries a failing key with growing backoff through AddRateLimited', () => {
    const { clock, queue, attempts, stop } = controllerWith({ a: 3 });
    queue.add('a');
    clock.after(5000, () => stop.close());
    clock.run();
    // 1ms sync, then waits of 10, 20, 40ms between attempts.
    expect(attempts).toEqual(['a@1', 'a@12', 'a@33', 'a@74']);
  });

  it('drops a key after maxRetries failures and Forgets it', () => {
    const { clock, queue, controller, attempts, stop } = controllerWith({ a: 100 }, 3);
    queue.add('a');
    clock.after(5000, () => stop.close());
    clock.run();
    expect(attempts).toHaveLength(4);
    expect(controller.dropped).toEqual(['a']);
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('waits for its caches before starting workers', () => {
    const clock = new VirtualClock();
    const queue = new RateLimitingQueue<string>({ clock });
    let synced = false;
    const started: number[] = [];
    const controller = new Controller({
      clock,
      queue,
      cacheSyncs: [() => synced],
      syncHandler: () => {
        started.push(clock.now());
        return undefined;
      },
    });
    const stop = new StopChannel();
    queue.add('a');
    clock.go(controller.run(2, stop));
    clock.after(350, () => (synced = true));
    clock.after(1000, () => stop.close());
    clock.run();
    expect(started).toEqual([400]);
  });
});
