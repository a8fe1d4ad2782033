/**
 * The controller-runtime run: a Manager, a controller built with
 * `ControllerManagedBy(mgr).For(App).Owns(Pod)`, and an idempotent, level-triggered reconciler
 * that keeps `spec.replicas` pods named app-0..app-N-1. A scenario can drop a share of the
 * events before they reach the queue: the reconciler still converges, because every reconcile
 * reads the whole state instead of trusting the event that woke it.
 */
import { z } from 'zod';
import { sleep, type Proc, type VirtualClock } from '../sim/clock.js';
import type { Timeline } from '../sim/timeline.js';
import { isAlreadyExists, isNotFound } from '../apiserver.js';
import {
  controllerManagedBy,
  Manager,
  type Client,
  type Reconciler,
  type Request,
  type Result,
} from '../controller-runtime.js';
import { getControllerOf, type KubeObject, type Pod } from '../objects.js';
import { duration, type Scenario, type ScenarioSpec } from '../scenario.js';
import {
  createWorld,
  finishRun,
  scenarioDuration,
  scheduleSteps,
  type TwinRun,
  type World,
} from './world.js';

export const controllerRuntimeSettings = z.strictObject({
  /** How often the cache re-delivers every object (controller-runtime's SyncPeriod). */
  syncPeriod: duration.default(30_000),
  maxConcurrentReconciles: z.number().int().min(1).max(16).default(1),
  /** Virtual time one reconcile takes. */
  reconcileDuration: duration.default(20),
  /** Return Result{RequeueAfter} from every successful reconcile (0: do not). */
  requeueAfter: duration.default(0),
  /** The share of events a predicate throws away before they reach the queue. */
  dropEvents: z.number().min(0).max(1).default(0),
});

export type ControllerRuntimeSettings = z.output<typeof controllerRuntimeSettings>;

export const controllerRuntimeScenarioSpec: ScenarioSpec<ControllerRuntimeSettings> = {
  twin: 'controller-runtime',
  actions: ['create', 'update', 'delete', 'scale', 'deleteRandomPods', 'fail', 'expireWatches'],
  settings: controllerRuntimeSettings,
};

type App = KubeObject<{ replicas: number }, { readyReplicas?: number }>;

/**
 * Keeps pods `<app>-0` .. `<app>-<replicas-1>` owned by each App: creates the missing names,
 * deletes the others, records the count in status. Deterministic names make it idempotent: a
 * create that races a stale cache gets AlreadyExists and moves on.
 */
export class AppReconciler implements Reconciler {
  constructor(
    private readonly client: Client,
    private readonly clock: VirtualClock,
    private readonly options: {
      reconcileDurationMs: number;
      requeueAfterMs: number;
      timeline?: Timeline;
    },
  ) {}

  *reconcile(request: Request): Proc<{ result?: Result; err?: Error }> {
    if (this.options.reconcileDurationMs > 0)
      yield* sleep(this.clock, this.options.reconcileDurationMs);
    const key = `${request.namespace}/${request.name}`;
    const app = this.client.get<App>('App', request.namespace, request.name);
    const owned = this.client.list<Pod>('Pod', request.namespace).filter((pod) => {
      const ref = getControllerOf(pod);
      return (
        ref?.kind === 'App' && ref.name === request.name && (!app || ref.uid === app.metadata.uid)
      );
    });
    const wanted = new Set(
      app ? Array.from({ length: app.spec.replicas }, (_, i) => `${request.name}-${i}`) : [],
    );
    const have = new Set(owned.map((p) => p.metadata.name));
    const missing = [...wanted].filter((name) => !have.has(name));
    const extra = owned.filter((pod) => !wanted.has(pod.metadata.name));
    this.options.timeline?.emit(
      'reconciler',
      'observe',
      key,
      app
        ? `want ${wanted.size}, have ${have.size}: create ${missing.join(', ') || '-'}; delete ${extra.map((p) => p.metadata.name).join(', ') || '-'}`
        : 'App gone: delete its pods',
      '(sigs.k8s.io/controller-runtime/pkg/reconcile.Func).Reconcile',
    );
    try {
      for (const name of missing) {
        try {
          this.client.create({
            kind: 'Pod',
            metadata: {
              namespace: request.namespace,
              name,
              labels: { app: request.name },
              ownerReferences: [
                { kind: 'App', name: request.name, uid: app!.metadata.uid, controller: true },
              ],
            },
            status: { phase: 'Pending' },
          });
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
      }
      for (const pod of extra) {
        try {
          this.client.delete(pod);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
      if (app && app.status.readyReplicas !== have.size) {
        this.client.update({
          ...app,
          metadata: { ...app.metadata, resourceVersion: '' },
          status: { readyReplicas: have.size },
        });
      }
    } catch (err) {
      return { err: err as Error };
    }
    return {
      result:
        this.options.requeueAfterMs > 0 ? { requeueAfterMs: this.options.requeueAfterMs } : {},
    };
  }
}

/** A manager with the App controller, started on the world's clock. */
export function startAppManager(world: World, settings: ControllerRuntimeSettings): Manager {
  const { clock, rand, timeline, apiserver, stop } = world;
  const mgr = new Manager(apiserver, { clock, rand, syncPeriodMs: settings.syncPeriod, timeline });
  const reconciler = new AppReconciler(mgr.getClient(), clock, {
    reconcileDurationMs: settings.reconcileDuration,
    requeueAfterMs: settings.requeueAfter,
    timeline,
  });
  const drop = (what: string, obj: KubeObject) => {
    if (settings.dropEvents > 0 && rand.chance(settings.dropEvents)) {
      timeline.emit(
        'predicate',
        'dropped',
        `${obj.metadata.namespace}/${obj.metadata.name}`,
        `${obj.kind} ${what} event thrown away`,
        'sigs.k8s.io/controller-runtime/pkg/predicate.Funcs',
      );
      return false;
    }
    return true;
  };
  controllerManagedBy(mgr)
    .for('App')
    .owns('Pod')
    .withEventFilter({
      create: (o) => drop('create', o),
      update: (_o, n) => drop('update', n),
      delete: (o) => drop('delete', o),
    })
    .withOptions({ maxConcurrentReconciles: settings.maxConcurrentReconciles })
    .complete(reconciler);
  clock.go(mgr.start(stop));
  return mgr;
}

export function runControllerRuntime(
  scenario: Scenario<ControllerRuntimeSettings>,
  seed: number,
): TwinRun {
  const world = createWorld(scenario, seed);
  startAppManager(world, scenario.settings);
  scheduleSteps(world, scenario);
  const durationMs = scenarioDuration(scenario, 10_000);
  world.clock.after(durationMs, () => {
    for (const app of world.apiserver.objectsOf<App>('App')) {
      const pods = world.apiserver
        .objectsOf<Pod>('Pod')
        .filter((p) => getControllerOf(p)?.uid === app.metadata.uid);
      world.timeline.emit(
        'summary',
        pods.length === app.spec.replicas ? 'converged' : 'not converged',
        `${app.metadata.namespace}/${app.metadata.name}`,
        `${pods.length}/${app.spec.replicas} pods`,
        '(*sigs.k8s.io/controller-runtime/pkg/internal/controller.Controller).reconcileHandler',
      );
    }
  });
  return finishRun(world, 'controller-runtime', durationMs);
}
