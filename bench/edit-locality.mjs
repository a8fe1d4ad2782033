#!/usr/bin/env node
// How far a real commit's change reaches in the link's output: the question an incremental link
// must answer before it may relink only the files a commit changed. Walks a checkout's first-parent
// history forward over its last N commits that change Go files, indexes each into one database (so
// only changed files are parsed, and the link runs whole, as today), and compares the edges with
// the commit before: those sited in a file the commit changed; those sited elsewhere whose callee
// is declared in a changed file (a new implementation of an interface, a new closure passed to
// shared code); and the rest (a change in what one file declares or stores, reaching calls
// between files it did not touch).
//
//   node bench/edit-locality.mjs --repo <scratch clone: it is checked out> --commits 20 [--db f] [--json]
//
// The clone's HEAD is restored at the end. Edges are compared by caller, callee (or the expression
// of an unresolved call), kind and site; in an unchanged file a site never moves, so any difference
// there is the change's reach.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Store } from '../dist/store/db.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = path.resolve(arg('--repo', '.'));
const count = Number(arg('--commits', '20'));
const db = path.resolve(arg('--db', path.join(os.tmpdir(), `edit-locality-${process.pid}.sqlite`)));
const git = (...a) => execFileSync('git', a, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });

const start = git('rev-parse', 'HEAD').trim();
const isIndexed = (f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('vendor/');
// The last `count` first-parent commits (oldest first) that change an indexed Go file, each with
// the commit before it.
const commits = [];
for (const line of git('log', '--first-parent', '--format=%H %P', start).split('\n')) {
  const [sha, parent] = line.split(' ');
  if (!sha || !parent) continue;
  const changed = git('diff', '--name-only', parent, sha).split('\n').filter(isIndexed);
  if (changed.length > 0) commits.push({ sha, parent, changed });
  if (commits.length === count) break;
}
commits.reverse();

async function edges() {
  const store = await Store.open(db);
  try {
    const rows = await store.all(
      `SELECT a.symbol AS caller, coalesce(b.symbol, e.expr, '') AS callee, e.kind AS kind,
              e.file AS file, e.line AS line, e.col AS col, b.file AS calleeFile
       FROM edges e JOIN symbols a ON a.tree = e.tree AND a.id = e.caller
       LEFT JOIN symbols b ON b.tree = e.tree AND b.id = e.callee`,
    );
    return new Map(
      rows.map((r) => [
        `${r.caller}\t${r.callee}\t${r.kind}\t${r.file}:${r.line}:${r.col}`,
        { file: r.file, calleeFile: r.calleeFile },
      ]),
    );
  } finally {
    await store.close();
  }
}

function index() {
  const t = performance.now();
  const out = execFileSync(
    process.execPath,
    [path.join(here, '..', 'dist', 'cli.js'), 'index', '--repo', repo, '--db', db, '-o', 'json'],
    { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const summary = JSON.parse(out);
  return { parsed: summary.parsed, kept: summary.link.kept, ms: performance.now() - t };
}

/** The database and what lies beside it (its WAL, the trace's record, the check's stamp). */
function removeDatabase() {
  const base = path.basename(db);
  const beside = new RegExp(
    `^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-wal|-shm|\\.checked|\\.pack-\\d+)?$`,
  );
  for (const name of readdirSync(path.dirname(db)))
    if (beside.test(name)) rmSync(path.join(path.dirname(db), name), { force: true });
}

const results = [];
try {
  removeDatabase();
  git('checkout', '-q', '--detach', commits[0].parent);
  index();
  let before = await edges();
  for (const c of commits) {
    git('checkout', '-q', '--detach', c.sha);
    const run = index();
    const after = await edges();
    const changed = new Set(c.changed);
    let inChanged = 0;
    /** Sited in a file the commit left alone, with the callee declared in one it changed. */
    let intoChanged = 0;
    const elsewhere = [];
    const compare = (from, to, sign) => {
      for (const [k, e] of from) {
        if (to.has(k)) continue;
        if (changed.has(e.file)) inChanged++;
        else if (e.calleeFile && changed.has(e.calleeFile)) intoChanged++;
        else elsewhere.push(`${sign} ${k}`);
      }
    };
    compare(after, before, '+');
    compare(before, after, '-');
    results.push({
      commit: c.sha.slice(0, 12),
      goFilesChanged: c.changed.length,
      parsed: run.parsed,
      linkKept: run.kept,
      indexSeconds: +(run.ms / 1000).toFixed(1),
      edgesChangedInChangedFiles: inChanged,
      edgesChangedElsewhereIntoChangedFiles: intoChanged,
      edgesChangedElsewhere: elsewhere.length,
      elsewhere: elsewhere.slice(0, 6),
    });
    const r = results.at(-1);
    if (!process.argv.includes('--json'))
      console.log(
        `${r.commit}  ${r.goFilesChanged} Go files, ${r.parsed} parsed, ${r.linkKept ? 'link kept' : `linked, ${r.indexSeconds} s`}: edges changed ${r.edgesChangedInChangedFiles} in those files, ${r.edgesChangedElsewhereIntoChangedFiles} elsewhere into them, ${r.edgesChangedElsewhere} elsewhere otherwise`,
      );
    before = after;
  }
} finally {
  git('checkout', '-q', '--detach', start);
  removeDatabase();
}
const local = results.filter(
  (r) => !r.linkKept && r.edgesChangedElsewhere + r.edgesChangedElsewhereIntoChangedFiles === 0,
).length;
const into = results.filter(
  (r) =>
    !r.linkKept && r.edgesChangedElsewhereIntoChangedFiles > 0 && r.edgesChangedElsewhere === 0,
).length;
const linked = results.filter((r) => !r.linkKept).length;
if (process.argv.includes('--json'))
  console.log(JSON.stringify({ repo, commits: results }, null, 2));
else {
  console.log(
    `\n${results.length} commits: ${linked} linked again; ${local} changed no edge outside the files they changed, ${into} only edges into what they changed, ${linked - local - into} other edges`,
  );
  for (const r of results.filter((x) => x.edgesChangedElsewhere > 0))
    console.log(`\n${r.commit} elsewhere:\n  ${r.elsewhere.join('\n  ')}`);
}
