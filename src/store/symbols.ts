/**
 * Typed reads of the index: declarations by name or symbol, text search, and the call graph in
 * bulk (a few queries per trace level; the tracer works in memory).
 */
import type { RowShape, Store } from './db.js';
import type { BindingRow, EdgeInsert, PackageRow } from './index-store.js';
import { dirOf } from '../shared/repo-path.js';

/**
 * `imethod`: a method of an interface, the callee of a dispatch whose implementation is not known.
 * `param`: a function-typed parameter (`pkg.F#f`), the callee of a call through it; the tracer
 * binds it per call path. `field`: a function-typed field of a struct (`pkg.T#fn`), the callee of a
 * call through a method's own receiver (`bfr.fn()`); the tracer binds it per path to what the
 * value was built with, else keeps the field's values over the program.
 */
export type SymbolKind =
  | 'func'
  | 'method'
  | 'imethod'
  | 'closure'
  | 'struct'
  | 'interface'
  | 'type'
  | 'var'
  | 'const'
  | 'external'
  | 'param'
  | 'field';

export interface DefinitionRow {
  id: number;
  symbol: string;
  name: string;
  kind: SymbolKind;
  file: string;
  line: number;
  endLine: number;
  col: number;
  package: string;
  detail: string | null;
  doc: string | null;
}

const COLUMNS =
  'id, symbol, name, kind, file, line, end_line AS endLine, col, package, detail, doc';
const DEFINITION_FIELDS = [
  'id',
  'symbol',
  'name',
  'kind',
  'file',
  'line',
  'endLine',
  'col',
  'package',
  'detail',
  'doc',
] as const satisfies readonly (keyof DefinitionRow)[];

export const DEFINITION_ROW: RowShape<DefinitionRow> = {
  columns: DEFINITION_FIELDS,
  build: (v) => ({
    id: v[0] as number,
    symbol: v[1] as string,
    name: v[2] as string,
    kind: v[3] as SymbolKind,
    file: v[4] as string,
    line: v[5] as number,
    endLine: v[6] as number,
    col: v[7] as number,
    package: v[8] as string,
    detail: v[9] as string | null,
    doc: v[10] as string | null,
  }),
};

/**
 * Declarations matching `query`: an exact symbol (`(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run`),
 * or a suffix of one at a name boundary (`scheduler.New`, `Scheduler).scheduleOne`,
 * `scheduleOne`). Best first: exact, then declared code before external references, shorter first.
 */
export async function findDefinitions(
  store: Store,
  treeId: number,
  query: string,
): Promise<DefinitionRow[]> {
  const q = query.trim();
  if (!q) return [];
  const exact = await store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND symbol = ?`,
    [treeId, q],
  );
  if (exact.length > 0) return exact;
  const name = lastIdentifier(q);
  if (!name) return [];
  const rows = await store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND name = ?`,
    [treeId, name],
  );
  const matches = rows.filter((r) => matchesAtBoundary(r.symbol, q));
  return rankDefinitions(matches);
}

export async function findDefinitionsInFiles(
  store: Store,
  treeId: number,
  files: readonly string[],
): Promise<DefinitionRow[]> {
  return store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND file IN (SELECT value FROM json_each(?)) ORDER BY file, line`,
    [treeId, JSON.stringify(files)],
  );
}

/** The innermost declaration whose span holds `file:line` (for blame and `def file:line`). */
export async function findEnclosingDefinition(
  store: Store,
  treeId: number,
  file: string,
  line: number,
): Promise<DefinitionRow | undefined> {
  const rows = await store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND file = ? AND line <= ? AND end_line >= ? ORDER BY (end_line - line) ASC LIMIT 1`,
    [treeId, file, line, line],
  );
  return rows[0];
}

export async function symbolsExist(
  store: Store,
  treeId: number,
  symbols: readonly string[],
): Promise<Set<string>> {
  const rows = await store.all<{ symbol: string }>(
    "SELECT symbol FROM symbols WHERE tree = ? AND kind != 'external' AND symbol IN (SELECT value FROM json_each(?))",
    [treeId, JSON.stringify(symbols)],
  );
  return new Set(rows.map((r) => r.symbol));
}

