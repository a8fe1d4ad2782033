/**
 * A small promise wrapper over `sqlite3` — the only place that talks to the driver. Everyone else
 * uses the typed functions in src/store/*.ts.
 *
 * Faults of the environment (a damaged file, a lock held by another process, a read-only file, a
 * full disk) come out as K8sReadErrors that name the file and the fix; any other SQLite error is a
 * bug and keeps its statement in the message.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import type { K8sReadError } from '../errors.js';
import {
  DatabaseIoError,
  DatabaseLockedError,
  DatabaseReadOnlyError,
  DiskFullError,
  IndexDamagedError,
  InterruptedError,
  SqliteTooOldError,
} from '../errors.js';

export type SqlValue = string | number | bigint | null | Buffer;
export type SqlParams = readonly SqlValue[] | Record<string, SqlValue>;

/** How long a statement waits for another process's lock before giving up. */
const BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  /** @default false */
  readonly?: boolean;
  /** Create the file when it is missing (ignored when readonly). @default true */
  create?: boolean;
  /**
   * Read a file nobody may write to (read-only, in a read-only directory) without the lock and
   * shared-memory files SQLite otherwise needs beside a WAL database. Implies readonly.
   * @default false
   */
  immutable?: boolean;
}

/**
 * Characters of JSON per insert statement (see insertJsonRows): 96 KB in two-byte text, under V8's
 * 128 KiB young-object limit with room for a batch that overshoots. While the link runs, a writer
 * sends one batch per turn of the event loop: at 24,000 the edges written meanwhile fell behind
 * it by ~100k rows (v1.24) and the declarations' rows did not end within it.
 */
export const JSON_BATCH_CHARS = 48_000;

/** What a `Store.many` select returns: its columns in order, and the row built from their values. */
export interface RowShape<T> {
  columns: readonly (keyof T & string)[];
  /**
   * The row as one object literal: a trace builds ~25,000 of them, and a loop storing values
   * under names taken from `columns` took twice as long (without TurboFan, see
   * src/cli/short-run.ts).
   */
  build(values: readonly SqlValue[]): T;
}

export interface InsertOptions {
  /**
   * Batches handed to SQLite at once, each on a statement of its own: they run one after another
   * on its threads without waiting for this one, but in no set order (for rows whose order does
   * not matter: explicit rowids, say). @default 1, in order
   */
  inFlight?: number;
}

/**
 * The oldest SQLite the store's SQL runs on: `jsonb_each` (3.45) expands every bulk insert. The
 * `sqlite3` package bundles a newer one; only a build against an older system library falls
 * short, and without this check its first insert would read as a damaged index ("no such table:
 * jsonb_each").
 */
export const MIN_SQLITE = { version: '3.45.0', number: 3_045_000 };

/**
 * Throws SqliteTooOldError when the SQLite of `version` (its text) and `number` (its
 * SQLITE_VERSION_NUMBER, X*1,000,000 + Y*1,000 + Z) is older than MIN_SQLITE.
 */
export function checkSqliteVersion(version: string, number: number): void {
  if (number < MIN_SQLITE.number) throw new SqliteTooOldError(version, MIN_SQLITE.version);
}

export class Store {
  private busyTimeoutMs = BUSY_TIMEOUT_MS;
  private stopped: AbortSignal | undefined;

  /** How long statements wait for another process's lock, in ms. */
  get busyTimeout(): number {
    return this.busyTimeoutMs;
  }

  private constructor(
    private readonly db: sqlite3.Database,
    readonly path: string,
    /** Opened without write access (a read-only file, or asked for). */
    readonly readonly: boolean,
  ) {}

