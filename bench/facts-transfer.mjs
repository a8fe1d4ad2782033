#!/usr/bin/env node
// What the main thread pays for every file's facts, two ways: our decoder (inflate, then decode
// the compact form facts-codec writes), and V8's structured clone (what `postMessage` of the
// workers' objects would cost the receiving side: v8.deserialize of v8.serialize's bytes). Run
// on the stored facts of an index, each way in a fresh process (`--way decode` or `--way clone`).
//
//   node bench/facts-transfer.mjs --db index.sqlite --way decode|clone
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { decodeFacts } from '../dist/index/facts-codec.js';

const require = createRequire(import.meta.url);
const sqlite3 = require('sqlite3');

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dbPath = arg('--db');
const way = arg('--way') ?? 'decode';
if (!dbPath || !['decode', 'clone'].includes(way)) {
  console.error('usage: node bench/facts-transfer.mjs --db index.sqlite --way decode|clone');
  process.exit(2);
}
const db = new sqlite3.Database(dbPath, sqlite3.OPEN_READONLY);
const rows = await new Promise((resolve, reject) =>
  db.all('SELECT facts FROM blobs WHERE facts IS NOT NULL', (e, r) => (e ? reject(e) : resolve(r))),
);
db.close();
const blobs = rows.map((r) => new Uint8Array(r.facts));
const kept = [];
let result;
if (way === 'decode') {
  const t = performance.now();
  for (const b of blobs) kept.push(decodeFacts(b));
  result = { files: blobs.length, decodeMs: Math.round(performance.now() - t) };
} else {
  // The objects a worker would post: decoded here first, untimed.
  let objects = blobs.map((b) => decodeFacts(b));
  let t = performance.now();
  const serialized = objects.map((o) => v8.serialize(o));
  const serializeMs = Math.round(performance.now() - t);
  objects = null;
  t = performance.now();
  for (const s of serialized) kept.push(v8.deserialize(s));
  result = {
    files: blobs.length,
    serializeMs,
    deserializeMs: Math.round(performance.now() - t),
    megabytes: Math.round(serialized.reduce((n, s) => n + s.length, 0) / 1e5) / 10,
  };
}
console.log(JSON.stringify(result));