/** The columns of a symbol without its signature and doc comment (both read as null). */
const COLUMNS_WITHOUT_TEXT =
  'id, symbol, name, kind, file, line, end_line AS endLine, col, package, NULL AS detail, NULL AS doc';

/**
 * Symbols by id. `text: false` leaves out the signature and doc comment (`detail` and `doc` are
 * null): a trace reads neither, and they were a third of what it read of its symbols.
 */
export async function findSymbolsByIds(
  store: Store,
  treeId: number,
  ids: readonly number[],
  { text = true }: { text?: boolean } = {},
): Promise<DefinitionRow[]> {
  const out: DefinitionRow[] = [];
  for (let i = 0; i < ids.length; i += 10000) {
    out.push(
      ...(await store.many(
        DEFINITION_ROW,
        `SELECT ${text ? COLUMNS : COLUMNS_WITHOUT_TEXT} FROM symbols WHERE tree = ? AND id IN (SELECT value FROM json_each(?))`,
        [treeId, JSON.stringify(ids.slice(i, i + 10000))],
        'id',
      )),
    );
  }
  return out;
}

const MAX_SEARCH_LENGTH = 4096;

/** Symbols whose name or symbol contains `text`, ranked: exact name, name prefix, then others. */
export async function searchSymbols(
  store: Store,
  treeId: number,
  text: string,
  limit = 50,
): Promise<DefinitionRow[]> {
  // No symbol is this long, and SQLite refuses LIKE patterns past 50,000 bytes.
  if (text.length > MAX_SEARCH_LENGTH) return [];
  const like = `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const rows = await store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND kind != 'external' AND (name LIKE ? ESCAPE '\\' OR symbol LIKE ? ESCAPE '\\') LIMIT 2000`,
    [treeId, like, like],
  );
  const lower = text.toLowerCase();
  const score = (r: DefinitionRow) => {
    const n = r.name.toLowerCase();
    let s = n === lower ? 0 : n.startsWith(lower) ? 1 : n.includes(lower) ? 2 : 3;
    if (r.kind === 'closure') s += 2;
    if (r.file.startsWith('vendor/')) s += 1;
    return s;
  };
  return rows
    .sort(
      (a, b) =>
        score(a) - score(b) || a.symbol.length - b.symbol.length || (a.symbol < b.symbol ? -1 : 1),
    )
    .slice(0, limit);
}

/** A stored call edge, as written by the link phase. */
export type EdgeRow = EdgeInsert;

const EDGE_FIELDS = [
  'caller',
  'callee',
  'kind',
  'via',
  'rank',
  'file',
  'line',
  'col',
  'expr',
  'needs',
] as const satisfies readonly (keyof EdgeRow)[];
const EDGE_COLUMNS = EDGE_FIELDS.join(', ');

export const EDGE_ROW: RowShape<EdgeRow> = {
  columns: EDGE_FIELDS,
  build: (v) => ({
    caller: v[0] as number,
    callee: v[1] as number | null,
    kind: v[2] as string,
    via: v[3] as string | null,
    rank: v[4] as number,
    file: v[5] as string,
    line: v[6] as number,
    col: v[7] as number,
    expr: v[8] as string | null,
    needs: v[9] as string | null,
  }),
};

export async function findEdgesFrom(
  store: Store,
  treeId: number,
  callers: readonly number[],
): Promise<EdgeRow[]> {
  if (callers.length === 0) return [];
  return store.many(
    EDGE_ROW,
    `SELECT ${EDGE_COLUMNS}, rowid AS seq FROM edges WHERE tree = ? AND caller IN (SELECT value FROM json_each(?))`,
    [treeId, JSON.stringify(callers)],
    // Ties (one call, several targets of one rank) as written: the trace record's order too.
    'caller, line, col, rank, seq',
  );
}

export async function findEdgesTo(
  store: Store,
  treeId: number,
  callees: readonly number[],
): Promise<EdgeRow[]> {
  if (callees.length === 0) return [];
  return store.all<EdgeRow>(
    `SELECT ${EDGE_COLUMNS} FROM edges WHERE tree = ? AND callee IN (SELECT value FROM json_each(?)) ORDER BY file, line`,
    [treeId, JSON.stringify(callees)],
  );
}

