#!/usr/bin/env node
// Where an index's CPU goes, by thread and by kind of work, from a `perf` recording: the main
// thread, the parse workers, V8's own threads (the optimizing compiler, the collector's helpers)
// and libuv's pool (SQLite). `farm-bench` gives the whole process's CPU; this splits it.
//
//   perf record -F 1000 -g -o /tmp/index.perf node --perf-basic-prof dist/cli.js index --repo R --db D
//   perf script -i /tmp/index.perf -F pid,tid,ip,sym > /tmp/index.stacks
//   node bench/cpu-threads.mjs /tmp/index.stacks [--hz 1000]
//
// A sample's kind is read off its stack: `compile` (TurboFan, V8's compiler), `gc` (the
// collector), `native` (tree-sitter and src/native/capture-walk.c), `sqlite`, `js` (JavaScript,
// V8's builtins and interpreter), else `other` (the kernel, libc, Node's C++). A thread's role:
// the process's own thread is `main`; one whose samples are mostly the native parser is a `parse
// worker`; mostly SQLite, `libuv pool`; mostly compiling or collecting, `V8 platform`.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const hzAt = args.indexOf('--hz');
const hz = hzAt >= 0 ? Number(args[hzAt + 1]) : 1000;
if (!file || !(hz > 0)) {
  console.error(
    'usage: node bench/cpu-threads.mjs STACKS [--hz 1000]  (STACKS: perf script -F pid,tid,ip,sym)',
  );
  process.exit(2);
}

const KINDS = ['js', 'native', 'gc', 'compile', 'sqlite', 'other'];

function kindOf(frames) {
  const s = frames.join(' ');
  if (/compiler::|Pipeline|Turbofan|Maglev|OptimizedCompilationJob|Compiler::/.test(s))
    return 'compile';
  if (
    /Scaveng|Marking|MarkCompact|Sweep|Heap::|Evacuat|GCTracer|MemoryAllocator|RememberedSet|MinorMC|ArrayBufferSweeper/.test(
      s,
    )
  )
    return 'gc';
  if (/\bts_|capture-walk|k8s_read_native|^parse$| parse /.test(s) && !/JS:/.test(frames[0] ?? ''))
    return 'native';
  if (/sqlite3|jsonb?[A-Z]|Vdbe|btree|Btree|pager|Pager/.test(s)) return 'sqlite';
  if (/JS:|Builtins_|Interpreter|Runtime_/.test(frames[0] ?? '') || /JS:/.test(s)) return 'js';
  return 'other';
}

const threads = new Map();
let pid = null;
for (const sample of readFileSync(file, 'utf8').split('\n\n')) {
  const lines = sample.trim().split('\n');
  const head = lines[0]?.trim().split(/\s+/);
  if (!head || head.length < 1 || !head[0]) continue;
  // `perf script -F pid,tid,ip,sym`: "PID/TID" on the sample's first line, a frame a line after it.
  const [p, t] = head[0].includes('/') ? head[0].split('/') : [head[0], head[1]];
  if (pid === null) pid = p;
  if (p !== pid) continue; // a child process (git): not the index's own CPU
  const frames = lines.slice(1).map((l) => l.trim().split(/\s+/).slice(1).join(' '));
  const row = threads.get(t) ?? Object.fromEntries(KINDS.map((k) => [k, 0]));
  row[kindOf(frames)]++;
  threads.set(t, row);
}

const total = (row) => KINDS.reduce((n, k) => n + row[k], 0);
function roleOf(tid, row) {
  if (tid === pid) return 'main';
  const n = total(row);
  if (row.native > n / 4) return 'parse worker';
  if (row.sqlite > n / 2) return 'libuv pool';
  return 'V8 platform';
}

const roles = new Map();
for (const [tid, row] of threads) {
  const role = roleOf(tid, row);
  const sum = roles.get(role) ?? { threads: 0, ...Object.fromEntries(KINDS.map((k) => [k, 0])) };
  sum.threads++;
  for (const k of KINDS) sum[k] += row[k];
  roles.set(role, sum);
}
const s = (n) => (n / hz).toFixed(1);
const all = [...roles.values()].reduce((n, r) => n + total(r), 0);
console.log(`| role | threads | CPU s | ${KINDS.join(' | ')} |`);
console.log(`| --- | --- | --- | ${KINDS.map(() => '---').join(' | ')} |`);
for (const [role, r] of [...roles].sort((a, b) => total(b[1]) - total(a[1])))
  console.log(
    `| ${role} | ${r.threads} | ${s(total(r))} | ${KINDS.map((k) => s(r[k])).join(' | ')} |`,
  );
const sums = Object.fromEntries(
  KINDS.map((k) => [k, [...roles.values()].reduce((n, r) => n + r[k], 0)]),
);
console.log(`| all | ${threads.size} | ${s(all)} | ${KINDS.map((k) => s(sums[k])).join(' | ')} |`);
