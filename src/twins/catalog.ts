/**
 * The twins a reader can run: name, title, the main Go symbols each one reimplements, and how to
 * run it on a scenario. `twin list` prints this table; `twin run` looks names up here.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import { loadScenario, type Scenario, type ScenarioSpec } from './scenario.js';
import type { TwinRun } from './runs/world.js';
import { apiserverScenarioSpec, runApiserver } from './runs/apiserver.js';
import { reflectorScenarioSpec, runReflector } from './runs/reflector.js';
import { deltafifoScenarioSpec, runDeltafifo } from './runs/deltafifo.js';
import { indexerScenarioSpec, runIndexer } from './runs/indexer.js';
import {
  controllerScenarioSpec,
  informerScenarioSpec,
  runInformerPipeline,
} from './runs/informer.js';
import { runWorkqueue, workqueueScenarioSpec } from './runs/workqueue.js';
import { replicasetScenarioSpec, runReplicaset } from './runs/replicaset.js';
import { runScheduler, schedulerScenarioSpec } from './runs/scheduler.js';
import { controllerRuntimeScenarioSpec, runControllerRuntime } from './runs/controller-runtime.js';

export const twinNames = [
  'apiserver',
  'reflector',
  'deltafifo',
  'indexer',
  'informer',
  'workqueue',
  'controller',
  'replicaset',
  'scheduler',
  'controller-runtime',
] as const;

export type TwinName = (typeof twinNames)[number];

export interface TwinEntry {
  name: TwinName;
  title: string;
  /** The Go symbols at the heart of the twin (DESIGN's symbol format). */
  mirrors: readonly string[];
  /**
   * Runs the twin on a scenario file; the seed defaults to the scenario's, then 1. `shownAs` is
   * how messages name the file (as the user wrote it).
   */
  run(
    scenarioFile: string,
    seed?: number,
    shownAs?: string,
  ): { result: TwinRun; description?: string };
}

function entry<S>(
  name: TwinName,
  title: string,
  mirrors: readonly string[],
  spec: ScenarioSpec<S>,
  runner: (scenario: Scenario<S>, seed: number) => TwinRun,
): TwinEntry {
  return {
    name,
    title,
    mirrors,
    run(scenarioFile, seed, shownAs) {
      const scenario = loadScenario(scenarioFile, spec, shownAs);
      const result = runner(scenario, seed ?? scenario.seed ?? 1);
      return scenario.description === undefined
        ? { result }
        : { result, description: scenario.description };
    },
  };
}

export const twins: Record<TwinName, TwinEntry> = {
  apiserver: entry(
    'apiserver',
    'Fake API server: resource versions, list, watch, 410 Gone',
    [
      '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).Watch',
      '(*k8s.io/apiserver/pkg/storage/cacher.watchCache).getAllEventsSinceLocked',
      '(*k8s.io/apiserver/pkg/storage/etcd3.store).GuaranteedUpdate',
    ],
    apiserverScenarioSpec,
    runApiserver,
  ),
  reflector: entry(
    'reflector',
    'Reflector: ListAndWatch, resync, relist on expiry',
    [
      '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
      '(*k8s.io/client-go/tools/cache.Reflector).watchHandler',
      '(*k8s.io/client-go/tools/cache.Reflector).relistResourceVersion',
    ],
    reflectorScenarioSpec,
    runReflector,
  ),
  deltafifo: entry(
    'deltafifo',
    'DeltaFIFO: deltas, dedup, Replace tombstones, Pop and requeue',
    [
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).queueActionLocked',
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).Replace',
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).Pop',
    ],
    deltafifoScenarioSpec,
    runDeltafifo,
  ),
  indexer: entry(
    'indexer',
    'Indexer: ThreadSafeStore with index functions and ByIndex',
    [
      '(*k8s.io/client-go/tools/cache.threadSafeMap).updateIndices',
      '(*k8s.io/client-go/tools/cache.threadSafeMap).ByIndex',
      'k8s.io/client-go/tools/cache.MetaNamespaceIndexFunc',
    ],
    indexerScenarioSpec,
    runIndexer,
  ),
  informer: entry(
    'informer',
    'SharedIndexInformer: API event to worker, late handlers, resync',
    [
      '(*k8s.io/client-go/tools/cache.sharedIndexInformer).HandleDeltas',
      '(*k8s.io/client-go/tools/cache.sharedIndexInformer).AddEventHandlerWithResyncPeriod',
      '(*k8s.io/client-go/tools/cache.processorListener).run',
    ],
    informerScenarioSpec,
    (scenario, seed) => runInformerPipeline('informer', scenario, seed),
  ),
  workqueue: entry(
    'workqueue',
    'Work queue: dirty/processing, AddAfter, rate limiting',
    [
      '(*k8s.io/client-go/util/workqueue.Type).Add',
      '(*k8s.io/client-go/util/workqueue.Type).Get',
      '(*k8s.io/client-go/util/workqueue.Type).Done',
      '(*k8s.io/client-go/util/workqueue.rateLimitingType).AddRateLimited',
    ],
    workqueueScenarioSpec,
    runWorkqueue,
  ),
  controller: entry(
    'controller',
    'Controller worker loop: processNextWorkItem, retries, max retries',
    [
      '(*k8s.io/sample-controller.Controller).processNextWorkItem',
      '(*k8s.io/client-go/examples/workqueue.Controller).handleErr',
    ],
    controllerScenarioSpec,
    (scenario, seed) => runInformerPipeline('controller', scenario, seed),
  ),
  replicaset: entry(
    'replicaset',
    'ReplicaSet controller: expectations, slow start, manageReplicas',
    [
      '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet',
      '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).manageReplicas',
      'k8s.io/kubernetes/pkg/controller/replicaset.slowStartBatch',
    ],
    replicasetScenarioSpec,
    runReplicaset,
  ),
  scheduler: entry(
    'scheduler',
    'Scheduler: queue, filter and score plugins, selectHost, bind',
    [
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      'k8s.io/kubernetes/pkg/scheduler.selectHost',
    ],
    schedulerScenarioSpec,
    runScheduler,
  ),
  'controller-runtime': entry(
    'controller-runtime',
    'controller-runtime: Manager, Builder, level-triggered Reconcile',
    [
      '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      '(*sigs.k8s.io/controller-runtime/pkg/builder.Builder).Complete',
      '(*sigs.k8s.io/controller-runtime/pkg/manager.controllerManager).Start',
    ],
    controllerRuntimeScenarioSpec,
    runControllerRuntime,
  ),
};

/** The scenario a twin runs when none is given: `guides/scenarios/<twin>.yaml`. */
export function defaultScenarioPath(packageRoot: string, name: TwinName): string {
  return path.join(packageRoot, 'guides', 'scenarios', `${name}.yaml`);
}

/** The twin of that name, or a UsageError that lists the names. */
export function findTwin(name: string): TwinEntry {
  if ((twinNames as readonly string[]).includes(name)) return twins[name as TwinName];
  throw new UsageError(
    `no twin named ${JSON.stringify(name)}; the twins are: ${twinNames.join(', ')} (see \`k8s-read twin list\`)`,
  );
}

export interface TwinListing {
  name: TwinName;
  title: string;
  mirrors: readonly string[];
  /** The default scenario, relative to the package root. */
  scenario: string;
}

/** `twin list` as data. */
export function listTwins(): TwinListing[] {
  return twinNames.map((name) => ({
    name,
    title: twins[name].title,
    mirrors: twins[name].mirrors,
    scenario: `guides/scenarios/${name}.yaml`,
  }));
}
