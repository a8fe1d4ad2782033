/**
 * Runs the link phase for one parsed tree: load its facts, build the model, resolve, and replace
 * the tree's tables in one transaction.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeFacts } from '../index/facts-codec.js';
import type { IndexProgress, ParsedTree } from '../index/index-repository.js';
import type { Store } from '../store/db.js';
import { findTree, loadBlobs, replaceTree } from '../store/index-store.js';
import { LINK_VERSION, linkModel } from './link.js';
import { FACTS_VERSION } from '../index/facts.js';
import { buildModel, fixImportNames, type ModelInput } from './model.js';
import { loadFrameworkRules, rulesDir } from './rules.js';

export interface LinkTreeOptions {
  store: Store;
  parsed: ParsedTree;
  /** Extra framework rule files. */
  rules?: readonly string[];
  onProgress?: (progress: IndexProgress) => void;
}

export interface LinkSummary {
  treeId: number;
  /** True when nothing changed since the last link (same files, facts, rules): nothing was redone. */
  unchanged: boolean;
  counts: Record<string, number>;
  timings: { loadMs: number; linkMs: number; writeMs: number };
}

export async function linkTree(options: LinkTreeOptions): Promise<LinkSummary> {
  const { store, parsed } = options;
  const progress = options.onProgress ?? (() => undefined);
  const t0 = performance.now();
  const fingerprint = linkFingerprint(parsed, options.rules ?? []);
  const previous = await findTree(store, parsed.tree.root);
  if (previous) {
    const summary = JSON.parse(previous.summary) as Record<string, number> & {
      fingerprint?: string;
    };
    if (summary.fingerprint === fingerprint && previous.commit_sha === parsed.tree.commit) {
      const { fingerprint: _, importPaths: _i, dependencies: _d, ...counts } = summary;
      return {
        treeId: previous.id,
        unchanged: true,
        counts,
        timings: { loadMs: performance.now() - t0, linkMs: 0, writeMs: 0 },
      };
    }
  }
  progress({ phase: 'link', done: 0, total: parsed.files.length, bytes: 0 });
  const { link, packageOf, excluded, counts, t1 } = await loadAndLink(
    store,
    parsed,
    options.rules ?? [],
  );
  const t2 = performance.now();
  progress({ phase: 'write', done: 0, total: link.edges.length, bytes: 0 });
  const tree = parsed.tree;
  const treeId = await replaceTree(store, {
    root: tree.root,
    commit: tree.commit,
    dirty: tree.dirty,
    version: tree.version,
    module: tree.layout.rootModule,
    remote: tree.remote,
    summary: {
      ...counts,
      fingerprint,
      importPaths: tree.importPaths,
      dependencies: tree.dependencies,
    },
    files: parsed.files.map((f) => ({
      path: f.path,
      blob: f.blob,
      package: packageOf.get(f.path) ?? null,
      status: excluded.has(f.path) && f.status === 'ok' ? 'excluded' : f.status,
    })),
    symbols: link.symbols,
    edges: link.edges,
    bindings: link.bindings,
    packages: link.packages,
    made: link.made,
    details: link.details,
  });
  const t3 = performance.now();
  return {
    treeId,
    unchanged: false,
    counts,
    timings: { loadMs: t1 - t0, linkMs: t2 - t1, writeMs: t3 - t2 },
  };
}

/**
 * Loads the facts and links them. The facts and the model stay inside this function, so they are
 * garbage by the time the (long) write runs: collections during the write then walk ~1 GB less.
 */
async function loadAndLink(store: Store, parsed: ParsedTree, extraRules: readonly string[]) {
  // Blobs parsed by this run are still in memory; the others are read back from the database.
  const stored = [
    ...new Set(parsed.files.flatMap((f) => (parsed.facts.has(f.blob) ? [] : [f.blob]))),
  ];
  const blobs = await loadBlobs(store, stored);
  const inputs: ModelInput[] = [];
  for (const f of parsed.files) {
    const ready = parsed.decoded.get(f.blob);
    if (ready) {
      parsed.decoded.delete(f.blob);
      inputs.push({ path: f.path, facts: ready });
      continue;
    }
    const encoded = parsed.facts.get(f.blob) ?? blobs.get(f.blob)?.facts;
    if (!encoded) continue;
    inputs.push({ path: f.path, facts: decodeFacts(encoded) });
  }
  blobs.clear();
  // Used now; a later link of the same parse reads them from the database.
  parsed.facts.clear();
  parsed.decoded.clear();
  const t1 = performance.now();
  const model = buildModel(inputs, parsed.tree.layout);
  fixImportNames(model);
  const link = linkModel(model, loadFrameworkRules(extraRules));
  const packageOf = new Map<string, string>();
  for (const file of model.files) packageOf.set(file.path, file.pkg.path);
  const counts = {
    ...link.counts,
    files: parsed.files.length,
    packages: model.packages.size,
    functions: model.funcs.filter((f) => f.fact.kind === 'func').length,
    methods: model.funcs.filter((f) => f.fact.kind === 'method').length,
    literals: model.funcs.filter((f) => f.fact.kind === 'lit').length,
    types: [...model.packages.values()].reduce((n, p) => n + p.types.size, 0),
    excludedByBuild: model.excluded.size,
    // Files tree-sitter could not parse whole: their facts outside the errors are kept.
    syntaxErrors: parsed.files.filter((f) => f.status === 'syntax').length,
  };
  return { link, packageOf, excluded: new Set(model.excluded.keys()), counts, t1 };
}

/** Same files with the same contents, the same facts format and the same rules: same link. */
function linkFingerprint(parsed: ParsedTree, extraRules: readonly string[]): string {
  const hash = createHash('sha1').update(`link ${LINK_VERSION} facts ${FACTS_VERSION}\n`);
  for (const f of [...parsed.files].sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(`${f.path}\0${f.blob}\0${f.status}\n`);
  // Import paths and what was found outside the tree can change with no Go file changing.
  hash.update(JSON.stringify([parsed.tree.layout.modules, parsed.tree.dependencies]));
  for (const file of [path.join(rulesDir, 'frameworks.yaml'), ...extraRules]) {
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update(`missing:${file}`);
    }
  }
  return hash.digest('hex');
}
