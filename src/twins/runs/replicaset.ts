/**
 * The ReplicaSet run: the controller with its two informers against the API server, through
 * scaling, random pod deaths and failing API calls; it ends with each ReplicaSet's pod count.
 */
import { z } from 'zod';
import { SharedIndexInformer } from '../informer.js';
import { ReplicaSetController } from '../replicaset.js';
import { metaNamespaceKeyFunc, type ReplicaSet } from '../objects.js';
import type { Scenario, ScenarioSpec } from '../scenario.js';
import {
  createWorld,
  finishRun,
  scenarioDuration,
  scheduleSteps,
  type TwinRun,
  type World,
} from './world.js';

export const replicasetSettings = z.strictObject({
  workers: z.number().int().min(1).max(16).default(1),
  /** The most pods one sync creates or deletes. */
  burstReplicas: z.number().int().positive().default(500),
});

export type ReplicasetSettings = z.output<typeof replicasetSettings>;

export const replicasetScenarioSpec: ScenarioSpec<ReplicasetSettings> = {
  twin: 'replicaset',
  actions: [
    'create',
    'update',
    'delete',
    'scale',
    'deleteRandomPods',
    'fail',
    'expireWatches',
    'disconnect',
  ],
  settings: replicasetSettings,
};

/** The two informers and the controller, wired as kube-controller-manager wires them. */
export function startReplicaSetController(
  world: World,
  settings: ReplicasetSettings,
): ReplicaSetController {
  const { clock, rand, timeline, apiserver, stop } = world;
  const rsInformer = new SharedIndexInformer({
    name: 'ReplicaSet',
    listerWatcher: apiserver.listerWatcher('ReplicaSet'),
    clock,
    rand,
    timeline,
  });
  const podInformer = new SharedIndexInformer({
    name: 'Pod',
    listerWatcher: apiserver.listerWatcher('Pod'),
    clock,
    rand,
    timeline,
  });
  const controller = new ReplicaSetController({
    clock,
    apiserver,
    rsInformer,
    podInformer,
    burstReplicas: settings.burstReplicas,
    timeline,
  });
  clock.go(rsInformer.run(stop));
  clock.go(podInformer.run(stop));
  clock.go(controller.run(settings.workers, stop));
  return controller;
}

export function runReplicaset(scenario: Scenario<ReplicasetSettings>, seed: number): TwinRun {
  const world = createWorld(scenario, seed);
  const controller = startReplicaSetController(world, scenario.settings);
  scheduleSteps(world, scenario);
  const durationMs = scenarioDuration(scenario, 10_000);
  world.clock.after(durationMs, () => {
    for (const rs of world.apiserver.objectsOf<ReplicaSet>('ReplicaSet')) {
      const key = metaNamespaceKeyFunc(rs);
      const pods = controller.ownedActivePods(key);
      world.timeline.emit(
        'summary',
        pods.length === rs.spec.replicas ? 'converged' : 'not converged',
        key,
        `${pods.length}/${rs.spec.replicas} pods: ${pods.map((p) => p.metadata.name).join(', ') || '-'}`,
        '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet',
      );
    }
  });
  return finishRun(world, 'replicaset', durationMs);
}
