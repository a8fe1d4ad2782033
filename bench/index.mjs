#!/usr/bin/env node
// Benchmarks `k8s-read index` beside the parse-only floor of the same files (bench/parse-floor.mjs:
// tree-sitter alone, one thread) and universal-ctags (definitions only; skipped when not
// installed), in one run, per tree: wall and CPU, the index's phases, ratios, peak RSS, database
// size and a no-op re-run. Then a second version sharing the database (only changed blobs may be
// parsed), a second release given as its own checkout sharing the database of a first (a tree of
// each Kubernetes release: `--second-tree <first>..<second>`, timed `--runs` times, each into a
// copy of the first's database), and the start-up time of commands (`<command> --help`:
// everything before an action).
//
//   node bench/index.mjs --repo <kubernetes> [--repo <client-go> ...] [--runs 3]
//        [--second-version <git repo>@<tag>..<tag>] [--second-tree <dir>..<dir>]
//        [--startup-runs 10]
//
// Issue targets (v1.24, 2 cores): full index <= 12 s (about 3.75x the 2-core parse floor), peak
// RSS <= 1.5 GB, database <= 200 MB, no-op re-index <= 0.5 s, start-up <= 100 ms before a
// command's own work. Nothing is written into the trees: a second version is a shared clone.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const cli = path.join(dist, 'cli.js');
const args = process.argv.slice(2);
const all = (name) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));
const one = (name, fallback) => all(name)[0] ?? fallback;
// Absolute: ctags runs in the tree and reads the list of files from there.
const repos = all('--repo').map((r) => path.resolve(r));
if (repos.length === 0 && process.env.KUBERNETES_SRC)
  repos.push(path.resolve(process.env.KUBERNETES_SRC));
const runs = Number(one('--runs', '3'));
const startupRuns = Number(one('--startup-runs', '10'));
const secondVersion = one('--second-version');
const secondTree = one('--second-tree');
const jobs = os.availableParallelism();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-bench-index-'));
const haveTime = existsSync('/usr/bin/time');
const haveCtags = spawnSync('ctags', ['--version'], { encoding: 'utf8' }).status === 0;

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

