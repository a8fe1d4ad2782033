/**
 * What every twin run shares: a virtual clock, a seeded random source, a timeline and a fake API
 * server filled with the scenario's objects; the scenario's steps scheduled on the clock; and the
 * run itself (until the scenario's duration, then stop). Each runner in this folder builds its
 * twin on top and adds its own actions.
 */
import { StopChannel, VirtualClock } from '../sim/clock.js';
import { SeededRandom } from '../sim/random.js';
import { Timeline, type TimelineEvent } from '../sim/timeline.js';
import { FakeApiServer, verbMirrors, type NewObject } from '../apiserver.js';
import { metaNamespaceKeyFunc, selectorMatches, type KubeObject, type Pod } from '../objects.js';
import type { ObjectSpec, Scenario, Step, StepAction } from '../scenario.js';
import { UsageError } from '../../errors.js';

/**
 * The most events one run records. A timeline is for reading, and its events live in memory (a
 * million took 3.5 GB); default scenarios make a few hundred.
 */
export const MAX_EVENTS = 50_000;

/** The most clock tasks one run executes: a scenario that never settles stops here. */
const MAX_TASKS = 20_000_000;

/** A scenario that would make a run too big to read or to hold: stopped, and said how to shrink it. */
export class TwinRunLimitError extends UsageError {
  constructor(what: string, atMs: number) {
    super(
      `the scenario made ${what} by t=${(atMs / 1000).toFixed(3)}s, more than a twin run narrates; shorten its duration, or lower its replicas, objects or steps`,
      { code: 'E_TWIN_LIMIT' },
    );
  }
}

/** A timeline that stops the run once it holds `limit` events. */
class CappedTimeline extends Timeline {
  constructor(
    private readonly clockRef: VirtualClock,
    private readonly limit: number,
  ) {
    super(clockRef);
  }

  override emit(component: string, event: string, key: string, detail: string, mirrors: string) {
    // Thrown again at every later emit, so a twin that catches errors cannot run on.
    if (this.events.length >= this.limit)
      throw new TwinRunLimitError(`more than ${this.limit} events`, this.clockRef.now());
    super.emit(component, event, key, detail, mirrors);
  }
}

/** The result of `twin run`: exactly the JSON contract of `-o json`. */
export interface TwinRun {
  twin: string;
  seed: number;
  events: TimelineEvent[];
}

export interface World {
  clock: VirtualClock;
  rand: SeededRandom;
  timeline: Timeline;
  apiserver: FakeApiServer;
  /** Closed when the run's time is up: every twin goroutine winds down. */
  stop: StopChannel;
}

export interface WorldOptions {
  /** The watch cache's history per kind. @default 1000 */
  historySize?: number;
  /** The most events the run records before it stops with a TwinRunLimitError. @default MAX_EVENTS */
  maxEvents?: number;
}

/** A clock, a random source, a timeline and an API server holding the scenario's objects. */
export function createWorld(
  scenario: Scenario<unknown>,
  seed: number,
  options: WorldOptions = {},
): World {
  const clock = new VirtualClock();
  const rand = new SeededRandom(seed);
  const timeline = new CappedTimeline(clock, options.maxEvents ?? MAX_EVENTS);
  const apiserver = new FakeApiServer({
    clock,
    rand,
    timeline,
    historySize: options.historySize ?? 1000,
  });
  for (const spec of scenario.objects) apiserver.create(toNewObject(spec, apiserver));
  return { clock, rand, timeline, apiserver, stop: new StopChannel() };
}

/** What to do for each action of a step; the common API actions are filled in by scheduleSteps. */
export type StepHandlers = Partial<{
  [K in StepAction]: (value: NonNullable<Step[K]>, step: Step) => void;
}>;

/**
 * Schedules every step at its time. Twin-specific handlers come first; the API actions (create,
 * update, delete, scale, deleteRandomPods, expireWatches, compact, disconnect, fail) have common
 * meanings. A failing API call from a step is narrated, not thrown: steps are another client.
 */
