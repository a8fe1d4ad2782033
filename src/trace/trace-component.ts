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
import {
  addReachable,
  expandProgram,
  type PHop,
  type PNode,
  type ProgramGraph,
} from './program-graph.js';
import { push } from '../shared/multimap.js';
import { externalPackageOf, runsNothing, unresolvedReason } from '../shared/edge-via.js';
import { underPackage } from '../shared/go-symbol.js';
import { dirOf } from '../shared/repo-path.js';
import { componentListing, lookupComponent } from './component-lookup.js';
import { programScope, type PackageInfo, type ProgramScope } from './program-scope.js';
import { chooseSpine, hopKey } from './spine.js';
import type { NodeKind, Trace, TraceEdge, TraceNode, TraceUnresolved } from './types.js';

/** What the tracer needs from an index (src/trace/store-graph.ts implements it over SQLite). */
export interface CallGraph {
  repo: { path: string; commit: string | null; version: string | null };
  /** The tree's own module (its root go.mod), when known: see noisePackage. */
  module?: string | null;
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
  /**
   * What every call passes into these parameter slots, slot by slot, each slot's by caller,
   * callee, then as written.
   */
  bindingsInto(slots: readonly number[]): Promise<BindingRow[]>;
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
  /** Where the component's story ends (symbol globs): the default view draws the way to the first
   * function of the program that matches each, whatever rows it takes. */
  follow?: string[];
}

export interface TraceOptions {
  /** How many calls deep to follow. @default 40 (spine), 12 (all, focus) */
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
  /** Rows of the spine view: one per call shown, and the unresolved calls of the functions it
   * lists. @default 140 */
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
  const depthLimit = options.depth ?? (all || options.focus ? 12 : 40);
  const maxChildren = options.maxChildren ?? 5;
  const budget = options.budget ?? 140;
  const noisePackages = noisePackage(options.noise?.packages ?? [], graph.module);
  const noiseFunctions = globs(options.noise?.functions ?? []);
  const packages = await graph.packages();
  const scope = await programOf(graph, root, packages, options);

