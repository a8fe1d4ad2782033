/**
 * Builds a Trace: the calls from a component's `main` (or any symbol) through the resolved graph.
 *
 * The default view is a readable spine, not a hairball: it expands only functions in the
 * component's scope (its `cmd/<name>` and the directories rules/components.yaml adds), folds noise
 * (logging, metrics, errors) and the standard library, and under each function shows at most a few
 * callees — hops through frameworks, goroutines, function values and interfaces first, then the
 * calls that lead to the most code — folding the rest. `all` expands everything to `depth`;
 * `focus` keeps only the paths that reach a symbol.
 */
import { AmbiguousSymbolError, K8sReadError, SymbolNotFoundError } from '../errors.js';
import type { DefinitionRow, EdgeRow } from '../store/symbols.js';
import type { EdgeKind, NodeKind, Trace, TraceEdge, TraceNode, TraceUnresolved } from './types.js';

/** What the tracer needs from an index (src/trace/store-graph.ts implements it over SQLite). */
export interface CallGraph {
  repo: { path: string; commit: string | null; version: string | null };
  /** Permalink base, e.g. `https://github.com/kubernetes/kubernetes/blob/<sha>`, or null. */
  urlBase: string | null;
  components(): Promise<ComponentEntry[]>;
  findDefinitions(query: string): Promise<DefinitionRow[]>;
  symbolsByIds(ids: readonly number[]): Promise<DefinitionRow[]>;
  edgesFrom(ids: readonly number[]): Promise<EdgeRow[]>;
  /** Map-assigned start functions of a controller manager (`controllers["replicaset"] = start`). */
  controllers(component: string): Promise<Map<string, DefinitionRow>>;
}

export interface ComponentEntry {
  name: string;
  main: DefinitionRow;
}

export interface ComponentRules {
  scope?: string[];
  controllers?: { initMap: string };
}

export interface TraceOptions {
  /** How many calls deep to follow. @default 25 (spine), 6 (all) */
  depth?: number;
  /** Keep only paths that reach this symbol. */
  focus?: string;
  /** Expand every function, not only the component's own. @default false */
  all?: boolean;
  /** Show calls into logging, metrics, errors (rules/noise.yaml). @default false */
  includeNoise?: boolean;
  /** Show calls into the Go standard library. @default false */
  includeStd?: boolean;
  /** Callees shown under one function in the spine view before the rest fold. @default 5 */
  maxChildren?: number;
  /** Functions in the spine view. @default 140 */
  budget?: number;
  /** Per-component scope and controller rules (rules/components.yaml). */
  components?: Record<string, ComponentRules>;
  /** Package prefixes folded as noise (rules/noise.yaml). */
  noise?: readonly string[];
}

interface Hop {
  edge: EdgeRow;
  alternatives: number[];
}

