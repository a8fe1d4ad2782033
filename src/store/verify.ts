/**
 * Which files k8s-read may touch, and whether an index is whole.
 *
 * A k8s-read database carries a mark (`PRAGMA application_id`). Any other file is refused before
 * anything is written to it: a directory, a file that is not SQLite, a SQLite database some other
 * program made. Databases made before the mark existed are recognised by their exact tables and
 * columns, and marked the first time k8s-read writes to them.
 *
 * An index is whole when its tables are all there, each tree's rows match the counts written with
 * them, and SQLite's own `quick_check` finds nothing wrong. `index` checks all of that before it
 * trusts what it would skip (quick_check only when the file changed since the last finished run
 * left it: `<db>.checked`); read commands check the cheap part (tables present, rows present).
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabasePathError, DatabaseReadOnlyError, IndexDamagedError } from '../errors.js';
import { databaseFileState, hasPendingWal } from '../shared/file-state.js';
import { Store } from './db.js';
import type { TreeRow } from './index-store.js';

/** `k8rd`: the mark of a k8s-read database (`PRAGMA application_id`). */
export const APPLICATION_ID = 0x6b387264;

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * The tables (and their columns) of k8s-read databases made before the mark: index schemas 4 and 5
 * and git cache format 1. Fixed for good: newer databases are known by the mark alone.
 */
const UNMARKED_TABLES: Record<string, string> = {
  meta: 'key,value',
  blobs: 'blob,facts_version,status,message,bytes,lines,facts',
  trees: 'id,root,commit_sha,dirty,version,module,remote,indexed_at,summary',
  files: 'tree,path,blob,package,status',
  symbols: 'tree,id,symbol,name,kind,package,file,line,end_line,col,detail,doc',
  edges: 'tree,caller,callee,kind,via,rank,file,line,col,expr',
  bindings: 'tree,caller,line,col,callee,slot,value,needs',
  packages: 'tree,id,path,name,dir,imports',
  made: 'tree,type,package',
  details: 'tree,symbol,kind,payload',
  git_cache_meta: 'key,value',
  git_pull_request: 'commit_sha,github,answer',
  git_blame: 'path,blob,options,head,lines',
  git_mainline: 'commit_sha,introducer,depth',
};

export interface OpenedDatabase {
  store: Store;
  /** No file, an empty file or a database without tables was found: nothing to keep. */
  fresh: boolean;
}

/**
 * Opens the k8s-read database at `file`, after checking that it is one. `read` never creates or
 * changes anything and returns undefined when there is no file; `write` creates the file (and its
 * directory) when missing and marks it. Throws a DatabasePathError for anything k8s-read must not
 * touch, leaving it as it was.
 */
export async function openK8sReadDatabase(
  file: string,
  mode: 'read',
): Promise<OpenedDatabase | undefined>;
export async function openK8sReadDatabase(file: string, mode: 'write'): Promise<OpenedDatabase>;
export async function openK8sReadDatabase(
  file: string,
  mode: 'read' | 'write',
): Promise<OpenedDatabase | undefined> {
  if (file === ':memory:') {
    const store = await Store.open(file);
    await store.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    return { store, fresh: true };
  }
  const present = checkDatabasePath(file);
  if (!present && mode === 'read') return undefined;
  if (!present) prepareDirectory(file);
  let store = await Store.open(file, { create: mode === 'write' });
  let identity: Identity;
  try {
    identity = await identify(store);
  } catch (error) {
    await store.close().catch(() => undefined);
    // A file nobody may write, in a directory nobody may write: SQLite cannot make the lock files
    // a WAL database needs, but a reader can still read it as it is on disk.
    if (!(mode === 'read' && error instanceof DatabaseReadOnlyError && !hasPendingWal(file)))
      throw error;
    store = await Store.open(file, { immutable: true });
    identity = await identify(store).catch(async (retry: unknown) => {
      await store.close().catch(() => undefined);
      throw retry;
    });
  }
  if (identity.kind === 'foreign') {
    await store.close();
    throw new DatabasePathError(
      file,
      `a SQLite database that k8s-read did not make (${identity.why})`,
      'k8s-read leaves it as it is: pass --db with a new path',
    );
  }
  if (mode === 'write' && identity.kind !== 'marked') {
    if (store.readonly) {
      await store.close();
      throw new DatabaseReadOnlyError(file, 'opened for reading only');
    }
    // NORMAL: k8s-read databases are WAL (where it never corrupts), and a fresh file has nothing
    // to lose; a full sync here cost a new blame cache ~10 ms.
    await store.exec(`PRAGMA synchronous = NORMAL; PRAGMA application_id = ${APPLICATION_ID}`);
  }
  return { store, fresh: identity.kind === 'empty' };
}

