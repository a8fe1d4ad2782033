#!/usr/bin/env node
// Precision and recall of our call edges against the type-checked VTA call graph of
// golang.org/x/tools/cmd/callgraph (method in docs/accuracy.md). Needs a VTA dump made with:
//   cd <kubernetes> && GOFLAGS=-mod=vendor callgraph -algo=vta \
//     -format='{{.Caller}}\t{{.Callee}}\t{{.Filename}}:{{.Line}}:{{.Column}}' ./cmd/kube-scheduler > vta.tsv
// Use a recent callgraph (x/tools v0.17.0; docs/accuracy.md says how to build it with Debian's Go
// 1.19): Debian's v0.5 VTA loses the scheduler's frameworks. `-algo=pta`, the pointer analysis,
// works as well; `:{{.Column}}` may be left out, and call sites are then compared by line only.
//
//   node bench/accuracy.mjs --repo <kubernetes> --db <index.sqlite> --vta vta.tsv [--vta pta.tsv] [--component kube-scheduler] [--module k8s.io/kubernetes] [--tags providerless] [--oracle-root <dir>]
//
// A tree before go.mod (v1.14) is analysed in GOPATH mode, from $GOPATH/src/k8s.io/kubernetes:
//   cd $GP/src/k8s.io/kubernetes && GO111MODULE=off GOPATH=$GP callgraph -algo=vta -format=... ./cmd/kube-scheduler
// `--oracle-root $GP/src/k8s.io/kubernetes` says where the oracle's file names start; its vendored
// packages (`k8s.io/kubernetes/vendor/k8s.io/client-go/...`) are named by their import paths.
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
// Several dumps (`--vta vta.tsv --vta pta.tsv`) are one oracle: an edge either analysis found is
// an edge of a type-checked call graph. VTA and the pointer analysis lose different flows (VTA:
// the frameworks kept in profile.Map; PTA: the plugins appended by reflection).
const vtaFiles = process.argv.flatMap((a, i) =>
  a === '--vta' && process.argv[i + 1] ? [process.argv[i + 1]] : [],
);
if (vtaFiles.length === 0) vtaFiles.push('/tmp/k/vta-sched.tsv');
const component = arg('--component', 'kube-scheduler');
const module = arg('--module', 'k8s.io/kubernetes');
const oracleRoot = arg('--oracle-root', repo);
const inModule = (s) => {
  const bare = s.replace(/^\(\*?/, '');
  return bare.startsWith(`${module}/`) || bare.startsWith(`${module}.`);
};
// VTA prints method-value and interface wrappers; compare the functions they stand for.
// GOPATH mode names a vendored package by its directory (`<module>/vendor/<import path>`).
const vendored = new RegExp(`(^|\\(\\*?|\\[)${module.replace(/\./g, '\\.')}/vendor/`, 'g');
const normalize = (s) =>
  s
    .replace(vendored, '$1')
    .replace(/\$(bound|thunk)$/, '')
    .replace(/^\(\*?([^)]*)\)\.(\w+)\$bound$/, '($1).$2');

