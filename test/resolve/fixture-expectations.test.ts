/**
 * Every `// want` and `// def` in fixtures/go/<feature>/ holds, exactly: each directory is one
 * resolution behaviour (embedded promotion, interface ranking, func fields, closure numbering,
 * one program per trace, function values per call path, channels, ...), and its expectations were
 * checked against the type-checked call graph (golang.org/x/tools callgraph).
 *
 * A site with `want`s lists its whole callee set: an edge at that call that no `want` names fails
 * as surely as a missing one. `from <root>` expectations are checked in the trace of `<root>`
 * (`trace <root> --all`), where a function value is what the caller on the path passed.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEVER_FILLED, NEVER_STORED, NIL_ONLY } from '../../src/shared/edge-via.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { traceComponent } from '../../src/trace/trace-component.js';
import type { Trace } from '../../src/trace/types.js';
import { readExpectations, type Expectation } from '../helpers/expectations.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const fixturesDir = path.join(projectRoot, 'fixtures', 'go');
const features = readdirSync(fixturesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Call = Extract<Expectation, { type: 'call' }>;

describe.each(features)('fixtures/go/%s', (feature) => {
  const root = path.join(fixturesDir, feature);
  const expectations = readExpectations(root);
  let index: IndexedFixture;
  const traces = new Map<string, Promise<Trace>>();
  const traceOf = (from: string) => {
    let t = traces.get(from);
    if (!t) {
      const components = loadComponentRules();
      const graph = createStoreGraph(index.store, index.tree, { components });
      t = traceComponent(graph, from, {
        all: true,
        depth: 40,
        components,
        includeStd: true,
        includeNoise: true,
      });
      traces.set(from, t);
    }
    return t;
  };
  beforeAll(async () => {
    // The fixtures vendor the stubs they need (cobra, client-go): index them as Kubernetes' staging is.
    index = await indexFixture(root, { includeVendor: true });
  });
  afterAll(() => index?.close());

  it('has expectations to check', () => {
    expect(expectations.length).toBeGreaterThan(0);
  });

  const edgesAt = (e: { file: string; line: number; col: number | null }) =>
    index.edges.filter(
      (x) => x.file === e.file && x.line === e.line && (e.col === null || x.col === e.col),
    );
  const describeEdges = (list: IndexedFixture['edges']) =>
    list.map((x) => `  ${x.callee} ${x.kind}${x.via ? `:${x.via}` : ''} rank ${x.rank}`).join('\n');

  // Index-level wants, grouped by call site: the site's rank-0 edges are exactly the wanted ones.
  const sites = new Map<string, Call[]>();
  for (const e of expectations) {
    if (e.type !== 'call' || e.from) continue;
    const key = `${e.file}:${e.line}:${e.col ?? e.callee}`;
    sites.set(key, [...(sites.get(key) ?? []), e]);
  }
  for (const [, wants] of sites) {
    const first = wants[0]!;
    const label = wants.map((w) => `${w.symbol} (${w.kind})`).join(', ');
    it(`resolves ${first.callee} at ${first.file}:${first.line} to exactly ${label}`, () => {
      const here = edgesAt(first);
      const got = here
        .filter((x) => x.rank === 0 && x.callee !== null)
        .map((x) => `${x.callee} ${x.kind}${x.via ? `:${x.via}` : ''}`);
      const wanted = wants.map((w) => {
        const [kind, via] = w.kind.split(':');
        const edge = here.find(
          (x) =>
            x.callee === w.symbol &&
            x.rank === 0 &&
            x.kind === kind &&
            (via === undefined || x.via === via),
        );
        return edge
          ? `${edge.callee} ${edge.kind}${edge.via ? `:${edge.via}` : ''}`
          : `${w.symbol} ${w.kind} (missing)`;
      });
      const message = `edges at ${first.file}:${first.line}${first.col === null ? '' : `:${first.col}`}:\n${describeEdges(here)}`;
      if (first.col === null)
        expect(
          wanted.filter((w) => w.endsWith('(missing)')),
          message,
        ).toEqual([]);
      else expect([...new Set(got)].sort(), message).toEqual([...new Set(wanted)].sort());
    });
  }

  // Path-level wants: in the trace of their root, the calls made on that line are exactly these.
  const paths = new Map<string, Call[]>();
  for (const e of expectations) {
    if (e.type !== 'call' || !e.from) continue;
    const key = `${e.from}\n${e.file}:${e.line}`;
    paths.set(key, [...(paths.get(key) ?? []), e]);
  }
  for (const [, wants] of paths) {
    const first = wants[0]!;
    it(`in the trace of ${first.from}, ${first.callee} at ${first.file}:${first.line} calls exactly ${wants.map((w) => w.symbol).join(', ')}`, async () => {
      const trace = await traceOf(first.from!);
      const site = `${first.file}:${first.line}`;
      const names = new Set(wants.map((w) => w.callee));
      const here = trace.edges.filter((e) => e.site === site);
      const got = here
        .filter((e) => names.size > 1 || wantsCallee(e, wants))
        .map((e) => `${e.callee} ${e.kind}${e.via && e.kind === 'framework' ? `:${e.via}` : ''}`);
      const wanted = wants.map((w) => `${w.symbol} ${w.kind}`);
      expect(
        [...new Set(got)].sort(),
        `trace edges at ${site}:\n${here.map((e) => `  ${e.caller} -> ${e.callee} ${e.kind} ${e.via ?? ''}`).join('\n')}`,
      ).toEqual([...new Set(wanted)].sort());
    });
  }

  for (const e of expectations) {
    if (e.type === 'call') continue;
    const where = `${e.file}:${e.line}`;
    if (e.type === 'def') {
      it(`names the declaration at ${where} ${e.symbol}`, () => {
        const at = [...index.symbols.values()]
          .filter((s) => s.file === e.file && s.line === e.line)
          .map((s) => s.symbol);
        expect(at).toContain(e.symbol);
      });
    } else if (e.type === 'alt') {
      it(`lists ${e.symbol} as an alternative for ${e.callee} at ${where}`, () => {
        const here = edgesAt(e);
        expect(
          here.some((x) => x.callee === e.symbol && x.rank > 0),
          describeEdges(here),
        ).toBe(true);
      });
    } else if (e.type === 'none') {
      it(`makes no edge where ${e.callee} is called at ${where} (a conversion)`, () => {
        expect(e.col, 'the callee is called on its line').not.toBeNull();
        const here = edgesAt(e);
        expect(here, describeEdges(here)).toEqual([]);
      });
    } else if (e.type === 'not') {
      it(`has no edge from ${e.callee} at ${where} to ${e.symbol}`, () => {
        const here = index.edges.filter((x) => x.file === e.file && x.line === e.line);
        expect(here.filter((x) => x.callee === e.symbol)).toEqual([]);
      });
    } else {
      const said =
        e.pkg === '?'
          ? ' in no package'
          : e.pkg === 'unset'
            ? ', a field nothing sets'
            : e.pkg === 'nil'
              ? ', a value that is only ever nil'
              : e.pkg === 'unfilled'
                ? ', a value from a list nothing fills'
                : e.pkg
                  ? ` in ${e.pkg}`
                  : '';
      it(`reports ${e.callee} at ${where} as unresolved${said}`, () => {
        const here = index.edges.filter(
          (x) => x.file === e.file && x.line === e.line && x.callee === null,
        );
        const named = here.filter((x) => (x.expr ?? '').endsWith(e.callee));
        expect(named.length).toBeGreaterThan(0);
        // `?`: nothing known of it, neither a package nor a field nothing sets.
        if (e.pkg === '?') expect(named.filter((x) => x.via)).toEqual([]);
        else if (e.pkg === 'unset')
          expect(named.map((x) => x.via)).toEqual(named.map(() => NEVER_STORED));
        else if (e.pkg === 'nil')
          expect(named.map((x) => x.via)).toEqual(named.map(() => NIL_ONLY));
        else if (e.pkg === 'unfilled')
          expect(named.map((x) => x.via)).toEqual(named.map(() => NEVER_FILLED));
        else if (e.pkg)
          expect(named.map((x) => x.via)).toEqual(named.map(() => `external:${e.pkg}`));
      });
    }
  }
});

/** A trace edge at a site made by the call the wants name (its callee named, or reached through it). */
function wantsCallee(e: Trace['edges'][number], wants: Call[]): boolean {
  return wants.some((w) => e.callee === w.symbol) || e.kind !== 'static';
}