export function scheduleSteps(
  world: World,
  scenario: Scenario<unknown>,
  handlers: StepHandlers = {},
): void {
  const common: StepHandlers = {
    create: (spec) => world.apiserver.create(toNewObject(spec, world.apiserver)),
    update: (spec) => applyUpdate(spec, world.apiserver),
    delete: (ref) =>
      world.apiserver.delete(
        ref.kind,
        ref.namespace ?? (ref.kind === 'Node' ? '' : 'default'),
        ref.name,
      ),
    scale: (ref) => {
      const current = world.apiserver.get(
        ref.kind,
        ref.namespace ?? 'default',
        ref.name,
      ) as KubeObject<{ replicas: number }>;
      world.apiserver.update({ ...current, spec: { ...current.spec, replicas: ref.replicas } });
    },
    deleteRandomPods: ({ count, selector }) => {
      for (let i = 0; i < count; i++) {
        const candidates = world.apiserver
          .objectsOf<Pod>('Pod')
          .filter((p) => selectorMatches({ matchLabels: selector ?? {} }, p.metadata.labels));
        if (candidates.length === 0) return;
        const victim = world.rand.pick(candidates);
        world.timeline.emit(
          'chaos',
          'delete pod',
          metaNamespaceKeyFunc(victim),
          'a random pod dies',
          '(*k8s.io/apiserver/pkg/storage/etcd3.store).Delete',
        );
        world.apiserver.delete('Pod', victim.metadata.namespace, victim.metadata.name);
      }
    },
    expireWatches: () => world.apiserver.expireWatches(),
    compact: () => world.apiserver.compact(),
    disconnect: (ms) => world.apiserver.disconnect(ms),
    fail: (rule) => {
      world.apiserver.injectFaults([rule]);
      world.timeline.emit(
        'chaos',
        'inject failures',
        `${rule.verb} ${rule.kind ?? '*'}`,
        describeFault(rule),
        verbMirrors[rule.verb],
      );
    },
  };
  for (const step of scenario.steps) {
    const action = (Object.keys(step) as (StepAction | 'at')[]).find(
      (k) => k !== 'at' && step[k as StepAction] !== undefined,
    ) as StepAction;
    const handler = (handlers[action] ?? common[action]) as
      ((value: unknown, step: Step) => void) | undefined;
    if (!handler) continue;
    world.clock.after(step.at, () => {
      try {
        handler(step[action], step);
      } catch (err) {
        world.timeline.emit(
          'scenario',
          `${action} failed`,
          '-',
          (err as Error).message,
          '(*k8s.io/apiserver/pkg/storage/etcd3.store).GuaranteedUpdate',
        );
      }
    });
  }
}

function describeFault(rule: {
  times?: number;
  probability?: number;
  code?: number;
  key?: string;
}): string {
  const how =
    rule.times !== undefined
      ? `next ${rule.times} call(s)`
      : rule.probability !== undefined
        ? `${Math.round(rule.probability * 100)}% of calls`
        : 'every call';
  return `${how}${rule.key ? ` for ${rule.key}` : ''} fail with ${rule.code ?? 500}`;
}

/** How long a scenario runs: its duration, or five virtual seconds after its last step. */
export function scenarioDuration(scenario: Scenario<unknown>, settle = 5000): number {
  if (scenario.duration !== undefined) return scenario.duration;
  const last = scenario.steps.reduce((max, step) => Math.max(max, step.at), 0);
  return last + settle;
}

/** Runs the clock to the scenario's end, stops every goroutine, and returns the timeline. */
export function finishRun(world: World, twin: string, durationMs: number): TwinRun {
  const run = () => {
    const before = world.clock.steps;
    try {
      world.clock.run({ until: durationMs, maxTasks: before + MAX_TASKS });
    } catch (error) {
      if (error instanceof TwinRunLimitError || world.clock.steps <= before + MAX_TASKS)
        throw error;
      throw new TwinRunLimitError(`more than ${MAX_TASKS} steps`, world.clock.now());
    }
  };
  run();
  world.stop.close();
  run();
  return { twin, seed: world.rand.seed, events: world.timeline.events };
}

