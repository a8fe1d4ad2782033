/**
 * Raw SQLite access for tests that build databases k8s-read did not make, or look at one without
 * going through src/store (which would refuse or mark it).
 */
import sqlite3 from 'sqlite3';

export function withDatabase<T>(
  file: string,
  work: (db: sqlite3.Database) => Promise<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      work(db).then(
        (value) => db.close(() => resolve(value)),
        (error: unknown) => db.close(() => reject(error)),
      );
    });
  });
}

/** Runs `;`-separated statements. */
export function execSql(file: string, sql: string): Promise<void> {
  return withDatabase(
    file,
    (db) =>
      new Promise<void>((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve()))),
  );
}

export function querySql<T = Record<string, unknown>>(file: string, sql: string): Promise<T[]> {
  return withDatabase(
    file,
    (db) =>
      new Promise<T[]>((resolve, reject) =>
        db.all(sql, (e, rows) => (e ? reject(e) : resolve(rows as T[]))),
      ),
  );
}

export async function tableNames(file: string): Promise<string[]> {
  const rows = await querySql<{ name: string }>(
    file,
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  );
  return rows.map((r) => r.name);
}
