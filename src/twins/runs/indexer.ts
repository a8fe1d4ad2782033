/**
 * The indexer run: a ThreadSafeStore with index functions, filled and changed by the scenario,
 * and queried with ByIndex. The timeline shows each object's index values and how the index
 * entries move when an object's labels or node change.
 */
import { z } from 'zod';
import {
  Indexer,
  NamespaceIndex,
  metaNamespaceIndexFunc,
  type IndexFunc,
  type Indexers,
} from '../indexer.js';
import {
  deletionHandlingMetaNamespaceKeyFunc,
  metaNamespaceKeyFunc,
  type CacheEntry,
  type KubeObject,
  type Pod,
} from '../objects.js';
import type { Scenario, ScenarioSpec } from '../scenario.js';
import {
  createWorld,
  finishRun,
  scenarioDuration,
  scheduleSteps,
  toNewObject,
  type TwinRun,
} from './world.js';

export const indexerSettings = z.strictObject({
  /** Index functions: `namespace`, `nodeName`, or `label:<key>`. */
  indexers: z
    .array(
      z
        .string()
        .regex(
          /^(namespace|nodeName|label:[A-Za-z0-9./_-]+)$/,
          'expected namespace, nodeName or label:<key>',
        ),
    )
    .default(['namespace']),
});

export type IndexerSettings = z.output<typeof indexerSettings>;

export const indexerScenarioSpec: ScenarioSpec<IndexerSettings> = {
  twin: 'indexer',
  actions: ['create', 'update', 'delete', 'byIndex'],
  settings: indexerSettings,
};

/** The index functions a scenario can name. */
function indexFuncFor(name: string): IndexFunc {
  if (name === NamespaceIndex) return metaNamespaceIndexFunc;
  if (name === 'nodeName')
    return (obj) =>
      obj instanceof Object && 'spec' in obj && (obj as Pod).spec.nodeName
        ? [(obj as Pod).spec.nodeName!]
        : [];
  const labelKey = name.slice('label:'.length);
  return (obj) => {
    const value = 'metadata' in obj ? obj.metadata.labels[labelKey] : undefined;
    return value === undefined ? [] : [value];
  };
}

export function runIndexer(scenario: Scenario<IndexerSettings>, seed: number): TwinRun {
  const world = createWorld({ ...scenario, objects: [] }, seed);
  const { timeline, apiserver } = world;
  const indexers: Indexers = Object.fromEntries(
    scenario.settings.indexers.map((name) => [name, indexFuncFor(name)]),
  );
  const indexer = new Indexer(deletionHandlingMetaNamespaceKeyFunc, indexers);
  const describeValues = (obj: CacheEntry) =>
    Object.entries(indexers)
      .map(([name, fn]) => `${name}=[${fn(obj).join(', ')}]`)
      .join(' ');

  const add = (obj: KubeObject) => {
    indexer.add(obj);
    timeline.emit(
      'indexer',
      'Add',
      metaNamespaceKeyFunc(obj),
      describeValues(obj),
      '(*k8s.io/client-go/tools/cache.threadSafeMap).Add',
    );
  };
  world.clock.after(0, () => {
    for (const spec of scenario.objects) add(apiserver.create(toNewObject(spec, apiserver)));
  });
  scheduleSteps(world, scenario, {
    create: (spec) => add(apiserver.create(toNewObject(spec, apiserver))),
    update: (spec) => {
      const key = `${spec.namespace ?? 'default'}/${spec.name}`;
      const old = indexer.getByKey(key);
      const current = apiserver.get(spec.kind, spec.namespace ?? 'default', spec.name);
      const wanted = toNewObject(spec, apiserver);
      const updated = apiserver.update({
        ...current,
        metadata: { ...current.metadata, labels: spec.labels ?? current.metadata.labels },
        spec: { ...current.spec, ...(wanted.spec ?? {}) },
      });
      indexer.update(updated);
      timeline.emit(
        'indexer',
        'Update',
        key,
        `${old ? describeValues(old) : '(new)'} -> ${describeValues(updated)}`,
        '(*k8s.io/client-go/tools/cache.threadSafeMap).updateIndices',
      );
    },
    delete: (ref) => {
      const key = `${ref.namespace ?? 'default'}/${ref.name}`;
      const old = indexer.getByKey(key);
      if (!old) {
        timeline.emit(
          'indexer',
          'Delete',
          key,
          'not in the store: nothing to do',
          '(*k8s.io/client-go/tools/cache.threadSafeMap).Delete',
        );
        return;
      }
      indexer.delete(old);
      timeline.emit(
        'indexer',
        'Delete',
        key,
        `removed from ${describeValues(old)}; empty index entries are dropped`,
        '(*k8s.io/client-go/tools/cache.threadSafeMap).deleteKeyFromIndex',
      );
    },
    byIndex: ({ index, value }) => {
      if (!(index in indexers)) {
        timeline.emit(
          'indexer',
          'ByIndex',
          `${index}=${value}`,
          `error: Index with name ${index} does not exist`,
          '(*k8s.io/client-go/tools/cache.threadSafeMap).ByIndex',
        );
        return;
      }
      const keys = indexer.indexKeys(index, value).sort();
      timeline.emit(
        'indexer',
        'ByIndex',
        `${index}=${value}`,
        `${keys.length} object(s): ${keys.join(', ') || '-'}; values of the index: ${indexer.listIndexFuncValues(index).sort().join(', ')}`,
        '(*k8s.io/client-go/tools/cache.threadSafeMap).ByIndex',
      );
    },
  });
  return finishRun(world, 'indexer', scenarioDuration(scenario, 500));
}
