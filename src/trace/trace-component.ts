/**
 * Builds a Trace: the calls of one program from a component's `main` (or any symbol), with
 * function values bound per call path (src/trace/program-graph.ts) and nothing outside the
 * program's import closure (src/trace/program-scope.ts).
 *
 * The default view is a readable spine, not a hairball: it expands only functions in the
 * component's scope (its `cmd/<name>` and the directories rules/components.yaml adds), folds noise
 * (logging, metrics, errors) and the standard library, and under each function shows at most a few
 * callees — hops through frameworks, goroutines, function values and interfaces first, then the
 * calls that lead to the most code — folding the rest, and says what it folded. `all` expands
 * everything to `depth`; `focus` keeps only the paths that reach a symbol.
 */
import { AmbiguousSymbolError, K8sReadError, SymbolNotFoundError } from '../errors.js';
import type { BindingRow } from '../store/index-store.js';
import type { DefinitionRow, EdgeRow } from '../store/symbols.js';
import { expandProgram, type PHop, type PNode, type ProgramGraph } from './program-graph.js';
import { programScope, type PackageInfo, type ProgramScope } from './program-scope.js';
import type { NodeKind, Trace, TraceEdge, TraceNode, TraceUnresolved } from './types.js';

/** What the tracer needs from an index (src/trace/store-graph.ts implements it over SQLite). */
export interface CallGraph {
  repo: { path: string; commit: string | null; version: string | null };
  /** Permalink base, e.g. `https://github.com/kubernetes/kubernetes/blob/<sha>`, or null. */
  urlBase: string | null;
  /** The permalink of a file's line (dependencies link to their own repository); defaults to urlBase. */
  urlOf?: (file: string, line: number) => string | null;
  components(): Promise<ComponentEntry[]>;
  findDefinitions(query: string): Promise<DefinitionRow[]>;
  symbolsByIds(ids: readonly number[]): Promise<DefinitionRow[]>;
  edgesFrom(ids: readonly number[]): Promise<EdgeRow[]>;
  /** Function values passed at the calls of these functions, into the callees' slots. */
  bindingsFrom(ids: readonly number[]): Promise<BindingRow[]>;
  /** Packages (by path) that construct these named types. */
  madeBy(types: readonly string[]): Promise<{ type: string; package: string }[]>;
  /** The tree's packages and their imports. */
  packages(): Promise<PackageInfo[]>;
  /** A component's registered parts by name: a controller manager's start functions
   * (`controllers["replicaset"] = start`), kubectl's subcommands. */
  parts(component: string): Promise<Map<string, DefinitionRow>>;
}

export interface ComponentEntry {
  name: string;
  main: DefinitionRow;
}

export interface ComponentRules {
  scope?: string[];
  /** Directories whose registry hops (`via: map-register`) name the component's parts. */
  registries?: string[];
}

export interface TraceOptions {
  /** How many calls deep to follow. @default 25 (spine), 12 (all, focus) */
  depth?: number;
  /** Keep only paths that reach this symbol. */
  focus?: string;
  /** Expand every function, not only the component's own. @default false */
  all?: boolean;
  /** For a library symbol: trace it inside this component's program. */
  in?: string;
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
  /** What folds as noise (rules/noise.yaml): package prefixes and symbol globs. */
  noise?: { packages: readonly string[]; functions: readonly string[] };
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
  const noisePackages = options.noise?.packages ?? [];
  const noiseFunctions = globs(options.noise?.functions ?? []);
  const packages = await graph.packages();
  const scope = await programOf(graph, root, packages, options);

  const hiddenPackage = (pkg: string) =>
    (!options.includeStd && isStd(pkg)) ||
    (!options.includeNoise && noisePackages.some((p) => pkg === p || pkg.startsWith(`${p}/`)));
  const hiddenSymbol = (s: DefinitionRow) =>
    hiddenPackage(s.package) || (!options.includeNoise && noiseFunctions(s.symbol));
  const inScope = (s: DefinitionRow) =>
    s.kind !== 'external' &&
    s.kind !== 'param' &&
    (all ||
      Boolean(options.focus) ||
      root.scope.some((dir) =>
        // A repository's root main package owns the repository, not the libraries it vendors.
        dir === ''
          ? !s.file.startsWith('vendor/') && !s.file.includes('/vendor/')
          : s.file === dir || s.file.startsWith(`${dir}/`),
      ));

