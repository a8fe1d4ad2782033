/**
 * A trace the depth stopped says so: how many functions at the last depth call further into the
 * program, which a trace one call deeper shows calling on. A trace the depth left whole says
 * nothing.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceIndex } from '../../src/cli/load-trace.js';
import { renderTree } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { findTree } from '../../src/store/index-store.js';
import type { Trace } from '../../src/trace/types.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot } from '../helpers/run-cli.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const ctx = { stdout: sink(), stderr: sink(), env: { K8S_READ_TRACE_CACHE: 'off' }, cwd: demoRoot };

let fixture: IndexedFixture;
const trace = async (depth: number): Promise<Trace> => {
  const index = { store: fixture.store, tree: (await findTree(fixture.store, demoRoot))! };
  return traceIndex(ctx, index, { target: 'kube-scheduler', all: true, depth });
};

beforeAll(async () => {
  fixture = await indexFixture(demoRoot);
}, 120_000);
afterAll(() => fixture?.close());

/** Each function's fewest calls from the root, over the trace's edges. */
function depths(t: Trace): Map<string, number> {
  const out = new Map([[t.root, 0]]);
  let level = [t.root];
  for (let d = 1; level.length > 0; d++) {
    const next: string[] = [];
    for (const e of t.edges)
      if (level.includes(e.caller) && !out.has(e.callee)) {
        out.set(e.callee, d);
        next.push(e.callee);
      }
    level = next;
  }
  return out;
}

describe('a trace the depth stopped', () => {
  it.each([2, 3, 4])(
    'at depth %i, counts the functions there that a trace one call deeper shows calling on',
    async (depth) => {
      const [cut, deeper] = [await trace(depth), await trace(depth + 1)];
      const at = depths(deeper);
      const callingOn = new Set(
        deeper.edges.filter((e) => at.get(e.caller) === depth).map((e) => e.caller),
      );
      expect(callingOn.size).toBeGreaterThan(0);
      expect(cut.deeper).toEqual({ depth, functions: callingOn.size });
      const text = renderTree(cut, { ...defaultRenderOptions, color: false, width: 200 });
      expect(text.trimEnd().split('\n').at(-1)).toMatch(
        new RegExp(
          `^${callingOn.size} functions? at depth ${depth} calls? further \\(--depth ${depth * 2}\\)$`,
        ),
      );
    },
    60_000,
  );

  it('says nothing when the depth left the trace whole', async () => {
    const whole = await trace(40);
    expect(whole.deeper).toBeUndefined();
    const text = renderTree(whole, { ...defaultRenderOptions, color: false, width: 200 });
    expect(text).not.toContain('call further');
  });
});
