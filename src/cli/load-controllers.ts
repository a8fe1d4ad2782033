/**
 * Opens (or builds) the index and lists a component's controllers: what `controllers` prints and
 * what the TUI's start screen lists.
 */
import type { ControllerTable } from '../trace/controllers.js';
import { debugLogger, type CliContext } from './context.js';
import type { OpenIndex } from './open-index.js';
import { loadTraceRules } from './trace-rules.js';

export interface ControllerListOptions {
  /** Default: kube-controller-manager, else the tree's controller-runtime program. */
  component?: string;
  depth?: number;
  github?: string;
}

/** The controller table of an index already open. */
export async function controllersOf(
  ctx: CliContext,
  index: Pick<OpenIndex, 'store' | 'tree'>,
  options: ControllerListOptions,
): Promise<ControllerTable> {
  const [{ listControllers }, { createStoreGraph }, { loadFrameworkRules }, { components, noise }] =
    await Promise.all([
      import('../trace/controllers.js'),
      import('../trace/store-graph.js'),
      import('../resolve/rules.js'),
      loadTraceRules(ctx),
    ]);
  const graph = createStoreGraph(index.store, index.tree, {
    components,
    tablesOnly: ctx.env.K8S_READ_TRACE_PACK === 'off',
    ...(options.github ? { github: options.github } : {}),
  });
  const started = performance.now();
  const table = await listControllers(graph, {
    frameworks: loadFrameworkRules(),
    components,
    noise,
    ...(options.component !== undefined ? { component: options.component } : {}),
    ...(options.depth !== undefined ? { depth: options.depth } : {}),
  });
  debugLogger(
    ctx,
    'trace',
  )(
    `controllers of ${table.component}: ${table.controllers.length} in ${Math.round(performance.now() - started)} ms`,
  );
  return table;
}
