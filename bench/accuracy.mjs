#!/usr/bin/env node
// Precision and recall of our call edges against the type-checked VTA call graph of
// golang.org/x/tools/cmd/callgraph (method in docs/accuracy.md). Needs a VTA dump made with:
//   cd <kubernetes> && GOFLAGS=-mod=vendor callgraph -algo=vta \
//     -format='{{.Caller}}\t{{.Callee}}\t{{.Filename}}:{{.Line}}' ./cmd/kube-scheduler > vta.tsv
//
//   node bench/accuracy.mjs --repo <kubernetes> --db <index.sqlite> --vta vta.tsv [--component kube-scheduler] [--module k8s.io/kubernetes]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../dist/store/db.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repo = arg('--repo', '/tmp/k/SeeTheWorld1+kubernetes');
const db = arg('--db', '/tmp/k/k8s.sqlite');
const vtaFile = arg('--vta', '/tmp/k/vta-sched.tsv');
const component = arg('--component', 'kube-scheduler');
const module = arg('--module', 'k8s.io/kubernetes');
const inModule = (s) => {
  const bare = s.replace(/^\(\*?/, '');
  return bare.startsWith(`${module}/`) || bare.startsWith(`${module}.`);
};
// VTA prints method-value and interface wrappers; compare the functions they stand for.
const normalize = (s) => s.replace(/\$(bound|thunk)$/, '').replace(/^\(\*?([^)]*)\)\.(\w+)\$bound$/, '($1).$2');

const vta = new Map();
/** `caller@file:line` -> callees VTA found at that call site. */
const vtaSites = new Map();
for (const line of readFileSync(vtaFile, 'utf8').split('\n')) {
  const [caller, callee, pos] = line.split('\t');
  if (!caller || !callee) continue;
  const a = normalize(caller);
  const b = normalize(callee);
  if (!vta.has(a)) vta.set(a, new Set());
  vta.get(a).add(b);
  // VTA prints staging files through the vendor/ symlinks.
  const site = (pos ?? '').replace(`${repo}/`, '').replace(/^vendor\/k8s\.io\/([^/]+)\//, 'staging/src/k8s.io/$1/').replace(/:\d+$/, (m) => m);
  const key = `${a}@${site.replace(/:(\d+):\d+$/, ':$1')}`;
  if (!vtaSites.has(key)) vtaSites.set(key, new Set());
  vtaSites.get(key).add(b);
}
/** Whether VTA resolved this call site to anything at all (else it lost the flow there). */
const vtaSilentAt = (caller, site) => !vtaSites.has(`${caller}@${site}`);
const hasVta = (a, b) => vta.get(a)?.has(b) ?? false;

function trace(extra) {
  const r = spawnSync(process.execPath, [path.join(here, '..', 'dist', 'cli.js'), 'trace', component, '--repo', repo, '--db', db, '-o', 'json', ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

function precision(t) {
  const edges = t.edges.filter((e) => inModule(e.caller) && inModule(e.callee));
  const plain = edges.filter((e) => e.kind !== 'framework');
  const framework = edges.filter((e) => e.kind === 'framework');
  const misses = plain.filter((e) => !hasVta(e.caller, e.callee));
  // An edge VTA lacks at a call site where VTA found no callee at all is not a contradiction:
  // the type-checked analysis lost the values flowing there (plugins built by registered
  // factories, frameworks kept in maps). Precision on the sites VTA did resolve is the fair one.
  const silent = misses.filter((e) => vtaSilentAt(e.caller, e.site));
  const contradicted = misses.filter((e) => !vtaSilentAt(e.caller, e.site));
  const comparable = plain.length - silent.length;
  const byKind = {};
  for (const e of plain) {
    const k = (byKind[e.kind] ??= { edges: 0, inVta: 0 });
    k.edges++;
    if (hasVta(e.caller, e.callee)) k.inVta++;
  }
  return {
    edges: plain.length,
    inVta: plain.length - misses.length,
    precision: plain.length ? +(1 - misses.length / plain.length).toFixed(4) : null,
    vtaSilentSites: silent.length,
    comparableEdges: comparable,
    precisionWhereVtaResolved: comparable ? +(1 - contradicted.length / comparable).toFixed(4) : null,
    contradicted: contradicted.map((e) => `${e.caller} -> ${e.callee} (${e.kind}) ${e.site}; VTA there: ${[...(vtaSites.get(`${e.caller}@${e.site}`) ?? [])].join(', ')}`),
    byKind,
    framework: { edges: framework.length, alsoInVtaDirectly: framework.filter((e) => hasVta(e.caller, e.callee)).length },
    notInVta: misses.map((e) => `${e.caller} -> ${e.callee} (${e.kind}) ${e.site}`),
  };
}

const spine = trace([]);
const all = trace(['--all']);
const spineSymbols = spine.nodes.map((n) => n.symbol).filter(inModule);

// Recall: VTA's edges out of the spine's functions into the module, against our whole graph.
const store = await Store.open(db, { create: false });
const tree = await store.get('SELECT id FROM trees WHERE root = ?', [repo]);
const ours = new Map();
const rows = await store.all(
  `SELECT a.symbol AS caller, b.symbol AS callee, e.rank AS rank, e.kind AS kind FROM edges e JOIN symbols a ON a.tree = e.tree AND a.id = e.caller
   JOIN symbols b ON b.tree = e.tree AND b.id = e.callee WHERE e.tree = ? AND a.symbol IN (SELECT value FROM json_each(?))`,
  [tree.id, JSON.stringify(spineSymbols)],
);
for (const r of rows) {
  if (!ours.has(r.caller)) ours.set(r.caller, new Map());
  const m = ours.get(r.caller);
  m.set(r.callee, Math.min(m.get(r.callee) ?? 99, r.rank));
}
await store.close();
let expected = 0;
let found = 0;
let foundWithAlternatives = 0;
const missed = [];
for (const caller of spineSymbols) {
  for (const callee of vta.get(caller) ?? []) {
    if (!inModule(callee)) continue;
    expected++;
    const rank = ours.get(caller)?.get(callee);
    if (rank === 0) found++;
    if (rank !== undefined) foundWithAlternatives++;
    else missed.push(`${caller} -> ${callee}`);
  }
}

console.log(
  JSON.stringify(
    {
      component,
      vtaEdges: [...vta.values()].reduce((n, s) => n + s.size, 0),
      spine: { nodes: spine.nodes.length, ...precision(spine) },
      all: { nodes: all.nodes.length, ...precision(all), notInVta: precision(all).notInVta.slice(0, 60) },
      recall: {
        vtaEdgesFromSpine: expected,
        found,
        recall: expected ? +(found / expected).toFixed(4) : null,
        foundCountingAlternatives: foundWithAlternatives,
        recallCountingAlternatives: expected ? +(foundWithAlternatives / expected).toFixed(4) : null,
        missed: missed.slice(0, 80),
      },
    },
    null,
    2,
  ),
);