  // Asked for every call of every node: answered once per package and per symbol.
  const packageMemo = new Map<string, boolean>();
  const hiddenPackage = (pkg: string) => {
    let hidden = packageMemo.get(pkg);
    if (hidden === undefined) {
      hidden = (!options.includeStd && isStd(pkg)) || (!options.includeNoise && noisePackages(pkg));
      packageMemo.set(pkg, hidden);
    }
    return hidden;
  };
  const symbolMemo = new Map<number, boolean>();
  const hiddenSymbol = (s: DefinitionRow) => {
    let hidden = symbolMemo.get(s.id);
    if (hidden === undefined) {
      hidden = hiddenPackage(s.package) || (!options.includeNoise && noiseFunctions(s.symbol));
      symbolMemo.set(s.id, hidden);
    }
    return hidden;
  };
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
    // A controller: once main's way reaches its start function where it runs (not only where it
    // is registered), only the code below it is expanded further.
    ...(root.through && !options.focus
      ? {
          below: {
            target: (s: DefinitionRow) => s.id === root.through!.id,
            ignoreVia: ['map-register'],
          },
        }
      : {}),
  });
  const rootNode = 0;
  // Asked for every node many times over while the view is chosen: answered once per node.
  const expandableMemo = new Uint8Array(program.nodes.length);
  const expandableNode = (id: number) => {
    let known = expandableMemo[id]!;
    if (known === 0) {
      const n = program.nodes[id]!;
      known = Boolean(n.dispatch) || inScope(n.sym) ? 2 : 1;
      expandableMemo[id] = known;
    }
    return known === 2;
  };

  // Unresolved calls on values from an unindexed package fold like that package's calls: never
  // shown when the package is hidden; otherwise listed by --all and --focus, and counted in the
  // fold of the default view, as the calls into that package are (v1.24 kubectl's
  // `cmd.Flags().BoolVar` on cobra's values took 77 of its 144 rows).
  // In the trace of a program (a component, or `--in` one), a call of a field no indexed code
  // sets (a hook only tests set), or of a local that holds only nil, folds the same way: nothing
  // runs there in that program, as far as the index tells. From a library's symbol, the code that
  // sets it may not be indexed at all: the row stays, with its reason.
  const listAll = all || Boolean(options.focus);
  const wholeProgram = Boolean(root.program || options.in);
  const shownUnresolved = (u: EdgeRow) => {
    const pkg = externalPackageOf(u.via);
    return !(pkg && hiddenPackage(pkg));
  };
  const listedUnresolved = (u: EdgeRow) =>
    listAll || (externalPackageOf(u.via) === undefined && !(wholeProgram && runsNothing(u.via)));
  const unresolvedRows = (id: number) => {
    const n = program.nodes[id]!;
    if (n.dispatch || n.sym.kind === 'param' || n.sym.kind === 'external') return 0;
    return (program.unresolved.get(id) ?? []).filter(
      (u) => shownUnresolved(u) && listedUnresolved(u),
    ).length;
  };

  // A component made of registered parts: each part's story ends there, not the component's.
  const rules = root.program ? options.components?.[root.program.name] : undefined;
  const follow =
    rules?.follow && (root.through || !rules.registries) ? globs(rules.follow) : undefined;

  let shown: (from: number, hop: PHop) => boolean;
  if (options.focus) {
    const focusRows = await graph.findDefinitions(options.focus);
    if (focusRows.length === 0) throw new SymbolNotFoundError(options.focus);
    const targets = new Set(focusRows.map((r) => r.id));
    const kept = keepPathsTo(rootNode, program, (n) => targets.has(n.sym.id));
    if (kept.size === 0) {
      throw new K8sReadError(
        `no path from ${root.main.symbol} reaches ${options.focus} within depth ${depthLimit} in this program; try --depth or \`k8s-read callers\``,
      );
    }
    shown = (_, hop) => kept.has(hop.to);
  } else if (root.through) {
    // A controller: main's path to its start function, then the controller's own spine.
    const through = root.through;
    // Where the controller runs, not where it is registered: the registry hop only when no other
    // path reaches the start function.
    const isStart = (n: PNode) => n.sym.id === through.id;
    let path = keepPathsTo(rootNode, program, isStart, (h) => h.via !== 'map-register');
    if (path.size === 0) path = keepPathsTo(rootNode, program, isStart);
    const start = program.nodes.find((n) => path.has(n.id) && isStart(n))?.id ?? rootNode;
    const onPath = (from: number, hop: PHop) => path.has(from) && path.has(hop.to);
    if (all) {
      // --all: everything below the start function.
      const below = reachable(start, program);
      shown = (from, hop) => onPath(from, hop) || (below.has(from) && below.has(hop.to));
    } else {
      let pathRows = 0;
      for (const id of path)
        for (const h of program.hops.get(id) ?? []) if (path.has(h.to)) pathRows++;
      const spine = chooseSpine(start, program, expandableNode, {
        budget: Math.max(budget - pathRows, maxChildren),
        maxChildren,
        unresolvedRows,
        follow,
      });
      shown = (from, hop) => onPath(from, hop) || spine.has(hopKey(from, hop));
    }
  } else if (all) {
    shown = () => true;
  } else {
    // A component made of registered parts (a controller manager's controllers) lists them all.
    const parts = rules?.registries ? await graph.parts(root.program!.name) : new Map();
    const spine = chooseSpine(rootNode, program, expandableNode, {
      budget,
      maxChildren,
      always: new Set([...parts.values()].map((p: DefinitionRow) => p.id)),
      unresolvedRows,
      follow,
    });
    shown = (from, hop) => spine.has(hopKey(from, hop));
  }
  const trace = assemble(
    graph,
    root,
    program,
    shown,
    scope,
    (id) => expandableNode(id) || Boolean(options.focus),
    shownUnresolved,
    listedUnresolved,
    listAll,
  );
  if (program.deeper === 0) return trace;
  // Said beside the totals, where a script reading `-o json` looks for the trace's size.
  const { nodes, edges, unresolved, ...head } = trace;
  const deeper = { depth: depthLimit, functions: program.deeper };
  return { ...head, deeper, nodes, edges, unresolved };
}

