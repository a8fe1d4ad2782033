/**
 * The database layer under faults: which files it opens, what a full disk and an interrupt do to
 * a write in progress, and what the index checks find.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabasePathError, DiskFullError, InterruptedError } from '../../src/errors.js';
import { parseRepository } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import type { Store } from '../../src/store/db.js';
import { findTree, openIndexStore } from '../../src/store/index-store.js';
import {
  APPLICATION_ID,
  checkTreeRows,
  isK8sReadDatabase,
  openK8sReadDatabase,
  quickCheck,
} from '../../src/store/verify.js';
import { projectRoot } from '../helpers/run-cli.js';
import { execSql, querySql, tableNames } from '../helpers/sqlite-file.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-store-');

function copyFixture(name: string): string {
  const root = path.join(tmp, name);
  cpSync(path.join(projectRoot, 'fixtures', 'go', 'func-field-assignment'), root, {
    recursive: true,
  });
  return root;
}

async function symbolNames(store: Store, treeId: number): Promise<string[]> {
  const rows = await store.all<{ symbol: string }>(
    'SELECT symbol FROM symbols WHERE tree = ? ORDER BY id',
    [treeId],
  );
  return rows.map((r) => r.symbol);
}

describe('openK8sReadDatabase', () => {
  it('creates nothing when reading a path with no file', async () => {
    const file = path.join(tmp, 'missing', 'index.sqlite');
    expect(await openK8sReadDatabase(file, 'read')).toBeUndefined();
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('creates and marks a new database for writing, and adopts an empty file', async () => {
    const created = await openK8sReadDatabase(path.join(tmp, 'new', 'index.sqlite'), 'write');
    expect(created.fresh).toBe(true);
    await created.store.close();
    expect(await querySql(path.join(tmp, 'new', 'index.sqlite'), 'PRAGMA application_id')).toEqual([
      { application_id: APPLICATION_ID },
    ]);
    const empty = path.join(tmp, 'empty.sqlite');
    writeFileSync(empty, '');
    const adopted = await openK8sReadDatabase(empty, 'write');
    expect(adopted.fresh).toBe(true);
    await adopted.store.close();
    expect(await isK8sReadDatabase(empty)).toBe(true);
  });

  it('refuses a database with another application id without writing to it', async () => {
    const file = path.join(tmp, 'other-app.sqlite');
    await execSql(file, 'PRAGMA application_id = 42; CREATE TABLE meta(key TEXT, value TEXT)');
    const before = readFileSync(file);
    await expect(openK8sReadDatabase(file, 'write')).rejects.toThrow(
      new DatabasePathError(
        file,
        'a SQLite database that k8s-read did not make (its application id is 0x0000002a)',
        'k8s-read leaves it as it is: pass --db with a new path',
      ),
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(await isK8sReadDatabase(file)).toBe(false);
  });

  it('recognises an unmarked index that a newer schema added a table to', async () => {
    const file = path.join(tmp, 'unmarked-plus.sqlite');
    const { store } = await openIndexStore(file);
    await store.exec('PRAGMA application_id = 0; CREATE TABLE calls_by_site(x INTEGER)');
    await store.close();
    const opened = await openK8sReadDatabase(file, 'read');
    expect(opened?.fresh).toBe(false);
    await opened?.store.close();
    expect(await tableNames(file)).toContain('calls_by_site');
  });
});

describe('a write that cannot finish', () => {
  it('on a full disk fails with DiskFullError and leaves the previous tree', async () => {
    const root = copyFixture('full');
    const { store } = await openIndexStore(path.join(tmp, 'full.sqlite'));
    const { treeId } = await linkTree({
      store,
      parsed: await parseRepository({ root, store, jobs: 1 }),
    });
    const before = await symbolNames(store, treeId);
    writeFileSync(
      path.join(root, 'more.go'),
      `package main\n\n${Array.from({ length: 400 }, (_, i) => `func more${i}() {}\n`).join('')}`,
    );
    const parsed = await parseRepository({ root, store, jobs: 1 });
    // SQLite's own cap on the file's pages: the next page it needs is "disk full".
    const pages = (await store.get<{ page_count: number }>('PRAGMA page_count'))!.page_count;
    await store.exec(`PRAGMA max_page_count = ${pages}`);
    const failure = await linkTree({ store, parsed }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiskFullError);
    expect((failure as Error).message).toMatch(
      /^the disk holding .*full\.sqlite is full; nothing was half-written/,
    );
    await store.exec('PRAGMA max_page_count = 1073741823');
    expect(await symbolNames(store, treeId)).toEqual(before);
    await store.close();
  });

  it('stops at the next statement once interrupted, and rolls the transaction back', async () => {
    const file = path.join(tmp, 'interrupted.sqlite');
    const { store } = await openIndexStore(file);
    await store.exec("INSERT INTO meta (key, value) VALUES ('kept', 'yes')");
    const controller = new AbortController();
    store.stopOn(controller.signal);
    const write = store.transaction(async () => {
      await store.run("INSERT INTO meta (key, value) VALUES ('half', 'written')");
      controller.abort();
      await store.run("INSERT INTO meta (key, value) VALUES ('never', 'written')");
    });
    await expect(write).rejects.toBeInstanceOf(InterruptedError);
    await expect(store.get('SELECT 1')).rejects.toBeInstanceOf(InterruptedError);
    await store.close();
    expect(
      await querySql(file, "SELECT key FROM meta WHERE key IN ('kept', 'half', 'never')"),
    ).toEqual([{ key: 'kept' }]);
  });
});

describe('index checks', () => {
  it('count the rows each tree was written with', async () => {
    const root = copyFixture('counts');
    const file = path.join(tmp, 'counts.sqlite');
    const { store } = await openIndexStore(file);
    await linkTree({ store, parsed: await parseRepository({ root, store, jobs: 1 }) });
    const tree = (await findTree(store, root))!;
    expect(await checkTreeRows(store, tree, { exact: true })).toBeUndefined();
    expect(await quickCheck(store)).toBeUndefined();
    const { n } = (await store.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM details WHERE tree = ?',
      [tree.id],
    ))!;
    await store.run('DELETE FROM details WHERE tree = ?', [tree.id]);
    expect(await checkTreeRows(store, tree, { exact: true })).toBe(`details: 0 rows of ${n}`);
    expect(await checkTreeRows(store, tree, { exact: false })).toBe(`details: no rows of ${n}`);
    await store.close();
  });
});
