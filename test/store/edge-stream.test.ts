/**
 * replaceTree writes the edges a link gives while it runs (EdgeSink) as they come, and every edge
 * keeps the rowid it would have had written after the link, in the link's order: the tables read
 * back the same rows in the same order however many were given early.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import {
  openIndexStore,
  replaceTree,
  type EdgeInsert,
  type EdgeSink,
} from '../../src/store/index-store.js';

function edgesOf(n: number, file: string): EdgeInsert[] {
  return Array.from({ length: n }, (_, i) => ({
    caller: i,
    callee: i % 7 === 0 ? null : i + 1,
    kind: i % 7 === 0 ? 'unresolved' : 'static',
    via: null,
    rank: 0,
    file,
    line: i + 1,
    col: 2,
    expr: null,
    needs: i % 5 === 0 ? '3,17|25' : null,
  }));
}

/** Replaces tree `root` with `edges`; `during` runs inside the link with the store's sink. */
function replace(
  store: Store,
  root: string,
  edges: EdgeInsert[],
  during: (sink: EdgeSink) => Promise<void>,
): Promise<number> {
  return replaceTree(store, {
    root,
    commit: null,
    dirty: false,
    version: null,
    module: null,
    remote: null,
    early: { files: [], symbols: [], packages: [], details: [] },
    link: async (sink) => {
      await during(sink);
      return { summary: {}, symbols: [], edges, bindings: [], made: [] };
    },
  });
}

async function written(store: Store, tree: number) {
  return store.all<{ rowid: number; caller: number; callee: number | null; needs: string | null }>(
    'SELECT rowid, caller, callee, needs FROM edges WHERE tree = ? ORDER BY rowid',
    [tree],
  );
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('replaceTree: edges given while the link runs', () => {
  it('writes them during the link, at the places the link gives them', async () => {
    const { store } = await openIndexStore(':memory:');
    const edges = edgesOf(10_000, 'a.go');
    let seenDuring = 0;
    const tree = await replace(store, '/a', edges, async (sink) => {
      // Every other edge early: more than a chunk, so some are written before the link ends.
      for (let seq = 0; seq < edges.length; seq += 2) sink.add(edges[seq]!, seq);
      for (let i = 0; i < 2_000 && seenDuring === 0; i++) {
        await turn();
        const row = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM edges');
        seenDuring = row?.n ?? 0;
      }
    });
    expect(seenDuring).toBeGreaterThan(0);
    expect(seenDuring).toBeLessThan(edges.length);
    const rows = await written(store, tree);
    expect(rows.map((r) => r.caller)).toEqual(edges.map((e) => e.caller));
    expect(rows.map((r) => r.rowid)).toEqual(edges.map((_, i) => i + 1));
    expect(rows.map((r) => r.needs)).toEqual(edges.map((e) => e.needs));
    expect(rows.map((r) => r.callee)).toEqual(edges.map((e) => e.callee));
    await store.close();
  });

  it("builds the symbols' indexes while the link runs, the edges' after it", async () => {
    const { store } = await openIndexStore(':memory:');
    const indexes = async () =>
      (
        await store.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'",
        )
      ).map((r) => r.name);
    const edges = edgesOf(10, 'a.go');
    await replace(store, '/a', edges, async () => undefined);
    expect(await indexes()).toContain('edges_by_caller');
    // A relink of the only tree drops them all and builds them again.
    let during: string[] = [];
    await replace(store, '/a', edges, async () => {
      for (let i = 0; i < 2_000 && !during.includes('symbols_by_name'); i++) {
        await turn();
        during = await indexes();
      }
    });
    expect(during).toEqual(
      expect.arrayContaining(['symbols_by_id', 'symbols_by_name', 'details_by_symbol']),
    );
    expect(during).not.toContain('edges_by_caller');
    expect(await indexes()).toEqual(expect.arrayContaining(['edges_by_caller', 'made_by_type']));
    await store.close();
  });

  it('numbers a second tree after the first, and a relink of the first after both', async () => {
    const { store } = await openIndexStore(':memory:');
    const a = edgesOf(50, 'a.go');
    const b = edgesOf(30, 'b.go');
    const giveOdd = (edges: EdgeInsert[]) => async (sink: EdgeSink) => {
      for (let seq = 1; seq < edges.length; seq += 2) sink.add(edges[seq]!, seq);
    };
    const treeA = await replace(store, '/a', a, giveOdd(a));
    const treeB = await replace(store, '/b', b, giveOdd(b));
    expect((await written(store, treeB)).map((r) => r.rowid)).toEqual(b.map((_, i) => 51 + i));
    const again = edgesOf(40, 'a2.go');
    expect(await replace(store, '/a', again, giveOdd(again))).toBe(treeA);
    const rows = await written(store, treeA);
    expect(rows.map((r) => r.rowid)).toEqual(again.map((_, i) => 81 + i));
    expect(rows.map((r) => r.caller)).toEqual(again.map((e) => e.caller));
    expect((await written(store, treeB)).map((r) => r.caller)).toEqual(b.map((e) => e.caller));
    await store.close();
  });

  it('refuses an edge given that the link does not return, and keeps the previous index', async () => {
    const { store } = await openIndexStore(':memory:');
    const before = edgesOf(5, 'a.go');
    const tree = await replace(store, '/a', before, async () => undefined);
    const after = edgesOf(5, 'b.go');
    await expect(
      replace(store, '/a', after, async (sink) => sink.add(edgesOf(9, 'b.go')[8]!, 8)),
    ).rejects.toThrow('the link gave 1 edges while it ran, not among its 5');
    expect((await written(store, tree)).map((r) => r.caller)).toEqual(before.map((e) => e.caller));
    await expect(
      replace(store, '/a', after, async (sink) => {
        sink.add(after[1]!, 1);
        sink.add(after[1]!, 1);
      }),
    ).rejects.toThrow('edge 1 was given twice');
    expect(await written(store, tree)).toHaveLength(5);
    await store.close();
  });
});