export async function traceComponent(
  graph: CallGraph,
  target: string,
  options: TraceOptions = {},
): Promise<Trace> {
  const root = await findRoot(graph, target, options);
  const all = options.all ?? false;
  const depthLimit = options.depth ?? (all || options.focus ? 12 : 25);
  const maxChildren = options.maxChildren ?? 5;
  const budget = options.budget ?? 140;
  const noise = options.noise ?? [];
  const symbols = new Map<number, DefinitionRow>([[root.main.id, root.main]]);
  if (root.through) symbols.set(root.through.id, root.through);

  const hiddenPackage = (pkg: string) =>
    (!options.includeStd && isStd(pkg)) ||
    (!options.includeNoise && noise.some((p) => pkg === p || pkg.startsWith(`${p}/`)));
  const hidden = (s: DefinitionRow) => hiddenPackage(s.package);
  const inScope = (s: DefinitionRow) =>
    s.kind !== 'external' &&
    (all ||
      Boolean(options.focus) ||
      root.scope.some((dir) => dir === '' || s.file === dir || s.file.startsWith(`${dir}/`)));

  // Breadth-first over the graph, loading each level's edges in one query.
  const hops = new Map<number, Hop[]>();
  const unresolvedBy = new Map<number, EdgeRow[]>();
  const depthOf = new Map<number, number>([[root.main.id, 0]]);
  let frontier = [root.main.id];
  for (let depth = 0; depth < depthLimit && frontier.length > 0; depth++) {
    const rows = await graph.edgesFrom(frontier);
    const unknown = [
      ...new Set(
        rows.flatMap((r) => (r.callee !== null && !symbols.has(r.callee) ? [r.callee] : [])),
      ),
    ];
    for (const s of await graph.symbolsByIds(unknown)) symbols.set(s.id, s);
    const next: number[] = [];
    for (const [caller, list] of groupBy(rows, (r) => r.caller)) {
      const { primary, unresolved } = collectHops(list, symbols, hidden);
      hops.set(caller, primary);
      if (unresolved.length) unresolvedBy.set(caller, unresolved);
      for (const hop of primary) {
        const callee = hop.edge.callee!;
        const s = symbols.get(callee);
        if (!s) continue;
        // A call of an interface's method (no stored value decides the implementation) leads on to
        // the implementations, as hops of that method from its declaration.
        if (s.kind === 'imethod') {
          for (const impl of addImplementations(hops, s, hop.alternatives)) {
            const implSym = symbols.get(impl);
            if (!implSym || depthOf.has(impl)) continue;
            depthOf.set(impl, depth + 2);
            if (inScope(implSym)) next.push(impl);
          }
        }
        if (depthOf.has(callee)) continue;
        depthOf.set(callee, depth + 1);
        if (inScope(s)) next.push(callee);
      }
    }
    frontier = next;
  }
  let shown: Set<number>;
  if (options.focus) {
    const focusRows = await graph.findDefinitions(options.focus);
    if (focusRows.length === 0) throw new SymbolNotFoundError(options.focus);
    const targets = new Set(focusRows.map((r) => r.id));
    shown = keepPathsTo(root.main.id, hops, targets);
    if (shown.size === 0) {
      throw new K8sReadError(
        `no path from ${root.main.symbol} reaches ${options.focus} within depth ${depthLimit}; try --depth or \`k8s-read callers\``,
      );
    }
  } else if (root.through) {
    // A controller: main's path to its start function, then the controller's own spine.
    shown = keepPathsTo(root.main.id, hops, new Set([root.through.id]));
    if (shown.size === 0) shown.add(root.main.id);
    for (const id of spine(root.through.id, hops, symbols, inScope, maxChildren, budget))
      shown.add(id);
  } else {
    shown = all
      ? new Set(depthOf.keys())
      : spine(root.main.id, hops, symbols, inScope, maxChildren, budget);
  }

  const nodes: TraceNode[] = [];
  const edges: TraceEdge[] = [];
  const unresolved: TraceUnresolved[] = [];
  const nodeSeen = new Set<number>();
  const addNode = (id: number) => {
    if (nodeSeen.has(id)) return;
    nodeSeen.add(id);
    const s = symbols.get(id);
    if (s) nodes.push(toNode(s, graph.urlBase));
  };
  addNode(root.main.id);
  // Depth-first from the root in call order, so nodes and edges read top to bottom.
  const expanded = new Set<number>();
  const visit = (id: number) => {
    if (expanded.has(id)) return;
    expanded.add(id);
    const s = symbols.get(id);
    for (const hop of hops.get(id) ?? []) {
      const callee = hop.edge.callee!;
      if (!shown.has(callee)) continue;
      addNode(callee);
      const calleeSym = symbols.get(callee);
      edges.push({
        caller: s?.symbol ?? String(id),
        callee: calleeSym?.symbol ?? String(callee),
        site: `${hop.edge.file}:${hop.edge.line}`,
        kind: hop.edge.kind as EdgeKind,
        via: hop.edge.via,
        alternatives: hop.alternatives.flatMap((a) => {
          const alt = symbols.get(a);
          return alt ? [alt.symbol] : [];
        }),
      });
      if (calleeSym && (inScope(calleeSym) || options.focus)) visit(callee);
    }
    if (s && inScope(s)) {
      for (const u of unresolvedBy.get(id) ?? []) {
        // Unresolved calls on values from an unindexed package fold like that package's calls.
        const pkg = u.via?.startsWith('external:') ? u.via.slice('external:'.length) : undefined;
        if (pkg && hiddenPackage(pkg)) continue;
        unresolved.push({ caller: s.symbol, expr: u.expr ?? '?', site: `${u.file}:${u.line}` });
      }
    }
  };
  visit(root.main.id);
  return {
    component: root.component,
    root: root.main.symbol,
    repo: { path: graph.repo.path, commit: graph.repo.commit, version: graph.repo.version },
    nodes,
    edges,
    unresolved,
  };
}

