/**
 * A small promise wrapper over `sqlite3` — the only place that talks to the driver. Everyone else
 * uses the typed functions in src/store/*.ts.
 */
import sqlite3 from 'sqlite3';

export type SqlValue = string | number | bigint | null | Buffer;
export type SqlParams = readonly SqlValue[] | Record<string, SqlValue>;

export class Store {
  private constructor(
    private readonly db: sqlite3.Database,
    readonly path: string,
  ) {}

  /** Opens (creating when `create`) the database at `path`. `:memory:` works for tests. */
  static open(
    path: string,
    options: { readonly?: boolean; create?: boolean } = {},
  ): Promise<Store> {
    const mode = options.readonly
      ? sqlite3.OPEN_READONLY
      : sqlite3.OPEN_READWRITE | (options.create === false ? 0 : sqlite3.OPEN_CREATE);
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, mode, (err) => {
        if (err) return reject(err);
        // Another process (an index run, a blame cache write) may hold the write lock briefly.
        db.configure('busyTimeout', 5000);
        resolve(new Store(db, path));
      });
    });
  }

  run(sql: string, params: SqlParams = []): Promise<{ changes: number; lastID: number }> {
    return new Promise((resolve, reject) => {
      this.db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
        if (err) reject(withSql(err, sql));
        else resolve({ changes: this.changes, lastID: this.lastID });
      });
    });
  }

  all<T = Record<string, SqlValue>>(sql: string, params: SqlParams = []): Promise<T[]> {
    return new Promise((resolve, reject) => {
      this.db.all(sql, params, (err, rows) => {
        if (err) reject(withSql(err, sql));
        else resolve(rows as T[]);
      });
    });
  }

  get<T = Record<string, SqlValue>>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      this.db.get(sql, params, (err, row) => {
        if (err) reject(withSql(err, sql));
        else resolve(row as T | undefined);
      });
    });
  }

  /** Runs several `;`-separated statements (schema files). */
  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.exec(sql, (err) => (err ? reject(withSql(err, sql.slice(0, 200))) : resolve()));
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
      await this.exec('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Inserts many rows with one statement per batch: the rows travel as one JSON array that
   * `json_each` expands, about eight times faster than one INSERT per row on this driver.
   * `selectSql` reads columns from `value` (one array per row), e.g.
   * `INSERT INTO t(a,b) SELECT value->>0, value->>1 FROM json_each(?)`.
   */
  async insertJsonRows(sql: string, rows: readonly unknown[], batchSize = 5000): Promise<void> {
    for (let i = 0; i < rows.length; i += batchSize) {
      await this.run(sql, [JSON.stringify(rows.slice(i, i + batchSize))]);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.db.close((err) => (err ? reject(err) : resolve())),
    );
  }
}

function withSql(err: Error, sql: string): Error {
  err.message = `${err.message} (in: ${sql.replace(/\s+/g, ' ').slice(0, 160)})`;
  return err;
}
