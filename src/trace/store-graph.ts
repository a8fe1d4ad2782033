/**
 * The CallGraph of one indexed tree: what a trace walks from the tree's record beside the database
 * (src/store/trace-pack.ts), the rest (and everything, without a record) from SQLite in bulk.
 */
import { push } from '../shared/multimap.js';
import type { Store } from '../store/db.js';
import type { TracePack } from '../store/trace-pack.js';
import type { BindingRow, TreeRow } from '../store/index-store.js';
import {
  loadBindingsByCaller,
  findDefinitions,
  findRegistryEntries,
  findEdgesFrom,
  findMadeBy,
  findSymbolsByIds,
  listPackages,
  type DefinitionRow,
} from '../store/symbols.js';
import type { ControllerGraph } from './controllers.js';
import { describeStruct } from './queries.js';
import type { ComponentEntry, ComponentRules } from './trace-component.js';

export function createStoreGraph(
  store: Store,
  tree: TreeRow,
  options: {
    github?: string;
    components?: Record<string, ComponentRules>;
    /** Read the tables, not the tree's record (tests compare the two). */
    tablesOnly?: boolean;
  } = {},
): ControllerGraph {
  let components: ComponentEntry[] | undefined;
  // Read once per graph: a trace asks for bindings and packages at every level or part.
  let bindings: Promise<Map<number, BindingRow[]>> | undefined;
  let bySlot: Map<number, BindingRow[]> | undefined;
  let packages: ReturnType<typeof listPackages> | undefined;
  // The tree's record beside the database answers the packages, calls, symbols, bindings and
  // constructed types a trace walks (src/store/trace-pack.ts); without one (an older index, a
  // database in memory, K8S_READ_TRACE_PACK=off), the tables do, the same answers a query at a
  // time. Read from the start, while the trace's first queries (its root) run.
  const pack = readPack().catch(() => null);
  async function readPack(): Promise<TracePack | null> {
    if (options.tablesOnly) return null;
    // Loaded here: a trace whose answer was kept never makes a graph.
    const { readTracePack } = await import('../store/trace-pack.js');
    return readTracePack(store, tree.id);
  }
  return {
    repo: { path: tree.root, commit: tree.commit_sha, version: tree.version },
    module: tree.module,
    urlBase: permalinkBase(tree, options.github),
    urlOf: sourceLocator(tree, options.github).url,
    async components() {
      if (components) return components;
      const mains = await store.all<DefinitionRow>(
        `SELECT id, symbol, name, kind, file, line, end_line AS endLine, col, package, detail, doc
         FROM symbols WHERE tree = ? AND kind = 'func' AND name = 'main'`,
        [tree.id],
      );
      const byName = new Map<string, ComponentEntry>();
      for (const main of mains.sort(
        (a, b) => a.file.length - b.file.length || (a.file < b.file ? -1 : 1),
      )) {
        const name = componentName(main.package);
        if (!byName.has(name)) byName.set(name, { name, main });
      }
      components = [...byName.values()];
      return components;
    },
    findDefinitions: (query) => findDefinitions(store, tree.id, query),
    async symbolsByIds(ids) {
      const p = await pack;
      return p ? p.symbolsByIds(ids) : findSymbolsByIds(store, tree.id, ids, { text: false });
    },
    async edgesFrom(ids) {
      const p = await pack;
      return p ? p.edgesFrom(ids) : findEdgesFrom(store, tree.id, ids);
    },
    async bindingsFrom(ids) {
      const p = await pack;
      if (p) return p.bindingsFrom(ids);
      const byCaller = await (bindings ??= loadBindingsByCaller(store, tree.id));
      return [...new Set(ids)].flatMap((id) => byCaller.get(id) ?? []);
    },
    async bindingsInto(slots) {
      const p = await pack;
      if (p) return p.bindingsInto(slots);
      const byCaller = await (bindings ??= loadBindingsByCaller(store, tree.id));
      if (!bySlot) {
        bySlot = new Map();
        for (const b of [...byCaller.values()].flat()) push(bySlot, b.slot, b);
      }
      return [...new Set(slots)].flatMap((s) => bySlot!.get(s) ?? []);
    },
    async madeBy(types) {
      const p = await pack;
      return p ? p.madeBy(types) : findMadeBy(store, tree.id, types);
    },
    packages: () =>
      (packages ??= (async () => (await pack)?.packages() ?? listPackages(store, tree.id))()),
    async parts(component) {
      const out = new Map<string, DefinitionRow>();
      const dirs = options.components?.[component]?.registries ?? [];
      for (const { key, target } of await findRegistryEntries(store, tree.id, dirs)) {
        out.set(key, target);
      }
      return out;
    },
    async structOf(type) {
      const index = { store, treeId: tree.id };
      const exact = (await findDefinitions(store, tree.id, type)).some(
        (d) => d.symbol === type && d.kind === 'struct',
      );
      return exact ? describeStruct(index, type) : null;
    },
  };
}