/** Runs a command under /usr/bin/time -v when present: wall, CPU (user + sys) and peak RSS. */
function timed(command, commandArgs, options = {}) {
  const started = process.hrtime.bigint();
  const r = haveTime
    ? spawnSync('/usr/bin/time', ['-v', command, ...commandArgs], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        ...options,
      })
    : spawnSync(command, commandArgs, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed:\n${r.stderr}`);
  const field = (re) => Number(re.exec(r.stderr ?? '')?.[1] ?? NaN);
  const cpuMs =
    (field(/User time \(seconds\): ([\d.]+)/) + field(/System time \(seconds\): ([\d.]+)/)) * 1000;
  const rssKb = field(/Maximum resident set size \(kbytes\): (\d+)/);
  return {
    wallMs: Math.round(wallMs),
    cpuMs: Number.isFinite(cpuMs) ? Math.round(cpuMs) : null,
    peakMb: Number.isFinite(rssKb) ? Math.round(rssKb / 1024) : null,
    stdout: r.stdout,
  };
}

const index = (repo, db) => {
  const r = timed(process.execPath, [cli, 'index', '--repo', repo, '--db', db, '-o', 'json']);
  return { ...r, json: JSON.parse(r.stdout) };
};

/** The files `index` parses, from its own discovery. */
async function listFiles(repo) {
  const { discoverTree } = await import(
    pathToFileURL(path.join(dist, 'index', 'discover.js')).href
  );
  const tree = await discoverTree(repo, {});
  const list = path.join(scratch, `files-${path.basename(repo)}.txt`);
  writeFileSync(list, tree.files.map((f) => path.join(repo, f.path)).join('\n'));
  return list;
}

async function benchTree(repo) {
  const list = await listFiles(repo);
  const floors = [];
  const ctags = [];
  const full = [];
  let db;
  for (let i = 0; i < runs; i++) {
    const floor = timed(process.execPath, [path.join(here, 'parse-floor.mjs'), '--list', list]);
    floors.push({ ...floor, ...JSON.parse(floor.stdout) });
    if (haveCtags) {
      ctags.push(
        timed('ctags', ['-L', list, '-f', path.join(scratch, 'tags'), '--languages=Go'], {
          cwd: repo,
        }),
      );
    }
    db = path.join(scratch, `${path.basename(repo)}-${i}.sqlite`);
    const r = index(repo, db);
    full.push({
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      peakMb: r.peakMb,
      timings: r.json.timings,
      files: r.json.files,
      megabytes: r.json.megabytes,
      counts: r.json.counts,
    });
    if (i < runs - 1) rmSync(db, { force: true });
  }
  const noop = index(repo, db);
  const dbMb = Math.round(statSync(db).size / 1e6);
  const wall = median(full.map((r) => r.wallMs));
  const floorWall = median(floors.map((f) => f.wallMs));
  const ctagsWall = median(ctags.map((c) => c.wallMs));
  const phase = (name) => median(full.map((r) => r.timings[name]));
  return {
    repo,
    files: full[0].files,
    megabytes: full[0].megabytes,
    index: {
      wallMs: wall,
      runs: full.map((r) => r.wallMs),
      cpuMs: median(full.map((r) => r.cpuMs)),
      peakMb: median(full.map((r) => r.peakMb)),
      phasesMs: Object.fromEntries(
        ['discoverMs', 'parseMs', 'loadMs', 'linkMs', 'writeMs'].map((p) => [p, phase(p)]),
      ),
      counts: full[0].counts,
    },
    parseFloor: {
      oneThreadWallMs: floorWall,
      runs: floors.map((f) => f.wallMs),
      cpuMs: median(floors.map((f) => f.cpuMs)),
      files: floors[0].files,
    },
    ctags: haveCtags ? { wallMs: ctagsWall, runs: ctags.map((c) => c.wallMs) } : 'not installed',
    ratios: {
      indexToFloorOneThread: Number((wall / floorWall).toFixed(2)),
      [`indexToFloorOn${jobs}Cores`]: Number((wall / (floorWall / jobs)).toFixed(2)),
      ...(haveCtags ? { indexToCtags: Number((wall / ctagsWall).toFixed(1)) } : {}),
    },
    noop: { wallMs: noop.wallMs, parsed: noop.json.parsed },
    dbMb,
  };
}

/** A second version in the same database: a shared clone (nothing written to the source repo). */
function benchSecondVersion(spec) {
  const m = /^(.+)@([^.]+(?:\.[^.]+)*?)\.\.(.+)$/.exec(spec);
  if (!m) throw new Error(`--second-version takes <repo>@<tag>..<tag>, not ${spec}`);
  const [, source, from, to] = m;
  const clone = path.join(scratch, 'second-version');
  execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', source, clone]);
  const db = path.join(scratch, 'shared.sqlite');
  const trees = {};
  for (const tag of [from, to]) {
    execFileSync('git', ['checkout', '-q', '--force', tag], { cwd: clone });
    const r = index(clone, db);
    trees[tag] = {
      files: r.json.files,
      parsed: r.json.parsed,
      reused: r.json.reused,
      wallMs: r.wallMs,
    };
  }
  const changed = execFileSync('git', ['diff', '--name-only', from, to, '--', '*.go'], {
    cwd: clone,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && !f.endsWith('_test.go') && !f.startsWith('vendor/'));
  return { repo: source, trees, goFilesChangedBetweenTags: changed.length };
}

/**
 * A second release sharing the database of a first: the first indexed once, the second `runs`
 * times into a copy of that database (the database and the files beside it: its trace records).
 * Beside the second's own fresh index when it was benched with --repo.
 */
function benchSecondTree(spec, benched) {
  const m = /^(.+)\.\.(.+)$/.exec(spec);
  if (!m) throw new Error(`--second-tree takes <dir>..<dir>, not ${spec}`);
  const [first, second] = [path.resolve(m[1]), path.resolve(m[2])];
  const dir = path.join(scratch, 'second-tree');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, 'first.sqlite');
  const firstRun = index(first, base);
  const runsOf = [];
  for (let i = 0; i < runs; i++) {
    const db = path.join(dir, `second-${i}.sqlite`);
    for (const f of readdirSync(dir))
      if (f.startsWith('first.sqlite'))
        copyFileSync(
          path.join(dir, f),
          path.join(dir, f.replace('first.sqlite', `second-${i}.sqlite`)),
        );
    const r = index(second, db);
    runsOf.push({
      wallMs: r.wallMs,
      cpuMs: r.cpuMs,
      parsed: r.json.parsed,
      reused: r.json.reused,
      files: r.json.files,
      phasesMs: r.json.timings,
    });
    for (const f of readdirSync(dir))
      if (f.startsWith(`second-${i}.sqlite`)) rmSync(path.join(dir, f), { force: true });
  }
  const mid = runsOf.find((r) => r.wallMs === median(runsOf.map((x) => x.wallMs)));
  const alone = benched.find((t) => t.repo === second)?.index?.wallMs ?? null;
  return {
    first: { tree: first, files: firstRun.json.files, wallMs: firstRun.wallMs },
    second: {
      tree: second,
      files: mid.files,
      parsed: mid.parsed,
      reused: mid.reused,
      wallMs: mid.wallMs,
      runs: runsOf.map((r) => r.wallMs),
      cpuMs: mid.cpuMs,
      phasesMs: mid.phasesMs,
      freshIndexWallMs: alone,
      ratioToFresh: alone ? Number((mid.wallMs / alone).toFixed(2)) : null,
    },
  };
}

/** `<command> --help` parses flags and registers every command, then stops before any action. */
function benchStartup() {
  const commands = [['--help'], ['def', '--help'], ['trace', '--help'], ['blame', '--help']];
  commands.push(['tour', 'list', '--help']);
  const measure = (argv) =>
    median(Array.from({ length: startupRuns }, () => timed(process.execPath, argv).wallMs));
  const nodeAlone = measure(['-e', '0']);
  return {
    nodeAloneMs: nodeAlone,
    commands: Object.fromEntries(
      commands.map((c) => {
        const ms = measure([cli, ...c]);
        return [c.join(' '), { wallMs: ms, overNodeMs: ms - nodeAlone }];
      }),
    ),
  };
}

try {
  const results = { trees: [] };
  for (const repo of repos) results.trees.push(await benchTree(repo));
  if (secondVersion) results.secondVersion = benchSecondVersion(secondVersion);
  if (secondTree) results.secondTree = benchSecondTree(secondTree, results.trees);
  if (startupRuns > 0) results.startup = benchStartup();
  console.log(
    JSON.stringify(
      {
        machine: {
          cpus: os.cpus().length,
          cpu: os.cpus()[0]?.model,
          memGb: Math.round(os.totalmem() / 2 ** 30),
          node: process.version,
          loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
        },
        ...results,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
