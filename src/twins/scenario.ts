/**
 * Twin scenarios: YAML files that say what the world looks like at the start (objects in the API
 * server), what happens when (create, update, delete, scale, watch expiry, disconnects, injected
 * failures, twin-specific actions), and the twin's settings. Validated with zod; every error is
 * reported as `file:line:column: field: problem`, the position taken from the YAML document, so a
 * reader fixes a scenario without guessing.
 */
import { z } from 'zod';
import { UsageError } from '../errors.js';
import {
  formatIssue,
  parseYamlText,
  readYamlFile,
  type YamlDocument,
  type YamlPath,
} from '../shared/yaml-file.js';

/**
 * Limits on what a scenario may ask for. A twin run narrates every pod and every step, in memory:
 * `replicas: 100000000` ran for minutes at 2 GB before these. Far above any scenario a reader
 * follows, far below what hurts.
 */
export const SCENARIO_LIMITS = {
  replicas: 1000,
  objects: 1000,
  steps: 10_000,
  /** Virtual time, in ms: one hour. */
  durationMs: 3_600_000,
} as const;

const replicas = z
  .number()
  .int()
  .nonnegative()
  .max(
    SCENARIO_LIMITS.replicas,
    `at most ${SCENARIO_LIMITS.replicas} replicas in a twin run (it narrates every pod)`,
  );

/** `1.5s`, `250ms`, `2m`, or a number of seconds; in milliseconds. */
export const duration = z
  .union([
    z.number().nonnegative(),
    z.string().regex(/^\d+(\.\d+)?(ms|s|m)$/, 'expected a duration such as 250ms, 1.5s or 2m'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return value * 1000;
    const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value)!;
    const n = Number(match[1]);
    return match[2] === 'ms' ? n : match[2] === 's' ? n * 1000 : n * 60_000;
  });

/** A point in a run's virtual time: a duration of at most an hour. */
const runTime = duration.refine(
  (ms) => ms <= SCENARIO_LIMITS.durationMs,
  'at most 1h of virtual time in a twin run',
);

/** CPU as `500m`, `2`, `0.5` -> millicores. */
const cpu = z
  .union([
    z.number().nonnegative(),
    z.string().regex(/^\d+(\.\d+)?m?$/, 'expected cpu such as 500m or 2'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return Math.round(value * 1000);
    return value.endsWith('m') ? Number(value.slice(0, -1)) : Math.round(Number(value) * 1000);
  });

const memoryUnits: Record<string, number> = {
  '': 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  k: 1e3,
  M: 1e6,
  G: 1e9,
};
/** Memory as `512Mi`, `1Gi`, `1G` or bytes. */
const memory = z
  .union([
    z.number().nonnegative(),
    z.string().regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G)?$/, 'expected memory such as 512Mi or 1Gi'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return value;
    const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G)?$/.exec(value)!;
    return Math.round(Number(match[1]) * memoryUnits[match[2] ?? '']!);
  });

const labels = z.record(z.string(), z.string());
const name = z
  .string()
  .regex(
    /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
    'expected a DNS name: lowercase letters, digits, "-" and "."',
  );

const taint = z.strictObject({
  key: z.string(),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
});

const toleration = z.strictObject({
  key: z.string().optional(),
  operator: z.enum(['Exists', 'Equal']).optional(),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
});

const nodeSelectorRequirement = z.strictObject({
  key: z.string(),
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
  values: z.array(z.string()).optional(),
});

const nodeAffinity = z.strictObject({
  required: z
    .array(z.strictObject({ matchExpressions: z.array(nodeSelectorRequirement).min(1) }))
    .optional(),
  preferred: z
    .array(
      z.strictObject({
        weight: z.number().int().min(1).max(100),
        matchExpressions: z.array(nodeSelectorRequirement).min(1),
      }),
    )
    .optional(),
});

/** Which object fields each kind accepts (beyond kind, namespace, name, labels). */
const fieldsByKind: Record<string, readonly string[]> = {
  Pod: [
    'requests',
    'nodeName',
    'nodeSelector',
    'tolerations',
    'nodeAffinity',
    'priority',
    'owner',
    'phase',
  ],
  Node: ['capacity', 'taints', 'unschedulable'],
  ReplicaSet: ['replicas', 'selector', 'template'],
  App: ['replicas'],
  ConfigMap: ['data'],
};

