/**
 * The reflector run: ListAndWatch into a plain store, through normal watch events, a watch that
 * closes, a disconnect (refused watches, backoff), and a resume from a compacted version (410,
 * relist, Replace). With a resync period the reflector also calls the store's Resync.
 */
import { z } from 'zod';
import { Indexer } from '../indexer.js';
import { Reflector, type ReflectorStore } from '../reflector.js';
import {
  deletionHandlingMetaNamespaceKeyFunc,
  describeObject,
  type CacheEntry,
} from '../objects.js';
import { duration, type Scenario, type ScenarioSpec } from '../scenario.js';
import type { Timeline } from '../sim/timeline.js';
import { createWorld, finishRun, scenarioDuration, scheduleSteps, type TwinRun } from './world.js';

export const reflectorSettings = z.strictObject({
  kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']).default('Pod'),
  resyncPeriod: duration.default(0),
  historySize: z.number().int().positive().default(1000),
});

export type ReflectorSettings = z.output<typeof reflectorSettings>;

export const reflectorScenarioSpec: ScenarioSpec<ReflectorSettings> = {
  twin: 'reflector',
  actions: ['create', 'update', 'delete', 'expireWatches', 'compact', 'disconnect', 'fail'],
  settings: reflectorSettings,
};

/** A store that says what the reflector did to it. */
function narratedStore(store: Indexer, timeline: Timeline): ReflectorStore {
  const say = (event: string, obj: CacheEntry, mirrors: string) =>
    timeline.emit(
      'store',
      event,
      deletionHandlingMetaNamespaceKeyFunc(obj),
      `${describeObject(obj)}; ${store.size} object(s) in the store`,
      mirrors,
    );
  return {
    add: (obj) => {
      store.add(obj);
      say('Add', obj, '(*k8s.io/client-go/tools/cache.cache).Add');
    },
    update: (obj) => {
      store.update(obj);
      say('Update', obj, '(*k8s.io/client-go/tools/cache.cache).Update');
    },
    delete: (obj) => {
      store.delete(obj);
      say('Delete', obj, '(*k8s.io/client-go/tools/cache.cache).Delete');
    },
    replace: (list, rv) => {
      const before = new Set(store.listKeys());
      store.replace(list, rv);
      const gone = [...before].filter((key) => store.getByKey(key) === undefined);
      timeline.emit(
        'store',
        'Replace',
        '-',
        `${list.length} object(s) at rv=${rv}${gone.length ? `; dropped ${gone.join(', ')} (deleted while we were not watching)` : ''}`,
        '(*k8s.io/client-go/tools/cache.cache).Replace',
      );
    },
    resync: () => {
      store.resync();
      timeline.emit(
        'store',
        'Resync',
        '-',
        'a plain store has nothing to re-deliver (a DeltaFIFO would queue Sync deltas)',
        '(*k8s.io/client-go/tools/cache.cache).Resync',
      );
    },
  };
}

export function runReflector(scenario: Scenario<ReflectorSettings>, seed: number): TwinRun {
  const settings = scenario.settings;
  const world = createWorld(scenario, seed, { historySize: settings.historySize });
  const { clock, rand, timeline, apiserver, stop } = world;
  const reflector = new Reflector({
    name: settings.kind,
    listerWatcher: apiserver.listerWatcher(settings.kind),
    store: narratedStore(new Indexer(), timeline),
    resyncPeriodMs: settings.resyncPeriod,
    clock,
    rand,
    timeline,
  });
  scheduleSteps(world, scenario);
  clock.go(reflector.run(stop));
  return finishRun(world, 'reflector', scenarioDuration(scenario));
}
