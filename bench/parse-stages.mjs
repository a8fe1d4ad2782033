#!/usr/bin/env node
// What one parse worker's job costs, stage by stage: every file `index` parses, on one thread,
// stopped after a stage. Compare with bench/parse-floor.mjs (tree-sitter alone, through
// node-tree-sitter) to see what the capture walk, extraction and encoding add to the parse.
//
//   node bench/parse-stages.mjs --repo /tmp/trees/k124 --stage native|extract|encode|full
//
// native: our native parse (tree-sitter and the capture walk, src/native/capture-walk.c);
// extract: and the facts built from it (src/index/extract.ts); encode: and the facts encoded and
// deflated as a worker sends them (src/index/facts-codec.ts); full: src/index/parse-file.ts
// whole (read, blob id, UTF-8 check and all the above). The first three read the files before
// the clock starts. Prints one line of JSON.
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
if (!repo || !['native', 'extract', 'encode', 'full'].includes(stage)) {
  console.error('usage: node bench/parse-stages.mjs --repo DIR --stage native|extract|encode|full');
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
const tree = await discoverTree(path.resolve(repo), {});
const files = tree.files.map((f) => f.abs ?? path.join(tree.root, f.path));
const native = nativeParser(walkRules);
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
