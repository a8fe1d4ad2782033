/**
 * LinkOutput gives the sink each edge whose row is final when added (a function of the index or
 * outside it, or no callee) with its place, and keeps every edge in the order added; edges to an
 * interface's method or a slot get their callees' symbol ids in `finish`.
 */
import { describe, expect, it } from 'vitest';
import { LinkOutput, type AbstractMethod } from '../../src/resolve/link-output.js';
import type { FuncRef, ProgramModel } from '../../src/resolve/model.js';
import type { EdgeInsert } from '../../src/store/index-store.js';

function func(id: number, pkg: string, name: string): FuncRef {
  return {
    id,
    symbol: `${pkg}.${name}`,
    index: 0,
    file: { path: `${pkg}/${name}.go` },
    pkg: { path: pkg },
    fact: { kind: 'func', name, params: [['f', 'func()']], results: [], line: 3, col: 1 },
  } as unknown as FuncRef;
}

describe('LinkOutput', () => {
  it('gives final edges to the sink as added, and returns every edge in the order added', () => {
    const run = func(0, 'k8s.io/a', 'Run');
    const loop = func(1, 'k8s.io/b', 'Loop');
    const model = { funcs: [run, loop] } as unknown as ProgramModel;
    const packageId = new Map([
      ['k8s.io/a', 0],
      ['k8s.io/b', 1],
      ['k8s.io/c', 2],
    ]);
    const given: [EdgeInsert, number][] = [];
    const out = new LinkOutput(
      model,
      // k8s.io/a imports k8s.io/b, not k8s.io/c.
      {
        nextId: 100,
        packageId,
        implied: (from, pkg) => from === 'k8s.io/a' && pkg === 'k8s.io/b',
      },
      { add: (row, seq) => given.push([row, seq]) },
    );
    const abstract: AbstractMethod = {
      abstract: true,
      symbol: 'k8s.io/b.Runner.Run',
      name: 'Run',
      pkg: 'k8s.io/b',
      file: 'k8s.io/b/runner.go',
      line: 9,
      col: 2,
      detail: 'Run()',
    };
    out.add(run, 'fmt.Println', 'static', { line: 4, col: 2 });
    out.add(run, loop, 'static', { line: 5, col: 2, needs: [['k8s.io/c'], ['k8s.io/b']] });
    out.add(run, abstract, 'interface', { line: 6, col: 2 });
    out.add(run, null, 'unresolved', { line: 7, col: 2, expr: 'x.Y' });
    out.add(run, loop, 'static', { line: 8, col: 2, needs: [['k8s.io/c']] });
    out.add(loop, { slot: { fn: loop, index: 0, elem: false } }, 'funcvalue', { line: 4, col: 3 });
    out.add(loop, 'os.Exit', 'static', { line: 5, col: 3 });
    out.add(loop, 'fmt.Println', 'static', { line: 6, col: 3 });

    // The final ones, at once and complete: external functions numbered from `nextId` in the
    // order called, needs already pruned by the import closure.
    expect(given.map(([row, seq]) => [seq, row.line, row.callee, row.needs])).toEqual([
      [0, 4, 100, null],
      [1, 5, 1, null],
      [3, 7, null, null],
      [4, 8, 1, '2'],
      [6, 5, 101, null],
      [7, 6, 100, null],
    ]);

    const rows = out.finish();
    expect(rows.edges.map((e) => e.line)).toEqual([4, 5, 6, 7, 8, 4, 5, 6]);
    // The sink's rows are the very rows at those places.
    for (const [row, seq] of given) expect(rows.edges[seq]).toBe(row);
    // External functions first, then interface methods, then slots.
    expect(rows.symbols.map((s) => [s.id, s.symbol, s.kind])).toEqual([
      [100, 'fmt.Println', 'external'],
      [101, 'os.Exit', 'external'],
      [102, 'k8s.io/b.Runner.Run', 'imethod'],
      [103, 'k8s.io/b.Loop#f', 'param'],
    ]);
    expect(rows.edges.map((e) => e.callee)).toEqual([100, 1, 102, null, 1, 103, 101, 100]);
  });
});