  const program = await expandProgram(graph, root.main, {
    scope,
    depth: depthLimit,
    expandable: inScope,
    hidden: hiddenSymbol,
    counted: (s) => !isStd(s.package) && hiddenSymbol(s),
  });
  const rootNode = 0;
  const expandableNode = (id: number) => {
    const n = program.nodes[id]!;
    return Boolean(n.dispatch) || inScope(n.sym);
  };

  let shown: Set<number>;
  if (options.focus) {
    const focusRows = await graph.findDefinitions(options.focus);
    if (focusRows.length === 0) throw new SymbolNotFoundError(options.focus);
    const targets = new Set(focusRows.map((r) => r.id));
    shown = keepPathsTo(rootNode, program, (n) => targets.has(n.sym.id));
    if (shown.size === 0) {
      throw new K8sReadError(
        `no path from ${root.main.symbol} reaches ${options.focus} within depth ${depthLimit} in this program; try --depth or \`k8s-read callers\``,
      );
    }
  } else if (root.through) {
    // A controller: main's path to its start function, then the controller's own spine.
    const through = root.through;
    // Where the controller runs, not where it is registered: the registry hop only when no other
    // path reaches the start function.
    const isStart = (n: PNode) => n.sym.id === through.id;
    shown = keepPathsTo(rootNode, program, isStart, (h) => h.via !== 'map-register');
    if (shown.size === 0) shown = keepPathsTo(rootNode, program, isStart);
    if (shown.size === 0) shown.add(rootNode);
    const starts = program.nodes.filter((n) => n.sym.id === through.id).map((n) => n.id);
    for (const start of starts.length ? starts : [rootNode])
      for (const id of all
        ? reachableFrom(start, program)
        : spine(start, program, expandableNode, maxChildren, budget))
        shown.add(id);
  } else {
    shown = all
      ? new Set(program.nodes.map((n) => n.id))
      : spine(rootNode, program, expandableNode, maxChildren, budget);
  }
  return assemble(
    graph,
    root,
    program,
    shown,
    scope,
    (id) => expandableNode(id) || Boolean(options.focus),
    hiddenPackage,
  );
}

/** Builds the trace contract from the chosen nodes: one node per symbol, one edge per call. */
function assemble(
  graph: CallGraph,
  root: Root,
  program: ProgramGraph,
  shown: Set<number>,
  scope: ProgramScope,
  follow: (id: number) => boolean,
  hiddenPackage: (pkg: string) => boolean,
): Trace {
  const nodes: TraceNode[] = [];
  const edges: TraceEdge[] = [];
  const unresolved: TraceUnresolved[] = [];
  const nodeIndex = new Map<string, TraceNode>();
  const edgeSeen = new Set<string>();
  const addNode = (n: PNode) => {
    let node = nodeIndex.get(n.sym.symbol);
    if (!node) {
      node = toNode(n.sym, graph);
      nodeIndex.set(n.sym.symbol, node);
      nodes.push(node);
    }
    return node;
  };
  addNode(program.nodes[0]!);
  // Depth-first from the root in call order, so nodes and edges read top to bottom.
  const visited = new Set<number>();
  const visit = (id: number) => {
    if (visited.has(id)) return;
    visited.add(id);
    const n = program.nodes[id]!;
    const node = addNode(n);
    let folded = 0;
    for (const hop of program.hops.get(id) ?? []) {
      if (!shown.has(hop.to)) {
        folded++;
        continue;
      }
      const child = program.nodes[hop.to]!;
      addNode(child);
      const key = `${n.sym.symbol}\n${child.sym.symbol}\n${hop.edge.file}:${hop.edge.line}\n${hop.kind}\n${hop.via ?? ''}`;
      if (!edgeSeen.has(key)) {
        edgeSeen.add(key);
        edges.push(toEdge(n, child, hop, program));
      }
      if (follow(hop.to)) visit(hop.to);
    }
    const helpers = program.helpers.get(id) ?? 0;
    if (folded > 0 || helpers > 0)
      node.folded = {
        calls: (node.folded?.calls ?? 0) + folded,
        flag: '--all',
        ...(helpers > 0 ? { helpers: Math.max(helpers, node.folded?.helpers ?? 0) } : {}),
      };
    if (n.dispatch || n.sym.kind === 'param' || n.sym.kind === 'external') return;
    for (const u of program.unresolved.get(id) ?? []) {
      // Unresolved calls on values from an unindexed package fold like that package's calls.
      const pkg = u.via?.startsWith('external:') ? u.via.slice('external:'.length) : undefined;
      if (pkg && hiddenPackage(pkg)) continue;
      unresolved.push({ caller: n.sym.symbol, expr: u.expr ?? '?', site: `${u.file}:${u.line}` });
    }
  };
  visit(0);
  const functions = new Set(program.nodes.map((n) => n.sym.symbol)).size;
  let calls = 0;
  for (const list of program.hops.values()) calls += list.length;
  return {
    component: root.component,
    root: root.main.symbol,
    repo: { path: graph.repo.path, commit: graph.repo.commit, version: graph.repo.version },
    scope: { from: scope.from, packages: scope.size, cut: program.cut },
    total: { functions, edges: calls },
    nodes,
    edges,
    unresolved: dedupeUnresolved(unresolved),
  };
}

