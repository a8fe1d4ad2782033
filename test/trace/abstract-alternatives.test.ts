/**
 * A call the view draws as the interface's method, nothing known stored there: its alternatives
 * are the implementations it leads to, the program's real types, not the recorder that tests and
 * dry runs use (which the view never follows while a real type exists). So its `+N` counts what is
 * drawn below it.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const cmd = 'example.com/test-double-stored-beside-real/cmd/kubeadm/app/cmd';

describe("an interface's method standing for its implementations", () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(
      path.join(projectRoot, 'fixtures', 'go', 'test-double-stored-beside-real'),
    );
  });
  afterAll(() => index?.close());

  it('lists the real implementations it leads to as its alternatives, not the double', async () => {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components });
    const t = await traceComponent(graph, 'kubeadm', { all: true, components });
    const method = `(${cmd}.EventSink).Record`;
    const into = t.edges.find((e) => e.caller === `${cmd}.flush` && e.callee === method);
    expect(into?.alternatives).toEqual([`(${cmd}.apiSink).Record`, `(${cmd}.logSink).Record`]);
    const below = t.edges.filter((e) => e.caller === method).map((e) => e.callee);
    expect(below.sort()).toEqual(into?.alternatives);
  });
});
