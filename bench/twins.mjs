#!/usr/bin/env node
// Times the twins against their budgets (issue 5): the informer pipeline with 10k objects and
// 100k events in <= 5 s, and the scheduler placing 1,000 pods on 100 nodes in <= 5 s.
//
//   npm run build && node bench/twins.mjs [--runs N] [--seed N] [--check]
//
// Each measurement runs in this process against the built dist/twins (no timeline, so nothing is
// narrated), after one smaller warm-up run. It prints one JSON line per benchmark with the median
// wall time over --runs and the run's own proof of work (the indexer caught up with the API
// server; every pod was bound). --check exits 1 when a budget is exceeded or the proof fails.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const loadModule = path.join(root, 'dist', 'twins', 'runs', 'load.js');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    check: { type: 'boolean', default: false },
  },
});

if (!existsSync(loadModule)) {
  console.error('bench/twins: run `npm run build` first');
  process.exit(2);
}
const { runInformerLoad, runSchedulerLoad } = await import(pathToFileURL(loadModule).href);
const runs = Math.max(1, Number(values.runs));
const seed = Number(values.seed);
let failed = false;

function measure(name, budgetMs, warmUp, run, ok) {
  warmUp();
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const ms = Math.round(times[Math.floor(times.length / 2)]);
  const passed = ms <= budgetMs && ok(result);
  if (!passed) failed = true;
  console.log(JSON.stringify({ bench: name, ms, budgetMs, runs, seed, ok: passed, ...result }));
}

measure(
  'informer: 10k objects, 100k events',
  5000,
  () => runInformerLoad({ objects: 1000, events: 10_000, seed }),
  () => runInformerLoad({ objects: 10_000, events: 100_000, seed }),
  (r) => r.mismatched === 0 && r.indexed === r.stored,
);
measure(
  'scheduler: 1,000 pods on 100 nodes',
  5000,
  () => runSchedulerLoad({ nodes: 10, pods: 100, seed }),
  () => runSchedulerLoad({ nodes: 100, pods: 1000, seed }),
  (r) => r.pending === 0,
);

if (values.check && failed) process.exit(1);