  /** Opens (creating when `create`) the database at `path`. `:memory:` works for tests. */
  static open(file: string, options: OpenOptions = {}): Promise<Store> {
    try {
      checkSqliteVersion(sqlite3.VERSION, sqlite3.VERSION_NUMBER);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const readonly = Boolean(options.readonly || options.immutable);
    let mode = readonly
      ? sqlite3.OPEN_READONLY
      : sqlite3.OPEN_READWRITE | (options.create === false ? 0 : sqlite3.OPEN_CREATE);
    let name = file;
    if (options.immutable) {
      mode |= sqlite3.OPEN_URI;
      name = `file:${encodeURI(path.resolve(file)).replace(/[?#]/g, encodeURIComponent)}?immutable=1`;
    }
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(name, mode, (err) => {
        if (err) return reject(describeFault(err, file) ?? err);
        // Another process (an index run, a blame cache write) may hold the write lock briefly.
        db.configure('busyTimeout', BUSY_TIMEOUT_MS);
        resolve(new Store(db, file, readonly));
      });
    });
  }

  /**
   * From now on every statement fails with an InterruptedError once `signal` fires, and the one
   * running is interrupted: the transaction around it rolls back, leaving the previous contents.
   */
  stopOn(signal: AbortSignal): void {
    this.stopped = signal;
    signal.addEventListener('abort', () => this.db.interrupt(), { once: true });
  }

  /** Lets statements run again after a stop: for what a stopped run still asks before it ends. */
  resume(): void {
    this.stopped = undefined;
  }

  /** Sets how long statements wait for another process's lock (`PRAGMA busy_timeout`). */
  async setBusyTimeout(ms: number): Promise<void> {
    await this.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(ms))}`);
    this.busyTimeoutMs = ms;
  }

  run(sql: string, params: SqlParams = []): Promise<{ changes: number; lastID: number }> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      const fail = (err: Error) => reject(this.wrap(err, sql));
      this.db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) fail(err);
        else resolve({ changes: this.changes, lastID: this.lastID });
      });
    });
  }

  all<T = Record<string, SqlValue>>(sql: string, params: SqlParams = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      this.db.all(sql, params, (err, rows) => {
        if (err) reject(this.wrap(err, sql));
        else resolve(rows as T[]);
      });
    });
  }

  /**
   * Many rows at once: SQLite builds one JSON text of them, parsed once here. node-sqlite3 makes
   * every row an object value by value (10-20 µs a row), which was most of the time a trace spent
   * reading its edges (27k rows: 570 ms, against 125 ms this way). `select` returns the shape's
   * columns, in that order (aliases as named), and no BLOB; `orderBy` (SQL over those names) keeps
   * its order.
   */
  async many<T>(
    shape: RowShape<T>,
    select: string,
    params: SqlParams = [],
    orderBy?: string,
  ): Promise<T[]> {
    const list = shape.columns.map((c) => `"${c}"`).join(', ');
    const row = await this.get<{ j: string | null }>(
      `SELECT json_group_array(json_array(${list})${orderBy ? ` ORDER BY ${orderBy}` : ''}) AS j FROM (${select})`,
      params,
    );
    return (JSON.parse(row?.j ?? '[]') as SqlValue[][]).map(shape.build);
  }

  get<T = Record<string, SqlValue>>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      this.db.get(sql, params, (err, row) => {
        if (err) reject(this.wrap(err, sql));
        else resolve(row as T | undefined);
      });
    });
  }

  /** Runs several `;`-separated statements (schema files). */
  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      this.db.exec(sql, (err) => (err ? reject(this.wrap(err, sql.slice(0, 200))) : resolve()));
    });
  }

  /**
   * Runs `fn` inside one IMMEDIATE transaction: either all of it lands or none of it does, which is
   * what keeps the previous index intact when an `index` run is interrupted.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn();
      await this.exec('COMMIT');
      return result;
    } catch (error) {
      // Not through exec: a stopped store must still roll back.
      await new Promise<void>((resolve) => this.db.exec('ROLLBACK', () => resolve()));
      throw error;
    }
  }

  /**
   * Inserts many rows with one statement per batch: the rows travel as one JSON array that
   * `jsonb_each` expands, about eight times faster than one INSERT per row on this driver.
   * `sql` reads columns from `value` (one array per row, made by `toRow` a batch at a time), e.g.
   * `INSERT INTO t(a,b) SELECT value->>0, value->>1 FROM jsonb_each(?)`. `jsonb_each`, not
   * `json_each`: SQLite parses the text once either way, but `json_each` hands each row back as
   * text that every `->>` parses again (300k rows of 10 columns, as the edges: 0.7 s against
   * 1.4-1.8 s on SQLite's thread); `jsonb_each` hands the parsed row, and the values are the same.
   *
   * A batch holds about JSON_BATCH_CHARS characters of JSON, its row count adapted to the rows'
   * size: V8 makes and frees a text that small in its young generation, where a larger one goes
   * straight to the old generation and stays until the next full collection (an index's writes
   * during and after the link left ~0.3 GB of them there, on top of the link's heap). The next
   * batch is made while SQLite inserts the previous one (one batch in flight keeps the order).
   */
  async insertJsonRows<T>(
    sql: string,
    items: readonly T[],
    toRow: (item: T, index: number) => unknown = (item) => item,
    options: InsertOptions = {},
  ): Promise<void> {
    if (items.length === 0) return;
    // One statement for every batch: `db.run` prepares, runs and finalizes each, three trips
    // through the event loop, and while the link runs the loop turns only between files.
    const statements: sqlite3.Statement[] = [];
    const running: (Promise<void> | undefined)[] = [];
    try {
      for (let n = Math.max(1, options.inFlight ?? 1); statements.length < n;)
        statements.push(await this.prepare(sql));
      let rows = 64;
      let lane = 0;
      for (let i = 0; i < items.length;) {
        const end = Math.min(items.length, i + rows);
        const batch = new Array<unknown>(end - i);
        for (let k = i; k < end; k++) batch[k - i] = toRow(items[k]!, k);
        const text = JSON.stringify(batch);
        rows = Math.max(
          1,
          Math.min(10000, Math.round((batch.length * JSON_BATCH_CHARS) / text.length)),
        );
        i = end;
        await running[lane];
        const run = this.runPrepared(statements[lane]!, sql, [text]);
        // Awaited when the lane comes round again or below; observed now so that a failure
        // meanwhile is not reported as unhandled.
        run.catch(() => undefined);
        running[lane] = run;
        lane = (lane + 1) % statements.length;
      }
      await Promise.all(running);
    } finally {
      await Promise.all(running.map((r) => r?.catch(() => undefined)));
      await Promise.all(
        statements.map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))),
      );
    }
  }

  private prepare(sql: string): Promise<sqlite3.Statement> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      const statement = this.db.prepare(sql, (err: Error | null) =>
        err ? reject(this.wrap(err, sql)) : resolve(statement),
      );
    });
  }

  private runPrepared(statement: sqlite3.Statement, sql: string, params: SqlParams): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.isStopped(reject)) return;
      statement.run(params, (err: Error | null) => (err ? reject(this.wrap(err, sql)) : resolve()));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.db.close((err) => (err ? reject(this.wrap(err, 'close')) : resolve())),
    );
  }

  private isStopped(reject: (error: Error) => void): boolean {
    if (!this.stopped?.aborted) return false;
    reject(interrupted());
    return true;
  }

  private wrap(err: Error, sql: string): Error {
    if (this.stopped?.aborted && (err as { code?: string }).code === 'SQLITE_INTERRUPT')
      return interrupted();
    return describeFault(err, this.path, this.busyTimeoutMs) ?? withSql(err, sql);
  }
}

function interrupted(): InterruptedError {
  return new InterruptedError('interrupted; the previous index is unchanged');
}

/**
 * The K8sReadError for a fault of the file or the machine, or undefined for anything else (a bug).
 * SQLite's codes say what happened; the file system says why (whose permission is missing).
 */
export function describeFault(
  err: Error,
  file: string,
  busyTimeoutMs = BUSY_TIMEOUT_MS,
): K8sReadError | undefined {
  const code = (err as { code?: string }).code ?? '';
  const detail = err.message.replace(/^SQLITE_\w+:\s*/, '');
  switch (code) {
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return new IndexDamagedError(file, detail);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new DatabaseLockedError(file, busyTimeoutMs);
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return new DatabaseReadOnlyError(file, whyReadOnly(file));
    case 'SQLITE_FULL':
      return new DiskFullError(file);
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
      return new DatabaseIoError(file, detail);
  }
  const missing = /^SQLITE_ERROR: no such table: (\w+)/.exec(err.message);
  if (missing) return new IndexDamagedError(file, `table ${missing[1]} is missing`);
  return undefined;
}

/** Which permission a write needs and lacks: the file's, or its directory's (for -wal, -shm). */
function whyReadOnly(file: string): string {
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(file) && !writable(file)) return 'no write permission on the file';
  if (!writable(path.dirname(file))) return `no write permission on ${path.dirname(file)}`;
  return 'the file system is read-only';
}

function withSql(err: Error, sql: string): Error {
  err.message = `${err.message} (in: ${sql.replace(/\s+/g, ' ').slice(0, 160)})`;
  return err;
}
