/**
 * The index database: opening it (rebuilding one of another schema version), per-blob facts, and
 * replacing one tree's derived tables in a single transaction so an interrupted run leaves the
 * previous index whole.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from './db.js';
import {
  newTracePackToken,
  partialTracePackPath,
  placeTracePack,
  recordTracePack,
  TracePackBuilder,
  tracePackPath,
} from './trace-pack.js';
import { openK8sReadDatabase, recordTreeRows } from './verify.js';

/** Bump with any change to schema.sql or to what the link phase writes. */
export const SCHEMA_VERSION = 6;

const here = path.dirname(fileURLToPath(import.meta.url));
const readSql = (name: string) => readFileSync(path.join(here, name), 'utf8');

export interface OpenedIndex {
  store: Store;
  /** Set when an index of another schema version was found and dropped. */
  rebuiltFrom: string | null;
  /**
   * The dropped index's trees, root -> summary (what each was indexed with), when they could be
   * read: a schema change rebuilds the rows, not how the user chose to index.
   */
  droppedSummaries: Map<string, string>;
}

export async function openIndexStore(
  dbPath: string,
  options: { readonly?: boolean } = {},
): Promise<OpenedIndex> {
  if (options.readonly)
    return {
      store: await Store.open(dbPath, { readonly: true }),
      rebuiltFrom: null,
      droppedSummaries: new Map(),
    };
  // Only a database k8s-read made is ever rebuilt; anything else is refused untouched.
  const { store } = await openK8sReadDatabase(dbPath, 'write');
  let rebuiltFrom: string | null = null;
  const droppedSummaries = new Map<string, string>();
  const hasMeta = await store.get(
    "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
  );
  if (hasMeta) {
    const row = await store.get<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'schema_version'",
    );
    if (row && row.value !== String(SCHEMA_VERSION)) {
      rebuiltFrom = row.value;
      for (const tree of await readTreeSummaries(store))
        droppedSummaries.set(tree.root, tree.summary);
      await dropIndexTables(store);
    }
  }
  await store.exec(readSql('schema.sql'));
  await setMeta(store, 'schema_version', String(SCHEMA_VERSION));
  return { store, rebuiltFrom, droppedSummaries };
}

/** Every tree's root and summary in an index of any schema that has them; none otherwise. */
async function readTreeSummaries(store: Store): Promise<{ root: string; summary: string }[]> {
  try {
    return await store.all<{ root: string; summary: string }>(
      "SELECT root, summary FROM trees WHERE typeof(root) = 'text' AND typeof(summary) = 'text'",
    );
  } catch {
    return [];
  }
}

/**
 * Sets a meta value, writing nothing when it holds that value already: a re-index that finds
 * nothing to do then leaves the database file untouched (no WAL frame, no checkpoint, no fsync).
 */
export async function setMeta(store: Store, key: string, value: string): Promise<void> {
  await store.run(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value',
    [key, value],
  );
}

async function dropIndexTables(store: Store): Promise<void> {
  for (const table of [
    'edges',
    'bindings',
    'packages',
    'made',
    'symbols',
    'details',
    'files',
    'trees',
    'blobs',
    'meta',
  ]) {
    await store.exec(`DROP TABLE IF EXISTS ${table}`);
  }
}

export async function readSchemaVersion(store: Store): Promise<string | null> {
  const row = await store
    .get<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
    .catch(() => undefined);
  return row?.value ?? null;
}

/** What the store says of a parsed blob, without its facts. */
export interface ParsedBlob {
  status: string;
  message: string | null;
  bytes: number;
}

/**
 * The blobs that already have facts of this version (and need no parsing), with their status: one
 * query and one JSON text per 20,000 blobs, not a row object each (a re-index asks for all of a
 * tree's blobs, 7,573 for v1.24: ~30 ms instead of ~90 ms for the blob ids then their rows).
 */
