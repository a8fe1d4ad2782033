/**
 * Runs the link phase for one parsed tree: load its facts, build the model, resolve, and replace
 * the tree's tables in one transaction.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IndexProgress, ParsedTree } from '../index/index-repository.js';
import { dirOf } from '../shared/repo-path.js';
import { linkerId } from './linker-id.js';
import type { Store } from '../store/db.js';
import {
  findTree,
  loadBlobs,
  refreshTree,
  replaceTree,
  treeFileBlobs,
  type TreeReplacement,
} from '../store/index-store.js';
import { TRACE_PACK_VERSION } from '../store/trace-pack.js';
import type { LinkPass, LinkStart, startLink as StartLink } from './link.js';
import type { ModelInput, ProgramModel } from './model.js';
import type { FrameworkRule } from './rules.js';

export interface LinkTreeOptions {
  store: Store;
  parsed: ParsedTree;
  /** Extra framework rule files. */
  rules?: readonly string[];
  onProgress?: (progress: IndexProgress) => void;
  /** Told what went wrong beside the index that did not stop it. */
  onWarning?: (message: string) => void;
  /** How the tree was indexed (flags), kept in its summary for the next run to follow. */
  choices?: unknown;
}

export interface LinkSummary {
  treeId: number;
  /** True when nothing changed since the last link (same files, facts, rules): nothing was redone. */
  unchanged: boolean;
  /** When unchanged: the files whose content changed while their facts did not (0: none changed). */
  sameFacts: number;
  counts: Record<string, number>;
  timings: { loadMs: number; linkMs: number; writeMs: number };
}

/** What each of the link's passes over the calls is said to do. */
const LINK_PASSES: Record<LinkPass, string> = {
  arguments: 'following arguments',
  calls: 'linking calls',
};

export async function linkTree(options: LinkTreeOptions): Promise<LinkSummary> {
  const { store, parsed } = options;
  const progress = options.onProgress ?? (() => undefined);
  const t0 = performance.now();
  const fingerprint = linkFingerprint(parsed, options.rules ?? []);
  const previous = await findTree(store, parsed.tree.root);
  if (previous) {
    const summary = JSON.parse(previous.summary) as Record<string, number> & {
      fingerprint?: string;
      linker?: string;
      choices?: unknown;
    };
    // An index whose summary names another linker (or none, from before names) is linked again,
    // whatever its fingerprint says: read commands trust that name too. Another commit with the
    // same facts (its files the same: a commit of the files indexed with local edits, one that
    // changed only tests, docs or the version of a module whose files are not indexed; or files
    // changed where no fact did, a comment) links the same: its rows stand, and the tree's row
    // names the new commit.
    const moved =
      summary.linker !== linkerId()
        ? undefined
        : summary.fingerprint === fingerprint
          ? []
          : await filesWithSameFacts(
              store,
              previous.id,
              parsed,
              (old) => linkFingerprint(parsed, options.rules ?? [], old) === summary.fingerprint,
            );
    if (moved) {
      const tree = parsed.tree;
      await refreshTree(
        store,
        previous.id,
        {
          commit: tree.commit,
          dirty: tree.dirty,
          version: tree.version,
          module: tree.layout.rootModule,
          remote: tree.remote,
          // The same keys in the same order: unchanged, the text is the one stored.
          summary: JSON.stringify({
            ...summary,
            fingerprint,
            importPaths: tree.importPaths,
            dependencies: tree.dependencies,
            choices: options.choices,
          }),
        },
        moved,
      );
      const {
        fingerprint: _,
        linker: _l,
        importPaths: _i,
        dependencies: _d,
        choices: _c,
        ...counts
      } = summary;
      return {
        treeId: previous.id,
        unchanged: true,
        sameFacts: moved.length,
        counts,
        timings: { loadMs: performance.now() - t0, linkMs: 0, writeMs: 0 },
      };
    }
  }
  // The resolver (and the rules' schema) load only for a link: a re-index with nothing changed
  // ends above, without them (they are most of its start-up).
  const { finishLink, startLink } = await import('./link.js');
  const { loadFrameworkRules } = await import('./rules.js');
  // Before anything is written: a rules file that cannot be read fails here.
  const rules = loadFrameworkRules(options.rules ?? []);
  // No local of this (async) function holds the model: it lives on only in `loaded.start`, which
  // the link drops once its rows are made, so collections during the rest of the write walk less.
  const loaded: LoadedModel = await loadModel(store, parsed, progress);
  const t1 = performance.now();
  const files = parsed.files.length;
  progress({ phase: 'load', step: 'checking types', done: files, total: files, bytes: 0 });
  const early = startWithRows(loaded, rules, parsed, startLink);
  let linkMs = performance.now() - t1;
  const { modelCounts } = loaded;
  const tree = parsed.tree;
  let counts: Record<string, number> = {};
  const t2 = performance.now();
  const treeId = await replaceTree(store, {
    root: tree.root,
    commit: tree.commit,
    dirty: tree.dirty,
    version: tree.version,
    module: tree.layout.rootModule,
    remote: tree.remote,
    ...(options.onWarning ? { warn: options.onWarning } : {}),
    early,
    link: async (edges) => {
      const t = performance.now();
      const link = await finishLink(loaded.start!, edges, (pass, done, total) =>
        progress({ phase: 'link', step: LINK_PASSES[pass], done, total, bytes: 0 }),
      );
      loaded.start = undefined;
      // The model is garbage now, but V8 would keep its pages through the write, the index's
      // peak: collected here, the write reuses them (v1.24's peak 40-85 MiB lower, for ~130 ms).
      const { collectGarbage } = await import('../shared/collect-garbage.js');
      collectGarbage();
      // What malloc keeps free after the load and the link (the facts' inflated buffers, SQLite's
      // reads) would stay resident through the write too: ~45 MiB for v1.24.
      const { trimNativeMemory } = await import('../index/native.js');
      trimNativeMemory();
      linkMs += performance.now() - t;
      progress({ phase: 'write', done: 0, total: link.edges.length, bytes: 0 });
      counts = { ...link.counts, ...modelCounts };
      return {
        summary: {
          ...counts,
          fingerprint,
          linker: linkerId(),
          importPaths: tree.importPaths,
          dependencies: tree.dependencies,
          choices: options.choices,
        },
        symbols: link.symbols,
        edges: link.edges,
        bindings: link.bindings,
        made: link.made,
      };
    },
  });
  const t3 = performance.now();
  return {
    treeId,
    unchanged: false,
    sameFacts: 0,
    counts,
    // The write of the declarations runs beside the link: `write` is what it adds to the link.
    timings: { loadMs: t1 - t0, linkMs, writeMs: t3 - t2 - (linkMs - (t2 - t1)) },
  };
}

