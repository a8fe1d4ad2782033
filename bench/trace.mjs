#!/usr/bin/env node
// Benchmarks `k8s-read trace kube-scheduler` on an existing index, including process start
// (issue: <= 500 ms). Median of N runs.
//
//   node bench/trace.mjs --repo /tmp/k/SeeTheWorld1+kubernetes --db /tmp/k/k8s.sqlite [--runs 7]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = arg('--repo', process.env.KUBERNETES_SRC ?? '/tmp/k/SeeTheWorld1+kubernetes');
const db = arg('--db');
const runs = Number(arg('--runs', '7'));
const targets = arg('--targets', 'kube-scheduler,kube-controller-manager/replicaset').split(',');
const out = {};
for (const target of targets) {
  const args = [cli, 'trace', target, '--repo', repo, ...(db ? ['--db', db] : []), '-o', 'json'];
  spawnSync(process.execPath, args); // warm the page cache (and index on first use)
  const times = [];
  let nodes = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) throw new Error(r.stderr);
    nodes = JSON.parse(r.stdout).nodes.length;
  }
  times.sort((a, b) => a - b);
  out[target] = {
    medianMs: Math.round(times[Math.floor(times.length / 2)]),
    minMs: Math.round(times[0]),
    maxMs: Math.round(times[times.length - 1]),
    nodes,
  };
}
console.log(JSON.stringify(out, null, 2));