/**
 * Checks what lies at `file` before SQLite opens it: true for a file that starts like a SQLite
 * database (or is empty), false for nothing; a DatabasePathError for anything else.
 */
export function checkDatabasePath(file: string): boolean {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    throw pathError(file, error as NodeJS.ErrnoException);
  }
  if (stat.isDirectory())
    throw new DatabasePathError(
      file,
      'a directory, not a database file',
      `pass --db with a file path, e.g. --db ${path.join(file, 'index.sqlite')}`,
    );
  if (!stat.isFile())
    throw new DatabasePathError(file, 'not a regular file', 'pass --db with a file path');
  if (stat.size === 0) return true;
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  let read = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw pathError(file, error as NodeJS.ErrnoException);
  }
  if (read < head.length || head.toString('latin1') !== SQLITE_MAGIC)
    throw new DatabasePathError(
      file,
      'not a SQLite database, so not an index',
      'k8s-read leaves it as it is: pass --db with a new path (delete the file yourself if it is a damaged index)',
    );
  return true;
}

/**
 * Whether `file` is a k8s-read database by its header alone (the mark, or the tables of an unmarked
 * one in its first page): what `index --rebuild` asks before deleting a file it cannot open.
 */
export function looksLikeK8sReadDatabase(file: string): boolean {
  let bytes: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      bytes = Buffer.alloc(65536);
      bytes = bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  if (bytes.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) return false;
  if (bytes.length >= 72 && bytes.readUInt32BE(68) === APPLICATION_ID) return true;
  const text = bytes.toString('latin1');
  return text.includes('facts_version') || text.includes('git_cache_meta');
}

/**
 * Whether `file` is a database k8s-read made: by its header, else by opening it (a first run that
 * was killed leaves its mark in the WAL file only). False when it cannot be told.
 */
export async function isK8sReadDatabase(file: string): Promise<boolean> {
  if (looksLikeK8sReadDatabase(file)) return true;
  let store: Store | undefined;
  try {
    checkDatabasePath(file);
    store = await Store.open(file, { create: false });
    const identity = await identify(store);
    return identity.kind !== 'foreign';
  } catch {
    return false;
  } finally {
    await store?.close().catch(() => undefined);
  }
}

/**
 * Deletes the database, the files SQLite keeps beside it, the mark of its last check and the
 * trees' trace records (`<db>.pack-<tree>`, src/store/trace-pack.ts).
 */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal', CHECKED_SUFFIX])
    rmSync(`${file}${suffix}`, { force: true });
  const base = `${path.basename(file)}.pack-`;
  let names: string[] = [];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(base)) rmSync(path.join(path.dirname(file), name), { force: true });
}

/**
 * `<db>.checked`: the state of the database file (device, inode, size, modification and change
 * times) as the last `index` that finished left it, after it checked the file or wrote it whole;
 * then, one per line, the roots whose rows runs have checked (or written) in that same state.
 */
const CHECKED_SUFFIX = '.checked';

/** What `<db>.checked` says: the state, and the roots checked in it. */
function readChecked(file: string): { state: string; roots: string[] } | undefined {
  try {
    const [state, ...roots] = readFileSync(`${file}${CHECKED_SUFFIX}`, 'utf8').split('\n');
    return state ? { state, roots: roots.filter((r) => r !== '') } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the database file is byte for byte what the last finished `index` left: neither
 * modified nor replaced since, by anything (the file system updates the times on any write). Call
 * it before the database is opened for writing. `roots`: the trees whose row counts were checked
 * (or written) in that state, and so need no count again while it lasts.
 */
export function unchangedSinceChecked(file: string): { roots: string[] } | undefined {
  const state = databaseFileState(file);
  const checked = readChecked(file);
  return state !== undefined && checked?.state === state ? { roots: checked.roots } : undefined;
}

/**
 * Records the state of a database that `index` has closed after checking or writing it, with
 * `root` among the roots checked in that state (and those recorded before, when the state is the
 * one they were checked in).
 */
export function recordChecked(file: string, root: string): void {
  const state = databaseFileState(file);
  try {
    if (state === undefined) {
      rmSync(`${file}${CHECKED_SUFFIX}`, { force: true });
      return;
    }
    const before = readChecked(file);
    const roots = new Set(before?.state === state ? before.roots : []);
    roots.add(root);
    // A root with a line break could not be read back as one line: it is simply not recorded.
    const lines = [...roots].filter((r) => !r.includes('\n'));
    writeFileSync(`${file}${CHECKED_SUFFIX}`, [state, ...lines].join('\n'));
  } catch {
    // A directory it cannot write to: the next run checks the whole file again.
  }
}

/** Creates the database's directory, or says why it cannot be created. */
export function prepareDirectory(file: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    throw pathError(file, error as NodeJS.ErrnoException);
  }
}

/** A file-system error on the way to the database file, as one line with a fix. */
export function pathError(file: string, error: NodeJS.ErrnoException): DatabasePathError {
  const fix = 'pass --db with a path in a directory you can write';
  switch (error.code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return new DatabasePathError(
        file,
        `${blockingFile(file) ?? 'a part of the path'} is a file, not a directory`,
        fix,
      );
    case 'EACCES':
    case 'EPERM':
      return new DatabasePathError(
        file,
        `permission denied${error.path && error.path !== file ? ` on ${error.path}` : ''}`,
        fix,
      );
    case 'EROFS':
      return new DatabasePathError(file, 'on a read-only file system', fix);
    case 'ENAMETOOLONG':
      return new DatabasePathError(file, 'the name is too long for the file system', fix);
    case 'ENOSPC':
      return new DatabasePathError(file, 'the disk is full', 'free some space, or ' + fix);
    default:
      return new DatabasePathError(file, error.message, fix);
  }
}

/** The nearest existing ancestor of `file` that is not a directory, if any. */
function blockingFile(file: string): string | undefined {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      if (!lstatSync(dir).isDirectory()) return dir;
    } catch {
      // Missing: look further up.
    }
  }
  return undefined;
}