export const objectSpec = z
  .strictObject({
    kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']),
    namespace: z.string().optional(),
    name,
    labels: labels.optional(),
    // Pod
    requests: z.strictObject({ cpu: cpu.optional(), memory: memory.optional() }).optional(),
    nodeName: z.string().optional(),
    nodeSelector: labels.optional(),
    tolerations: z.array(toleration).optional(),
    nodeAffinity: nodeAffinity.optional(),
    priority: z.number().int().optional(),
    /** `Kind/name` of the controlling owner. */
    owner: z
      .string()
      .regex(/^[A-Za-z]+\/[a-z0-9.-]+$/, 'expected Kind/name, e.g. ReplicaSet/web')
      .optional(),
    phase: z.enum(['Pending', 'Running', 'Succeeded', 'Failed']).optional(),
    // Node
    capacity: z
      .strictObject({
        cpu: cpu.optional(),
        memory: memory.optional(),
        pods: z.number().int().positive().optional(),
      })
      .optional(),
    taints: z.array(taint).optional(),
    unschedulable: z.boolean().optional(),
    // ReplicaSet, App
    replicas: replicas.optional(),
    selector: labels.optional(),
    template: z
      .strictObject({
        labels: labels.optional(),
        requests: z.strictObject({ cpu: cpu.optional(), memory: memory.optional() }).optional(),
      })
      .optional(),
    // ConfigMap
    data: labels.optional(),
  })
  .superRefine((obj, ctx) => {
    const allowed = new Set([
      'kind',
      'namespace',
      'name',
      'labels',
      ...(fieldsByKind[obj.kind] ?? []),
    ]);
    for (const key of Object.keys(obj)) {
      if (!allowed.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `not a field of a ${obj.kind} (a ${obj.kind} takes: ${[...allowed].join(', ')})`,
        });
      }
    }
  });

export type ObjectSpec = z.output<typeof objectSpec>;

const objectRef = z.strictObject({
  kind: z.enum(['Pod', 'Node', 'ReplicaSet', 'App', 'ConfigMap']),
  namespace: z.string().optional(),
  name,
});

const fault = z.strictObject({
  verb: z.enum(['create', 'update', 'delete', 'bind', 'list', 'watch']),
  kind: z.string().optional(),
  key: z.string().optional(),
  times: z.number().int().positive().optional(),
  probability: z.number().min(0).max(1).optional(),
  code: z.number().int().optional(),
});

/** Every action a step may carry; each twin accepts a subset (see `stepsFor` in the catalog). */
export const stepActions = {
  create: objectSpec,
  update: objectSpec,
  delete: objectRef,
  scale: z.strictObject({
    kind: z.enum(['ReplicaSet', 'App']),
    namespace: z.string().optional(),
    name,
    replicas,
  }),
  deleteRandomPods: z.strictObject({
    count: z.number().int().positive().max(SCENARIO_LIMITS.replicas),
    selector: labels.optional(),
  }),
  expireWatches: z.literal(true),
  compact: z.literal(true),
  disconnect: duration,
  fail: fault,
  failSync: z.strictObject({ key: z.string(), times: z.number().int().positive() }),
  addHandler: z.strictObject({ name: z.string(), latency: duration.optional() }),
  add: z.string(),
  addAfter: z.strictObject({ key: z.string(), after: duration }),
  addRateLimited: z.string(),
  forget: z.string(),
  shutDown: z.literal(true),
  replace: z.array(name),
  resync: z.literal(true),
  pop: z.strictObject({ fail: z.boolean().optional() }),
  byIndex: z.strictObject({ index: z.string(), value: z.string() }),
} as const;

export type StepAction = keyof typeof stepActions;

const stepShape = Object.fromEntries(
  Object.entries(stepActions).map(([key, schema]) => [key, schema.optional()]),
) as {
  [K in StepAction]: z.ZodOptional<(typeof stepActions)[K]>;
};

/** A step: a time and exactly one action. */
export type Step = { at: number } & { [K in StepAction]?: z.output<(typeof stepActions)[K]> };

