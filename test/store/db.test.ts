/**
 * Store.insertJsonRows: rows go in as JSON arrays of a few tens of kilobytes each (a batch size
 * adapted to the rows' length), through one prepared statement, a batch at a time, in the order
 * given; or, asked to, through several statements with that many batches in flight.
 */
import { describe, expect, it } from 'vitest';
import sqlite3 from 'sqlite3';
import { SqliteTooOldError } from '../../src/errors.js';
import { checkSqliteVersion, JSON_BATCH_CHARS, MIN_SQLITE, Store } from '../../src/store/db.js';

async function table(): Promise<Store> {
  const store = await Store.open(':memory:');
  await store.exec('CREATE TABLE t (n INTEGER NOT NULL, text TEXT)');
  return store;
}

const insert = 'INSERT INTO t (n, text) SELECT value->>0, value->>1 FROM jsonb_each(?)';

/** What insertJsonRows asks of SQLite: statements prepared, and the length of each batch's text. */
function watch(store: Store): { prepared: string[]; texts: number[] } {
  const seen = { prepared: [] as string[], texts: [] as number[] };
  const inner = store as unknown as {
    prepare: (sql: string) => Promise<unknown>;
    runPrepared: (statement: unknown, sql: string, params: unknown[]) => Promise<void>;
  };
  const prepare = inner.prepare.bind(store);
  const runPrepared = inner.runPrepared.bind(store);
  inner.prepare = (sql) => {
    seen.prepared.push(sql);
    return prepare(sql);
  };
  inner.runPrepared = (statement, sql, params) => {
    seen.texts.push(String(params[0]).length);
    return runPrepared(statement, sql, params);
  };
  return seen;
}