const vta = new Map();
/** `caller@file:line` -> callees VTA found at that call site. */
const vtaSites = new Map();
for (const line of vtaFiles.flatMap((f) => readFileSync(f, 'utf8').split('\n'))) {
  const [caller, callee, pos] = line.split('\t');
  if (!caller || !callee) continue;
  const a = normalize(caller);
  const b = normalize(callee);
  if (!vta.has(a)) vta.set(a, new Set());
  vta.get(a).add(b);
  // VTA prints staging files through the vendor/ symlinks.
  // `file:line` or `file:line:column` (the column of the call's `(`, 1-based, as go/token counts).
  const site = (pos ?? '')
    .replace(`${oracleRoot}/`, '')
    .replace(/^vendor\/k8s\.io\/([^/]+)\//, 'staging/src/k8s.io/$1/');
  for (const key of [`${a}@${site}`, `${a}@${site.replace(/:(\d+):\d+$/, ':$1')}`]) {
    if (!vtaSites.has(key)) vtaSites.set(key, new Set());
    vtaSites.get(key).add(b);
  }
}
const oracleHasColumns = [...vtaSites.keys()].some((k) => /:\d+:\d+$/.test(k));
const sourceLines = new Map();
/** The 1-based column of the `(` that follows the callee name starting at 0-based `col`. */
function lparenColumn(file, line, col) {
  if (!sourceLines.has(file)) {
    try {
      sourceLines.set(file, readFileSync(path.join(repo, file), 'utf8').split('\n'));
    } catch {
      sourceLines.set(file, []);
    }
  }
  const text = sourceLines.get(file)[line - 1] ?? '';
  let i = col;
  while (i < text.length && /[\w.]/.test(text[i])) i++;
  return text[i] === '(' || text[i] === '[' ? i + 1 : undefined;
}
/**
 * Whether the oracle resolved this call site to anything at all (else it lost the flow there).
 * With columns, the call is told apart from the other calls on its line.
 */
const vtaSilentAt = (caller, site, col) => {
  const [file, line] = site.split(':');
  const lparen =
    oracleHasColumns && col !== undefined ? lparenColumn(file, Number(line), col) : undefined;
  return lparen === undefined
    ? !vtaSites.has(`${caller}@${site}`)
    : !vtaSites.has(`${caller}@${site}:${lparen}`);
};
const hasVta = (a, b) => vta.get(a)?.has(b) ?? false;

// `--tags providerless`, the oracle's build tags: a function declared in a file constrained by
// `//go:build !providerless` (v1.24's legacy cloud volume plugins, the legacy node IPAM) is not in
// the oracle's program, so an edge from or into it can be neither confirmed nor denied. Such
// edges are counted apart (`outsideOracleBuild`), not in the precision. Only that plain `!tag`
// form is read (no `||`).
const oracleTags = process.argv.flatMap((a, i) =>
  a === '--tags' && process.argv[i + 1] ? process.argv[i + 1].split(',') : [],
);
const fileExcluded = new Map();
function excludedFile(file) {
  if (oracleTags.length === 0 || !file) return false;
  if (!fileExcluded.has(file)) {
    let build;
    try {
      build = /^\/\/go:build (.*)$/m.exec(readFileSync(path.join(repo, file), 'utf8'))?.[1];
    } catch {
      build = undefined;
    }
    fileExcluded.set(
      file,
      build !== undefined &&
        !build.includes('||') &&
        oracleTags.some((tag) => new RegExp(`(^|[ (&])!${tag}\\b`).test(build)),
    );
  }
  return fileExcluded.get(file);
}

/** The package of a function symbol: `(*p.T).M`, `p.F$1`, `(p.T[K]).M` -> `p`. */
function packageOf(symbol) {
  const bare = symbol.replace(/^\(\*?/, '').replace(/[)[].*$/, '');
  const slash = bare.lastIndexOf('/');
  const dot = bare.indexOf('.', slash + 1);
  return dot < 0 ? bare : bare.slice(0, dot);
}
// Under the oracle's tags a whole package can leave its program: v1.24's portworx and rbd volume
// plugins are imported only by `//go:build !providerless` files. A call into such a package (a
// plugin's method behind an interface) is in the default build, which the index reads, and cannot
// be confirmed or denied by an oracle that never loaded the package: counted apart with the
// edges of excluded files. The import closure check (bench/import-closure.mjs) covers it instead.
const oraclePackages = new Set();
for (const [caller, callees] of vta) {
  oraclePackages.add(packageOf(caller));
  for (const c of callees) oraclePackages.add(packageOf(c));
}
const outsideOracleProgram = (symbol) =>
  oracleTags.length > 0 && !oraclePackages.has(packageOf(symbol));

function trace(extra) {
  const r = spawnSync(
    process.execPath,
    [
      path.join(here, '..', 'dist', 'cli.js'),
      'trace',
      component,
      '--repo',
      repo,
      '--db',
      db,
      '-o',
      'json',
      ...extra,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

function precision(t) {
  // A call of an interface's method (no stored value decides the implementation) and the hops from
  // that method to its implementations are not edges between two functions.
  const dispatch = new Set(
    t.edges.filter((e) => interfaceMethods.has(e.caller) || interfaceMethods.has(e.callee)),
  );
  const inBoth = t.edges.filter(
    (e) => inModule(e.caller) && inModule(e.callee) && !dispatch.has(e),
  );
  const fileOf = new Map(t.nodes.map((n) => [n.symbol, n.file]));
  const outsideBuild = new Set(
    inBoth.filter(
      (e) =>
        excludedFile(fileOf.get(e.caller)) ||
        excludedFile(fileOf.get(e.callee)) ||
        outsideOracleProgram(e.callee),
    ),
  );
  const edges = inBoth.filter((e) => !outsideBuild.has(e));
  // A channel hand-off (a send to the function that receives it) is no call: no call graph has it,
  // so it is counted beside, as framework hops are, and read against the source.
  const plain = edges.filter((e) => e.kind !== 'framework' && e.kind !== 'channel');
  const framework = edges.filter((e) => e.kind === 'framework');
  const channel = edges.filter((e) => e.kind === 'channel');
  const misses = plain.filter((e) => !hasVta(e.caller, e.callee));
  // An edge VTA lacks at a call site where VTA found no callee at all is not a contradiction:
  // the type-checked analysis lost the values flowing there (plugins built by registered
  // factories, frameworks kept in maps). Precision on the sites VTA did resolve is the fair one.
  const silent = misses.filter((e) => vtaSilentAt(e.caller, e.site, columnOf(e)));
  const contradicted = misses.filter((e) => !vtaSilentAt(e.caller, e.site, columnOf(e)));
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
    precisionWhereVtaResolved: comparable
      ? +(1 - contradicted.length / comparable).toFixed(4)
      : null,
    contradicted: contradicted.map(
      (e) =>
        `${e.caller} -> ${e.callee} (${e.kind}) ${e.site}; VTA there: ${[...(vtaSites.get(`${e.caller}@${e.site}`) ?? [])].join(', ')}`,
    ),
    byKind,
    framework: {
      edges: framework.length,
      alsoInVtaDirectly: framework.filter((e) => hasVta(e.caller, e.callee)).length,
    },
    channelHandOffs: channel.map((e) => `${e.caller} -> ${e.callee} ${e.site}`),
    interfaceMethodHops: dispatch.size,
    ...(oracleTags.length > 0 ? { outsideOracleBuild: outsideBuild.size } : {}),
    oracleColumns: oracleHasColumns,
    notInVta: misses.map((e) => `${e.caller} -> ${e.callee} (${e.kind}) ${e.site}`),
  };
}

const spine = trace([]);
const all = trace(['--all', ...(arg('--all-depth') ? ['--depth', arg('--all-depth')] : [])]);
const spineSymbols = spine.nodes.map((n) => n.symbol).filter(inModule);

const store = await Store.open(db, { create: false });
const tree = await store.get('SELECT id FROM trees WHERE root = ?', [repo]);
const interfaceMethods = new Set(
  (
    await store.all(`SELECT symbol FROM symbols WHERE tree = ? AND kind = 'imethod'`, [tree.id])
  ).map((r) => r.symbol),
);
/** Our call sites' columns (of the callee's name), by caller, callee and file:line. */
const columns = new Map();
{
  const ids = await store.all(
    `SELECT id, symbol FROM symbols WHERE tree = ? AND symbol IN (SELECT value FROM json_each(?))`,
    [tree.id, JSON.stringify(all.nodes.map((n) => n.symbol))],
  );
  const symbolOf = new Map(ids.map((r) => [r.id, r.symbol]));
  const rows = await store.all(
    `SELECT caller, callee, file, line, col FROM edges WHERE tree = ? AND caller IN (SELECT value FROM json_each(?))`,
    [tree.id, JSON.stringify(ids.map((r) => r.id))],
  );
  for (const r of rows) {
    const key = `${symbolOf.get(r.caller)} ${symbolOf.get(r.callee)} ${r.file}:${r.line}`;
    if (!columns.has(key)) columns.set(key, r.col);
  }
}
const columnOf = (e) => columns.get(`${e.caller} ${e.callee} ${e.site}`);

// Recall: VTA's edges out of the spine's functions into the module, against our whole graph.
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
// Calls through a parameter are resolved per call path, in the trace: its edges count too, those
// of `--all` (depth 12) and those of the default view (depth 40, its folded calls left out).
for (const e of [...all.edges, ...spine.edges]) {
  if (!ours.has(e.caller)) ours.set(e.caller, new Map());
  ours.get(e.caller).set(e.callee, 0);
  for (const alt of e.alternatives) {
    const m = ours.get(e.caller);
    if (!m.has(alt)) m.set(alt, 1);
  }
}
await store.close();
let expected = 0;
let found = 0;
let foundWithAlternatives = 0;
let errorDispatch = 0;
const missed = [];
const onlyAlternatives = [];
for (const caller of spineSymbols) {
  for (const callee of vta.get(caller) ?? []) {
    if (!inModule(callee)) continue;
    // `err.Error()` on the built-in error interface: VTA lists every error type that reaches the
    // value, k8s-read does not expand `error` (it would list every type with an Error method).
    if (/\)\.Error$/.test(callee) && !ours.get(caller)?.has(callee)) {
      errorDispatch++;
      continue;
    }
    expected++;
    const rank = ours.get(caller)?.get(callee);
    if (rank === 0) found++;
    if (rank !== undefined) foundWithAlternatives++;
    else missed.push(`${caller} -> ${callee}`);
    if (rank !== undefined && rank !== 0) onlyAlternatives.push(`${caller} -> ${callee}`);
  }
}

console.log(
  JSON.stringify(
    {
      component,
      oracles: vtaFiles,
      vtaEdges: [...vta.values()].reduce((n, s) => n + s.size, 0),
      spine: { nodes: spine.nodes.length, ...precision(spine) },
      all: {
        nodes: all.nodes.length,
        ...precision(all),
        notInVta: precision(all).notInVta.slice(0, 60),
      },
      recall: {
        vtaEdgesFromSpine: expected,
        found,
        recall: expected ? +(found / expected).toFixed(4) : null,
        foundCountingAlternatives: foundWithAlternatives,
        recallCountingAlternatives: expected
          ? +(foundWithAlternatives / expected).toFixed(4)
          : null,
        errorDispatchExcluded: errorDispatch,
        missed: missed.slice(0, 80),
        // VTA's edges we list only as alternatives (rank > 0).
        onlyAlternatives: onlyAlternatives.slice(0, 120),
      },
    },
    null,
    2,
  ),
);
