/**
 * One call that reaches several functions, of which the default view shows some: each shown edge
 * says how many the call reaches (`of`), and the tree says `one of N`, so a reader does not take
 * the one plugin shown for the only one. Where every target is shown, nothing is said.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTree } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import type { Trace } from '../../src/trace/types.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const mod = 'example.com/dispatch-partly-shown/cmd/descheduler';
const run = `(${mod}.profile).runDeschedulePlugins`;

describe('a call whose targets the view shows only some of', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(path.join(projectRoot, 'fixtures', 'go', 'dispatch-partly-shown'));
  });
  afterAll(() => index?.close());

  const trace = (options: { all?: boolean; maxChildren?: number }): Promise<Trace> => {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components });
    return traceComponent(graph, 'descheduler', { ...options, components });
  };
  const fromRun = (t: Trace) =>
    t.edges
      .filter((e) => e.caller === run)
      .map((e) => `${e.callee.replace(`${mod}.`, '')} ${e.of}`);

  it('says on each shown target how many the call reaches', async () => {
    const t = await trace({ maxChildren: 2 });
    expect(fromRun(t)).toEqual(
      ['*podLifeTime).Deschedule 3', '*failedPods).Deschedule 3'].map((s) => `(${s}`),
    );
    const text = renderTree(t, { ...defaultRenderOptions, color: false, width: 200 });
    expect(text).toMatch(/\(\*podLifeTime\)\.Deschedule .*\[interface, one of 3\]/);
  });

  it('says nothing where every target is shown', async () => {
    for (const t of [await trace({}), await trace({ all: true })])
      expect(fromRun(t)).toEqual(
        ['podLifeTime', 'failedPods', 'nodeTaints'].map((s) => `(*${s}).Deschedule undefined`),
      );
  });
});