/** Builds the trace contract from the chosen nodes: one node per symbol, one edge per call. */
function assemble(
  graph: CallGraph,
  root: Root,
  program: ProgramGraph,
  shown: (from: number, hop: PHop) => boolean,
  scope: ProgramScope,
  follow: (id: number) => boolean,
  shownUnresolved: (u: EdgeRow) => boolean,
  /** Whether a shown unresolved call gets a row of its own; if not, it is counted in the fold. */
  listedUnresolved: (u: EdgeRow) => boolean,
  listAllUnresolved: boolean,
): Trace {
  const nodes: TraceNode[] = [];
  const edges: TraceEdge[] = [];
  const unresolved: TraceUnresolved[] = [];
  const nodeIndex = new Map<string, TraceNode>();
  const edgeSeen = new Set<string>();
  const passedBy = new PassedBy();
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
  // What each function calls, over every path the view went through it: a call is its callee
  // and site, shown when one path shows it, folded when none does.
  const calls = new Map<string, { all: Set<string>; shown: Set<string>; helpers: number }>();
  // One call that reaches several functions (an interface's implementations, a function value's
  // targets), of which the view shows some: each shown edge says how many the call reaches.
  const targetsAt = new Map<string, number>();
  const shownAt = new Map<string, number>();
  const edgeSite = new Map<TraceEdge, string>();
  const unresolvedOf = new Map<string, TraceUnresolved[]>();
  /** Per function: its unresolved calls counted in its fold, not listed (listedUnresolved). */
  const unlistedOf = new Map<string, TraceUnresolved[]>();
  // Depth-first from the root in call order, so nodes and edges read top to bottom.
  const visited = new Set<number>();
  const visit = (id: number) => {
    if (visited.has(id)) return;
    visited.add(id);
    const n = program.nodes[id]!;
    addNode(n);
    let own = calls.get(n.sym.symbol);
    if (!own) calls.set(n.sym.symbol, (own = { all: new Set(), shown: new Set(), helpers: 0 }));
    own.helpers = Math.max(own.helpers, program.helpers.get(id) ?? 0);
    for (const hop of program.hops.get(id) ?? []) {
      const child = program.nodes[hop.to]!;
      const call = `${child.sym.symbol}\n${hop.edge.file}:${hop.edge.line}:${hop.edge.col}`;
      const site = DISPATCH.has(hop.kind) ? dispatchSite(n.sym.symbol, hop) : undefined;
      if (site && !own.all.has(call)) targetsAt.set(site, (targetsAt.get(site) ?? 0) + 1);
      own.all.add(call);
      if (!shown(id, hop)) continue;
      if (site && !own.shown.has(call)) shownAt.set(site, (shownAt.get(site) ?? 0) + 1);
      own.shown.add(call);
      addNode(child);
      const key = `${n.sym.symbol}\n${child.sym.symbol}\n${hop.edge.file}:${hop.edge.line}\n${hop.kind}\n${hop.via ?? ''}`;
      if (!edgeSeen.has(key)) {
        edgeSeen.add(key);
        const edge = toEdge(n, child, hop, program);
        edges.push(edge);
        if (site) edgeSite.set(edge, site);
        passedBy.add(hop, n.sym.symbol, edge);
      } else passedBy.add(hop, n.sym.symbol);
      if (follow(hop.to)) visit(hop.to);
    }
    if (n.dispatch || n.sym.kind === 'param' || n.sym.kind === 'external') return;
    for (const u of program.unresolved.get(id) ?? []) {
      if (!shownUnresolved(u)) continue;
      const why = unresolvedReason(u.via);
      push(listedUnresolved(u) ? unresolvedOf : unlistedOf, n.sym.symbol, {
        caller: n.sym.symbol,
        expr: u.expr ?? '?',
        site: `${u.file}:${u.line}`,
        ...(why ? { why } : {}),
      });
    }
  };
  visit(0);
  passedBy.label(program);
  for (const [edge, site] of edgeSite) {
    const of = targetsAt.get(site) ?? 0;
    if ((shownAt.get(site) ?? 0) < of) edge.of = of;
  }
  for (const [symbol, own] of calls) {
    const node = nodeIndex.get(symbol)!;
    // A function the view shows none of the calls of keeps its unresolved calls in its fold too.
    const mine = dedupeUnresolved(unresolvedOf.get(symbol) ?? []);
    const listed = own.shown.size > 0 || listAllUnresolved;
    if (listed) unresolved.push(...mine);
    const folded =
      own.all.size -
      own.shown.size +
      (listed ? 0 : mine.length) +
      dedupeUnresolved(unlistedOf.get(symbol) ?? []).length;
    if (folded > 0 || own.helpers > 0)
      node.folded = {
        calls: folded,
        flag: '--all',
        ...(own.helpers > 0 ? { helpers: own.helpers } : {}),
      };
  }
  const functions = new Set(program.nodes.map((n) => n.sym.symbol)).size;
  let hopCount = 0;
  for (const list of program.hops.values()) hopCount += list.length;
  return {
    component: root.component,
    root: root.main.symbol,
    repo: { path: graph.repo.path, commit: graph.repo.commit, version: graph.repo.version },
    scope: { from: scope.from, packages: scope.size, cut: program.cut },
    total: { functions, edges: hopCount },
    nodes,
    edges,
    unresolved: dedupeUnresolved(unresolved),
  };
}

/**
 * Which caller passed the function a call through a parameter runs, said only where it tells
 * paths apart: a call site whose values were passed by two or more functions (a helper such as
 * `SafeWrite(f)` called with a closure from each of its callers). The view draws such a function
 * once, with every path's values under it.
 */
