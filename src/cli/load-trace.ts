/**
 * Opens (or builds) the index and traces a component: what `trace`, `export trace` and the TUI
 * share.
 */
import type { Trace } from '../trace/types.js';
import { debugLogger, type CliContext } from './context.js';
import { openIndex } from './open-index.js';

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

export async function loadTrace(ctx: CliContext, options: LoadTraceOptions): Promise<Trace> {
  const [{ traceComponent }, { createStoreGraph }, { loadComponentRules }, { loadNoisePackages }] =
    await Promise.all([
      import('../trace/trace-component.js'),
      import('../trace/store-graph.js'),
      import('../trace/rules-data.js'),
      import('../resolve/rules.js'),
    ]);
  const index = await openIndex(ctx, {
    ...(options.repo ? { repo: options.repo } : {}),
    ...(options.db ? { db: options.db } : {}),
  });
  try {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, {
      components,
      ...(options.github ? { github: options.github } : {}),
    });
    const started = performance.now();
    const trace = await traceComponent(graph, options.target, {
      components,
      noise: loadNoisePackages(),
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
  } finally {
    await index.close();
  }
}
