/**
 * A function is drawn once however many paths reach it. When its callers pass it different
 * function values (a locking helper given a closure by each event handler), the view lists every
 * path's value under the one drawing, so each of those calls says which caller passed it; a
 * parameter only one caller fills says nothing more.
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

const mod = 'example.com/callback-passed-by-callers';

describe('which caller passed a function value', () => {
  let index: IndexedFixture;
  let trace: Trace;
  beforeAll(async () => {
    index = await indexFixture(
      path.join(projectRoot, 'fixtures', 'go', 'callback-passed-by-callers'),
    );
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components });
    trace = await traceComponent(graph, `${mod}.main`, { components });
  });
  afterAll(() => index?.close());

  it("names the caller of each of the helper's values", () => {
    const fromHelper = trace.edges
      .filter((e) => e.caller === `(*${mod}.discoverer).safeWrite`)
      .map((e) => [e.callee, e.kind, e.boundBy]);
    expect(fromHelper.sort()).toEqual(
      ['onAdd', 'onDelete', 'onResync']
        .map((h) => [`(*${mod}.discoverer).${h}$1`, 'funcvalue', `(*${mod}.discoverer).${h}`])
        .sort(),
    );
  });

  it('says nothing where one caller passes the value', () => {
    const edge = trace.edges.find((e) => e.caller === `${mod}.logWith`);
    expect(edge).toMatchObject({ callee: `${mod}.quoted`, kind: 'funcvalue' });
    expect(edge).not.toHaveProperty('boundBy');
  });

  it('keeps the caller in the row when the line is too narrow for the rest of the tag', () => {
    const text = renderTree(trace, { ...defaultRenderOptions, color: false, width: 64 });
    const rows = text.split('\n').filter((line) => line.includes('$1'));
    expect(rows.map((row) => /\[funcvalue from (\w+)\]/.exec(row)?.[1]).sort()).toEqual([
      'onAdd',
      'onDelete',
      'onResync',
    ]);
    expect(text).not.toContain('from logWith');
  });
});