/** The common shape; `settings` is checked by the twin's own schema. */
function scenarioSchema(allowedActions: readonly StepAction[], settings: z.ZodType) {
  const step = z.strictObject({ at: runTime, ...stepShape }).superRefine((value, ctx) => {
    const present = (Object.keys(value) as string[]).filter(
      (k) => k !== 'at' && value[k as StepAction] !== undefined,
    );
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a step needs exactly one action besides "at"; this twin's actions: ${allowedActions.join(', ')}`,
      });
      return;
    }
    const action = present[0] as StepAction;
    if (!allowedActions.includes(action)) {
      ctx.addIssue({
        code: 'custom',
        path: [action],
        message: `"${action}" is not an action of this twin; its actions: ${allowedActions.join(', ')}`,
      });
    }
  });
  return z.strictObject({
    twin: z.string().optional(),
    description: z.string().optional(),
    seed: z.number().int().nonnegative().optional(),
    duration: runTime.optional(),
    settings: settings.optional(),
    objects: z
      .array(objectSpec)
      .max(SCENARIO_LIMITS.objects, `at most ${SCENARIO_LIMITS.objects} objects in a twin run`)
      .optional(),
    steps: z
      .array(step)
      .max(SCENARIO_LIMITS.steps, `at most ${SCENARIO_LIMITS.steps} steps in a twin run`)
      .optional(),
  });
}

export interface Scenario<Settings> {
  file: string;
  twin?: string;
  description?: string;
  seed?: number;
  /** Virtual ms to run; steps beyond it never happen. */
  duration?: number;
  settings: Settings;
  objects: ObjectSpec[];
  steps: Step[];
}

/** How a twin's scenario is checked: its actions and its settings schema. */
export interface ScenarioSpec<Settings> {
  twin: string;
  actions: readonly StepAction[];
  settings: z.ZodType<Settings>;
}

/** How scenario files are read: the shared YAML loader, with this twin's example as the fix. */
function yamlOptions(twin: string) {
  const example = `see guides/scenarios/${twin}.yaml for a working example`;
  return {
    kind: 'scenario',
    fix: `fix the field(s) above (${example})`,
    syntaxFix: `fix the YAML syntax (${example})`,
    allowedFields: allowedKeysHint,
  };
}

/**
 * Reads and validates a scenario file for a twin. Throws a UsageError naming file, line, column
 * and field for every problem found.
 */
export function loadScenario<Settings>(
  file: string,
  spec: ScenarioSpec<Settings>,
  shownAs = file,
): Scenario<Settings> {
  const doc = readYamlFile(file, scenarioSchema(spec.actions, spec.settings), {
    ...yamlOptions(spec.twin),
    shownAs,
    unreadableFix: 'pass --scenario with an existing YAML file',
  });
  return toScenario(doc, shownAs, spec);
}

/** Validates scenario text (the file name is only used in messages). */
export function parseScenario<Settings>(
  text: string,
  file: string,
  spec: ScenarioSpec<Settings>,
): Scenario<Settings> {
  const schema = scenarioSchema(spec.actions, spec.settings);
  return toScenario(parseYamlText(text, file, schema, yamlOptions(spec.twin)), file, spec);
}

function toScenario<Settings>(
  doc: YamlDocument<unknown>,
  file: string,
  spec: ScenarioSpec<Settings>,
): Scenario<Settings> {
  const data = doc.data as {
    twin?: string;
    description?: string;
    seed?: number;
    duration?: number;
    settings?: Settings;
    objects?: ObjectSpec[];
    steps?: Step[];
  };
  if (data.twin !== undefined && data.twin !== spec.twin) {
    const issue = doc.issueAt(['twin'], `this scenario is for "${data.twin}", not "${spec.twin}"`);
    throw new UsageError(
      `invalid scenario:\n  ${formatIssue(issue)}\nrun \`k8s-read twin run ${data.twin} --scenario ${file}\` instead`,
    );
  }
  return {
    file,
    ...(data.twin === undefined ? {} : { twin: data.twin }),
    ...(data.description === undefined ? {} : { description: data.description }),
    ...(data.seed === undefined ? {} : { seed: data.seed }),
    ...(data.duration === undefined ? {} : { duration: data.duration }),
    settings: data.settings ?? spec.settings.parse({}),
    objects: data.objects ?? [],
    steps: [...(data.steps ?? [])].sort((a, b) => a.at - b.at),
  };
}

function allowedKeysHint(parent: YamlPath): string {
  if (parent.length === 0) return 'twin, description, seed, duration, settings, objects, steps';
  if (parent.length === 2 && parent[0] === 'steps') return `at and one action`;
  if (parent[0] === 'settings' && parent.length === 1) return "see the twin's example scenario";
  return 'see the example scenario';
}
