/**
 * Store.insertJsonRows: rows go in as JSON arrays of a few tens of kilobytes each (a batch size
 * adapted to the rows' length), one statement at a time, in the order given.
 */
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/db.js';

async function table(): Promise<Store> {
  const store = await Store.open(':memory:');
  await store.exec('CREATE TABLE t (n INTEGER NOT NULL, text TEXT)');
  return store;
}

const insert = 'INSERT INTO t (n, text) SELECT value->>0, value->>1 FROM json_each(?)';

describe('Store.insertJsonRows', () => {
  it('inserts every row in order, made by toRow, in batches of a few tens of kilobytes', async () => {
    const store = await table();
    // Short rows around a run of rows larger than a whole batch: the batch size follows the
    // rows' length down and back up.
    const items = Array.from({ length: 30_000 }, (_, i) => ({
      n: i,
      text: i >= 10_000 && i < 10_020 ? 'é'.repeat(60_000) : `row ${i}`,
    }));
    const texts: number[] = [];
    const run = store.run.bind(store);
    store.run = (sql, params) => {
      texts.push(String((params as readonly unknown[])[0]).length);
      return run(sql, params);
    };
    await store.insertJsonRows(insert, items, (item) => [item.n, item.text]);
    const rows = await store.all<{ n: number; len: number }>(
      'SELECT n, length(text) AS len FROM t ORDER BY rowid',
    );
    expect(rows.map((r) => r.n)).toEqual(items.map((i) => i.n));
    expect(rows.map((r) => r.len)).toEqual(items.map((i) => i.text.length));
    // ~0.6 M characters of short rows: a few dozen texts, and once the size has adapted (after the first and
    // around the large rows) none much above the target.
    expect(texts.length).toBeGreaterThan(20);
    const short = texts.filter((t) => t < 60_000);
    expect(short.length).toBeGreaterThan(texts.length - 25);
    expect(Math.max(...short)).toBeLessThan(30_000);
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

  it('fails with the first statement that fails, and sends none after it', async () => {
    const store = await table();
    const items = Array.from({ length: 5_000 }, (_, i) => [i === 2_500 ? null : i, 'x'.repeat(40)]);
    await expect(store.insertJsonRows(insert, items)).rejects.toThrow(/NOT NULL/);
    const { n } = (await store.get<{ n: number }>('SELECT MAX(n) AS n FROM t'))!;
    // The batches before the failing one went in; the one after it (made meanwhile) did not.
    expect(n).toBeLessThan(2_500);
    expect(n).toBeGreaterThan(0);
    await store.close();
  });
});