interface Root {
  component: string;
  main: DefinitionRow;
  scope: string[];
  /** For `component/controller`: the start function the view passes through. */
  through?: DefinitionRow;
}

async function findRoot(graph: CallGraph, target: string, options: TraceOptions): Promise<Root> {
  const components = await graph.components();
  const [name, controller] = target.split('/', 2) as [string, string | undefined];
  const entry = components.find((c) => c.name === name);
  if (entry) {
    const rules = options.components?.[entry.name] ?? {};
    const ownDir = entry.main.file.includes('/')
      ? entry.main.file.slice(0, entry.main.file.lastIndexOf('/'))
      : '';
    const scope = [ownDir, ...(rules.scope ?? [])].filter((d, i, a) => a.indexOf(d) === i);
    if (controller === undefined)
      return { component: target, main: entry.main, scope: scope.length ? scope : [''] };
    const controllers = await graph.controllers(entry.name);
    const start = controllers.get(controller);
    if (!start) {
      const names = [...controllers.keys()].sort();
      throw new K8sReadError(
        names.length
          ? `${entry.name} has no controller named ${JSON.stringify(controller)}; it has:\n  ${names.join('\n  ')}`
          : `${entry.name} has no controller init map in this index (rules/components.yaml names where to look)`,
        { code: 'E_NO_COMPONENT', exitCode: 2 },
      );
    }
    return {
      component: target,
      main: entry.main,
      scope: [...scope, dirOf(start.file)],
      through: start,
    };
  }
  if (!target.includes('.') && !target.includes('/') && !target.includes('(')) {
    const candidates = await graph.findDefinitions(target);
    const callable = candidates.filter(
      (c) => c.kind === 'func' || c.kind === 'method' || c.kind === 'closure',
    );
    if (callable.length === 0) throw unknownComponent(target, components);
    return symbolRoot(target, callable);
  }
  const candidates = (await graph.findDefinitions(target)).filter(
    (c) => c.kind === 'func' || c.kind === 'method' || c.kind === 'closure',
  );
  if (candidates.length === 0) throw unknownComponent(target, components);
  return symbolRoot(target, candidates);
}

function symbolRoot(target: string, candidates: DefinitionRow[]): Root {
  const exact = candidates.filter((c) => c.symbol === target);
  const pick = exact.length === 1 ? exact : candidates;
  if (pick.length > 1)
    throw new AmbiguousSymbolError(
      target,
      pick.map((c) => c.symbol),
    );
  const main = pick[0]!;
  return { component: target, main, scope: [dirOf(main.file)] };
}

function unknownComponent(target: string, components: ComponentEntry[]): K8sReadError {
  const names = components.map((c) => c.name).sort();
  return new K8sReadError(
    `unknown component or symbol ${JSON.stringify(target)}; components in this index:\n  ${names.join('\n  ') || '(none: no main packages found)'}`,
    { code: 'E_NO_COMPONENT', exitCode: 2 },
  );
}

function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

/**
 * Gives an interface method (a symbol without a body) the implementations listed at a call of it
 * as its own hops, sited at its declaration; returns the implementations it did not have yet.
 */
