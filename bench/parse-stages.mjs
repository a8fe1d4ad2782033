#!/usr/bin/env node
// What one parse worker's job costs, stage by stage: every file `index` parses, on one thread,
// stopped after a stage. Compare with bench/parse-floor.mjs (tree-sitter alone, through
// node-tree-sitter) to see what the capture walk, extraction and encoding add to the parse.
//
//   node bench/parse-stages.mjs --repo /tmp/trees/k124 --stage native|extract|encode|full|files
//     [--include-vendor] [--top 15]
//
// native: our native parse (tree-sitter and the capture walk, src/native/capture-walk.c);
// extract: and the facts built from it (src/index/extract.ts); encode: and the facts encoded and
// deflated as a worker sends them (src/index/facts-codec.ts); full: src/index/parse-file.ts
// whole (read, blob id, UTF-8 check and all the above). The first three read the files before
// the clock starts. Prints one line of JSON.
//
// files: each file through native, extract and encode, timed apart, then the totals and the
// `--top` slowest files (size, ms of each stage, nodes walked, captures). A file far slower than
// its size says is a fault to look for (aws-sdk-go's endpoints table took 22 s of native parse
// where tree-sitter alone takes 0.13 s); time that follows size is not.
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
const stage = arg('--stage', 'full');
const maxBytes = Number(arg('--max-file-size', String(2 * 1024 * 1024)));
const top = Number(arg('--top', '15'));
if (!repo || !['native', 'extract', 'encode', 'full', 'files'].includes(stage)) {
  console.error(
    'usage: node bench/parse-stages.mjs --repo DIR --stage native|extract|encode|full|files [--include-vendor] [--top N]',
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
const { parseFile } = await load('parse-file.js');
const tree = await discoverTree(path.resolve(repo), {
  includeVendor: process.argv.includes('--include-vendor'),
});
const files = tree.files.map((f) => f.abs ?? path.join(tree.root, f.path));
const native = nativeParser(walkRules);
if (stage === 'files') {
  eachFile();
  process.exit(0);
}
const contents = stage === 'full' ? [] : files.map((f) => readFileSync(f));
const kept = contents.filter((c) => c.length <= maxBytes);
const texts = stage === 'extract' || stage === 'encode' ? kept.map((c) => c.toString('utf8')) : [];

const started = performance.now();
const cpu0 = process.cpuUsage();
if (stage === 'native') for (const c of kept) native.parse(c);
else if (stage === 'extract')
  for (let i = 0; i < kept.length; i++) extractFacts(native.parse(kept[i]), native.names, texts[i]);
else if (stage === 'encode')
  for (let i = 0; i < kept.length; i++)
    encodeFacts(extractFacts(native.parse(kept[i]), native.names, texts[i]));
else for (const abs of files) parseFile({ abs }, maxBytes);
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    repo: tree.root,
    stage,
    files: stage === 'full' ? files.length : kept.length,
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  }),
);

/** --stage files: each file's stages timed apart; the totals, then the slowest files. */
function eachFile() {
  const rows = [];
  const total = { files: 0, bytes: 0, nativeMs: 0, extractMs: 0, encodeMs: 0 };
  for (const [i, abs] of files.entries()) {
    const bytes = readFileSync(abs);
    if (bytes.length > maxBytes) continue;
    const text = bytes.toString('utf8');
    const t0 = performance.now();
    const parsed = native.parse(bytes);
    const t1 = performance.now();
    const facts = extractFacts(parsed, native.names, text);
    const t2 = performance.now();
    encodeFacts(facts);
    const t3 = performance.now();
    rows.push({
      path: tree.files[i].path,
      kb: Math.round(bytes.length / 1024),
      nativeMs: Math.round(t1 - t0),
      extractMs: Math.round(t2 - t1),
      encodeMs: Math.round(t3 - t2),
      nodes: parsed.nodes.length / 5,
      captures: parsed.captures.length / 5,
    });
    total.files++;
    total.bytes += bytes.length;
    total.nativeMs += t1 - t0;
    total.extractMs += t2 - t1;
    total.encodeMs += t3 - t2;
  }
  for (const k of ['nativeMs', 'extractMs', 'encodeMs']) total[k] = Math.round(total[k]);
  const cost = (r) => r.nativeMs + r.extractMs + r.encodeMs;
  const slowest = rows.sort((a, b) => cost(b) - cost(a)).slice(0, top);
  console.log(JSON.stringify({ repo: tree.root, stage, total }));
  for (const r of slowest)
    console.log(
      `${String(cost(r)).padStart(7)} ms  ${r.path}  ${r.kb} KB: native ${r.nativeMs}, extract ${r.extractMs}, encode ${r.encodeMs}; ${r.nodes} nodes, ${r.captures} captures`,
    );
}
