/**
 * A function-typed field that the whole tree fills from many places (urfave/cli's Command.Action,
 * client-go's handler funcs, containerd's plugin InitFn) is called with every value a program
 * stored there: the index keeps them all, each with the packages it needs, and the trace keeps its
 * program's. A cut before that filter (40 values, in file order) left out the program's own.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const mod = 'example.com/field-set-after-construction';
const actions = Array.from(
  { length: 45 },
  (_, i) => `${mod}/cmd/two.do${String(i + 1).padStart(2, '0')}`,
);

describe('function values of a crowded field, per program', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(
      path.join(projectRoot, 'fixtures', 'go', 'field-set-after-construction'),
    );
  });
  afterAll(() => index?.close());

  const reached = async (root: string) => {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components });
    const trace = await traceComponent(graph, root, { all: true, depth: 40, components });
    return new Set(trace.nodes.map((n) => n.symbol));
  };

  it('reaches every one of the 45 actions program two stores', async () => {
    const nodes = await reached(`${mod}/cmd/two.main`);
    expect(actions.filter((a) => !nodes.has(a))).toEqual([]);
  });

  it("shows none of them in program one's trace, which reaches its own", async () => {
    const nodes = await reached(`${mod}/cmd/one.main`);
    expect(actions.filter((a) => nodes.has(a))).toEqual([]);
    expect(nodes.has(`${mod}/cmd/one.main$1`)).toBe(true);
  });
});
