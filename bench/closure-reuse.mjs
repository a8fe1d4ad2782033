#!/usr/bin/env node
// How much of a second tree's link an incremental link could reuse from a first tree in the same
// database, at most. A package's calls, types and value flow depend on its own files and on
// everything it imports, transitively: only a package whose files (path and content) and whose
// whole import closure are unchanged keeps its link results. This script reads the two trees'
// `files` and `packages` rows and counts, for the second tree, the packages (and their files and
// bytes) with the same files as the first, and those whose whole closure is the same. Imports of
// packages the index does not hold (the standard library, vendored and module-cache code) count
// as unchanged, so the figure is an upper bound. With `--edit <package>` instead of `--first`, the
// second tree is compared with itself after an edit of that one package (what an edit there
// leaves reusable).
//
//   node bench/closure-reuse.mjs --db <db> --first <root> --second <root> [--json]
//   node bench/closure-reuse.mjs --db <db> --second <root> --edit <import path> [--json]
import { parseArgs } from 'node:util';
import sqlite3 from 'sqlite3';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    first: { type: 'string' },
    second: { type: 'string' },
    edit: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  },
});
if (!values.db || !values.second || !values.first === !values.edit) {
  console.error(
    'usage: closure-reuse.mjs --db <db> --second <root> (--first <root> | --edit <package> ...) [--json]',
  );
  process.exit(2);
}

const db = new sqlite3.Database(values.db, sqlite3.OPEN_READONLY);
const all = (sql, params) =>
  new Promise((resolve, reject) =>
    db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
  );

async function treeOf(root) {
  const [tree] = await all('SELECT id FROM trees WHERE root = ?', [root]);
  if (!tree) {
    const roots = (await all('SELECT root FROM trees')).map((r) => r.root);
    console.error(`no tree ${root} in ${values.db} (it holds: ${roots.join(', ') || 'none'})`);
    process.exit(2);
  }
  const files = new Map(); // package -> sorted "path blob" lines
  const bytes = new Map(); // package -> bytes of its files
  for (const f of await all(
    `SELECT f.path, f.blob, f.package, b.bytes FROM files f JOIN blobs b ON b.blob = f.blob
     WHERE f.tree = ? AND f.package IS NOT NULL`,
    [tree.id],
  )) {
    if (!files.has(f.package)) {
      files.set(f.package, []);
      bytes.set(f.package, 0);
    }
    files.get(f.package).push(`${f.path} ${f.blob}`);
    bytes.set(f.package, bytes.get(f.package) + f.bytes);
  }
  const imports = new Map();
  for (const p of await all('SELECT path, imports FROM packages WHERE tree = ?', [tree.id]))
    imports.set(p.path, JSON.parse(p.imports));
  for (const list of files.values()) list.sort();
  return { files, bytes, imports };
}

const second = await treeOf(values.second);
const first = values.first ? await treeOf(values.first) : undefined;
db.close();

const same = new Set();
for (const [pkg, list] of second.files) {
  if (!first) {
    if (!values.edit.includes(pkg)) same.add(pkg);
    continue;
  }
  const before = first.files.get(pkg);
  if (before && before.join('\n') === list.join('\n')) same.add(pkg);
}
for (const pkg of values.edit ?? [])
  if (!second.files.has(pkg)) {
    console.error(`no package ${pkg} in ${values.second}`);
    process.exit(2);
  }
// Unchanged closure: the package is the same, and so is every indexed package it imports. Computed
// as the complement of "reaches a changed package" over the reversed import graph.
const importers = new Map();
for (const [pkg, list] of second.imports)
  for (const dep of list) {
    if (!importers.has(dep)) importers.set(dep, []);
    importers.get(dep).push(pkg);
  }
const changed = new Set();
const queue = [...second.files.keys()].filter((p) => !same.has(p));
for (const p of queue) changed.add(p);
while (queue.length > 0) {
  for (const up of importers.get(queue.pop()) ?? [])
    if (!changed.has(up)) {
      changed.add(up);
      queue.push(up);
    }
}
const measure = (pkgs) => ({
  packages: pkgs.length,
  files: pkgs.reduce((n, p) => n + second.files.get(p).length, 0),
  bytes: pkgs.reduce((n, p) => n + second.bytes.get(p), 0),
});
const packages = [...second.files.keys()];
const result = {
  first: values.first ?? null,
  second: values.second,
  edit: values.edit ?? null,
  all: measure(packages),
  sameFiles: measure(packages.filter((p) => same.has(p))),
  sameClosure: measure(packages.filter((p) => !changed.has(p))),
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  const pct = (part) => `${((100 * part.files) / result.all.files).toFixed(1)}% of its files`;
  const line = (what, m) =>
    `${what.padEnd(34)} ${String(m.packages).padStart(6)} packages ${String(m.files).padStart(6)} files ${(m.bytes / 1e6).toFixed(1).padStart(6)} MB  (${pct(m)})`;
  const against = first ? values.first : `itself with ${values.edit.join(', ')} edited`;
  console.log(`${values.second}, against ${against}:`);
  console.log(line('indexed', result.all));
  console.log(line(first ? 'same files as the first' : 'packages not edited', result.sameFiles));
  console.log(line('same files and same import closure', result.sameClosure));
}
