/**
 * Indexes a fixture tree in-process into an in-memory database and reads back what tests assert
 * on: symbols and resolved edges. Parsing runs in-process (small trees never start workers).
 */
import type { TreeInfo } from '../../src/index/discover.js';
import { parseRepository } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import type { Store } from '../../src/store/db.js';
import { findTree, openIndexStore, type TreeRow } from '../../src/store/index-store.js';

export interface IndexedFixture {
  store: Store;
  treeId: number;
  tree: TreeRow;
  /** What discovery found: files, import paths and where they came from, dependencies. */
  discovered: TreeInfo;
  /** Which files were parsed in this run (the others were known by blob). */
  parsed: number;
  symbols: Map<number, { symbol: string; kind: string; file: string; line: number }>;
  edges: {
    caller: string;
    callee: string | null;
    kind: string;
    via: string | null;
    rank: number;
    file: string;
    line: number;
    col: number;
    expr: string | null;
  }[];
  close(): Promise<void>;
}

export async function indexFixture(
  root: string,
  options: {
    includeVendor?: boolean;
    moduleCache?: string | null;
    with?: string[];
    /** An open store to index into (two trees sharing one database); closed by `close`. */
    store?: Store;
  } = {},
): Promise<IndexedFixture> {
  const store = options.store ?? (await openIndexStore(':memory:')).store;
  const parsed = await parseRepository({
    root,
    store,
    jobs: 1,
    includeVendor: options.includeVendor ?? false,
    moduleCache: options.moduleCache ?? null,
    with: options.with ?? [],
  });
  const { treeId } = await linkTree({ store, parsed });
  const rows = await store.all<{
    id: number;
    symbol: string;
    kind: string;
    file: string;
    line: number;
  }>('SELECT id, symbol, kind, file, line FROM symbols WHERE tree = ?', [treeId]);
  const symbols = new Map(rows.map((r) => [r.id, r]));
  const edgeRows = await store.all<{
    caller: number;
    callee: number | null;
    kind: string;
    via: string | null;
    rank: number;
    file: string;
    line: number;
    col: number;
    expr: string | null;
  }>('SELECT caller, callee, kind, via, rank, file, line, col, expr FROM edges WHERE tree = ?', [
    treeId,
  ]);
  const edges = edgeRows.map((e) => ({
    ...e,
    caller: symbols.get(e.caller)?.symbol ?? '?',
    callee: e.callee === null ? null : (symbols.get(e.callee)?.symbol ?? '?'),
  }));
  const tree = (await findTree(store, parsed.tree.root))!;
  return {
    store,
    treeId,
    tree,
    discovered: parsed.tree,
    parsed: parsed.parsed,
    symbols,
    edges,
    close: () => store.close(),
  };
}
