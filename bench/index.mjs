#!/usr/bin/env node
// Benchmarks `k8s-read index` on a real Kubernetes tree (issue: full index <= 30 s, <= 2 GB peak
// RSS, database <= 500 MB, no-op re-run <= 3 s), universal-ctags on the same files for scale, and
// a second version sharing the database (client-go at two tags: only changed blobs are parsed).
//
//   node bench/index.mjs [--repo /tmp/k/SeeTheWorld1+kubernetes] [--client-go /tmp/k/kubernetes+client-go]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = arg('--repo', process.env.KUBERNETES_SRC ?? '/tmp/k/SeeTheWorld1+kubernetes');
const clientGo = arg('--client-go', '/tmp/k/kubernetes+client-go');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-bench-index-'));

/** Runs the CLI under /usr/bin/time -v when present, for the peak RSS of the whole process. */
function timed(args) {
  const haveTime = existsSync('/usr/bin/time');
  const started = process.hrtime.bigint();
  const r = haveTime
    ? spawnSync('/usr/bin/time', ['-v', process.execPath, cli, ...args], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      })
    : spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`k8s-read ${args.join(' ')} failed:\n${r.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr ?? '');
  return { wallMs, peakMb: rss ? Number(rss[1]) / 1024 : null, json: JSON.parse(r.stdout) };
}

const results = {};
if (existsSync(repo)) {
  const db = path.join(scratch, 'k8s.sqlite');
  const full = timed(['index', '--repo', repo, '--db', db, '-o', 'json']);
  const noop = timed(['index', '--repo', repo, '--db', db, '-o', 'json']);
  results.full = {
    wallMs: Math.round(full.wallMs),
    peakMb: full.peakMb && Math.round(full.peakMb),
    timings: full.json.timings,
    counts: full.json.counts,
    files: full.json.files,
    megabytes: full.json.megabytes,
  };
  results.noop = {
    wallMs: Math.round(noop.wallMs),
    parsed: noop.json.parsed,
    peakMb: noop.peakMb && Math.round(noop.peakMb),
  };
  results.dbMb = Math.round(statSync(db).size / 1e6);
  // universal-ctags over the same files (definitions only), for scale.
  const files = execFileSync('git', ['ls-files', '--', '*.go'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .split('\n')
    .filter(
      (f) =>
        f &&
        !f.startsWith('vendor/') &&
        !f.includes('/vendor/') &&
        !f.endsWith('_test.go') &&
        !/(^|\/)(testdata|_|\.)/.test(f),
    );
  const list = path.join(scratch, 'files.txt');
  writeFileSync(list, files.join('\n'));
  const ctags = spawnSync('ctags', ['--version'], { encoding: 'utf8' });
  if (ctags.status === 0) {
    const t0 = process.hrtime.bigint();
    spawnSync('ctags', ['-L', list, '-f', path.join(scratch, 'tags'), '--languages=Go'], {
      cwd: repo,
    });
    results.ctagsMs = Math.round(Number(process.hrtime.bigint() - t0) / 1e6);
    results.ctagsFiles = files.length;
  }
}
if (existsSync(clientGo)) {
  const db = path.join(scratch, 'shared.sqlite');
  const trees = {};
  for (const tag of ['v0.24.0', 'v0.25.0']) {
    const dir = path.join(scratch, `client-go-${tag}`);
    execFileSync('git', ['worktree', 'add', '--detach', '-q', dir, tag], { cwd: clientGo });
    try {
      const r = timed(['index', '--repo', dir, '--db', db, '-o', 'json']);
      trees[tag] = {
        files: r.json.files,
        parsed: r.json.parsed,
        reused: r.json.reused,
        wallMs: Math.round(r.wallMs),
      };
    } finally {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: clientGo });
    }
  }
  const changed = execFileSync('git', ['diff', '--name-only', 'v0.24.0', 'v0.25.0', '--', '*.go'], {
    cwd: clientGo,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && !f.endsWith('_test.go') && !f.startsWith('vendor/'));
  results.secondVersion = { trees, goFilesChangedBetweenTags: changed.length };
}
rmSync(scratch, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model,
        memGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      ...results,
    },
    null,
    2,
  ),
);