type Identity =
  { kind: 'marked' } | { kind: 'unmarked' } | { kind: 'empty' } | { kind: 'foreign'; why: string };

async function identify(store: Store): Promise<Identity> {
  const mark = await store.get<{ application_id: number }>('PRAGMA application_id');
  const id = mark?.application_id ?? 0;
  if (id === APPLICATION_ID) return { kind: 'marked' };
  if (id !== 0)
    return { kind: 'foreign', why: `its application id is 0x${id.toString(16).padStart(8, '0')}` };
  const tables = (
    await store.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
  ).map((t) => t.name);
  if (tables.length === 0) return { kind: 'empty' };
  const known = new Set<string>();
  for (const table of tables) {
    const expected = UNMARKED_TABLES[table];
    if (expected === undefined) continue;
    const columns = await store.all<{ name: string }>('SELECT name FROM pragma_table_info(?)', [
      table,
    ]);
    if (columns.map((c) => c.name).join(',') === expected) known.add(table);
  }
  // Every table is one of k8s-read's, or the index core is (an unmarked index that a newer schema
  // added tables to).
  if (known.size === tables.length || ['meta', 'blobs', 'trees'].every((t) => known.has(t)))
    return { kind: 'unmarked' };
  const shown = tables.slice(0, 6).join(', ') + (tables.length > 6 ? ', ...' : '');
  return { kind: 'foreign', why: `tables: ${shown}` };
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The tables schema.sql creates: every one must exist in a whole index. */
function indexTables(): string[] {
  const sql = readFileSync(path.join(here, 'schema.sql'), 'utf8');
  return [...sql.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1] as string);
}

/** The index's schema version, or null when the database holds no index (only a git cache, say). */
export async function readIndexSchemaVersion(store: Store): Promise<string | null> {
  const meta = await store.get(
    "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
  );
  if (!meta) return null;
  const row = await store.get<{ value: string }>(
    "SELECT value FROM meta WHERE key = 'schema_version'",
  );
  return row?.value ?? null;
}

/** The index tables that are not in the database (before schema.sql would recreate them empty). */
export async function findMissingTables(store: Store): Promise<string[]> {
  const present = new Set(
    (await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map(
      (t) => t.name,
    ),
  );
  return indexTables().filter((t) => !present.has(t));
}

/** Row counts of one tree by table, written with its rows (meta key `rows:<tree id>`). */
export type TreeRowCounts = Record<string, number>;

/** The tables that hold rows per tree: every table of schema.sql but meta, blobs and trees. */
function treeTables(): string[] {
  return indexTables().filter((t) => t !== 'meta' && t !== 'blobs' && t !== 'trees');
}

/** Records how many rows a tree was written with, inside the transaction that writes them. */
export async function recordTreeRows(
  store: Store,
  treeId: number,
  counts: TreeRowCounts,
): Promise<void> {
  await store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
    `rows:${treeId}`,
    JSON.stringify(counts),
  ]);
}

