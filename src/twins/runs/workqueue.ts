/**
 * The work queue run: keys added directly (Add, AddAfter, AddRateLimited, Forget, ShutDown) and
 * workers that Get, process for a while, then Done, with scenario-chosen failures sent back
 * through AddRateLimited. The timeline shows the dirty/processing invariant at work: a key added
 * while a worker holds it waits, and comes back once after Done.
 */
import { z } from 'zod';
import { sleep, type Proc } from '../sim/clock.js';
import {
  RateLimitingQueue,
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
} from '../workqueue.js';
import { duration, type Scenario, type ScenarioSpec } from '../scenario.js';
import { createWorld, finishRun, scenarioDuration, scheduleSteps, type TwinRun } from './world.js';

export const workqueueSettings = z.strictObject({
  workers: z.number().int().min(1).max(16).default(2),
  /** Virtual time a worker holds a key. */
  processingTime: duration.default(100),
  /** The per-item backoff's base and cap. */
  baseDelay: duration.default(5),
  maxDelay: duration.default(1_000_000),
  /** The overall bucket: retries per second and burst. */
  qps: z.number().positive().default(10),
  burst: z.number().int().positive().default(100),
});

export type WorkqueueSettings = z.output<typeof workqueueSettings>;

export const workqueueScenarioSpec: ScenarioSpec<WorkqueueSettings> = {
  twin: 'workqueue',
  actions: ['add', 'addAfter', 'addRateLimited', 'forget', 'shutDown', 'failSync'],
  settings: workqueueSettings,
};

export function runWorkqueue(scenario: Scenario<WorkqueueSettings>, seed: number): TwinRun {
  const settings = scenario.settings;
  const world = createWorld(scenario, seed);
  const { clock, timeline, stop } = world;
  const queue = new RateLimitingQueue<string>({
    clock,
    name: 'workqueue',
    timeline,
    rateLimiter: new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter<string>(settings.baseDelay, settings.maxDelay),
      new BucketRateLimiter<string>(settings.qps, settings.burst, clock),
    ),
  });
  const failures = new Map<string, number>();
  const worker = function* (id: number): Proc {
    const name = `worker-${id}`;
    for (;;) {
      const [key, shutdown] = yield* queue.get();
      if (shutdown || key === undefined) {
        timeline.emit(
          name,
          'exit',
          '-',
          'queue shut down and drained',
          '(*k8s.io/client-go/util/workqueue.Type).Get',
        );
        return;
      }
      const snap = queue.snapshot();
      timeline.emit(
        name,
        'Get',
        key,
        `processing {${snap.processing.join(', ')}}; dirty {${snap.dirty.join(', ')}}`,
        '(*k8s.io/client-go/util/workqueue.Type).Get',
      );
      yield* sleep(clock, settings.processingTime);
      const left = failures.get(key) ?? 0;
      if (left > 0) {
        failures.set(key, left - 1);
        timeline.emit(
          name,
          'failed',
          key,
          `requeues so far: ${queue.numRequeues(key)}`,
          '(*k8s.io/client-go/util/workqueue.rateLimitingType).AddRateLimited',
        );
        queue.addRateLimited(key);
      } else {
        queue.forget(key);
      }
      queue.done(key);
      timeline.emit(
        name,
        'Done',
        key,
        queue.snapshot().dirty.includes(key) ? 'dirty again: back in the queue' : 'finished',
        '(*k8s.io/client-go/util/workqueue.Type).Done',
      );
      yield* sleep(clock, 0);
    }
  };
  scheduleSteps(world, scenario, {
    add: (key) => queue.add(key),
    addAfter: ({ key, after }) => queue.addAfter(key, after),
    addRateLimited: (key) => queue.addRateLimited(key),
    forget: (key) => queue.forget(key),
    shutDown: () => queue.shutDown(),
    failSync: ({ key, times }) => {
      failures.set(key, (failures.get(key) ?? 0) + times);
      timeline.emit(
        'scenario',
        'failSync',
        key,
        `the next ${times} processing(s) fail`,
        '(*k8s.io/client-go/util/workqueue.rateLimitingType).AddRateLimited',
      );
    },
  });
  for (let i = 1; i <= settings.workers; i++) clock.go(worker(i));
  stop.onClose(() => queue.shutDown());
  return finishRun(world, 'workqueue', scenarioDuration(scenario, 3000));
}
