/**
 * The trace a reader sees, on the demo tree, through the path the CLI uses (`traceIndex`): its
 * text fits every width, the TUI lists the rows the text prints, and `trace`, `export trace` and
 * `tui` take the same flags.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTree } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { traceIndex } from '../../src/cli/load-trace.js';
import { buildProgram } from '../../src/cli/main.js';
import { findTree, type TreeRow } from '../../src/store/index-store.js';
import type { Trace } from '../../src/trace/types.js';
import { traceItems } from '../../src/tui/items.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot } from '../helpers/run-cli.js';

const sink = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });
const ctx = { stdout: sink(), stderr: sink(), env: {}, cwd: demoRoot };

let fixture: IndexedFixture;
let tree: TreeRow;
const traces: { name: string; trace: Trace }[] = [];

beforeAll(async () => {
  fixture = await indexFixture(demoRoot);
  tree = (await findTree(fixture.store, demoRoot))!;
  const index = { store: fixture.store, tree };
  const targets = ['kube-scheduler', 'kube-controller-manager', 'kubelet'];
  for (const target of [...targets, 'kube-controller-manager/replicaset']) {
    traces.push({ name: target, trace: await traceIndex(ctx, index, { target }) });
  }
  for (const target of targets) {
    traces.push({
      name: `${target} --all`,
      trace: await traceIndex(ctx, index, { target, all: true }),
    });
  }
}, 120_000);
afterAll(() => fixture?.close());

describe('the trace text on the demo tree', () => {
  it('never has a line wider than the terminal, for every width from 60 to 200', () => {
    expect(traces.length).toBeGreaterThanOrEqual(7);
    for (const { name, trace } of traces) {
      expect(trace.edges.length, name).toBeGreaterThan(3);
      for (let width = 60; width <= 200; width++) {
        const text = renderTree(trace, { ...defaultRenderOptions, width });
        const long = text.split('\n').filter((line) => [...line].length > width);
        expect(long, `${name} at width ${width}`).toEqual([]);
      }
    }
  });

  it('keeps every symbol whole when the terminal is wide enough', () => {
    for (const { name, trace } of traces) {
      const wide = renderTree(trace, { ...defaultRenderOptions, width: 1000 });
      expect(wide, name).toBe(renderTree(trace, defaultRenderOptions));
    }
  });
});

describe('the TUI’s trace pane', () => {
  it('lists exactly the rows `trace` prints, in the same order and at the same depth', () => {
    for (const { name, trace } of traces) {
      const lines = renderTree(trace, defaultRenderOptions).split('\n');
      // The header above; the blank line, the counts (and where the depth stopped) below.
      const rows = lines.slice(1, lines.indexOf('', 1));
      const items = traceItems(trace);
      expect(items.length, name).toBe(rows.length);
      items.forEach((item, i) => {
        const row = rows[i]!;
        expect(row.slice(3 * item.depth), `${name} row ${i}`).toMatch(
          new RegExp(`^(\\? )?${item.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(  |$)`),
        );
        if (item.mark === '↩') expect(row).toContain('↩ (see above)');
        if (item.mark === '↻') expect(row).toContain('↻ cycle');
      });
    }
  });
});

describe('trace, export trace and tui', () => {
  it('take the same flags for the trace they draw', async () => {
    const program = await buildProgram(ctx);
    const command = (...names: string[]) => {
      let cmd = program;
      for (const name of names) cmd = cmd.commands.find((c) => c.name() === name)!;
      return cmd;
    };
    const traceFlags = (...names: string[]) =>
      command(...names)
        .options.map((o) => o.long!)
        .filter((flag) => flag !== '--output');
    const shaping = traceFlags('trace');
    expect(shaping).toEqual(
      expect.arrayContaining(['--depth', '--focus', '--all', '--include-noise', '--max-children']),
    );
    expect(traceFlags('export', 'trace')).toEqual(expect.arrayContaining(shaping));
    expect(traceFlags('tui')).toEqual(expect.arrayContaining(shaping));
  });
});