export async function loadParsedBlobs(
  store: Store,
  blobs: readonly string[],
  factsVersion: number,
): Promise<Map<string, ParsedBlob>> {
  const found = new Map<string, ParsedBlob>();
  for (let i = 0; i < blobs.length; i += 20000) {
    const row = await store.get<{ rows: string }>(
      'SELECT json_group_array(json_array(blob, status, message, bytes)) AS rows FROM blobs WHERE facts_version = ? AND blob IN (SELECT value FROM json_each(?))',
      [factsVersion, JSON.stringify(blobs.slice(i, i + 20000))],
    );
    parsedBlobRows(row?.rows, found);
  }
  return found;
}

/**
 * loadParsedBlobs for the blobs of the tree last indexed at `root` (none for a new root): asked
 * while git lists the tree, since a re-index finds nearly all of its files among them.
 */
export async function loadParsedBlobsOfTree(
  store: Store,
  root: string,
  factsVersion: number,
): Promise<Map<string, ParsedBlob>> {
  const row = await store.get<{ rows: string }>(
    'SELECT json_group_array(json_array(blob, status, message, bytes)) AS rows FROM blobs WHERE facts_version = ? AND blob IN (SELECT f.blob FROM files f JOIN trees t ON t.id = f.tree WHERE t.root = ?)',
    [factsVersion, root],
  );
  return parsedBlobRows(row?.rows);
}

function parsedBlobRows(json: string | undefined, into = new Map<string, ParsedBlob>()) {
  for (const [blob, status, message, bytes] of JSON.parse(json ?? '[]') as [
    string,
    string,
    string | null,
    number,
  ][])
    into.set(blob, { status, message, bytes });
  return into;
}

/** Blobs that already have facts of this version (and need no parsing). */
export async function findParsedBlobs(
  store: Store,
  blobs: readonly string[],
  factsVersion: number,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < blobs.length; i += 20000) {
    const rows = await store.all<{ blob: string }>(
      'SELECT blob FROM blobs WHERE facts_version = ? AND blob IN (SELECT value FROM json_each(?))',
      [factsVersion, JSON.stringify(blobs.slice(i, i + 20000))],
    );
    for (const r of rows) found.add(r.blob);
  }
  return found;
}

export interface BlobRow {
  blob: string;
  status: string;
  message: string | null;
  bytes: number;
  lines: number | null;
  facts: Buffer | null;
}

/** Facts are binary, so rows go one statement each inside the caller's batch transaction. */
export async function insertBlobs(
  store: Store,
  rows: readonly BlobRow[],
  factsVersion: number,
): Promise<void> {
  await store.transaction(async () => {
    for (const r of rows) {
      await store.run(
        'INSERT OR REPLACE INTO blobs (blob, facts_version, status, message, bytes, lines, facts) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [r.blob, factsVersion, r.status, r.message, r.bytes, r.lines, r.facts],
      );
    }
  });
}

/**
 * Stored blobs by id. `facts: false` reads only the small columns (statuses of unchanged files),
 * leaving the facts in the database until the link phase asks for them.
 */
