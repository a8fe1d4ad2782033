#!/usr/bin/env node
// Checks that the default view of `k8s-read trace <daemon>` draws the hops a reader follows
// (issue 13): for each daemon, the hops listed in spine-hops.json beside this script (caller ->
// callee substrings of go/ssa symbols) are looked up among the edges of `trace <daemon> -o json`.
// Where releases differ, a hop is `{"any": [way, ...]}`: one of the ways (a list of hops) drawn
// whole is enough (the kubelet's relist, Relist from v1.27).
// Prints present/missing per daemon and a JSON summary; exits 1 when a hop is missing.
//
//   node bench/spine-check.mjs --repo /tmp/trees/k124 --db /tmp/k/k124.sqlite [--only kubelet,kube-proxy]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = arg('--repo', process.env.KUBERNETES_SRC);
const db = arg('--db');
const hopsFile = arg('--hops', path.join(here, 'spine-hops.json'));
const only = arg('--only')?.split(',');
const required = JSON.parse(readFileSync(hopsFile, 'utf8'));

const summary = {};
let missingTotal = 0;
for (const [daemon, hops] of Object.entries(required)) {
  if (daemon.startsWith('_') || (only && !only.includes(daemon))) continue;
  const args = [
    cli,
    'trace',
    daemon,
    ...(repo ? ['--repo', repo] : []),
    ...(db ? ['--db', db] : []),
  ];
  const r = spawnSync(process.execPath, [...args, '-o', 'json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) {
    console.log(`${daemon}: trace failed: ${r.stderr.trim().split('\n').pop()}`);
    summary[daemon] = { present: 0, missing: hops.length, failed: true };
    missingTotal += hops.length;
    continue;
  }
  const { edges } = JSON.parse(r.stdout);
  const missing = [];
  const has = ([caller, callee]) =>
    edges.some((e) => e.caller.includes(caller) && e.callee.includes(callee));
  const text = (path) => path.map(([caller, callee]) => `${caller || '*'} -> ${callee}`).join(', ');
  for (const hop of hops) {
    // A hop, or the ways releases take instead (`any`: paths, each a list of hops, one of which
    // must be drawn whole).
    const ways = Array.isArray(hop) ? [[hop]] : hop.any;
    if (!ways.some((way) => way.every(has))) missing.push(ways.map(text).join(' | '));
  }
  const present = hops.length - missing.length;
  missingTotal += missing.length;
  summary[daemon] = { present, missing: missing.length };
  console.log(`${daemon}: ${present}/${hops.length} hops present`);
  for (const m of missing) console.log(`  missing ${m}`);
}
console.log(JSON.stringify(summary));
process.exitCode = missingTotal > 0 ? 1 : 0;