export async function findDetail<T>(
  store: Store,
  treeId: number,
  symbol: string,
  kind: string,
): Promise<T | undefined> {
  const row = await store.get<{ payload: string }>(
    'SELECT payload FROM details WHERE tree = ? AND symbol = ? AND kind = ?',
    [treeId, symbol, kind],
  );
  return row ? (JSON.parse(row.payload) as T) : undefined;
}

export async function findDetailsLike<T>(
  store: Store,
  treeId: number,
  kind: string,
  suffix: string,
): Promise<{ symbol: string; payload: T }[]> {
  const rows = await store.all<{ symbol: string; payload: string }>(
    "SELECT symbol, payload FROM details WHERE tree = ? AND kind = ? AND symbol LIKE ? ESCAPE '\\'",
    [treeId, kind, `%${suffix.replace(/[%_\\]/g, (c) => `\\${c}`)}`],
  );
  return rows.map((r) => ({ symbol: r.symbol, payload: JSON.parse(r.payload) as T }));
}

export async function countSymbols(store: Store, treeId: number): Promise<Record<string, number>> {
  const rows = await store.all<{ kind: string; n: number }>(
    'SELECT kind, COUNT(*) AS n FROM symbols WHERE tree = ? GROUP BY kind',
    [treeId],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
}

export async function listSymbolsInPackagePrefix(
  store: Store,
  treeId: number,
  prefix: string,
  kind: SymbolKind,
): Promise<DefinitionRow[]> {
  return store.all<DefinitionRow>(
    `SELECT ${COLUMNS} FROM symbols WHERE tree = ? AND kind = ? AND package LIKE ? ESCAPE '\\'`,
    [treeId, kind, `${prefix.replace(/[%_\\]/g, (c) => `\\${c}`)}%`],
  );
}

function lastIdentifier(q: string): string | undefined {
  // Closures are stored under their `Name$N` tail, so the `$N` suffixes stay.
  return /([\p{L}_][\p{L}\p{N}_]*(?:\$\d+)*)\)?$/u.exec(q)?.[1];
}

function matchesAtBoundary(symbol: string, q: string): boolean {
  if (!symbol.endsWith(q)) return false;
  const before = symbol[symbol.length - q.length - 1];
  return (
    before === undefined ||
    before === '/' ||
    before === '.' ||
    before === '(' ||
    before === '*' ||
    before === ' '
  );
}

function rankDefinitions(rows: DefinitionRow[]): DefinitionRow[] {
  const weight = (r: DefinitionRow) =>
    r.kind === 'external' ? 3 : r.file.startsWith('vendor/') ? 2 : r.kind === 'closure' ? 1 : 0;
  return rows.sort(
    (a, b) =>
      weight(a) - weight(b) || a.symbol.length - b.symbol.length || (a.symbol < b.symbol ? -1 : 1),
  );
}

export const BINDING_ROW: RowShape<BindingRow> = {
  columns: ['caller', 'line', 'col', 'callee', 'slot', 'value', 'needs'],
  build: (v) => ({
    caller: v[0] as number,
    line: v[1] as number,
    col: v[2] as number,
    callee: v[3] as number,
    slot: v[4] as number,
    value: v[5] as number,
    needs: v[6] as string | null,
  }),
};

/**
 * Every binding of a tree, by caller: the table is small (thousands of rows where edges are
 * hundreds of thousands), and one read beats a query per level of a trace.
 */
export async function loadBindingsByCaller(
  store: Store,
  treeId: number,
): Promise<Map<number, BindingRow[]>> {
  const rows = await store.many(
    BINDING_ROW,
    'SELECT caller, line, col, callee, slot, value, needs, rowid AS seq FROM bindings WHERE tree = ?',
    [treeId],
    // Per caller by callee, then as written (the trace record keeps the same order).
    'caller, callee, seq',
  );
  const byCaller = new Map<number, BindingRow[]>();
  for (const r of rows) {
    const list = byCaller.get(r.caller);
    if (list) list.push(r);
    else byCaller.set(r.caller, [r]);
  }
  return byCaller;
}