/** What the tree should hold: the recorded counts, else what its summary says (older indexes). */
async function expectedRows(store: Store, tree: TreeRow): Promise<TreeRowCounts> {
  const row = await store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [
    `rows:${tree.id}`,
  ]);
  try {
    if (row) return JSON.parse(row.value) as TreeRowCounts;
    const summary = JSON.parse(tree.summary) as Record<string, unknown>;
    const counts: TreeRowCounts = {};
    if (typeof summary.files === 'number') counts.files = summary.files;
    if (typeof summary.edges === 'number') counts.edges = summary.edges;
    return counts;
  } catch {
    return {};
  }
}

/**
 * The tree ids a table holds rows of: one step through its index on `tree` per id (a few
 * milliseconds for any size, where `SELECT DISTINCT tree` reads every entry).
 */
async function treeIdsIn(store: Store, table: string): Promise<number[]> {
  const ids: number[] = [];
  for (let last = Number.MIN_SAFE_INTEGER; ;) {
    const row = await store.get<{ id: number | null }>(
      `SELECT MIN(tree) AS id FROM ${table} WHERE tree > ?`,
      [last],
    );
    if (row?.id === null || row?.id === undefined) return ids;
    ids.push(row.id);
    last = row.id;
  }
}

/**
 * What is wrong with one tree's rows, or undefined when nothing is. `exact` counts every table
 * (for `index`); otherwise only checks that tables expected to hold rows hold some (cheap, for
 * every read command).
 */
export async function checkTreeRows(
  store: Store,
  tree: TreeRow,
  options: { exact: boolean },
): Promise<string | undefined> {
  const expected = await expectedRows(store, tree);
  const problems: string[] = [];
  const tables = new Set(treeTables());
  for (const [table, want] of Object.entries(expected)) {
    if (!tables.has(table)) continue;
    if (options.exact) {
      // A table of this tree alone is counted whole (SQLite counts a b-tree without reading rows).
      const ids = await treeIdsIn(store, table);
      let got = 0;
      if (ids.length === 1 && ids[0] === tree.id)
        got = (await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0;
      else if (ids.includes(tree.id))
        got =
          (
            await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE tree = ?`, [
              tree.id,
            ])
          )?.n ?? 0;
      if (got !== want) problems.push(`${table}: ${got} rows of ${want}`);
    } else if (want > 0) {
      const any = await store.get(`SELECT 1 AS x FROM ${table} WHERE tree = ? LIMIT 1`, [tree.id]);
      if (!any) problems.push(`${table}: no rows of ${want}`);
    }
  }
  return problems.length > 0 ? problems.join(', ') : undefined;
}

/**
 * SQLite's `quick_check` (every page readable, every index in order; about 0.4 s per 170 MB here),
 * skipped above `maxBytes`. Returns the first problem, or undefined.
 */
export async function quickCheck(
  store: Store,
  maxBytes = 1024 * 1024 * 1024,
): Promise<string | undefined> {
  if (store.path !== ':memory:' && existsSync(store.path) && statSync(store.path).size > maxBytes)
    return undefined;
  const rows = await store.all<{ quick_check: string }>('PRAGMA quick_check(20)');
  const problems = rows
    .flatMap((r) => r.quick_check.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== 'ok' && line !== '' && !line.startsWith('***'));
  if (problems.length === 0) return undefined;
  const more = problems.length - 1;
  return `${problems[0]}${more > 0 ? `, and ${more}${rows.length >= 20 ? ' or more' : ''} other problem${more === 1 ? '' : 's'}` : ''}`;
}

/**
 * Deletes rows that belong to no tree (left when the trees table itself was lost): the next link
 * would collide with them. Returns how many were deleted.
 */
export async function removeOrphanRows(store: Store): Promise<number> {
  const trees = new Set((await store.all<{ id: number }>('SELECT id FROM trees')).map((t) => t.id));
  let removed = 0;
  for (const table of treeTables()) {
    for (const id of await treeIdsIn(store, table)) {
      if (trees.has(id)) continue;
      removed += (await store.run(`DELETE FROM ${table} WHERE tree = ?`, [id])).changes;
    }
  }
  return removed;
}

/** Makes the next link rewrite the tree's rows (its summary no longer matches any run). */
export async function invalidateTree(store: Store, treeId: number): Promise<void> {
  await store.run("UPDATE trees SET summary = '{}' WHERE id = ?", [treeId]);
}

/**
 * The cheap check every read command makes: the index tables exist and the tree's tables hold
 * rows where it should. Throws an IndexDamagedError saying what is missing.
 */
export async function checkIndexReadable(store: Store, tree: TreeRow): Promise<void> {
  const missing = await findMissingTables(store);
  if (missing.length > 0)
    throw new IndexDamagedError(
      store.path,
      `table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing`,
    );
  const problem = await checkTreeRows(store, tree, { exact: false });
  if (problem) throw new IndexDamagedError(store.path, problem);
}