function addImplementations(
  hops: Map<number, Hop[]>,
  method: DefinitionRow,
  implementations: readonly number[],
): number[] {
  let list = hops.get(method.id);
  if (!list) hops.set(method.id, (list = []));
  const added: number[] = [];
  for (const impl of implementations) {
    if (list.some((h) => h.edge.callee === impl)) continue;
    list.push({
      edge: {
        caller: method.id,
        callee: impl,
        kind: 'interface',
        via: null,
        rank: 0,
        file: method.file,
        line: method.line,
        col: method.col,
        expr: null,
      },
      alternatives: [],
    });
    added.push(impl);
  }
  return added;
}

/** Groups a caller's edges into hops: each call site's best target, its alternatives, unresolved. */
function collectHops(
  list: EdgeRow[],
  symbols: Map<number, DefinitionRow>,
  hidden: (s: DefinitionRow) => boolean,
): { primary: Hop[]; unresolved: EdgeRow[] } {
  const primary: Hop[] = [];
  const unresolved: EdgeRow[] = [];
  const bySite = new Map<string, Hop[]>();
  const seenTargets = new Set<string>();
  const foldedSites = new Set<string>();
  for (const e of list) {
    if (e.callee === null) {
      unresolved.push(e);
      continue;
    }
    const s = symbols.get(e.callee);
    if (!s || hidden(s)) continue;
    const site = `${e.line}:${e.col}:${e.kind === 'framework' ? e.via : ''}`;
    if (e.rank > 0) {
      // The alternatives of a call folded into an earlier hop to the same callee fold with it.
      if (foldedSites.has(site)) continue;
      const hopsHere = bySite.get(site);
      if (hopsHere?.[0]) hopsHere[0].alternatives.push(e.callee);
      else {
        // Only alternatives (nothing known to be stored): the first stands for the call.
        const hop = { edge: { ...e, rank: 0 }, alternatives: [] };
        bySite.set(site, [hop]);
        primary.push(hop);
      }
      continue;
    }
    // The same callee from several sites of one caller is one hop (the first site).
    const key = `${e.callee}:${e.kind}:${e.via ?? ''}`;
    if (seenTargets.has(key)) {
      foldedSites.add(site);
      continue;
    }
    seenTargets.add(key);
    const hop = { edge: e, alternatives: [] };
    const hopsHere = bySite.get(site);
    if (hopsHere) hopsHere.push(hop);
    else bySite.set(site, [hop]);
    primary.push(hop);
  }
  return { primary, unresolved };
}

/**
 * The spine: the most important functions first, within a budget. A callee's importance is its
 * caller's, scaled by the share of the caller's in-scope code it leads to, and raised for hops a
 * reader cannot see in the text (framework, goroutine, function value, interface). Expanding in
 * that order keeps main -> ... -> the loops and the algorithm, and leaves option plumbing folded.
 * Each expanded function shows its `maxChildren` most important callees.
 */
function spine(
  rootId: number,
  hops: Map<number, Hop[]>,
  symbols: Map<number, DefinitionRow>,
  inScope: (s: DefinitionRow) => boolean,
  maxChildren: number,
  budget: number,
): Set<number> {
  const weight = subtreeWeights(rootId, hops, symbols, inScope);
  const shown = new Set<number>([rootId]);
  const expanded = new Set<number>();
  const queue: { id: number; importance: number }[] = [{ id: rootId, importance: 1 }];
  while (queue.length > 0 && shown.size < budget) {
    let best = 0;
    for (let i = 1; i < queue.length; i++)
      if (queue[i]!.importance > queue[best]!.importance) best = i;
    const { id, importance } = queue.splice(best, 1)[0]!;
    if (expanded.has(id)) continue;
    expanded.add(id);
    const own = Math.max(1, weight.get(id) ?? 1);
    // From an interface's method to its implementations is no further hidden hop: the call to the
    // method already was one.
    const dispatched = symbols.get(id)?.kind === 'imethod';
    const scored = (hops.get(id) ?? []).flatMap((h) => {
      const s = symbols.get(h.edge.callee!);
      if (!s || s.kind === 'external') return [];
      const share = inScope(s) ? ((weight.get(s.id) ?? 0) + 1) / own : 0.5 / own;
      // A hidden hop is raised up to, never above, its caller: boosts compounding along a deep path
      // would spend the whole budget there (plugins under a fan-out under the loop). Among callees
      // that reach their caller's importance, hidden hops come first.
      const boost = dispatched ? 1 : HOP_BOOST[h.edge.kind]!;
      return [
        { id: s.id, importance: importance * Math.min(1, Math.min(1, share) * boost), boost },
      ];
    });
    scored.sort((a, b) => b.importance - a.importance || b.boost - a.boost);
    for (const c of scored.slice(0, maxChildren)) {
      if (shown.size >= budget) break;
      shown.add(c.id);
      const s = symbols.get(c.id);
      if (s && inScope(s) && !expanded.has(c.id))
        queue.push({ id: c.id, importance: c.importance });
    }
  }
  return shown;
}