class PassedBy {
  /** Edges made from such hops, with the site's key. */
  private readonly edges: { edge: TraceEdge; by: number; site: string }[] = [];
  /** `caller \n site \n via` -> the functions that passed values there. */
  private readonly passers = new Map<string, Set<number>>();

  /** Counts a hop through a parameter; `edge` when the hop made the view's edge. */
  add(hop: PHop, caller: string, edge?: TraceEdge): void {
    if (hop.by === undefined) return;
    const site = `${caller}\n${hop.edge.file}:${hop.edge.line}:${hop.edge.col}\n${hop.via ?? ''}`;
    let set = this.passers.get(site);
    if (!set) this.passers.set(site, (set = new Set()));
    set.add(hop.by);
    if (edge) this.edges.push({ edge, by: hop.by, site });
  }

  /** Sets `boundBy` on the edges of sites that more than one function passed values to. */
  label(program: ProgramGraph): void {
    for (const { edge, by, site } of this.edges) {
      if ((this.passers.get(site)?.size ?? 0) < 2) continue;
      const passer = program.symbols.get(by)?.symbol;
      if (passer) edge.boundBy = passer;
    }
  }
}

/** Kinds of call whose one site can reach several functions. */
const DISPATCH: ReadonlySet<string> = new Set(['interface', 'funcvalue']);

/** A dispatching call site of a caller, by kind: its targets are counted together. */
function dispatchSite(caller: string, hop: PHop): string {
  return `${caller}\n${hop.edge.file}:${hop.edge.line}:${hop.edge.col}\n${hop.kind}`;
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
    const found = lookupComponent(components, options.in);
    if (!found || found.rest !== undefined) throw unknownComponent(options.in, components);
    return programScope(packages, [found.entry.main.package, root.main.package]);
  }
  return programScope(packages, [root.program?.main.package ?? root.main.package]);
}

async function findRoot(graph: CallGraph, target: string, options: TraceOptions): Promise<Root> {
  const components = await graph.components();
  const found = lookupComponent(components, target);
  if (found) {
    const { entry, rest: controller } = found;
    const rules = options.components?.[entry.name];
    const ownDir = dirOf(entry.main.file);
    // A component no rule describes (a daemon outside Kubernetes: cri-o's server/ and internal/)
    // is read in the whole repository's own code, not only its main package's directory.
    const scope = [ownDir, ...(rules ? (rules.scope ?? []) : [''])].filter(
      (d, i, a) => a.indexOf(d) === i,
    );
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
  // A component's main named by its symbol (`go.etcd.io/etcd/server/v3.main`): that component's
  // trace, a whole program.
  const entry = components.find((c) => c.main.symbol === main.symbol);
  if (entry) return findRoot(graph, entry.name, options);
  return { component: target, main, scope: [dirOf(main.file)] };
}

function unknownComponent(target: string, components: ComponentEntry[]): K8sReadError {
  return new K8sReadError(
    `unknown component or symbol ${JSON.stringify(target)}; components in this index:\n  ${componentListing(components)}`,
    { code: 'E_NO_COMPONENT', exitCode: 2 },
  );
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
function reachable(start: number, program: ProgramGraph): Set<number> {
  const seen = new Set<number>();
  addReachable(program.hops, start, seen);
  return seen;
}

/** One matcher for symbol globs (`*` matches any run of characters). */
export function globs(patterns: readonly string[]): (symbol: string) => boolean {
  if (patterns.length === 0) return () => false;
  const escape = (p: string) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  const re = new RegExp(`^(?:${patterns.map(escape).join('|')})$`);
  return (symbol) => re.test(symbol);
}

/**
 * Which packages fold as noise, by rules/noise.yaml's import-path prefixes. A prefix that covers
 * the tree's own module folds only the other modules under it: read in Prometheus itself,
 * `github.com/prometheus` (client_golang's metrics, for Kubernetes) still folds
 * github.com/prometheus/common but not github.com/prometheus/prometheus/scrape, or a trace of
 * Prometheus would show its main alone. A prefix inside the module (`k8s.io/kubernetes/pkg/
 * scheduler/metrics`) folds as before.
 */
export function noisePackage(
  prefixes: readonly string[],
  module: string | null | undefined,
): (pkg: string) => boolean {
  const own = module ? new Set(prefixes.filter((p) => underPackage(module, p))) : new Set<string>();
  return (pkg) =>
    prefixes.some(
      (p) => underPackage(pkg, p) && !(own.has(p) && module && underPackage(pkg, module)),
    );
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