describe('Store.insertJsonRows', () => {
  it('inserts every row in order, made by toRow, in batches of a few tens of kilobytes', async () => {
    const store = await table();
    // Short rows around a run of rows larger than a whole batch: the batch size follows the
    // rows' length down and back up.
    const items = Array.from({ length: 30_000 }, (_, i) => ({
      n: i,
      text: i >= 10_000 && i < 10_020 ? 'é'.repeat(2 * JSON_BATCH_CHARS) : `row ${i}`,
    }));
    const { prepared, texts } = watch(store);
    await store.insertJsonRows(insert, items, (item) => [item.n, item.text]);
    // One statement prepared for all the batches (db.run would prepare and finalize each).
    expect(prepared).toEqual([insert]);
    const rows = await store.all<{ n: number; len: number }>(
      'SELECT n, length(text) AS len FROM t ORDER BY rowid',
    );
    expect(rows.map((r) => r.n)).toEqual(items.map((i) => i.n));
    expect(rows.map((r) => r.len)).toEqual(items.map((i) => i.text.length));
    // ~0.6 M characters of short rows: a dozen texts or more besides the 20 large ones, and once
    // the size has adapted (after the first and around the large rows) none much above the target.
    const short = texts.filter((t) => t < 2 * JSON_BATCH_CHARS);
    // The large rows: one batch of them all (sized on the short rows before), up to one each.
    expect(texts.length - short.length).toBeGreaterThanOrEqual(1);
    expect(texts.length - short.length).toBeLessThanOrEqual(20);
    expect(short.length).toBeGreaterThanOrEqual(Math.floor(600_000 / JSON_BATCH_CHARS));
    // Under V8's 128 KiB young-object limit even as two-byte text.
    expect(Math.max(...short)).toBeLessThan(65_536);
    await store.close();
  });

  it('inserts nothing for no rows, and rows as they are without toRow', async () => {
    const store = await table();
    await store.insertJsonRows(insert, []);
    expect(await store.all('SELECT n FROM t')).toEqual([]);
    await store.insertJsonRows(insert, [
      [1, 'a'],
      [2, null],
    ]);
    expect(await store.all('SELECT n, text FROM t ORDER BY rowid')).toEqual([
      { n: 1, text: 'a' },
      { n: 2, text: null },
    ]);
    await store.close();
  });

  it('stores each value as json_each would: integers, reals, null, escapes, text that is JSON', async () => {
    const store = await Store.open(':memory:');
    await store.exec('CREATE TABLE v (a, b, c, d, e)');
    const rows = [
      [2 ** 53 - 1, -7, 1.5, null, ''],
      ['line\nbreak "quoted" \\ back', 'é 😀 \u0000 end', '[1,2]', '{"k":null}', 'null'],
      [0, -0.25, 1e300, true, false],
    ];
    const columns = 'value->>0, value->>1, value->>2, value->>3, value->>4';
    await store.insertJsonRows(`INSERT INTO v SELECT ${columns} FROM jsonb_each(?)`, rows);
    await store.run(`INSERT INTO v SELECT ${columns} FROM json_each(?)`, [JSON.stringify(rows)]);
    const read = await store.all<Record<string, unknown>>(
      'SELECT a, typeof(a) ta, b, typeof(b) tb, c, typeof(c) tc, d, typeof(d) td, e, typeof(e) te FROM v ORDER BY rowid',
    );
    expect(read.slice(0, 3)).toEqual(read.slice(3));
    expect(read[0]).toMatchObject({
      a: 2 ** 53 - 1,
      ta: 'integer',
      c: 1.5,
      tc: 'real',
      td: 'null',
    });
    expect(read[1]).toMatchObject({ a: rows[1]![0], b: rows[1]![1], c: '[1,2]', tc: 'text' });
    await store.close();
  });

  it('fails with the first statement that fails, and sends none after it', async () => {
    const store = await table();
    const items = Array.from({ length: 5_000 }, (_, i) => [i === 2_500 ? null : i, 'x'.repeat(40)]);
    await expect(store.insertJsonRows(insert, items)).rejects.toThrow(/NOT NULL/);
    const { n } = (await store.get<{ n: number }>('SELECT MAX(n) AS n FROM t'))!;
    // The batches before the failing one went in; the one after it (made meanwhile) did not.
    expect(n).toBeLessThan(2_500);
    expect(n).toBeGreaterThan(0);
    // The statement was finalized: the connection takes the next insert and closes cleanly.
    await store.insertJsonRows(insert, [[9_999, 'after']]);
    expect(await store.get('SELECT text FROM t WHERE n = 9999')).toEqual({ text: 'after' });
    await store.close();
  });

  it('with batches in flight, inserts every row through that many statements, finalized after', async () => {
    const store = await table();
    const items = Array.from({ length: 20_000 }, (_, i) => ({ n: i, text: `row ${i}` }));
    const { prepared, texts } = watch(store);
    const rowid =
      'INSERT INTO t (rowid, n, text) SELECT value->>0, value->>1, value->>2 FROM jsonb_each(?)';
    await store.insertJsonRows(rowid, items, (item) => [item.n + 1, item.n, item.text], {
      inFlight: 3,
    });
    expect(prepared).toEqual([rowid, rowid, rowid]);
    expect(texts.length).toBeGreaterThan(3);
    const rows = await store.all<{ n: number; text: string }>(
      'SELECT n, text FROM t ORDER BY rowid',
    );
    expect(rows).toEqual(items);
    // A failing batch fails the call, and every statement is finalized: the connection goes on.
    const failing = Array.from({ length: 20_000 }, (_, i) => [
      i === 9_000 ? null : 50_000 + i,
      'x',
    ]);
    await expect(
      store.insertJsonRows(insert, failing, (row) => row, { inFlight: 3 }),
    ).rejects.toThrow(/NOT NULL/);
    await store.insertJsonRows(insert, [[99_999, 'after']]);
    expect(await store.get('SELECT text FROM t WHERE n = 99999')).toEqual({ text: 'after' });
    await store.close();
  });

  it('fails on a statement SQLite cannot prepare, as a statement that fails to run does', async () => {
    const store = await table();
    const bad = 'INSERT INTO t (n) SELECT value FROM jsonb_each(?) WHERE';
    const [viaRun, viaInsert] = await Promise.all([
      store.run(bad, ['[1]']).catch((e: unknown) => e as Error),
      store.insertJsonRows(bad, [1, 2]).catch((e: unknown) => e as Error),
    ]);
    expect(viaInsert).toBeInstanceOf(Error);
    expect((viaInsert as Error).message).toMatch(/incomplete input \(in: INSERT INTO t/);
    expect((viaInsert as Error).message).toBe((viaRun as Error).message);
    expect(await store.all('SELECT n FROM t')).toEqual([]);
    await store.close();
  });
});

describe('the SQLite the store needs', () => {
  // SQLITE_VERSION_NUMBER of a version's text, as SQLite makes it.
  const numberOf = (v: string) => {
    const [x = 0, y = 0, z = 0] = v.split('.').map(Number);
    return x * 1_000_000 + y * 1_000 + z;
  };
  const check = (v: string) => checkSqliteVersion(v, numberOf(v));

  it('takes the SQLite the sqlite3 package bundles, and says what to do about an older one', () => {
    expect(numberOf(sqlite3.VERSION)).toBe(sqlite3.VERSION_NUMBER);
    expect(() => checkSqliteVersion(sqlite3.VERSION, sqlite3.VERSION_NUMBER)).not.toThrow();
    expect(numberOf(MIN_SQLITE.version)).toBe(MIN_SQLITE.number);
    for (const ok of [MIN_SQLITE.version, '3.45.1', '3.52.0', '4.0.0'])
      expect(() => check(ok)).not.toThrow();
    for (const old of ['3.44.9', '3.38.5', '2.99.99']) {
      expect(() => check(old)).toThrow(SqliteTooOldError);
      expect(() => check(old)).toThrow(
        new RegExp(`SQLite ${old.replace(/\./g, '\\.')}; k8s-read needs 3\\.45\\.0`),
      );
    }
  });
});
