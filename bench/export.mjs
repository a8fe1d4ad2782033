#!/usr/bin/env node
// Times `export -o svg`, process start included, against its budget (issue 7: the kube-scheduler
// trace of the real v1.24 tree to SVG in <= 2 s).
//
//   node bench/export.mjs [--repo PATH] [--db FILE] [--runs N] [--check]
//
// - real: `node dist/cli.js export trace kube-scheduler -o svg --repo PATH`, after one untimed run
//   that builds the index if there is none (indexing is `index`'s budget, not export's). Runs
//   only when the trace loader is built and PATH exists.
// - generated: a fresh Node process that loads the built renderers and lays out a generated
//   trace of the size of a real one (300 functions, 600 calls), folded at the default node limit
//   and at 150, so the renderer has a figure even without an index. (Unfolded, a random graph
//   that size takes `dot` from 0.5 s with package clusters to minutes without: folding is what
//   keeps both the picture and the time in bounds.)
// Prints one JSON line per measurement (median of --runs); --check exits 1 over budget.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { generatedTrace } from './generated-trace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const budgetMs = 2000;
const { values } = parseArgs({
  options: {
    repo: {
      type: 'string',
      default: process.env.KUBERNETES_SRC ?? '/tmp/k/SeeTheWorld1+kubernetes',
    },
    db: { type: 'string' },
    runs: { type: 'string', default: '5' },
    check: { type: 'boolean', default: false },
    'render-generated': { type: 'string' },
  },
});

if (values['render-generated'] !== undefined) {
  await renderGenerated(Number(values['render-generated']));
} else {
  await main();
}

async function main() {
  if (!existsSync(path.join(root, 'dist', 'export', 'svg.js'))) {
    console.error('bench/export: run `npm run build` first');
    process.exit(2);
  }
  const runs = Number(values.runs);
  const results = [];
  const cli = path.join(root, 'dist', 'cli.js');
  if (existsSync(path.join(root, 'dist', 'cli', 'load-trace.js')) && existsSync(values.repo)) {
    const args = [cli, 'export', 'trace', 'kube-scheduler', '-o', 'svg', '--repo', values.repo];
    if (values.db) args.push('--db', values.db);
    const warm = run(args);
    if (warm.status !== 0) throw new Error(`export failed:\n${warm.stderr}`);
    results.push(
      measure('export trace kube-scheduler -o svg (real tree, index built)', args, runs, budgetMs),
    );
  } else {
    console.error(
      `bench/export: skipping the real trace (needs dist/cli/load-trace.js and ${values.repo})`,
    );
  }
  const self = fileURLToPath(import.meta.url);
  results.push(
    measure(
      'render 300 functions / 600 calls to svg, folded at 60',
      [self, '--render-generated', '60'],
      runs,
      budgetMs,
    ),
  );
  results.push(
    measure(
      'render 300 functions / 600 calls to svg, folded at 150',
      [self, '--render-generated', '150'],
      runs,
      budgetMs,
    ),
  );
  for (const result of results) console.log(JSON.stringify(result));
  if (values.check && results.some((r) => !r.withinBudget)) process.exit(1);
}

function run(args) {
  return spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

function measure(name, args, runs, budget) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = run(args);
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`${name} failed:\n${result.stderr}`);
    bytes = Buffer.byteLength(result.stdout);
  }
  times.sort((a, b) => a - b);
  const medianMs = Math.round(times[Math.floor(times.length / 2)]);
  return {
    name,
    runs,
    medianMs,
    minMs: Math.round(times[0]),
    maxMs: Math.round(times.at(-1)),
    budgetMs: budget,
    withinBudget: medianMs <= budget,
    svgBytes: bytes,
  };
}

/** The child process: load the built renderer, draw a generated trace, print the SVG. */
async function renderGenerated(maxNodes) {
  const { renderers } = await import(path.join(root, 'dist', 'export', 'renderers.js'));
  const svg = await renderers.svg(generatedTrace(300, 301), {
    color: false,
    style: 'flow',
    cluster: 'package',
    maxNodes,
  });
  process.stdout.write(svg);
}
