/**
 * The API server run: objects with resource versions, and one plain client that lists, watches
 * from the list's version, and, when told its version is too old (410), lists again. It is the
 * contract a reflector is written against, seen from the server's side.
 */
import { z } from 'zod';
import { sleep, type Proc } from '../sim/clock.js';
import { ApiError, isResourceExpired, type FakeWatch } from '../apiserver.js';
import { metaNamespaceKeyFunc, type KubeObject } from '../objects.js';
import type { Scenario, ScenarioSpec } from '../scenario.js';
import { createWorld, finishRun, scenarioDuration, scheduleSteps, type TwinRun } from './world.js';

export const apiserverSettings = z.strictObject({
  kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']).default('Pod'),
  /** Events the watch cache remembers per kind. */
  historySize: z.number().int().positive().default(1000),
});

export type ApiserverSettings = z.output<typeof apiserverSettings>;

export const apiserverScenarioSpec: ScenarioSpec<ApiserverSettings> = {
  twin: 'apiserver',
  actions: ['create', 'update', 'delete', 'expireWatches', 'compact', 'disconnect', 'fail'],
  settings: apiserverSettings,
};

export function runApiserver(scenario: Scenario<ApiserverSettings>, seed: number): TwinRun {
  const settings = scenario.settings;
  const world = createWorld(scenario, seed, { historySize: settings.historySize });
  const { clock, timeline, apiserver, stop } = world;
  const kind = settings.kind;

  const client = function* (): Proc {
    let rv = '';
    let needList = true;
    while (!stop.closed) {
      try {
        if (needList) {
          const listed = apiserver.list(kind, { resourceVersion: '' });
          rv = listed.resourceVersion;
          timeline.emit(
            'client',
            'list',
            kind,
            `${listed.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).join(', ') || 'nothing'}; resume at rv=${rv}`,
            'k8s.io/client-go/tools/cache.ListerWatcher',
          );
          needList = false;
        }
        const w: FakeWatch = apiserver.watch(kind, { resourceVersion: rv });
        const unsubscribe = stop.onClose(() => w.stop());
        for (;;) {
          const [event, ok] = yield* w.resultChan.recv();
          if (!ok || !event) {
            timeline.emit(
              'client',
              'watch closed',
              kind,
              `re-watch from rv=${rv}`,
              'k8s.io/apimachinery/pkg/watch.Interface',
            );
            break;
          }
          if (event.type === 'ERROR') {
            const err = ApiError.fromStatus(event.object as never);
            timeline.emit(
              'client',
              'watch ERROR',
              kind,
              `${err.code} ${err.reason}: ${err.message}`,
              'k8s.io/apimachinery/pkg/api/errors.FromObject',
            );
            if (isResourceExpired(err)) needList = true;
            break;
          }
          const obj = event.object as KubeObject;
          rv = obj.metadata.resourceVersion;
          timeline.emit(
            'client',
            `event ${event.type}`,
            metaNamespaceKeyFunc(obj),
            `rv=${rv}`,
            'k8s.io/apimachinery/pkg/watch.Interface',
          );
        }
        unsubscribe();
      } catch (err) {
        timeline.emit(
          'client',
          'error',
          kind,
          `${(err as Error).message}; retry in 1s`,
          'k8s.io/apimachinery/pkg/util/net.IsConnectionRefused',
        );
        yield* sleep(clock, 1000);
      }
      yield* sleep(clock, 0);
    }
  };
  scheduleSteps(world, scenario);
  clock.go(client());
  return finishRun(world, 'apiserver', scenarioDuration(scenario, 3000));
}
