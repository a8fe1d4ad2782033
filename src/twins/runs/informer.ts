/**
 * The informer and controller runs: the whole client-go pipeline, end to end. API event ->
 * reflector -> DeltaFIFO delta -> indexer -> handler -> work queue add -> worker sync, with the
 * scenario's objects, late handlers, slow handlers, failing syncs, expired watches and
 * disconnects. The `controller` twin is the same pipeline told from the worker's side (retries,
 * backoff, max retries); its default scenario dwells on failures.
 */
import { z } from 'zod';
import { sleep, type Proc } from '../sim/clock.js';
import { ResourceEventHandlerFuncs, SharedIndexInformer } from '../informer.js';
import { Controller, enqueueingHandler } from '../controller.js';
import { RateLimitingQueue } from '../workqueue.js';
import { describeObject } from '../objects.js';
import { duration, type Scenario, type ScenarioSpec, type StepAction } from '../scenario.js';
import { createWorld, finishRun, scenarioDuration, scheduleSteps, type TwinRun } from './world.js';

export const informerSettings = z.strictObject({
  /** The resource the informer watches. */
  kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']).default('Pod'),
  /** Handler resync period; 0 turns resync off. */
  resyncPeriod: duration.default(0),
  workers: z.number().int().min(1).max(16).default(1),
  /** Virtual time one sync takes. */
  syncDuration: duration.default(50),
  /** Failures after which the worker drops a key. */
  maxRetries: z.number().int().min(0).default(5),
  /** Extra handlers registered before the informer starts (the controller's is always there). */
  handlers: z.array(z.strictObject({ name: z.string(), latency: duration.optional() })).default([]),
  /** The watch cache's history per kind. */
  historySize: z.number().int().positive().default(1000),
});

export type InformerSettings = z.output<typeof informerSettings>;

const actions: readonly StepAction[] = [
  'create',
  'update',
  'delete',
  'expireWatches',
  'compact',
  'disconnect',
  'fail',
  'failSync',
  'addHandler',
];

export const informerScenarioSpec: ScenarioSpec<InformerSettings> = {
  twin: 'informer',
  actions,
  settings: informerSettings,
};
export const controllerScenarioSpec: ScenarioSpec<InformerSettings> = {
  twin: 'controller',
  actions,
  settings: informerSettings,
};

/** Runs the informer pipeline for the `informer` or `controller` twin. */
export function runInformerPipeline(
  twin: 'informer' | 'controller',
  scenario: Scenario<InformerSettings>,
  seed: number,
): TwinRun {
  const settings = scenario.settings;
  const world = createWorld(scenario, seed, { historySize: settings.historySize });
  const { clock, rand, timeline, apiserver, stop } = world;
  const informer = new SharedIndexInformer({
    name: settings.kind,
    listerWatcher: apiserver.listerWatcher(settings.kind),
    defaultEventHandlerResyncPeriodMs: settings.resyncPeriod,
    clock,
    rand,
    timeline,
  });
  const queue = new RateLimitingQueue<string>({ clock, name: 'workqueue', timeline });
  const failures = new Map<string, number>();
  const syncHandler = function* (key: string): Proc<Error | undefined> {
    yield* sleep(clock, settings.syncDuration);
    const left = failures.get(key) ?? 0;
    if (left > 0) {
      failures.set(key, left - 1);
      return new Error('sync failed (scenario failSync)');
    }
    const obj = informer.indexer.getByKey(key);
    timeline.emit(
      'syncHandler',
      'sync',
      key,
      obj
        ? `reconciled against the indexer: ${describeObject(obj)}`
        : 'not in the indexer: clean up after the deleted object',
      '(*k8s.io/sample-controller.Controller).syncHandler',
    );
    return undefined;
  };
  const controller = new Controller({
    clock,
    queue,
    syncHandler,
    cacheSyncs: [() => informer.hasSynced()],
    maxRetries: settings.maxRetries,
    timeline,
  });
  informer.addEventHandler(enqueueingHandler(queue), { name: 'controller' });
  const narrate = new ResourceEventHandlerFuncs({});
  for (const h of settings.handlers)
    informer.addEventHandler(narrate, {
      name: h.name,
      ...(h.latency ? { latencyMs: h.latency } : {}),
    });

  scheduleSteps(world, scenario, {
    failSync: ({ key, times }) => {
      failures.set(key, (failures.get(key) ?? 0) + times);
      timeline.emit(
        'scenario',
        'failSync',
        key,
        `the next ${times} sync(s) fail`,
        '(*k8s.io/sample-controller.Controller).syncHandler',
      );
    },
    addHandler: ({ name, latency }) => {
      informer.addEventHandler(narrate, { name, ...(latency ? { latencyMs: latency } : {}) });
    },
  });
  clock.go(informer.run(stop));
  clock.go(controller.run(settings.workers, stop));
  return finishRun(world, twin, scenarioDuration(scenario));
}
