/**
 * Framework rules (rules/frameworks.yaml), validated, with errors that name the file and rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { K8sReadError } from '../errors.js';
import { rulesDir, stdMethodsFile } from '../shared/rules-dir.js';
import { readYamlFile } from '../shared/yaml-file.js';

export { rulesDir };

const base = { id: z.string().min(1), description: z.string().optional() };

const ruleSchema = z
  .discriminatedUnion('kind', [
    z.object({
      ...base,
      kind: z.literal('literal-field'),
      type: z.string(),
      fields: z.array(z.string()).min(1),
      invokedBy: z
        .array(
          z.union([
            z.object({
              method: z.string(),
              receiver: z.string(),
              arg: z.number().int().min(0).optional(),
            }),
            z.object({ function: z.string(), arg: z.number().int().min(0) }),
          ]),
        )
        .optional(),
      collects: z.array(z.object({ method: z.string(), receiver: z.string() })).optional(),
      methods: z.array(z.string()).min(1).optional(),
    }),
    z.object({ ...base, kind: z.literal('call-arg'), functions: z.array(z.string()).min(1) }),
    z.object({
      ...base,
      kind: z.literal('arg-methods'),
      package: z.string(),
      calls: z.array(z.string()).min(1),
      arg: z.number().int().min(0),
      methods: z.array(z.string()).min(1),
    }),
    z.object({
      ...base,
      kind: z.literal('external-interface'),
      type: z.string(),
      methods: z.array(z.string()).min(1),
      funcTypes: z.array(z.string()).optional(),
    }),
    z.object({
      ...base,
      kind: z.literal('registered-func'),
      package: z.string(),
      register: z.array(z.string()).default([]),
      arg: z.number().int().min(0).default(0),
      /** Fields of the package's structs whose stores (literal or assigned) register functions. */
      fields: z.array(z.string()).default([]),
      runBy: z.array(z.string()).min(1),
    }),
    z.object({ ...base, kind: z.literal('map-register') }),
    z.object({
      ...base,
      kind: z.literal('registry-literal'),
      type: z.string(),
      key: z.string(),
      values: z.array(z.string()).min(1),
      aliases: z.string().optional(),
      in: z.array(z.string()).optional(),
    }),
    z.object({
      ...base,
      kind: z.literal('queue-handoff'),
      package: z.string(),
      produce: z.array(z.string()).min(1),
      consume: z.array(z.string()).min(1),
    }),
  ])
  .superRefine((rule, ctx) => {
    // A function is registered by a method that takes it, or by a field that holds it: one at least.
    if (rule.kind === 'registered-func' && rule.register.length === 0 && rule.fields.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['register'],
        message:
          'a registered-func rule needs `register` (methods taking the function) or `fields`',
      });
  });

const fileSchema = z.object({ rules: z.array(ruleSchema) });
const noiseSchema = z.object({
  packages: z.array(z.string()),
  functions: z.array(z.string()).optional(),
});

/** What the default trace view folds: packages (prefixes), and functions by symbol pattern. */
export interface NoiseRules {
  packages: string[];
  /** Globs on go/ssa symbols: `*` matches any run of characters. */
  functions: string[];
}

export type FrameworkRule = z.infer<typeof ruleSchema>;

/**
 * The types of unindexed packages that rules declare (`external-interface`), by type key: the
 * interfaces, and the function types a function value is converted to on its way into one.
 */
export function externalTypes(
  rules: readonly FrameworkRule[],
  std: StdTypes = { methods: new Map(), interfaces: new Set(), declared: new Map() },
): ExternalTypes {
  const declared = rules.flatMap((r) => (r.kind === 'external-interface' ? [r] : []));
  return {
    interfaces: new Set(declared.map((r) => r.type)),
    funcTypes: new Set(declared.flatMap((r) => r.funcTypes ?? [])),
    methods: std.methods,
    stdInterfaces: std.interfaces,
    declared: std.declared,
  };
}

export interface ExternalTypes {
  interfaces: ReadonlySet<string>;
  funcTypes: ReadonlySet<string>;
  /** The exported method names of unindexed types (`net.Listener`), by type key. */
  methods?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Which of those are interfaces (`net.Conn`, not `sync.Mutex`), by type key. */
  stdInterfaces?: ReadonlySet<string>;
  /**
   * For a concrete type, the methods not declared on `*T` itself, by type key, to the symbol of
   * the method a call reaches: `(time.Time).Add`, `(*bufio.Writer).Flush` in bufio.ReadWriter.
   */
  declared?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** The standard library's method sets and interfaces (rules/go-std-methods.json). */
export interface StdTypes {
  methods: ReadonlyMap<string, ReadonlySet<string>>;
  interfaces: ReadonlySet<string>;
  declared: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const stdMethodsSchema = z.object({
  types: z.record(z.string(), z.array(z.string())),
  interfaces: z.array(z.string()).default([]),
  declared: z.record(z.string(), z.record(z.string(), z.string())).default({}),
});

export function loadStdMethods(file = stdMethodsFile): StdTypes {
  let data: z.output<typeof stdMethodsSchema>;
  try {
    data = stdMethodsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new K8sReadError(
      `cannot read ${file}: ${(error as Error).message.split('\n')[0]}; reinstall k8s-read (rules/ ships with it)`,
    );
  }
  return {
    methods: new Map(Object.entries(data.types).map(([type, names]) => [type, new Set(names)])),
    interfaces: new Set(data.interfaces),
    declared: new Map(
      Object.entries(data.declared).map(([type, symbols]) => [
        type,
        new Map(Object.entries(symbols)),
      ]),
    ),
  };
}

export function loadFrameworkRules(extraFiles: readonly string[] = []): FrameworkRule[] {
  const files = [path.join(rulesDir, 'frameworks.yaml'), ...extraFiles];
  return files.flatMap((file) => readYaml(file, fileSchema).rules);
}

export function loadNoiseRules(file = path.join(rulesDir, 'noise.yaml')): NoiseRules {
  const data = readYaml(file, noiseSchema);
  return { packages: data.packages, functions: data.functions ?? [] };
}

function readYaml<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  return readYamlFile(file, schema, {
    kind: 'rules file',
    fix: 'fix the rule(s) above (rules/frameworks.yaml documents every kind)',
    unreadableFix: 'check the path given to --rules',
  }).data;
}