/**
 * Starts the link (in `loaded.start`, which takes the model over) and hands back the rows known
 * already, for the store to write and drop during the rest: no local holds either.
 */
function startWithRows(
  loaded: LoadedModel,
  rules: readonly FrameworkRule[],
  parsed: ParsedTree,
  startLink: typeof StartLink,
): TreeReplacement['early'] {
  const { start, rows } = startLink(loaded.model!, rules);
  loaded.start = start;
  loaded.model = undefined;
  const files = parsed.files.map((f) => ({
    path: f.path,
    blob: f.blob,
    package: loaded.packageOf.get(f.path) ?? null,
    status: loaded.excluded.has(f.path) && f.status === 'ok' ? 'excluded' : f.status,
  }));
  return { files, ...rows };
}

interface LoadedModel {
  model?: ProgramModel;
  /** The link's first part, once made (it holds the model). */
  start?: LinkStart;
  packageOf: Map<string, string>;
  excluded: Set<string>;
  modelCounts: Record<string, number>;
}

/**
 * Decodes the facts and builds the model. The facts live
 * on only in the model, which the link drops once its rows are made.
 */
async function loadModel(
  store: Store,
  parsed: ParsedTree,
  progress: (progress: IndexProgress) => void,
): Promise<LoadedModel> {
  const [{ decodeFacts }, { buildModel, fixImportNames }] = await Promise.all([
    import('../index/facts-codec.js'),
    import('./model.js'),
  ]);
  // Blobs parsed by this run are still in memory; the others are read back from the database.
  const stored = [
    ...new Set(parsed.files.flatMap((f) => (parsed.facts.has(f.blob) ? [] : [f.blob]))),
  ];
  const blobs = await loadBlobs(store, stored);
  const inputs: ModelInput[] = [];
  const total = parsed.files.length;
  const loading = (done: number) =>
    progress({ phase: 'load', step: 'loading facts', done, total, bytes: 0 });
  loading(0);
  for (let i = 0; i < total; i++) {
    const f = parsed.files[i]!;
    // Decoded during the parse, for one file of each blob: two files never share facts objects
    // (the type checker keeps answers per expression object).
    const early = parsed.decoded.get(f.blob);
    if (early) {
      parsed.decoded.delete(f.blob);
      inputs.push({ path: f.path, facts: early });
    } else {
      const encoded = parsed.facts.get(f.blob) ?? blobs.get(f.blob)?.facts;
      if (encoded) inputs.push({ path: f.path, facts: decodeFacts(encoded) });
    }
    if (i % 256 === 255) loading(i + 1);
  }
  loading(total);
  blobs.clear();
  // Used now; a later link of the same parse reads them from the database.
  parsed.facts.clear();
  parsed.decoded.clear();
  const model = buildModel(inputs, parsed.tree.layout);
  fixImportNames(model);
  const packageOf = new Map<string, string>();
  for (const file of model.files) packageOf.set(file.path, file.pkg.path);
  const modelCounts = {
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
  return { model, packageOf, excluded: new Set(model.excluded.keys()), modelCounts };
}

/**
 * Same files with the same contents and import paths, the same facts format and the same rules:
 * same link.
 */
function linkFingerprint(
  parsed: ParsedTree,
  extraRules: readonly string[],
  /** Blobs to take instead of some files' own (by path): filesWithSameFacts asks with the old. */
  blobOf: ReadonlyMap<string, string> = new Map(),
): string {
  // The linker (its versions and built-in rules), and the trace's record, written with the
  // link: a new layout of it relinks too.
  const hash = createHash('sha1').update(`${linkerId()} trace-pack ${TRACE_PACK_VERSION}\n`);
  // Each file with its package's import path, which can change with no Go file changing (a
  // module renamed): of the module layout that is all the link reads. What was found outside the
  // tree reaches it as files (under _deps/, listed here) with their import paths; the go
  // directive, how each path was found and the report of versions, missing packages and warnings
  // describe the checkout, as its commit does, and are rewritten without a link (a go.mod that
  // only bumps a version).
  const { layout } = parsed.tree;
  for (const f of [...parsed.files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    hash.update(
      `${f.path}\0${blobOf.get(f.path) ?? f.blob}\0${f.status}\0${layout.importPathOf(dirOf(f.path))}\n`,
    );
  }
  for (const file of extraRules) {
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update(`missing:${file}`);
    }
  }
  return hash.digest('hex');
}

/** Pairs of stored facts compared at once: a second release differs in its first pair or so. */
const FACTS_COMPARED = 32;

/**
 * The files whose blob changed since the tree's last link while their facts did not (a comment
 * edited in place), when those are the only changes: `matches` is told the old blob of each, and
 * says whether the last link's fingerprint then comes out, which covers the paths, the statuses,
 * the layout and the rules. The link reads the facts alone, so it would make the same rows.
 * Undefined when anything else changed; the facts are read (both are stored already) only then.
 */
async function filesWithSameFacts(
  store: Store,
  treeId: number,
  parsed: ParsedTree,
  matches: (oldBlobs: ReadonlyMap<string, string>) => boolean,
): Promise<{ path: string; blob: string }[] | undefined> {
  const before = await treeFileBlobs(store, treeId);
  if (before.size !== parsed.files.length) return undefined;
  const changed = parsed.files.filter((f) => before.get(f.path) !== f.blob);
  const old = new Map(changed.map((f) => [f.path, before.get(f.path)!]));
  if (changed.length === 0 || changed.some((f) => !before.has(f.path)) || !matches(old))
    return undefined;
  for (let i = 0; i < changed.length; i += FACTS_COMPARED) {
    const pairs = changed.slice(i, i + FACTS_COMPARED);
    const stored = await loadBlobs(store, [
      ...pairs.map((f) => f.blob),
      ...pairs.map((f) => old.get(f.path)!),
    ]);
    for (const f of pairs) {
      const now = stored.get(f.blob);
      const then = stored.get(old.get(f.path)!);
      // A file too large to parse has no facts either time: the link reads nothing of it.
      if (
        !now ||
        !then ||
        !(now.facts && then.facts ? now.facts.equals(then.facts) : now.facts === then.facts)
      )
        return undefined;
    }
  }
  return changed.map((f) => ({ path: f.path, blob: f.blob }));
}