export async function loadBlobs(
  store: Store,
  blobs: readonly string[],
  options: { facts?: boolean } = {},
): Promise<Map<string, BlobRow>> {
  const out = new Map<string, BlobRow>();
  const columns =
    options.facts === false
      ? 'blob, status, message, bytes, lines, NULL AS facts'
      : 'blob, status, message, bytes, lines, facts';
  for (let i = 0; i < blobs.length; i += 5000) {
    const rows = await store.all<BlobRow>(
      `SELECT ${columns} FROM blobs WHERE blob IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(blobs.slice(i, i + 5000))],
    );
    for (const r of rows) out.set(r.blob, r);
  }
  return out;
}

export interface TreeRow {
  id: number;
  root: string;
  commit_sha: string | null;
  dirty: number;
  version: string | null;
  module: string | null;
  remote: string | null;
  indexed_at: string;
  summary: string;
}

export async function findTree(store: Store, root: string): Promise<TreeRow | undefined> {
  return store.get<TreeRow>('SELECT * FROM trees WHERE root = ?', [root]);
}

export interface FileRow {
  path: string;
  blob: string;
  package: string | null;
  status: string;
}

export interface SymbolInsert {
  id: number;
  symbol: string;
  name: string;
  kind: string;
  package: string;
  file: string;
  line: number;
  endLine: number;
  col: number;
  detail: string | null;
  doc: string | null;
}

export interface EdgeInsert {
  caller: number;
  callee: number | null;
  kind: string;
  via: string | null;
  rank: number;
  file: string;
  line: number;
  col: number;
  expr: string | null;
  /** Packages the edge needs besides the caller's import closure (`3,17|25`), or null. */
  needs?: string | null;
}

/**
 * Told, while the link runs, each edge whose row is final already, with its place in
 * LinkedRows.edges: replaceTree writes it meanwhile.
 */
export interface EdgeSink {
  add(row: EdgeInsert, seq: number): void;
}

export interface BindingRow {
  caller: number;
  line: number;
  col: number;
  callee: number;
  slot: number;
  value: number;
  needs: string | null;
}

export interface PackageRow {
  id: number;
  path: string;
  name: string;
  dir: string;
  imports: string[];
}

/** What the link adds to the rows known before it. */
export interface LinkedRows {
  summary: unknown;
  /** Symbols after those of TreeReplacement (ids after theirs). */
  symbols: SymbolInsert[];
  edges: EdgeInsert[];
  bindings: BindingRow[];
  made: { type: string; package: number }[];
}

export interface TreeReplacement {
  root: string;
  commit: string | null;
  dirty: boolean;
  version: string | null;
  module: string | null;
  remote: string | null;
  /** Told when the index stands but the trace's record beside it could not be written. */
  warn?: (message: string) => void;
  /**
   * Rows known before the link, written while it runs. replaceTree takes them over: each list is
   * emptied once written, so its memory goes back during the link.
   */
  early: {
    files: FileRow[];
    symbols: SymbolInsert[];
    packages: PackageRow[];
    details: { symbol: string; kind: string; payload: string }[];
  };
  /**
   * Runs the link and returns the rest of the rows. Edges it gives `edges` meanwhile must be the
   * rows of LinkedRows.edges at those places (the same objects); they are written as they come.
   */
  link: (edges: EdgeSink) => Promise<LinkedRows>;
}

/** Replaces everything derived for one tree at once: readers see the old index or the new one. */
export async function replaceTree(store: Store, t: TreeReplacement): Promise<number> {
  // One large transaction: in WAL mode, synchronous=OFF skips the fsyncs but keeps the database
  // consistent (a crash loses the transaction, never corrupts the previous index). ~1 s saved.
  await store.exec('PRAGMA synchronous = OFF');
  let written: { id: number; packed: boolean; packError?: unknown };
  try {
    written = await replaceTreeInTransaction(store, t);
  } finally {
    await store.exec('PRAGMA synchronous = NORMAL');
  }
  // The trace's record of the tree (src/store/trace-pack.ts) goes in place once the tables it
  // mirrors are in. Without it (a full disk) traces read the tables: the index stands either way.
  if (written.packed)
    await placeTracePack(store.path, written.id).catch((error: unknown) =>
      warnNoPack(t, store, written.id, error),
    );
  // Said only now: an index that failed says why, and nothing about its record.
  else if (written.packError !== undefined) warnNoPack(t, store, written.id, written.packError);
  return written.id;
}

function warnNoPack(t: TreeReplacement, store: Store, treeId: number, error: unknown): void {
  t.warn?.(
    `could not write ${tracePackPath(store.path, treeId)} (${(error as Error).message}); traces will read the tables, more slowly`,
  );
}

/** What a tree's row says of the checkout beside its rows: where it stands, not what its code is. */
export interface TreeIdentity {
  commit: string | null;
  dirty: boolean;
  version: string | null;
  module: string | null;
  remote: string | null;
  /** The summary: the rows' counts and fingerprint, and the reports of import paths and dependencies. */
  summary: string;
}

/**
 * Keeps the rows of a tree whose link would make them again, and makes its row true of the
 * checkout: another commit (its edits committed, a change to tests, docs or a required version
 * only, files whose facts did not change), a new tag, a push. The rows describe the code, which
 * links the same; the commit, version label, remote and the reports in the summary describe
 * where it stands. `moved` names the files whose blob changed with the same facts: their rows
 * take the new blob in the same transaction. Writes nothing when all is as it was (a re-index
 * with nothing to do leaves the file untouched); `indexed_at` says when the row last changed.
 */
export async function refreshTree(
  store: Store,
  treeId: number,
  tree: TreeIdentity,
  moved: readonly { path: string; blob: string }[],
): Promise<void> {
  const values = [
    tree.commit,
    tree.dirty ? 1 : 0,
    tree.version,
    tree.module,
    tree.remote,
    tree.summary,
  ];
  const identity = () =>
    store.run(
      `UPDATE trees SET commit_sha = ?, dirty = ?, version = ?, module = ?, remote = ?, summary = ?, indexed_at = ?
       WHERE id = ? AND (commit_sha IS NOT ? OR dirty IS NOT ? OR version IS NOT ? OR module IS NOT ? OR remote IS NOT ? OR summary IS NOT ?)`,
      [...values, new Date().toISOString(), treeId, ...values],
    );
  if (moved.length === 0) {
    await identity();
    return;
  }
  await store.transaction(async () => {
    await store.run(
      `UPDATE files SET blob = value->>1 FROM (SELECT value FROM json_each(?)) AS moved
       WHERE tree = ? AND path = value->>0`,
      [JSON.stringify(moved.map((f) => [f.path, f.blob])), treeId],
    );
    await identity();
  });
}

/** The blob of each file of a tree's last link, by path. */
export async function treeFileBlobs(store: Store, treeId: number): Promise<Map<string, string>> {
  const row = await store.get<{ files: string | null }>(
    'SELECT json_group_object(path, blob) AS files FROM files WHERE tree = ?',
    [treeId],
  );
  return new Map(Object.entries(JSON.parse(row?.files ?? '{}') as Record<string, string>));
}

const DERIVED_TABLES = ['files', 'symbols', 'edges', 'bindings', 'packages', 'made', 'details'];
const indexStatements = [
  ...readSql('indexes.sql').matchAll(
    /CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+) ON (\w+)[^;]*;/g,
  ),
].map((m) => ({ sql: m[0], name: m[1]!, table: m[2]! }));
const indexNames = indexStatements.map((i) => i.name);
/**
 * The indexes of the tables the early rows fill: built once those are in, while the link still
 * runs (SQLite's thread has time then); the few rows the link adds go into them.
 */
const earlyIndexes = indexStatements
  .filter((i) => i.table === 'symbols' || i.table === 'details')
  .map((i) => i.sql)
  .join('\n');

async function replaceTreeInTransaction(
  store: Store,
  t: TreeReplacement,
): Promise<{ id: number; packed: boolean; packError?: unknown }> {
  // What a trace reads of the tree, gathered as the rows go by (the early ones are dropped once
  // written); a database in memory has nowhere to keep it beside.
  const pack = store.path === ':memory:' ? undefined : new TracePackBuilder(newTracePackToken());
  let partial: string | undefined;
  try {
    return await store.transaction(() => replaceTreeRows(store, t, pack, (p) => (partial = p)));
  } catch (error) {
    if (partial) rmSync(partial, { force: true });
    throw error;
  }
}

async function replaceTreeRows(
  store: Store,
  t: TreeReplacement,
  pack: TracePackBuilder | undefined,
  writing: (partial: string) => void,
): Promise<{ id: number; packed: boolean; packError?: unknown }> {
  const old = await findTree(store, t.root);
  const trees = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM trees');
  if (old && trees?.n === 1) {
    // The only tree: empty the tables whole (SQLite truncates them without visiting rows) and
    // drop their indexes, so the reload builds them once their rows are in instead of row by row
    // (those of the symbols and details while the link runs, the others at the end).
    for (const name of indexNames) await store.exec(`DROP INDEX IF EXISTS ${name}`);
    for (const table of DERIVED_TABLES) await store.exec(`DELETE FROM ${table}`);
  } else if (old) {
    for (const table of DERIVED_TABLES) {
      await store.run(`DELETE FROM ${table} WHERE tree = ?`, [old.id]);
    }
  }
  // A new tree's row is made now for its id, and filled in with the rest at the end.
  const id =
    old?.id ??
    (
      await store.run("INSERT INTO trees (root, indexed_at, summary) VALUES (?, '', '{}')", [
        t.root,
      ])
    ).lastID;
  // The rows known before the link (half of what is written) go in while it runs: SQLite
  // writes a batch on its thread (the other core) while the link goes on here, and the next
  // batch goes when the link gives the event loop a turn.
  const e = t.early;
  const written = {
    files: e.files.length,
    symbols: e.symbols.length,
    packages: e.packages.length,
    details: e.details.length,
  };
  // The edges' rowids are their places in the link's order, as if all were written after it:
  // ties between the targets of one call read back in that order (findEdgesFrom's `seq`).
  const firstEdge =
    ((await store.get<{ n: number | null }>('SELECT max(rowid) AS n FROM edges'))?.n ?? 0) + 1;
  const edgesSql = insertEdges(id);
  const edgeStream = new EdgeStream(store, edgesSql, firstEdge);
  const early = (async () => {
    await store.insertJsonRows(
      `INSERT INTO files (tree, path, blob, package, status) SELECT ${id}, value->>0, value->>1, value->>2, value->>3 FROM jsonb_each(?)`,
      e.files,
      (f) => [f.path, f.blob, f.package, f.status],
    );
    e.files = [];
    pack?.addPackages(e.packages);
    await store.insertJsonRows(
      `INSERT INTO packages (tree, id, path, name, dir, imports) SELECT ${id}, value->>0, value->>1, value->>2, value->>3, value->>4 FROM jsonb_each(?)`,
      e.packages,
      (p) => [p.id, p.path, p.name, p.dir, JSON.stringify(p.imports)],
    );
    e.packages = [];
    pack?.addSymbols(e.symbols);
    await store.insertJsonRows(insertSymbols(id), e.symbols, symbolRow);
    e.symbols = [];
    await store.insertJsonRows(
      `INSERT INTO details (tree, symbol, kind, payload) SELECT ${id}, value->>0, value->>1, value->>2 FROM jsonb_each(?)`,
      e.details,
      (d) => [d.symbol, d.kind, d.payload],
    );
    e.details = [];
    await store.exec(earlyIndexes);
  })();
  // Observed at once: it may fail while the link runs, before anything awaits it.
  early.catch(() => undefined);
  let linked: LinkedRows;
  try {
    linked = await t.link(edgeStream);
  } finally {
    // Nothing else may run on the connection (nor roll back) before these are done.
    edgeStream.end();
    await early.catch(() => undefined);
    await edgeStream.done.catch(() => undefined);
  }
  await early;
  await edgeStream.done;
  pack?.addSymbols(linked.symbols);
  await store.insertJsonRows(insertSymbols(id), linked.symbols, symbolRow);
  // The edges the link could not give while it ran (their callees' ids were made at its end).
  const edges = linked.edges;
  const rest: number[] = [];
  for (let seq = 0; seq < edges.length; seq++) if (!edgeStream.has(seq)) rest.push(seq);
  if (edgeStream.count + rest.length !== edges.length)
    throw new Error(
      `the link gave ${edgeStream.count} edges while it ran, not among its ${edges.length}`,
    );
  await store.insertJsonRows(edgesSql, rest, (seq) => edgeRow(edges[seq]!, firstEdge + seq));
  await store.insertJsonRows(
    `INSERT INTO bindings (tree, caller, line, col, callee, slot, value, needs)
     SELECT ${id}, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6
     FROM jsonb_each(?)`,
    linked.bindings,
    (b) => [b.caller, b.line, b.col, b.callee, b.slot, b.value, b.needs],
  );
  await store.insertJsonRows(
    `INSERT INTO made (tree, type, package) SELECT ${id}, value->>0, value->>1 FROM jsonb_each(?)`,
    linked.made,
    (m) => [m.type, m.package],
  );
  await store.run(
    'UPDATE trees SET commit_sha = ?, dirty = ?, version = ?, module = ?, remote = ?, indexed_at = ?, summary = ? WHERE id = ?',
    [
      t.commit,
      t.dirty ? 1 : 0,
      t.version,
      t.module,
      t.remote,
      new Date().toISOString(),
      JSON.stringify(linked.summary),
      id,
    ],
  );
  await recordTreeRows(store, id, {
    files: written.files,
    symbols: written.symbols + linked.symbols.length,
    edges: linked.edges.length,
    bindings: linked.bindings.length,
    packages: written.packages,
    made: linked.made.length,
    details: written.details,
  });
  let packed = false;
  let packError: unknown;
  // A new token whether or not the record gets written: no older record matches it.
  if (pack) await recordTracePack(store, id, pack.token);
  // SQLite builds the indexes on its thread while the record is written on this one.
  const indexing = store.exec(readSql('indexes.sql'));
  if (pack) {
    const partial = partialTracePackPath(store.path, id);
    writing(partial);
    try {
      pack.writeTo(partial, linked.edges, linked.bindings, linked.made);
      packed = true;
    } catch (error) {
      rmSync(partial, { force: true });
      packError = error;
    }
  }
  await indexing;
  return { id, packed, ...(packError !== undefined ? { packError } : {}) };
}

const insertEdges = (tree: number) =>
  `INSERT INTO edges (rowid, tree, caller, callee, kind, via, rank, file, line, col, expr, needs)
   SELECT value->>0, ${tree}, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10
   FROM jsonb_each(?)`;

const edgeRow = (e: EdgeInsert, rowid: number) => [
  rowid,
  e.caller,
  e.callee,
  e.kind,
  e.via,
  e.rank,
  e.file,
  e.line,
  e.col,
  e.expr,
  e.needs ?? null,
];

/** Edges a stream writes at once: a few dozen statements of JSON batches for v1.24's. */
const EDGE_CHUNK = 4096;
/**
 * Batches of streamed edges SQLite has at once (their rowids are set, so their order is free):
 * with one, SQLite waited for this thread between batches and fell ~60k edges behind the link
 * (v1.24, ~0.55 s to catch up after it); with three, ~0.05 s.
 */
const EDGE_BATCHES_IN_FLIGHT = 3;

/**
 * Writes the edges a link gives while it runs (see EdgeSink), a chunk at a time: SQLite inserts
 * them on its thread while the link goes on here, instead of after it.
 */
class EdgeStream implements EdgeSink {
  /** Settles once every edge given before `end` is written; rejects with the first failure. */
  readonly done: Promise<void>;
  /** Edges given. */
  count = 0;
  private rows: EdgeInsert[] = [];
  private seqs: number[] = [];
  private given = new Uint8Array(1 << 16);
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly sql: string,
    private readonly firstRowid: number,
  ) {
    this.done = this.run();
    // Observed at once: it may fail while the link runs, before anything awaits it.
    this.done.catch(() => undefined);
  }

  add(row: EdgeInsert, seq: number): void {
    if (this.ended) throw new Error('an edge was given after the link ended');
    if (seq >= this.given.length) {
      const grown = new Uint8Array(Math.max(seq + 1, this.given.length * 2));
      grown.set(this.given);
      this.given = grown;
    }
    if (this.given[seq]) throw new Error(`edge ${seq} was given twice`);
    this.given[seq] = 1;
    this.count++;
    this.rows.push(row);
    this.seqs.push(seq);
    if (this.rows.length >= EDGE_CHUNK) this.wake?.();
  }

  /** Whether the edge at `seq` was given (and so is written by the stream). */
  has(seq: number): boolean {
    return seq < this.given.length && this.given[seq] === 1;
  }

  /** No more edges: what is left is written, then `done` settles. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    for (;;) {
      if (this.rows.length >= EDGE_CHUNK || (this.ended && this.rows.length > 0)) {
        const rows = this.rows;
        const seqs = this.seqs;
        this.rows = [];
        this.seqs = [];
        await this.store.insertJsonRows(
          this.sql,
          seqs,
          (seq, i) => edgeRow(rows[i]!, this.firstRowid + seq),
          { inFlight: EDGE_BATCHES_IN_FLIGHT },
        );
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

const insertSymbols = (tree: number) =>
  `INSERT INTO symbols (tree, id, symbol, name, kind, package, file, line, end_line, col, detail, doc)
   SELECT ${tree}, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10
   FROM jsonb_each(?)`;

const symbolRow = (s: SymbolInsert) => [
  s.id,
  s.symbol,
  s.name,
  s.kind,
  s.package,
  s.file,
  s.line,
  s.endLine,
  s.col,
  s.detail,
  s.doc,
];