const HOP_BOOST: Record<string, number> = {
  framework: 6,
  goroutine: 4,
  funcvalue: 4,
  interface: 1.2,
  closure: 1.5,
  static: 1,
};
const HIDDEN_HOPS = new Set(['framework', 'goroutine', 'funcvalue']);

/** How much in-scope code each function leads to (over a breadth-first spanning tree). */
function subtreeWeights(
  rootId: number,
  hops: Map<number, Hop[]>,
  symbols: Map<number, DefinitionRow>,
  inScope: (s: DefinitionRow) => boolean,
): Map<number, number> {
  const parent = new Map<number, number>();
  const order: number[] = [rootId];
  const seen = new Set([rootId]);
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!;
    for (const h of hops.get(id) ?? []) {
      const c = h.edge.callee!;
      const s = symbols.get(c);
      if (seen.has(c) || !s || !inScope(s)) continue;
      seen.add(c);
      parent.set(c, id);
      order.push(c);
    }
  }
  const weight = new Map<number, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i]!;
    // A function counts once, plus five for each hop it makes that the text hides (the hops a
    // reader needs the tool for), so a short path to a loop outweighs a long list of helpers.
    const hidden = (hops.get(id) ?? []).filter((h) => HIDDEN_HOPS.has(h.edge.kind)).length;
    const w = (weight.get(id) ?? 0) + 1 + 5 * hidden;
    weight.set(id, w);
    const p = parent.get(id);
    if (p !== undefined) weight.set(p, (weight.get(p) ?? 0) + w);
  }
  return weight;
}

/** Nodes on some path from the root to one of the targets. */
function keepPathsTo(rootId: number, hops: Map<number, Hop[]>, targets: Set<number>): Set<number> {
  const reaches = new Map<number, boolean>();
  const onStack = new Set<number>();
  const visit = (id: number): boolean => {
    const memo = reaches.get(id);
    if (memo !== undefined) return memo;
    if (onStack.has(id)) return false;
    onStack.add(id);
    let ok = targets.has(id);
    for (const h of hops.get(id) ?? []) if (visit(h.edge.callee!)) ok = true;
    onStack.delete(id);
    reaches.set(id, ok);
    return ok;
  };
  visit(rootId);
  return new Set([...reaches].filter(([, ok]) => ok).map(([id]) => id));
}

function groupBy<T, K>(items: T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Standard-library packages have no dot in their first path element. */
export function isStd(pkg: string): boolean {
  const first = pkg.split('/')[0] ?? '';
  return !first.includes('.');
}

function toNode(s: DefinitionRow, urlBase: string | null): TraceNode {
  // An interface's method (a dispatch no stored value decides) is a method without a body.
  const kind: NodeKind =
    s.kind === 'method' || s.kind === 'imethod'
      ? 'method'
      : s.kind === 'closure'
        ? 'closure'
        : 'func';
  return {
    symbol: s.symbol,
    file: s.file,
    line: s.line,
    kind,
    package: s.package,
    url: urlBase && s.file ? `${urlBase}/${s.file}#L${s.line}` : null,
  };
}
