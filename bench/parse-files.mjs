#!/usr/bin/env node
// Which files a parse worker spends its time on: every file `index` parses, on one thread, each
// timed through our native parse, extraction and encoding apart, with the slowest listed. A file
// far slower than its size says (aws-sdk-go's endpoints table took 22 s of native parse where
// tree-sitter alone takes 0.13 s) is a fault to look for; time that follows size is not.
//
//   node bench/parse-files.mjs --repo /tmp/trees/k124 [--include-vendor] [--top 15] [--json]
//
// Prints the totals (ms) and the `--top` slowest files: size, native, extract and encode ms, the
// nodes the capture walk handed back and the captures. The files are read before each is timed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const load = (file) => import(pathToFileURL(path.join(dist, 'index', file)).href);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = arg('--repo');
const top = Number(arg('--top', '15'));
const maxBytes = Number(arg('--max-file-size', String(2 * 1024 * 1024)));
if (!repo || !Number.isInteger(top) || top < 0) {
  console.error(
    'usage: node bench/parse-files.mjs --repo DIR [--include-vendor] [--top N] [--json]',
  );
  process.exit(2);
}
const [{ discoverTree }, { nativeParser }, { walkRules }, { extractFacts }, { encodeFacts }] =
  await Promise.all([
    load('discover.js'),
    load('native.js'),
    load('light-node.js'),
    load('extract.js'),
    load('facts-codec.js'),
  ]);
const tree = await discoverTree(path.resolve(repo), {
  includeVendor: process.argv.includes('--include-vendor'),
});
const native = nativeParser(walkRules);
const files = [];
const total = { files: 0, bytes: 0, nativeMs: 0, extractMs: 0, encodeMs: 0 };
for (const f of tree.files) {
  const bytes = readFileSync(f.abs ?? path.join(tree.root, f.path));
  if (bytes.length > maxBytes) continue;
  const text = bytes.toString('utf8');
  const t0 = performance.now();
  const parsed = native.parse(bytes);
  const t1 = performance.now();
  const facts = extractFacts(parsed, native.names, text);
  const t2 = performance.now();
  encodeFacts(facts);
  const t3 = performance.now();
  const row = {
    path: f.path,
    kb: Math.round(bytes.length / 1024),
    nativeMs: Math.round(t1 - t0),
    extractMs: Math.round(t2 - t1),
    encodeMs: Math.round(t3 - t2),
    nodes: parsed.nodes.length / 5,
    captures: parsed.captures.length / 5,
  };
  files.push(row);
  total.files++;
  total.bytes += bytes.length;
  total.nativeMs += t1 - t0;
  total.extractMs += t2 - t1;
  total.encodeMs += t3 - t2;
}
for (const k of ['nativeMs', 'extractMs', 'encodeMs']) total[k] = Math.round(total[k]);
const cost = (r) => r.nativeMs + r.extractMs + r.encodeMs;
const slowest = files.sort((a, b) => cost(b) - cost(a)).slice(0, top);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ repo: tree.root, total, slowest }));
} else {
  console.log(
    `${total.files} files, ${(total.bytes / 1e6).toFixed(1)} MB: native ${total.nativeMs} ms, extract ${total.extractMs} ms, encode ${total.encodeMs} ms`,
  );
  for (const r of slowest)
    console.log(
      `${String(cost(r)).padStart(7)} ms  ${r.path}  ${r.kb} KB: native ${r.nativeMs}, extract ${r.extractMs}, encode ${r.encodeMs}; ${r.nodes} nodes, ${r.captures} captures`,
    );
}