/**
 * `cmd/kube-scheduler` -> kube-scheduler; any other main package (a module's root one too) -> its
 * last path element, a major-version suffix skipped: etcd's `go.etcd.io/etcd/server/v3` ->
 * server, where etcdctl, etcdutl and the server were all `v3` and two of them could not be named.
 */
export function componentName(pkg: string): string {
  const cmd = pkg.lastIndexOf('/cmd/');
  if (cmd >= 0) return pkg.slice(cmd + 5);
  const parts = pkg.split('/');
  const last = parts.pop() ?? pkg;
  return /^v\d+$/.test(last) && parts.length > 0 ? parts.pop()! : last;
}

/**
 * GitHub permalink base for the indexed commit: from the origin remote (any GitHub URL form), or
 * `--github owner/repo`. Null when neither names GitHub or the commit is unknown: a guessed link
 * to the wrong code is worse than none.
 */
export function permalinkBase(
  tree: Pick<TreeRow, 'remote' | 'commit_sha' | 'dirty'>,
  github?: string,
): string | null {
  const slug = github ?? githubSlug(tree.remote);
  if (!slug || !tree.commit_sha) return null;
  return `https://github.com/${slug}/blob/${tree.commit_sha}`;
}

export function githubSlug(remote: string | null): string | null {
  if (!remote) return null;
  const m = /github\.com[:/]+([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(remote.trim());
  return m ? `${m[1]}/${m[2]}` : null;
}

interface DependencyRootInfo {
  prefix: string;
  dir: string;
  permalink: string | null;
}

/**
 * Where an indexed file lives and links to: a file of the tree under its root and the tree's
 * permalink; a dependency's file (`_deps/<module>@<version>/...`, or a vendored module) in the
 * module's own directory and repository at that version.
 */
export function sourceLocator(
  tree: Pick<TreeRow, 'root' | 'remote' | 'commit_sha' | 'dirty' | 'summary'>,
  github?: string,
): { path(file: string): string; url(file: string, line: number): string | null } {
  let roots: DependencyRootInfo[] = [];
  try {
    const summary = JSON.parse(tree.summary) as { dependencies?: { roots?: DependencyRootInfo[] } };
    roots = (summary.dependencies?.roots ?? []).filter((r) => r.prefix.startsWith('_deps/'));
  } catch {
    roots = [];
  }
  const base = permalinkBase(tree, github);
  const rootOf = (file: string) => roots.find((r) => file.startsWith(`${r.prefix}/`));
  return {
    path(file) {
      const r = rootOf(file);
      return r ? `${r.dir}/${file.slice(r.prefix.length + 1)}` : `${tree.root}/${file}`;
    },
    url(file, line) {
      const r = rootOf(file);
      if (r)
        return r.permalink ? `${r.permalink}/${file.slice(r.prefix.length + 1)}#L${line}` : null;
      return base && file ? `${base}/${file}#L${line}` : null;
    },
  };
}