function toEdge(caller: PNode, callee: PNode, hop: PHop, program: ProgramGraph): TraceEdge {
  return {
    caller: caller.sym.symbol,
    callee: callee.sym.symbol,
    site: `${hop.edge.file}:${hop.edge.line}`,
    kind: hop.kind,
    via: hop.via,
    alternatives: hop.alternatives.flatMap((a) => {
      const alt = program.symbols.get(a);
      return alt ? [alt.symbol] : [];
    }),
  };
}

function dedupeUnresolved(list: TraceUnresolved[]): TraceUnresolved[] {
  const seen = new Set<string>();
  return list.filter((u) => {
    const key = `${u.caller}\n${u.expr}\n${u.site}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface Root {
  component: string;
  main: DefinitionRow;
  scope: string[];
  /** For `component/controller`: the start function the view passes through. */
  through?: DefinitionRow;
  /** The component whose program this is (its main package), when there is one. */
  program?: ComponentEntry;
}

/** The program a trace runs in: a component's main package, else `--in`, else the symbol's package. */
async function programOf(
  graph: CallGraph,
  root: Root,
  packages: readonly PackageInfo[],
  options: TraceOptions,
): Promise<ProgramScope> {
  if (options.in) {
    const components = await graph.components();
    const entry = components.find((c) => c.name === options.in);
    if (!entry) throw unknownComponent(options.in, components);
    return programScope(packages, [entry.main.package, root.main.package]);
  }
  return programScope(packages, [root.program?.main.package ?? root.main.package]);
}

async function findRoot(graph: CallGraph, target: string, options: TraceOptions): Promise<Root> {
  const components = await graph.components();
  const [name, controller] = target.split('/', 2) as [string, string | undefined];
  const entry = components.find((c) => c.name === name);
  if (entry) {
    const rules = options.components?.[entry.name] ?? {};
    const ownDir = dirOf(entry.main.file);
    const scope = [ownDir, ...(rules.scope ?? [])].filter((d, i, a) => a.indexOf(d) === i);
    if (controller === undefined)
      return {
        component: target,
        main: entry.main,
        scope: scope.length ? scope : [''],
        program: entry,
      };
    const parts = await graph.parts(entry.name);
    // Names changed across releases (`replicaset`, then `replicaset-controller`): both answer.
    const start = parts.get(controller) ?? parts.get(`${controller}-controller`);
    if (!start) {
      const names = [...parts.keys()].sort();
      throw new K8sReadError(
        names.length
          ? `${entry.name} has no part named ${JSON.stringify(controller)}; it has:\n  ${names.join('\n  ')}`
          : `${entry.name} has no registry of parts in this index (rules/components.yaml names where to look)`,
        { code: 'E_NO_COMPONENT', exitCode: 2 },
      );
    }
    return {
      component: target,
      main: entry.main,
      scope: [...scope, dirOf(start.file)],
      through: start,
      program: entry,
    };
  }
  const callable = (rows: DefinitionRow[]) =>
    rows.filter((c) => c.kind === 'func' || c.kind === 'method' || c.kind === 'closure');
  const candidates = callable(await graph.findDefinitions(target));
  if (candidates.length === 0) throw unknownComponent(target, components);
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
 * The spine: the most important functions first, within a budget. A callee's importance is its
 * caller's, scaled by the share of the caller's in-scope code it leads to, and raised for hops a
 * reader cannot see in the text (framework, goroutine, function value, channel, interface).
 * Expanding in that order keeps main -> ... -> the loops and the algorithm, and leaves option
 * plumbing folded. Each expanded function shows its `maxChildren` most important callees.
 */
function spine(
  rootId: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  maxChildren: number,
  budget: number,
): Set<number> {
  const { hops, nodes } = program;
  const weight = subtreeWeights(rootId, program, expandable);
  const story = runningParts(rootId, program, expandable);
  const shown = new Set<number>([rootId]);
  const expanded = new Set<number>();
  const shownSymbols = new Set<number>([nodes[rootId]!.sym.id]);
  const queue: { id: number; importance: number }[] = [{ id: rootId, importance: 1 }];
  while (queue.length > 0 && shownSymbols.size < budget) {
    let best = 0;
    for (let i = 1; i < queue.length; i++)
      if (queue[i]!.importance > queue[best]!.importance) best = i;
    const { id, importance } = queue.splice(best, 1)[0]!;
    if (expanded.has(id)) continue;
    expanded.add(id);
    const own = Math.max(1, weight.get(id) ?? 1);
    // From an interface's method to its implementations is no further hidden hop: the call to the
    // method already was one.
    const dispatched = Boolean(nodes[id]!.dispatch);
    const scored = (hops.get(id) ?? []).flatMap((h) => {
      const child = nodes[h.to]!;
      if (child.sym.kind === 'external') return [];
      const share = expandable(h.to) ? ((weight.get(h.to) ?? 0) + 1) / own : 0.5 / own;
      // A hidden hop is raised up to, never above, its caller: boosts compounding along a deep path
      // would spend the whole budget there (plugins under a fan-out under the loop). Among callees
      // that reach their caller's importance, hidden hops come first.
      const boost = dispatched ? 1 : (HOP_BOOST[h.kind] ?? 1);
      // Set-up that leads to nothing that runs (constructors, option plumbing) gives way to the
      // path to the loops and the loops themselves.
      const normal = importance * Math.min(1, Math.min(1, share) * boost);
      const value = story.path.has(h.to) || story.inside.has(h.to) ? normal : normal * ASIDE;
      return [{ id: h.to, importance: value, boost }];
    });
    scored.sort((a, b) => b.importance - a.importance || b.boost - a.boost);
    for (const c of scored.slice(0, maxChildren)) {
      if (shownSymbols.size >= budget) break;
      shown.add(c.id);
      shownSymbols.add(nodes[c.id]!.sym.id);
      if (expandable(c.id) && !expanded.has(c.id))
        queue.push({ id: c.id, importance: c.importance });
    }
  }
  return shown;
}

const HOP_BOOST: Record<string, number> = {
  framework: 6,
  goroutine: 4,
  funcvalue: 4,
  channel: 4,
  interface: 1.2,
  closure: 1.5,
  static: 1,
};
const HIDDEN_HOPS = new Set(['framework', 'goroutine', 'funcvalue', 'channel']);

/** How much a call that neither leads to nor runs inside a loop counts, against one that does. */
const ASIDE = 0.3;

/** Hops that start code which keeps running: goroutines, the loops and callbacks frameworks run. */
const RUNNING = new Set([
  'wait-until',
  'leader-election',
  'informer-handler',
  'workqueue-handoff',
  'controller-runtime',
]);

function runs(h: PHop): boolean {
  return (
    h.kind === 'goroutine' ||
    h.kind === 'channel' ||
    (h.kind === 'framework' && RUNNING.has(h.via ?? ''))
  );
}

/**
 * The story of a program: `path`, the nodes on the way from the root to something that keeps
 * running (a goroutine, a loop `wait.Until` runs, a leader-election callback, an informer handler,
 * a channel's receiver), those included; `inside`, everything below them.
 */
function runningParts(
  rootId: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
): { path: Set<number>; inside: Set<number> } {
  const parent = new Map<number, number>();
  const order: number[] = [rootId];
  const seen = new Set([rootId]);
  const inside = new Set<number>();
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!;
    for (const h of program.hops.get(id) ?? []) {
      if (runs(h) || inside.has(id)) inside.add(h.to);
      if (seen.has(h.to) || !expandable(h.to)) continue;
      seen.add(h.to);
      parent.set(h.to, id);
      order.push(h.to);
    }
  }
  // Entries: reached by a running hop from outside a running part.
  const entries = new Set<number>();
  for (const id of order) {
    if (inside.has(id)) continue;
    for (const h of program.hops.get(id) ?? []) if (runs(h)) entries.add(h.to);
  }
  const path = new Set<number>([rootId, ...entries]);
  for (const id of entries) {
    for (let p = parent.get(id); p !== undefined && !path.has(p); p = parent.get(p)) path.add(p);
  }
  return { path, inside };
}

/** How much in-scope code each node leads to (over a breadth-first spanning tree). */
function subtreeWeights(
  rootId: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
): Map<number, number> {
  const parent = new Map<number, number>();
  const order: number[] = [rootId];
  const seen = new Set([rootId]);
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!;
    for (const h of program.hops.get(id) ?? []) {
      if (seen.has(h.to) || !expandable(h.to)) continue;
      seen.add(h.to);
      parent.set(h.to, id);
      order.push(h.to);
    }
  }
  const weight = new Map<number, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i]!;
    // A function counts once, plus five for each hop it makes that the text hides (the hops a
    // reader needs the tool for), so a short path to a loop outweighs a long list of helpers.
    const hidden = (program.hops.get(id) ?? []).filter((h) => HIDDEN_HOPS.has(h.kind)).length;
    const w = (weight.get(id) ?? 0) + 1 + 5 * hidden;
    weight.set(id, w);
    const p = parent.get(id);
    if (p !== undefined) weight.set(p, (weight.get(p) ?? 0) + w);
  }
  return weight;
}

/** Nodes on some path from the root to a node the predicate accepts. */
function keepPathsTo(
  rootId: number,
  program: ProgramGraph,
  isTarget: (n: PNode) => boolean,
  follow: (h: PHop) => boolean = () => true,
): Set<number> {
  const reaches = new Map<number, boolean>();
  const onStack = new Set<number>();
  const visit = (id: number): boolean => {
    const memo = reaches.get(id);
    if (memo !== undefined) return memo;
    if (onStack.has(id)) return false;
    onStack.add(id);
    let ok = isTarget(program.nodes[id]!);
    for (const h of program.hops.get(id) ?? []) if (follow(h) && visit(h.to)) ok = true;
    onStack.delete(id);
    reaches.set(id, ok);
    return ok;
  };
  visit(rootId);
  return new Set([...reaches].filter(([, ok]) => ok).map(([id]) => id));
}

/** Every node the calls from `start` reach (`--all` below a controller's start function). */
function reachableFrom(start: number, program: ProgramGraph): Set<number> {
  const seen = new Set<number>([start]);
  const stack = [start];
  while (stack.length > 0) {
    for (const h of program.hops.get(stack.pop()!) ?? []) {
      if (seen.has(h.to)) continue;
      seen.add(h.to);
      stack.push(h.to);
    }
  }
  return seen;
}

/** One matcher for symbol globs (`*` matches any run of characters). */
export function globs(patterns: readonly string[]): (symbol: string) => boolean {
  if (patterns.length === 0) return () => false;
  const escape = (p: string) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  const re = new RegExp(`^(?:${patterns.map(escape).join('|')})$`);
  return (symbol) => re.test(symbol);
}

/** Standard-library packages have no dot in their first path element. */
export function isStd(pkg: string): boolean {
  const first = pkg.split('/')[0] ?? '';
  return !first.includes('.');
}

function toNode(s: DefinitionRow, graph: Pick<CallGraph, 'urlBase' | 'urlOf'>): TraceNode {
  // An interface's method (a dispatch no stored value decides) is a method without a body; a
  // parameter slot is a call through a function value nothing on the path bound.
  const kind: NodeKind =
    s.kind === 'param'
      ? 'param'
      : s.kind === 'method' || s.kind === 'imethod'
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
    url: !s.file
      ? null
      : graph.urlOf
        ? graph.urlOf(s.file, s.line)
        : graph.urlBase
          ? `${graph.urlBase}/${s.file}#L${s.line}`
          : null,
  };
}
