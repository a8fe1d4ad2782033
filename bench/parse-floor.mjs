#!/usr/bin/env node
// The parse-only floor: tree-sitter-go parses every file of a list and does nothing else (no
// query, no walk, no facts), on one thread through node-tree-sitter, as the index issue measured
// it. `k8s-read index` is reported as a ratio to this.
//
//   node bench/parse-floor.mjs --list files.txt [--max-file-size 2097152]
//   (files.txt: absolute paths, one a line; bench/index.mjs writes it from discovery)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const list = arg('--list');
if (!list) {
  console.error('usage: node bench/parse-floor.mjs --list files.txt');
  process.exit(2);
}
const maxBytes = Number(arg('--max-file-size', String(2 * 1024 * 1024)));
const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
const parser = new Parser();
parser.setLanguage(Go);
const started = performance.now();
const cpu0 = process.cpuUsage();
let bytes = 0;
let parsed = 0;
for (const file of files) {
  const content = readFileSync(file);
  if (content.length > maxBytes) continue;
  parser.parse(content.toString('utf8'));
  bytes += content.length;
  parsed++;
}
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    files: parsed,
    megabytes: Number((bytes / 1e6).toFixed(1)),
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  }),
);
