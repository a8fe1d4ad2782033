/**
 * What a view does with a call it cannot follow but knows something of: in a program's trace, a
 * field no indexed code sets (a hook only tests set) and a value from an unindexed package fold
 * in the default view, counted in the caller's fold; `--all` lists them and says why. Traced from
 * a library's method, the unset field keeps its row, with its reason: a program outside the index
 * may set it; traced from a component's main by its symbol, it folds as in the component's trace.
 * A call nothing is known of keeps its row, with no reason. A local that holds only nil and a
 * value ranged over a list nothing fills are told the same way.
 */
import { describe, expect, it } from 'vitest';
import { renderTree } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import type { Trace } from '../../src/trace/types.js';
import { tracedFixture as indexed } from '../helpers/traced-fixture.js';

/**
 * fixtures/go/<name> for the enclosing describe block; `trace` traces a component or a symbol of
 * it (depth 40), `listed` names each unresolved row with its reason (`-`: none).
 */
function tracedFixture(name: string) {
  const traceOf = indexed(name);
  return {
    trace: (from: string, all: boolean, includeStd = false): Promise<Trace> =>
      traceOf(from, { all, includeStd }),
    listed: (t: Trace) => t.unresolved.map((u) => `${u.expr} ${u.why ?? '-'}`).sort(),
  };
}

const mod = 'example.com/field-set-by-no-code/cmd/kubeadm';
const runner = `(*${mod}.Runner).Run`;

describe('unresolved calls the index knows something of', () => {
  const fixture = tracedFixture('field-set-by-no-code');
  const trace = (all: boolean, includeStd = false, from = 'kubeadm') =>
    fixture.trace(from, all, includeStd);
  const listed = fixture.listed;

  it('folds a field nothing sets in the default view, and keeps a call nothing is known of', async () => {
    const t = await trace(false);
    expect(listed(t)).toEqual(['c.CheckRedirect -']);
    // Run calls runPreflight (shown), r.now (time, hidden with the standard library) and
    // p.RunIf (folded): one call left out, the field's.
    expect(t.nodes.find((n) => n.symbol === runner)?.folded?.calls).toBe(1);
    expect(t.nodes.find((n) => n.symbol === `(*${mod}.redirector).follow`)?.folded).toBeUndefined();
  });

  it('lists both under --all and says why', async () => {
    expect(listed(await trace(true))).toEqual([
      'c.CheckRedirect -',
      'p.RunIf a field no indexed code sets',
      's.Decorator a field no indexed code sets',
    ]);
    const withStd = await trace(true, true);
    expect(listed(withStd)).toContain('r.now a value from time, not indexed');
    const text = renderTree(withStd, { ...defaultRenderOptions, color: false, width: 200 });
    expect(text).toMatch(
      /\? p\.RunIf +cmd\/kubeadm\/main\.go:35 +\[a field no indexed code sets\]/,
    );
  });

  it("keeps the unset field's row in a trace from a library's method", async () => {
    const t = await trace(false, false, runner);
    expect(listed(t)).toEqual(['p.RunIf a field no indexed code sets']);
  });

  it("traces a component's main named by its symbol as the component: a whole program", async () => {
    const bySymbol = await trace(false, false, `${mod}.main`);
    const byName = await trace(false);
    expect(bySymbol.component).toBe('kubeadm');
    expect(listed(bySymbol)).toEqual(['c.CheckRedirect -']);
    expect(bySymbol.nodes.map((n) => n.symbol)).toEqual(byName.nodes.map((n) => n.symbol));
  });
});

describe('a local that holds only nil', () => {
  const nilMod = 'example.com/cleanup-only-nil/pkg/kubelet/kuberuntime';
  const start = `(*${nilMod}.Manager).StartContainer`;
  const fixture = tracedFixture('cleanup-only-nil');
  const trace = (all: boolean, from = 'kubelet') => fixture.trace(from, all);
  const listed = fixture.listed;

  it("folds the kubelet's deferred cleanup in its trace, and lists it with --all", async () => {
    const t = await trace(false);
    expect(listed(t)).toEqual([]);
    expect(t.nodes.find((n) => n.symbol === start)?.folded?.calls).toBe(1);
    expect(listed(await trace(true))).toEqual(['cleanupAction nil wherever indexed code sets it']);
  });

  it("keeps the row, with its reason, in a trace from the manager's method", async () => {
    expect(listed(await trace(false, start))).toEqual([
      'cleanupAction nil wherever indexed code sets it',
    ]);
  });
});

describe('a value ranged over a list nothing fills', () => {
  const mod = 'example.com/unfilled-package-list/pkg/runtime/serializer';
  const fixture = tracedFixture('unfilled-package-list');
  const trace = (all: boolean, from = 'kube-proxy') => fixture.trace(from, all);
  const listed = fixture.listed;

  it('gives the reason with --all and from the library function', async () => {
    expect(listed(await trace(true))).toEqual([
      'fn -',
      'fn -',
      'fn from a list no indexed code fills',
    ]);
    expect(listed(await trace(false, `${mod}.NewSerializers`))).toContain(
      'fn from a list no indexed code fills',
    );
  });
});
