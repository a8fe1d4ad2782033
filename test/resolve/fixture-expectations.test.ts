/**
 * Every `// want` and `// def` in fixtures/go/<feature>/ holds: each directory is one resolution
 * behaviour (embedded promotion, interface ranking, func fields, closure numbering, ...), and its
 * expectations were checked against the type-checked call graph (golang.org/x/tools callgraph).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExpectations } from '../helpers/expectations.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';

const fixturesDir = path.join(projectRoot, 'fixtures', 'go');
const features = readdirSync(fixturesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe.each(features)('fixtures/go/%s', (feature) => {
  const root = path.join(fixturesDir, feature);
  const expectations = readExpectations(root);
  let index: IndexedFixture;
  beforeAll(async () => {
    // The fixtures vendor the stubs they need (cobra, client-go): index them as Kubernetes' staging is.
    index = await indexFixture(root, { includeVendor: true });
  });
  afterAll(() => index?.close());

  it('has expectations to check', () => {
    expect(expectations.length).toBeGreaterThan(0);
  });

  for (const e of expectations) {
    const where = `${e.file}:${e.line}`;
    if (e.type === 'def') {
      it(`names the declaration at ${where} ${e.symbol}`, () => {
        const at = [...index.symbols.values()]
          .filter((s) => s.file === e.file && s.line === e.line)
          .map((s) => s.symbol);
        expect(at).toContain(e.symbol);
      });
    } else if (e.type === 'call') {
      it(`resolves ${e.callee} at ${where} to ${e.symbol} (${e.kind})`, () => {
        const [kind, via] = e.kind.split(':');
        const here = index.edges.filter((x) => x.file === e.file && x.line === e.line);
        const match = here.find(
          (x) =>
            x.callee === e.symbol &&
            x.rank === 0 &&
            x.kind === kind &&
            (via === undefined || x.via === via),
        );
        expect(
          match,
          `edges at ${where}:\n${here.map((x) => `  ${x.callee} ${x.kind}${x.via ? `:${x.via}` : ''} rank ${x.rank}`).join('\n')}`,
        ).toBeDefined();
      });
    } else if (e.type === 'alt') {
      it(`lists ${e.symbol} as an alternative for ${e.callee} at ${where}`, () => {
        const here = index.edges.filter((x) => x.file === e.file && x.line === e.line);
        expect(here.some((x) => x.callee === e.symbol && x.rank > 0)).toBe(true);
      });
    } else if (e.type === 'not') {
      it(`has no edge from ${e.callee} at ${where} to ${e.symbol}`, () => {
        const here = index.edges.filter((x) => x.file === e.file && x.line === e.line);
        expect(here.filter((x) => x.callee === e.symbol)).toEqual([]);
      });
    } else {
      it(`reports ${e.callee} at ${where} as unresolved`, () => {
        const here = index.edges.filter(
          (x) => x.file === e.file && x.line === e.line && x.callee === null,
        );
        expect(here.some((x) => (x.expr ?? '').endsWith(e.callee))).toBe(true);
      });
    }
  }
});
