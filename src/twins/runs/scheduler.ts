/**
 * The scheduler run: nodes and pods from the scenario, the scheduler with its informers, queue,
 * default plugins and binder; it ends with where every pod landed, or why it did not.
 */
import { z } from 'zod';
import { SharedIndexInformer } from '../informer.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { metaNamespaceKeyFunc, type Pod } from '../objects.js';
import { duration, type Scenario, type ScenarioSpec } from '../scenario.js';
import {
  createWorld,
  finishRun,
  scenarioDuration,
  scheduleSteps,
  type TwinRun,
  type World,
} from './world.js';

export const schedulerSettings = z.strictObject({
  /** 0 is adaptive, as in kube-scheduler. */
  percentageOfNodesToScore: z.number().int().min(0).max(100).default(0),
  /** Virtual time a binding takes. */
  bindLatency: duration.default(1),
});

export type SchedulerSettings = z.output<typeof schedulerSettings>;

export const schedulerScenarioSpec: ScenarioSpec<SchedulerSettings> = {
  twin: 'scheduler',
  actions: ['create', 'update', 'delete', 'fail'],
  settings: schedulerSettings,
};

/** Informers for pods and nodes and a scheduler over them, started on the world's clock. */
export function startScheduler(world: World, settings: SchedulerSettings): Scheduler {
  const { clock, rand, timeline, apiserver, stop } = world;
  const podInformer = new SharedIndexInformer({
    name: 'Pod',
    listerWatcher: apiserver.listerWatcher('Pod'),
    clock,
    rand,
    timeline,
  });
  const nodeInformer = new SharedIndexInformer({
    name: 'Node',
    listerWatcher: apiserver.listerWatcher('Node'),
    clock,
    rand,
    timeline,
  });
  const scheduler = new Scheduler({
    clock,
    rand,
    apiserver,
    podInformer,
    nodeInformer,
    percentageOfNodesToScore: settings.percentageOfNodesToScore,
    bindLatencyMs: settings.bindLatency,
    timeline,
  });
  clock.go(podInformer.run(stop));
  clock.go(nodeInformer.run(stop));
  clock.go(scheduler.run(stop));
  return scheduler;
}

export function runScheduler(scenario: Scenario<SchedulerSettings>, seed: number): TwinRun {
  const world = createWorld(scenario, seed);
  startScheduler(world, scenario.settings);
  scheduleSteps(world, scenario);
  const durationMs = scenarioDuration(scenario, 15_000);
  world.clock.after(durationMs, () => {
    for (const pod of world.apiserver.objectsOf<Pod>('Pod')) {
      world.timeline.emit(
        'summary',
        pod.spec.nodeName ? 'placed' : 'pending',
        metaNamespaceKeyFunc(pod),
        pod.spec.nodeName ? `on ${pod.spec.nodeName}` : (pod.status.message ?? 'not tried yet'),
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      );
    }
  });
  return finishRun(world, 'scheduler', durationMs);
}