/** A scenario object as the API server takes it. */
export function toNewObject(spec: ObjectSpec, apiserver: FakeApiServer): NewObject {
  const namespace = spec.kind === 'Node' ? '' : (spec.namespace ?? 'default');
  const metadata: NewObject['metadata'] = { namespace, name: spec.name, labels: spec.labels ?? {} };
  if (spec.owner) {
    const [kind, ownerName] = spec.owner.split('/') as [string, string];
    const owner = apiserver.get(kind, namespace, ownerName);
    metadata.ownerReferences = [
      { kind, name: ownerName, uid: owner.metadata.uid, controller: true },
    ];
  }
  switch (spec.kind) {
    case 'Pod':
      return {
        kind: 'Pod',
        metadata,
        spec: {
          ...(spec.nodeName ? { nodeName: spec.nodeName } : {}),
          ...(spec.requests
            ? { requests: { cpu: spec.requests.cpu ?? 0, memory: spec.requests.memory ?? 0 } }
            : {}),
          ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
          ...(spec.tolerations ? { tolerations: spec.tolerations } : {}),
          ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
          ...(spec.nodeAffinity
            ? {
                affinity: {
                  nodeAffinity: {
                    ...(spec.nodeAffinity.required
                      ? {
                          requiredDuringSchedulingIgnoredDuringExecution: {
                            nodeSelectorTerms: spec.nodeAffinity.required,
                          },
                        }
                      : {}),
                    ...(spec.nodeAffinity.preferred
                      ? {
                          preferredDuringSchedulingIgnoredDuringExecution:
                            spec.nodeAffinity.preferred.map((p) => ({
                              weight: p.weight,
                              preference: { matchExpressions: p.matchExpressions },
                            })),
                        }
                      : {}),
                  },
                },
              }
            : {}),
        },
        status: { phase: spec.phase ?? 'Pending' },
      };
    case 'Node':
      return {
        kind: 'Node',
        metadata,
        spec: {
          ...(spec.taints ? { taints: spec.taints } : {}),
          ...(spec.unschedulable !== undefined ? { unschedulable: spec.unschedulable } : {}),
        },
        status: {
          allocatable: {
            cpu: spec.capacity?.cpu ?? 4000,
            memory: spec.capacity?.memory ?? 8 * 2 ** 30,
            pods: spec.capacity?.pods ?? 110,
          },
        },
      };
    case 'ReplicaSet': {
      const selector = spec.selector ?? spec.template?.labels ?? { app: spec.name };
      return {
        kind: 'ReplicaSet',
        metadata,
        spec: {
          replicas: spec.replicas ?? 1,
          selector: { matchLabels: selector },
          template: {
            labels: spec.template?.labels ?? selector,
            spec: spec.template?.requests
              ? {
                  requests: {
                    cpu: spec.template.requests.cpu ?? 0,
                    memory: spec.template.requests.memory ?? 0,
                  },
                }
              : {},
          },
        },
        status: { replicas: 0, observedGeneration: 0 },
      };
    }
    case 'App':
      return {
        kind: 'App',
        metadata,
        spec: { replicas: spec.replicas ?? 1 },
        status: { readyReplicas: 0 },
      };
    case 'ConfigMap':
      return { kind: 'ConfigMap', metadata, spec: { data: spec.data ?? {} }, status: {} };
  }
}

/** Scenario fields and the spec field each one sets. */
const specFieldOf: Record<string, string> = {
  replicas: 'replicas',
  selector: 'selector',
  template: 'template',
  requests: 'requests',
  nodeName: 'nodeName',
  nodeSelector: 'nodeSelector',
  tolerations: 'tolerations',
  nodeAffinity: 'affinity',
  priority: 'priority',
  taints: 'taints',
  unschedulable: 'unschedulable',
  data: 'data',
};

/** An `update` step: the fields it lists replace the object's; the rest stays as it is. */
function applyUpdate(spec: ObjectSpec, apiserver: FakeApiServer): void {
  const namespace = spec.kind === 'Node' ? '' : (spec.namespace ?? 'default');
  const current = apiserver.get(spec.kind, namespace, spec.name);
  const wanted = toNewObject(spec, apiserver);
  const wantedSpec = (wanted.spec ?? {}) as Record<string, unknown>;
  const nextSpec = { ...(current.spec as Record<string, unknown>) };
  for (const field of Object.keys(spec)) {
    const target = specFieldOf[field];
    if (target === undefined) continue;
    if (wantedSpec[target] === undefined) delete nextSpec[target];
    else nextSpec[target] = wantedSpec[target];
  }
  const given = new Set(Object.keys(spec));
  const nextStatus =
    given.has('capacity') || given.has('phase')
      ? { ...current.status, ...(wanted.status ?? {}) }
      : current.status;
  apiserver.update({
    ...current,
    metadata: {
      ...current.metadata,
      labels: given.has('labels') ? (spec.labels ?? {}) : current.metadata.labels,
    },
    spec: nextSpec,
    status: nextStatus,
  });
}