/** Where these functions (or slots) are passed as function values. */
export async function findBindingsOf(
  store: Store,
  treeId: number,
  values: readonly number[],
  column: 'value' | 'slot' = 'value',
): Promise<BindingRow[]> {
  if (values.length === 0) return [];
  return store.all<BindingRow>(
    `SELECT caller, line, col, callee, slot, value, needs FROM bindings WHERE tree = ? AND ${column} IN (SELECT value FROM json_each(?))`,
    [treeId, JSON.stringify(values)],
  );
}

export async function listPackages(store: Store, treeId: number): Promise<PackageRow[]> {
  // One JSON text with the imports inside, parsed once (as Store.many does): every trace reads
  // them all, and a row object and a parse per package (2,336 on v1.24) cost ~10 ms.
  const row = await store.get<{ j: string | null }>(
    'SELECT json_group_array(json_array(id, path, name, dir, json(imports))) AS j FROM packages WHERE tree = ?',
    [treeId],
  );
  const rows = JSON.parse(row?.j ?? '[]') as [number, string, string, string, string[]][];
  return rows.map(([id, path, name, dir, imports]) => ({ id, path, name, dir, imports }));
}

/** The packages (by path) that construct these named types. */
export async function findMadeBy(
  store: Store,
  treeId: number,
  types: readonly string[],
): Promise<{ type: string; package: string }[]> {
  if (types.length === 0) return [];
  return store.all<{ type: string; package: string }>(
    `SELECT m.type AS type, p.path AS package FROM made m JOIN packages p ON p.tree = m.tree AND p.id = m.package
     WHERE m.tree = ? AND m.type IN (SELECT value FROM json_each(?))`,
    [treeId, JSON.stringify(types)],
  );
}

/**
 * Registry entries (`via: map-register` hops, the key in their text) made by functions in these
 * directories: a controller manager's name -> start function.
 */
export async function findRegistryEntries(
  store: Store,
  treeId: number,
  dirs: readonly string[],
): Promise<{ key: string; target: DefinitionRow }[]> {
  if (dirs.length === 0) return [];
  // The callers by file (a prefix range on symbols_by_file), then their edges by caller. The
  // CROSS JOINs hold that order: left to itself, the planner read every edge of the tree through
  // edges_by_callee for `callee IS NOT NULL` (300 ms on v1.24; this way 1-5 ms).
  const rows = await store.all<{ expr: string | null; callee: number }>(
    `SELECT DISTINCT e.rowid AS at, e.expr AS expr, e.callee AS callee
     FROM json_each(?) d CROSS JOIN symbols c CROSS JOIN edges e
     WHERE c.tree = ? AND c.file >= d.value || '/' AND c.file < d.value || '0'
       AND e.tree = c.tree AND e.caller = c.id
       AND e.via = 'map-register' AND +e.callee IS NOT NULL
     ORDER BY e.rowid`,
    [JSON.stringify(dirs), treeId],
  );
  const targets = new Map(
    (await findSymbolsByIds(store, treeId, [...new Set(rows.map((r) => r.callee))])).map((t) => [
      t.id,
      t,
    ]),
  );
  const out: { key: string; target: DefinitionRow }[] = [];
  for (const r of rows) {
    const quoted = /\[(".*")\]$/.exec(r.expr ?? '')?.[1];
    let key: string | undefined;
    try {
      key = quoted ? (JSON.parse(quoted) as string) : undefined;
    } catch {
      key = undefined;
    }
    const target = targets.get(r.callee);
    if (key !== undefined && target && target.kind !== 'param') out.push({ key, target });
  }
  return out;
}

/** The package path of each indexed directory of a tree (from its files). */
export async function findPackagesByDirectory(
  store: Store,
  treeId: number,
): Promise<Map<string, string>> {
  const rows = await store.all<{ path: string; package: string }>(
    'SELECT path, package FROM files WHERE tree = ? AND package IS NOT NULL',
    [treeId],
  );
  const byDir = new Map<string, string>();
  for (const r of rows) byDir.set(dirOf(r.path), r.package);
  return byDir;
}
