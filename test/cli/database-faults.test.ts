/**
 * Issue 14, cases 1, 2, 4, 5 and 8: what the CLI does with database files it must not touch,
 * damaged indexes, files it cannot open, create or write, and a first index that fails. Every
 * answer is one line that names the file and the fix; nothing is ever changed that k8s-read did
 * not make.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, demoRoot, runCli, type CliResult } from '../helpers/run-cli.js';
import { execSql, querySql, tableNames } from '../helpers/sqlite-file.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-db-faults-');
// Reachable by the unprivileged user some tests run as.
chmodSync(tmp, 0o755);
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };
const repo = ['--repo', demoRoot];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Exactly one line on stderr, `error: ...`, no stack, nothing on stdout. */
function expectOneError(r: CliResult, code: number, message: string | RegExp): void {
  expect(r.stderr, r.stderr).not.toMatch(/\n\s+at |unexpected error/);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(r.stderr).toBe(`error: ${message}\n`);
  else expect(r.stderr).toMatch(message);
  expect(r.code).toBe(code);
}

async function indexDemo(db: string): Promise<void> {
  const r = await runCli(['index', ...repo, '--db', db], { env });
  expect(r.code, r.stderr).toBe(0);
}

/** Bytes that look like nothing SQLite wrote (a fixed sequence, so every run damages alike). */
function garbage(length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

const foreignMessage = (db: string, tables: string) =>
  `${db}: a SQLite database that k8s-read did not make (tables: ${tables}); k8s-read leaves it as it is: pass --db with a new path`;

describe('a SQLite file k8s-read did not make (case 1)', () => {
  it('is refused by read commands and by index, and stays byte for byte as it was', async () => {
    // The issue's reproduction: its meta table names another schema_version.
    const db = path.join(tmp, 'other.db');
    await execSql(
      db,
      "CREATE TABLE meta(key TEXT PRIMARY KEY,value TEXT); INSERT INTO meta VALUES('schema_version','12'); CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT)",
    );
    const before = readFileSync(db);
    for (const command of [
      ['def', 'scheduleOne'],
      ['trace', 'kube-scheduler'],
      ['search', 'Scheduler'],
      ['index'],
    ]) {
      const r = await runCli([...command, ...repo, '--db', db], { env });
      expectOneError(r, 2, foreignMessage(db, 'files, meta'));
    }
    const rebuild = await runCli(['index', '--rebuild', ...repo, '--db', db], { env });
    expectOneError(
      rebuild,
      2,
      `${db}: not a database that k8s-read made (or too damaged to tell); --rebuild deletes only its own databases: delete it yourself if it is an index, or pass --db with a new path`,
    );
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await tableNames(db)).toEqual(['files', 'meta']);
    expect(await querySql(db, 'SELECT key, value FROM meta')).toEqual([
      { key: 'schema_version', value: '12' },
    ]);
  });

  it('gets no tables and keeps its journal mode when trace or blame is pointed at it', async () => {
    const db = path.join(tmp, 'notes.db');
    await execSql(
      db,
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes(text) VALUES('mine')",
    );
    const trace = await runCli(['trace', 'kube-scheduler', ...repo, '--db', db], { env });
    expectOneError(trace, 2, foreignMessage(db, 'notes'));
    // blame needs no index: it answers without its cache, and says why once.
    const blame = await runCli(
      ['blame', 'cmd/kube-scheduler/scheduler.go:1', ...repo, '--db', db],
      { env },
    );
    expect(blame.code, blame.stderr).toBe(0);
    expect(blame.stdout).toMatch(/^[0-9a-f]{8} \(/);
    expect(blame.stderr).toBe(`warning: ${foreignMessage(db, 'notes')}; answers are not cached\n`);
    expect(await tableNames(db)).toEqual(['notes']);
    expect(await querySql(db, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'delete' }]);
  });

  it('still reads an index made before databases were marked, and marks it on the next index', async () => {
    const db = path.join(tmp, 'unmarked.db');
    await indexDemo(db);
    await execSql(db, 'PRAGMA application_id = 0');
    const def = await runCli(['def', 'scheduleOne', ...repo, '--db', db], { env });
    expect(def.code, def.stderr).toBe(0);
    expect(def.stdout).toContain('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne');
    await indexDemo(db);
    expect(await querySql(db, 'PRAGMA application_id')).toEqual([{ application_id: 0x6b387264 }]);
  });

  it('rebuilds an index of an older schema when a read command needs it', async () => {
    const db = path.join(tmp, 'older.db');
    await indexDemo(db);
    await execSql(db, "UPDATE meta SET value = '3' WHERE key = 'schema_version'");
    const r = await runCli(['def', 'scheduleOne', ...repo, '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `the index at ${db} is of an older k8s-read (schema 3); indexing it now (once)`,
    );
    expect(r.stdout).toContain('scheduleOne');
  });
});

describe('a damaged index (case 2)', () => {
  it('is not called fine after garbage lands in the middle of the file; --rebuild builds it again', async () => {
    const db = path.join(tmp, 'garbage.db');
    await indexDemo(db);
    overwrite(db, Math.floor(statSync(db).size / 2), garbage(20000));
    const r = await runCli(['index', ...repo, '--db', db], { env });
    expectOneError(
      r,
      1,
      new RegExp(
        `^error: the index ${escape(db)} is damaged \\(.+\\); run \`k8s-read index --rebuild --db ${escape(db)}\` to build it again\\n$`,
      ),
    );
    const rebuilt = await runCli(['index', '--rebuild', ...repo, '--db', db], { env });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toBe(`note: deleted ${db}; indexing from scratch\n`);
    expect(rebuilt.stdout).toMatch(/^indexed (\d+) files \(\1 parsed, 0 unchanged\)/);
    const trace = await runCli(['trace', 'kube-scheduler', ...repo, '--db', db], { env });
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toContain('scheduleOne');
  });

  it('is caught by a re-index after a run that left the file checked; a copy is checked whole', async () => {
    const db = path.join(tmp, 'garbage-after-noop.db');
    await indexDemo(db);
    const debug = { ...env, K8S_READ_DEBUG: 'index' };
    const noop = await runCli(['index', ...repo, '--db', db], { env: debug });
    expect(noop.code, noop.stderr).toBe(0);
    // The run that wrote the file counted this tree's rows in it: nothing to check again.
    expect(noop.stderr).toContain(
      '[index] not checking the database: the file is as the last finished index left it, with these rows counted\n',
    );
    const copy = path.join(tmp, 'garbage-after-noop-copy.db');
    cpSync(db, copy);
    const copied = await runCli(['index', ...repo, '--db', copy], { env: debug });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stderr).toContain('[index] checking the database: quick_check and row counts\n');

    overwrite(db, Math.floor(statSync(db).size / 2), garbage(20000));
    const r = await runCli(['index', ...repo, '--db', db], { env });
    expectOneError(
      r,
      1,
      new RegExp(
        `^error: the index ${escape(db)} is damaged \\(.+\\); run \`k8s-read index --rebuild --db ${escape(db)}\` to build it again\\n$`,
      ),
    );
  });

  it("counts the rows of a tree again when another tree's run wrote the file since", async () => {
    const db = path.join(tmp, 'two-roots.db');
    await indexDemo(db);
    const other = path.join(tmp, 'other-root');
    cpSync(demoRoot, other, { recursive: true });
    const debug = { ...env, K8S_READ_DEBUG: 'index' };
    const second = await runCli(['index', '--repo', other, '--db', db], { env: debug });
    expect(second.code, second.stderr).toBe(0);
    // The demo tree's rows were counted in a state of the file that the other run changed.
    const back = await runCli(['index', ...repo, '--db', db], { env: debug });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(
      '[index] checking the database: row counts (the file is as the last finished index left it)\n',
    );
    const again = await runCli(['index', '--repo', other, '--db', db], { env: debug });
    expect(again.stderr).toContain('with these rows counted\n');
  });

  it('drops the rows of a tree that is gone and keeps the other tree as it was', async () => {
    const db = path.join(tmp, 'two-trees.db');
    const other = path.join(tmp, 'other-tree');
    cpSync(path.join(demoRoot, '..', 'go', 'func-field-assignment'), other, { recursive: true });
    await indexDemo(db);
    const indexed = await runCli(['index', '--repo', other, '--db', db], { env });
    expect(indexed.code, indexed.stderr).toBe(0);
    const tables = ['files', 'symbols', 'edges', 'bindings', 'packages', 'made', 'details'];
    const counts = async () =>
      querySql<{ root: string; n: number }>(
        db,
        `SELECT root, (${tables.map((t) => `(SELECT COUNT(*) FROM ${t} WHERE tree = trees.id)`).join(' + ')}) AS n FROM trees ORDER BY root`,
      );
    const before = await counts();
    const gone = before.find((t) => t.root === other)!;
    expect(gone.n).toBeGreaterThan(0);
    await execSql(db, `DELETE FROM trees WHERE root = '${other}'`);

    const r = await runCli(['index', ...repo, '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`note: removed ${gone.n} rows of no indexed tree from ${db}\n`);
    expect(r.stdout).toMatch(/\(0 parsed, \d+ unchanged\)/);
    expect(await counts()).toEqual(before.filter((t) => t.root !== other));
  });

  it('is relinked by index after DROP TABLE edges, and refused by trace until then', async () => {
    const db = path.join(tmp, 'dropped.db');
    await indexDemo(db);
    const healthy = await runCli(['trace', 'kube-scheduler', ...repo, '--db', db], { env });
    expect(healthy.code, healthy.stderr).toBe(0);
    await execSql(db, 'DROP TABLE edges');

    const trace = await runCli(['trace', 'kube-scheduler', ...repo, '--db', db], { env });
    expectOneError(
      trace,
      1,
      `the index ${db} is damaged (table edges missing); run \`k8s-read index --rebuild --db ${db}\` to build it again`,
    );
    const index = await runCli(['index', ...repo, '--db', db], { env });
    expect(index.code, index.stderr).toBe(0);
    expect(index.stderr).toMatch(
      new RegExp(
        `^note: the index of ${escape(demoRoot)} in ${escape(db)} is incomplete \\(edges: 0 rows of \\d+\\); rebuilding it\\n$`,
      ),
    );
    const again = await runCli(['trace', 'kube-scheduler', ...repo, '--db', db], { env });
    expect(again.stdout).toBe(healthy.stdout);
  });

  it('is relinked when rows of a table were deleted', async () => {
    const db = path.join(tmp, 'deleted-rows.db');
    await indexDemo(db);
    await execSql(db, 'DELETE FROM symbols WHERE id % 2 = 0');
    const index = await runCli(['index', ...repo, '--db', db], { env });
    expect(index.code, index.stderr).toBe(0);
    expect(index.stderr).toMatch(/is incomplete \(symbols: \d+ rows of \d+\); rebuilding it/);
    const def = await runCli(['def', 'scheduleOne', ...repo, '--db', db], { env });
    expect(def.code, def.stderr).toBe(0);
  });
});

describe('an index that cannot be opened says why (case 4)', () => {
  it('a damaged file is named damaged, not "no index yet"', async () => {
    const db = path.join(tmp, 'corrupt.db');
    await indexDemo(db);
    // Everything after the first page: the schema itself is unreadable.
    overwrite(db, 4096, garbage(statSync(db).size - 4096));
    const r = await runCli(['def', 'scheduleOne', ...repo, '--db', db], { env });
    expectOneError(
      r,
      1,
      new RegExp(
        `^error: the index ${escape(db)} is damaged \\(.+\\); run \`k8s-read index --rebuild --db ${escape(db)}\` to build it again\\n$`,
      ),
    );
  });

  it('a file that is not a database is named so, and left alone', async () => {
    const db = path.join(tmp, 'notes.txt');
    writeFileSync(db, 'my notes, not an index\n');
    for (const command of [['def', 'scheduleOne'], ['index']]) {
      const r = await runCli([...command, ...repo, '--db', db], { env });
      expectOneError(
        r,
        2,
        `${db}: not a SQLite database, so not an index; k8s-read leaves it as it is: pass --db with a new path (delete the file yourself if it is a damaged index)`,
      );
    }
    expect(readFileSync(db, 'utf8')).toBe('my notes, not an index\n');
  });

  it('a directory is named, for read commands and index alike (case 5 too)', async () => {
    const db = path.join(tmp, 'a-directory.db');
    mkdirSync(db);
    for (const command of [['def', 'scheduleOne'], ['index']]) {
      const r = await runCli([...command, ...repo, '--db', db], { env });
      expectOneError(
        r,
        2,
        `${db}: a directory, not a database file; pass --db with a file path, e.g. --db ${db}/index.sqlite`,
      );
    }
  });

  it('a database locked by another process is named locked', async () => {
    const db = path.join(tmp, 'locked.db');
    await indexDemo(db);
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('sqlite3');
         const db = new s.Database(process.argv[1]);
         db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT 1 FROM meta;', (e) => {
           if (e) throw e;
           process.stdout.write('locked\\n');
         });
         process.stdin.on('end', () => process.exit(0)).resume();`,
        db,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const r = await runCli(['def', 'scheduleOne', ...repo, '--db', db], { env });
      expectOneError(
        r,
        1,
        `${db} is locked by another process (waited 5 s); let it finish and run the command again`,
      );
    } finally {
      holder.stdin.end();
    }
  });

  it('a read-only index in a read-only directory is still read; index says what it cannot write', async () => {
    const dir = path.join(tmp, 'read-only');
    const db = path.join(dir, 'index.sqlite');
    await indexDemo(db);
    chmodSync(db, 0o444);
    chmodSync(dir, 0o555);
    try {
      const def = await runCli(['def', 'scheduleOne', ...repo, '--db', db], {
        env,
        unprivileged: true,
      });
      expect(def.code, def.stderr).toBe(0);
      expect(def.stdout).toContain('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne');
      const index = await runCli(['index', ...repo, '--db', db], { env, unprivileged: true });
      expectOneError(
        index,
        2,
        `${db}: permission denied on ${db}.lock; pass --db with a path in a directory you can write`,
      );
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe('faults of the environment are one line each (case 5)', () => {
  it('a read-only database on index', async () => {
    const dir = path.join(tmp, 'writable-dir');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const db = path.join(dir, 'index.sqlite');
    await indexDemo(db);
    chmodSync(db, 0o444);
    const r = await runCli(['index', ...repo, '--db', db], { env, unprivileged: true });
    expectOneError(
      r,
      1,
      `${db} is read-only (no write permission on the file); make it writable, or pass --db with a path in a writable directory`,
    );
  });

  it('a lock file that cannot be created: a file in the path, XDG_CACHE_HOME a file, a long name', async () => {
    const file = path.join(tmp, 'afile');
    writeFileSync(file, '');
    const inFile = await runCli(['index', ...repo, '--db', path.join(file, 'x.db')], { env });
    expectOneError(
      inFile,
      2,
      `${path.join(file, 'x.db')}: ${file} is a file, not a directory; pass --db with a path in a directory you can write`,
    );
    const xdg = await runCli(['index', ...repo], { env: { XDG_CACHE_HOME: file } });
    expectOneError(
      xdg,
      2,
      `XDG_CACHE_HOME=${file} is not a directory; point it at a directory (or unset it), or pass --db PATH`,
    );
    const long = path.join(tmp, `${'a'.repeat(300)}.db`);
    const named = await runCli(['index', ...repo, '--db', long], { env });
    expectOneError(
      named,
      2,
      `${long}: the name is too long for the file system; pass --db with a path in a directory you can write`,
    );
  });

  it('a write that fails (the file-size limit reached, as on a full disk) keeps the previous index', async () => {
    const tree = path.join(tmp, 'growing-tree');
    cpSync(demoRoot, tree, { recursive: true });
    const db = path.join(tmp, 'limited.db');
    const first = await runCli(['index', '--repo', tree, '--db', db], { env });
    expect(first.code, first.stderr).toBe(0);
    // A change that makes the next link rewrite the tree: more than the limit lets it write.
    writeFileSync(
      path.join(tree, 'pkg', 'scheduler', 'generated.go'),
      `package scheduler\n\n${Array.from({ length: 3000 }, (_, i) => `func generated${i}() { generated${(i + 1) % 3000}() }\n`).join('')}`,
    );
    const limitKb = Math.floor(statSync(db).size / 1024 / 4);
    // Through a shell only to set the limit (SIGXFSZ ignored, so the write fails instead of
    // killing the process); the CLI's arguments are passed as arguments, never as shell text.
    const r = await new Promise<CliResult>((resolve) => {
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          `trap '' XFSZ; ulimit -f ${limitKb}; exec "$0" "$@"`,
          process.execPath,
          cliPath,
          'index',
          '--repo',
          tree,
          '--db',
          db,
        ],
        { env: { ...process.env, ...env, NO_COLOR: '1' } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expectOneError(
      r,
      1,
      new RegExp(
        `^error: (the disk holding ${escape(db)} is full|cannot read or write ${escape(db)} )`,
      ),
    );
    const old = await runCli(['def', 'generated7', '--repo', tree, '--db', db], { env });
    expect(old.stderr).toContain('no symbol matches "generated7"');
    const kept = await runCli(['def', 'scheduleOne', '--repo', tree, '--db', db], { env });
    expect(kept.code, kept.stderr).toBe(0);
  });

  it('a 50,000-character symbol', async () => {
    const db = path.join(tmp, 'long-symbol.db');
    await indexDemo(db);
    const symbol = 'a'.repeat(50_000);
    for (const command of ['def', 'search', 'callers']) {
      const r = await runCli([command, symbol, ...repo, '--db', db], { env });
      expect(r.stderr, command).not.toMatch(/\n\s+at |unexpected error|LIKE or GLOB/);
      expect(r.stderr.length, command).toBeLessThan(400);
    }
    const def = await runCli(['def', symbol, ...repo, '--db', db], { env });
    expectOneError(
      def,
      1,
      `no symbol matches ${JSON.stringify('a'.repeat(120))}... (50000 characters); try \`k8s-read search <text>\``,
    );
  });
});

describe('a first index that fails (case 8)', () => {
  it('leaves no empty database file behind', async () => {
    const empty = path.join(tmp, 'no-go-files');
    mkdirSync(empty);
    writeFileSync(path.join(empty, 'README.md'), '# nothing to index\n');
    const db = path.join(tmp, 'never.db');
    const r = await runCli(['index', '--repo', empty, '--db', db], { env });
    expectOneError(
      r,
      2,
      `no Go files found in ${empty} (vendor/ and _test.go are skipped unless --include-vendor/--include-tests)`,
    );
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });
});
