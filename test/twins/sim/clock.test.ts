import { describe, expect, it } from 'vitest';
import {
  Chan,
  Cond,
  StopChannel,
  VirtualClock,
  sleep,
  sleepUntilStopped,
  type Proc,
} from '../../../src/twins/sim/clock.js';
import { RingGrowing } from '../../../src/twins/sim/buffer.js';
import { KeyedHeap } from '../../../src/twins/sim/heap.js';
import { SeededRandom } from '../../../src/twins/sim/random.js';

describe('VirtualClock', () => {
  it('runs timers in time order and, at the same time, in the order they were scheduled', () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    clock.after(20, () => seen.push('b@20'));
    clock.after(10, () => seen.push('a@10'));
    clock.after(20, () => seen.push('c@20'));
    clock.after(0, () => seen.push('now'));
    clock.run();
    expect(seen).toEqual(['now', 'a@10', 'b@20', 'c@20']);
    expect(clock.now()).toBe(20);
  });

  it('stops at `until` without running later timers, and resumes from there', () => {
    const clock = new VirtualClock();
    const seen: number[] = [];
    for (const at of [5, 10, 15]) clock.after(at, () => seen.push(clock.now()));
    expect(clock.run({ until: 10 })).toBe(10);
    expect(seen).toEqual([5, 10]);
    clock.run();
    expect(seen).toEqual([5, 10, 15]);
  });

  it('cancels a timer that has not fired and reports whether it had', () => {
    const clock = new VirtualClock();
    let fired = false;
    const timer = clock.after(5, () => (fired = true));
    expect(timer.stop()).toBe(true);
    expect(timer.stop()).toBe(false);
    clock.run();
    expect(fired).toBe(false);
  });

  it('resumes a goroutine after its sleep and hands it the value it was woken with', () => {
    const clock = new VirtualClock();
    const log: string[] = [];
    clock.go(
      (function* (): Proc {
        log.push(`start@${clock.now()}`);
        yield* sleep(clock, 100);
        log.push(`woke@${clock.now()}`);
        const value = yield (wake) => clock.after(5, () => wake('hello'));
        log.push(`got ${String(value)}@${clock.now()}`);
      })(),
    );
    clock.run();
    expect(log).toEqual(['start@0', 'woke@100', 'got hello@105']);
  });

  it('refuses to run forever: a run that never settles ends with an error naming the time', () => {
    const clock = new VirtualClock();
    const spin = (): void => clock.defer(spin);
    spin();
    expect(() => clock.run({ maxTasks: 1000 })).toThrow(/more than 1000 tasks by t=0ms/);
  });
});

describe('Cond, Chan and StopChannel', () => {
  it('wakes one waiter per signal, in arrival order, and all of them on broadcast', () => {
    const clock = new VirtualClock();
    const cond = new Cond();
    const woke: number[] = [];
    for (const id of [1, 2, 3]) {
      clock.go(
        (function* (): Proc {
          yield* cond.wait();
          woke.push(id);
        })(),
      );
    }
    clock.run();
    expect(cond.waiting).toBe(3);
    cond.signal();
    clock.run();
    expect(woke).toEqual([1]);
    cond.broadcast();
    clock.run();
    expect(woke).toEqual([1, 2, 3]);
  });

  it('delivers channel values in order and reports close once they are drained', () => {
    const clock = new VirtualClock();
    const ch = new Chan<number>();
    const got: [number | undefined, boolean][] = [];
    clock.go(
      (function* (): Proc {
        for (;;) {
          const received = yield* ch.recv();
          got.push(received);
          if (!received[1]) return;
        }
      })(),
    );
    ch.send(1);
    ch.send(2);
    clock.after(10, () => {
      ch.send(3);
      ch.close();
    });
    clock.run();
    expect(got).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [undefined, false],
    ]);
  });

  it('cuts a sleep short when the stop channel closes', () => {
    const clock = new VirtualClock();
    const stop = new StopChannel();
    const results: [boolean, number][] = [];
    clock.go(
      (function* (): Proc {
        results.push([yield* sleepUntilStopped(clock, 100, stop), clock.now()]);
        results.push([yield* sleepUntilStopped(clock, 100, stop), clock.now()]);
      })(),
    );
    clock.after(150, () => stop.close());
    clock.run();
    expect(results).toEqual([
      [true, 100],
      [false, 150],
    ]);
  });
});

describe('RingGrowing', () => {
  it('keeps first-in-first-out order while it grows past its initial size', () => {
    const ring = new RingGrowing<number>(2);
    const out: number[] = [];
    for (let i = 0; i < 10; i++) {
      ring.writeOne(i);
      if (i % 3 === 0) out.push(ring.readOne()!);
    }
    while (ring.length > 0) out.push(ring.readOne()!);
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ring.readOne()).toBeUndefined();
  });
});

describe('KeyedHeap', () => {
  it('pops in priority order after random adds, updates and deletes (seeded)', () => {
    const rand = new SeededRandom(42);
    const heap = new KeyedHeap<{ key: string; p: number }>(
      (x) => x.key,
      (a, b) => a.p < b.p || (a.p === b.p && a.key < b.key),
    );
    const model = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const key = `k${rand.intn(200)}`;
      const roll = rand.float64();
      if (roll < 0.6) {
        const p = rand.intn(1000);
        heap.add({ key, p });
        model.set(key, p);
      } else if (roll < 0.8) {
        heap.delete(key);
        model.delete(key);
      } else if (heap.length > 0) {
        const top = heap.pop()!;
        const expected = [...model].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0]!;
        expect([top.key, top.p]).toEqual(expected);
        model.delete(top.key);
      }
      expect(heap.length).toBe(model.size);
    }
  });
});

describe('SeededRandom', () => {
  it('repeats its sequence for a seed and differs across seeds', () => {
    const a = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.intn(1000)
      )(new SeededRandom(7)),
    );
    const b = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.intn(1000)
      )(new SeededRandom(7)),
    );
    const c = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.intn(1000)
      )(new SeededRandom(8)),
    );
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });
});
