/**
 * A closure that calls a parameter of the function that made it, called far from that call: the
 * scheduler's `FactoryAdapter(fts, noderesources.NewFit)` returns a closure over `withFts`, the
 * registry keeps it, and the framework calls it later. What it runs is one of what the calls of
 * FactoryAdapter in the program pass (through `adapt`'s parameter too), said as such; a closure
 * its own maker calls keeps the maker's path, unbound where that is unknown.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import type { Trace } from '../../src/trace/types.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const mod = 'example.com/closure-made-elsewhere';
const plugins = `${mod}/pkg/scheduler/framework/plugins`;
const adapter = `${mod}/pkg/scheduler/framework/runtime.FactoryAdapter`;

describe('a closure called far from the call that made it', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(path.join(projectRoot, 'fixtures', 'go', 'closure-made-elsewhere'));
  });
  afterAll(() => index?.close());

  const trace = async (root: string, tablesOnly = false): Promise<Trace> => {
    const components = loadComponentRules();
    const graph = createStoreGraph(index.store, index.tree, { components, tablesOnly });
    return traceComponent(graph, root, { all: true, depth: 40, components });
  };
  const callees = (t: Trace, caller: string) =>
    t.edges
      .filter((e) => e.caller === caller)
      .map((e) => `${e.callee} ${e.kind} ${e.via}`)
      .sort();

  it("runs what the program's calls of its maker pass, followed through a parameter passed on", async () => {
    const t = await trace(`${mod}/cmd/kube-scheduler.main`);
    const via = 'param withFts of every FactoryAdapter call';
    expect(callees(t, `${adapter}$1`)).toEqual([
      `${plugins}/noderesources.NewFit funcvalue ${via}`,
      `${plugins}/podtopologyspread.New funcvalue ${via}`,
      `${plugins}/volumebinding.New funcvalue ${via}`,
    ]);
    // Not another program's value, and no unbound parameter left.
    const symbols = t.nodes.map((n) => n.symbol);
    expect(symbols).not.toContain(`${mod}/pkg/other.NewOther`);
    expect(symbols).not.toContain(`${adapter}#withFts`);
    // The registry's own plain factory, as before.
    expect(symbols).toContain(`${plugins}/selectorspread.New`);
  });

  it('reads the same from the tables as from the trace record', async () => {
    const root = `${mod}/cmd/kube-scheduler.main`;
    expect((await trace(root, true)).edges).toEqual((await trace(root)).edges);
  });

  it("keeps per program what another program's calls pass", async () => {
    const t = await trace(`${mod}/cmd/other.main`);
    expect(callees(t, `${adapter}$1`)).toEqual([
      `${mod}/pkg/other.NewOther funcvalue param withFts of every FactoryAdapter call`,
    ]);
  });

  it('leaves a closure its maker calls on the maker’s path: unbound where the maker’s is', async () => {
    const until = `${mod}/pkg/util/wait.Until`;
    const t = await trace(`${mod}/cmd/kube-scheduler.main`);
    const called = callees(t, `${until}$1`);
    expect(called).toContain(`${mod}/cmd/kube-scheduler.scheduleOne funcvalue param f`);
    // 71 callers: past the 64 paths kept per function the rest share one that knows nothing of
    // f, and its call shows as unbound, never as every caller's value.
    expect(called).toContain(`${until}#f funcvalue param f`);
    expect(called.filter((c) => c.includes(' of every '))).toEqual([]);
    const workers = called.filter((c) => c.includes('.worker'));
    expect(workers.length).toBeGreaterThan(50);
    expect(workers.length).toBeLessThan(70);
  });
});
