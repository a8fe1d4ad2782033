/**
 * Opens (or builds) the index and traces a component: what `trace`, `export trace` and the TUI
 * share, so the three draw one trace for the same flags.
 */
import { UsageError } from '../errors.js';
import type { ComponentEntry } from '../trace/trace-component.js';
import type { Trace } from '../trace/types.js';
import { debugLogger, type CliContext } from './context.js';
import { openIndex, type OpenIndex } from './open-index.js';
import { loadTraceRules } from './trace-rules.js';

export interface LoadTraceOptions {
  repo?: string;
  db?: string;
  target: string;
  depth?: number;
  focus?: string;
  in?: string;
  all?: boolean;
  includeStd?: boolean;
  includeNoise?: boolean;
  github?: string;
  maxChildren?: number;
}

/**
 * A trace asked before with the same options, index, rules and build is read from the answers kept
 * beside the index (src/cli/trace-cache.ts); any other is traced, and its answer kept.
 */
export async function loadTrace(ctx: CliContext, options: LoadTraceOptions): Promise<Trace> {
  // The tracer's modules and rules load while the index opens.
  const modules = loadTraceModules(ctx);
  modules.catch(() => undefined);
  const cache = import('./trace-cache.js');
  const index = await openIndex(ctx, {
    ...(options.repo ? { repo: options.repo } : {}),
    ...(options.db ? { db: options.db } : {}),
  });
  try {
    const { traceAnswerKey, readCachedTrace, cacheTrace } = await cache;
    const key = await traceAnswerKey(ctx, index, options);
    const debug = debugLogger(ctx, 'trace');
    const cached = key && (await readCachedTrace(index.store, key));
    if (cached) {
      ctx.replay?.keep();
      debug(
        `${cached.root}: ${cached.nodes.length} nodes, ${cached.edges.length} edges, ${cached.unresolved.length} unresolved: the answer kept for these options, index, rules and build`,
      );
      return cached;
    }
    const trace = await traceIndex(ctx, index, options, modules);
    if (key) await cacheTrace(index.store, key, trace, debug);
    return trace;
  } finally {
    await index.close();
  }
}

/**
 * Traces on an index already open. Without a target, the tree's default component: kube-scheduler
 * when the tree has one (the trace the README starts with), else its first component.
 */
export async function traceIndex(
  ctx: CliContext,
  index: Pick<OpenIndex, 'store' | 'tree'>,
  options: Omit<LoadTraceOptions, 'repo' | 'db' | 'target'> & { target: string | undefined },
  modules = loadTraceModules(ctx),
): Promise<Trace> {
  const [{ traceComponent }, { createStoreGraph }, { components, noise }] = await modules;
  const graph = createStoreGraph(index.store, index.tree, {
    components,
    tablesOnly: ctx.env.K8S_READ_TRACE_PACK === 'off',
    ...(options.github ? { github: options.github } : {}),
  });
  const target = options.target ?? defaultComponent(await graph.components());
  const started = performance.now();
  const trace = await traceComponent(graph, target, {
    components,
    noise,
    ...(options.depth !== undefined ? { depth: options.depth } : {}),
    ...(options.focus ? { focus: options.focus } : {}),
    ...(options.in ? { in: options.in } : {}),
    ...(options.maxChildren !== undefined ? { maxChildren: options.maxChildren } : {}),
    all: options.all ?? false,
    includeStd: options.includeStd ?? false,
    includeNoise: options.includeNoise ?? false,
  });
  debugLogger(
    ctx,
    'trace',
  )(
    `${trace.root}: ${trace.nodes.length} nodes, ${trace.edges.length} edges, ${trace.unresolved.length} unresolved in ${Math.round(performance.now() - started)} ms`,
  );
  return trace;
}

/** The tracer's modules and the rules a trace reads. */
function loadTraceModules(ctx: CliContext) {
  return Promise.all([
    import('../trace/trace-component.js'),
    import('../trace/store-graph.js'),
    loadTraceRules(ctx),
  ]);
}

function defaultComponent(components: readonly ComponentEntry[]): string {
  const names = components.map((c) => c.name);
  if (names.includes('kube-scheduler')) return 'kube-scheduler';
  if (names[0] === undefined)
    throw new UsageError(
      'this tree has no main package to trace; name a function: `k8s-read tui trace <symbol>`',
    );
  return names[0];
}
