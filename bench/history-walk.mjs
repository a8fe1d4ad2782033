#!/usr/bin/env node
// How often a checkout that follows its history is linked again, and whether what `index` keeps
// instead is right. Indexes the last N first-parent commits of a repository, oldest first, into
// one database (a shared clone in a scratch directory: the repository itself is not touched), and
// says for each whether the link ran. Each commit whose link was skipped (the same facts, layout
// and rules: a commit of tests, docs or required versions only, a comment edited in place) is
// then linked afresh into a copy of the database, and every table of the tree, rowids included,
// is compared with what the skip kept. Runs the built CLI (npm run build first).
//
//   node bench/history-walk.mjs [--repo /tmp/trees/client-go] [--commits 41] [--scratch DIR] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sqlite3 from 'sqlite3';

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: '/tmp/trees/client-go' },
    commits: { type: 'string', default: '41' },
    scratch: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
if (!existsSync(path.join(values.repo, '.git'))) {
  console.log(`skipped: no git checkout at ${values.repo} (--repo PATH)`);
  process.exit(0);
}
const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
if (values.scratch) mkdirSync(values.scratch, { recursive: true });
const scratch = mkdtempSync(path.join(values.scratch ?? os.tmpdir(), 'k8s-read-history-walk-'));
const root = path.join(scratch, 'checkout');
execFileSync('git', ['clone', '-q', '--shared', path.resolve(values.repo), root]);
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const commits = git('rev-list', '--first-parent', '-n', values.commits, 'HEAD')
  .split('\n')
  .reverse();
const db = path.join(scratch, 'walk.sqlite');
const relinked = path.join(scratch, 'relinked.sqlite');
// Outside any cache of the user's: the kept answers and rules of the CLI go to the scratch too.
const env = { ...process.env, XDG_CACHE_HOME: path.join(scratch, 'cache') };

function index(database) {
  const r = spawnSync(
    process.execPath,
    [cli, 'index', '--repo', root, '--db', database, '-o', 'json'],
    {
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  if (r.status !== 0) throw new Error(`index failed at ${git('rev-parse', 'HEAD')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function query(database, sql, params = []) {
  return new Promise((resolve, reject) => {
    const handle = new sqlite3.Database(database, sqlite3.OPEN_READWRITE, (error) => {
      if (error) return reject(error);
      handle.all(sql, params, (e, rows) => handle.close(() => (e ? reject(e) : resolve(rows))));
    });
  });
}

/** A digest of each table's rows of the tree at `root` (rowids where the table has them). */
async function tables(database) {
  const [tree] = await query(database, 'SELECT id FROM trees WHERE root = ?', [root]);
  const out = {};
  for (const table of ['symbols', 'edges', 'bindings', 'made', 'details', 'files', 'packages']) {
    const order = table === 'files' || table === 'packages' ? '*' : 'rowid, *';
    const by = table === 'files' || table === 'packages' ? '2, 3' : 'rowid';
    const rows = await query(
      database,
      `SELECT ${order} FROM ${table} WHERE tree = ? ORDER BY ${by}`,
      [tree.id],
    );
    out[table] = createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
  }
  const [row] = await query(
    database,
    'SELECT commit_sha, dirty, version, module, remote, summary FROM trees WHERE id = ?',
    [tree.id],
  );
  out.tree = createHash('sha256').update(JSON.stringify(row)).digest('hex').slice(0, 16);
  return out;
}

const results = [];
try {
  for (const [i, commit] of commits.entries()) {
    git('checkout', '-q', commit);
    const run = index(db);
    if (i === 0) continue; // the first index of the walk links, whatever the build
    const result = {
      commit: commit.slice(0, 12),
      parsed: run.parsed,
      linked: run.timings.linkMs > 0,
      ms: run.timings.totalMs,
    };
    if (!result.linked) {
      // The same state linked afresh: the link's fingerprint made to differ, so it runs.
      copyFileSync(db, relinked);
      await query(relinked, "UPDATE trees SET summary = json_set(summary, '$.fingerprint', 'x')");
      const fresh = index(relinked);
      if (fresh.timings.linkMs === 0) throw new Error('the relink was skipped');
      const [kept, linked] = [await tables(db), await tables(relinked)];
      result.identical = JSON.stringify(kept) === JSON.stringify(linked);
      result.linkMs = fresh.timings.totalMs;
      rmSync(relinked, { force: true });
    }
    results.push(result);
    if (!values.json)
      console.log(
        `${result.commit}  ${result.linked ? 'linked ' : 'kept   '}  ${String(result.parsed).padStart(5)} parsed  ${(result.ms / 1000).toFixed(2)} s${result.linked ? '' : `  (a link: ${(result.linkMs / 1000).toFixed(2)} s; tables ${result.identical ? 'identical' : 'DIFFERENT'})`}`,
      );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const kept = results.filter((r) => !r.linked);
const summary = {
  repo: path.resolve(values.repo),
  commits: results.length,
  kept: kept.length,
  identical: kept.filter((r) => r.identical).length,
  linked: results.length - kept.length,
};
if (values.json) console.log(JSON.stringify({ ...summary, results }, null, 2));
else
  console.log(
    `${summary.commits} commits after the first: ${summary.kept} kept without a link (${summary.identical} with tables identical to a fresh link), ${summary.linked} linked`,
  );
if (summary.identical !== summary.kept) process.exitCode = 1;
