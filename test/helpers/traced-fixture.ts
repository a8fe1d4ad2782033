/**
 * Indexes fixtures/go/<name> for the enclosing describe block and returns a tracer of it: a
 * component or a symbol, depth 40, with the component rules; `--all` unless told otherwise.
 * `tablesOnly` reads the tables, not the trace record.
 */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import type { Trace } from '../../src/trace/types.js';
import { indexFixture, type IndexedFixture } from './index-fixture.js';
import { projectRoot } from './run-cli.js';

export interface TraceFixtureOptions {
  all?: boolean;
  includeStd?: boolean;
  tablesOnly?: boolean;
}

export function tracedFixture(
  name: string,
): (from: string, options?: TraceFixtureOptions) => Promise<Trace> {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(path.join(projectRoot, 'fixtures', 'go', name));
  });
  afterAll(() => index?.close());
  return (from, { all = true, includeStd = false, tablesOnly = false } = {}) => {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components, tablesOnly });
    return traceComponent(graph, from, { all, depth: 40, components, includeStd });
  };
}
