/**
 * The DeltaFIFO run: the queue on its own, driven the way a reflector and an informer drive it.
 * The scenario's objects are the first list (Replace); `create`/`update`/`delete` become
 * Add/Update/Delete deltas; `replace` is a relist that returns only the named objects (what is
 * missing gets a tombstone); `resync` queues Sync deltas; `pop` hands one key's deltas to a
 * process function that updates the informer's indexer, or fails it with ErrRequeue.
 */
import { z } from 'zod';
import type { Proc } from '../sim/clock.js';
import { DeltaFIFO, ErrRequeue, type Deltas } from '../deltafifo.js';
import { Indexer } from '../indexer.js';
import { ResourceEventHandlerFuncs, processDeltas } from '../informer.js';
import { metaNamespaceKeyFunc, type KubeObject } from '../objects.js';
import type { Scenario, ScenarioSpec } from '../scenario.js';
import { createWorld, finishRun, scenarioDuration, scheduleSteps, type TwinRun } from './world.js';

export const deltafifoSettings = z.strictObject({
  kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']).default('Pod'),
  /** Informers use Replaced; older clients get Sync for relisted objects. */
  emitDeltaTypeReplaced: z.boolean().default(true),
  /** Give the FIFO the informer's indexer as known objects (as informers do). */
  knownObjects: z.boolean().default(true),
});

export type DeltafifoSettings = z.output<typeof deltafifoSettings>;

export const deltafifoScenarioSpec: ScenarioSpec<DeltafifoSettings> = {
  twin: 'deltafifo',
  actions: ['create', 'update', 'delete', 'replace', 'resync', 'pop'],
  settings: deltafifoSettings,
};

export function runDeltafifo(scenario: Scenario<DeltafifoSettings>, seed: number): TwinRun {
  const settings = scenario.settings;
  const world = createWorld(scenario, seed);
  const { clock, timeline, apiserver } = world;
  const indexer = new Indexer();
  const fifo = new DeltaFIFO({
    emitDeltaTypeReplaced: settings.emitDeltaTypeReplaced,
    ...(settings.knownObjects ? { knownObjects: indexer } : {}),
    timeline,
  });
  const silent = new ResourceEventHandlerFuncs({});
  const popOne = function* (fail: boolean): Proc {
    const { deltas, err } = yield* fifo.pop((popped: Deltas) => {
      if (fail) return new ErrRequeue(new Error('process failed (scenario pop.fail)'));
      return processDeltas(silent, indexer, popped, timeline);
    });
    const key = deltas ? fifo.keyOf(deltas) : '-';
    timeline.emit(
      'informer',
      'processed',
      key,
      `${err ? `error: ${err.message}; ` : ''}HasSynced=${fifo.hasSynced()}; queue [${fifo.listKeys().join(', ')}]`,
      '(*k8s.io/client-go/tools/cache.controller).processLoop',
    );
  };
  const lastKnown = new Map<string, KubeObject>();
  const remember = (obj: KubeObject) => lastKnown.set(metaNamespaceKeyFunc(obj), obj);

  clock.after(0, () => {
    const initial = apiserver.objectsOf(settings.kind);
    initial.forEach(remember);
    timeline.emit(
      'reflector',
      'list',
      settings.kind,
      `${initial.length} items -> Replace (the first list)`,
      '(*k8s.io/client-go/tools/cache.Reflector).syncWith',
    );
    fifo.replace(initial, apiserver.resourceVersion);
    timeline.emit(
      'deltafifo',
      'HasSynced',
      '-',
      `${fifo.hasSynced()}: the first list's ${initial.length} item(s) are not popped yet`,
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).HasSynced',
    );
  });
  scheduleSteps(world, scenario, {
    create: (spec) => {
      const obj = apiserver.create({
        kind: spec.kind,
        metadata: {
          namespace: spec.namespace ?? 'default',
          name: spec.name,
          labels: spec.labels ?? {},
        },
      });
      remember(obj);
      fifo.add(obj);
    },
    update: (spec) => {
      const current = apiserver.get(spec.kind, spec.namespace ?? 'default', spec.name);
      const obj = apiserver.update({
        ...current,
        metadata: { ...current.metadata, labels: spec.labels ?? current.metadata.labels },
      });
      remember(obj);
      fifo.update(obj);
    },
    delete: (ref) => {
      const key = `${ref.namespace ?? 'default'}/${ref.name}`;
      const last = lastKnown.get(key);
      try {
        apiserver.delete(ref.kind, ref.namespace ?? 'default', ref.name);
      } catch {
        // Already gone from the server: the FIFO still hears the (duplicate) delete.
      }
      if (last) fifo.delete(last);
    },
    replace: (names) => {
      const listed = apiserver
        .objectsOf(settings.kind)
        .filter((o) => names.includes(o.metadata.name));
      listed.forEach(remember);
      timeline.emit(
        'reflector',
        'relist',
        settings.kind,
        `the list returns ${listed.map((o) => o.metadata.name).join(', ') || 'nothing'} -> Replace`,
        '(*k8s.io/client-go/tools/cache.Reflector).syncWith',
      );
      fifo.replace(listed, apiserver.resourceVersion);
    },
    resync: () => {
      timeline.emit(
        'reflector',
        'resync',
        settings.kind,
        'store.Resync()',
        '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch$2',
      );
      fifo.resync();
    },
    pop: ({ fail }) => clock.go(popOne(fail ?? false)),
  });
  return finishRun(world, 'deltafifo', scenarioDuration(scenario, 1000));
}
