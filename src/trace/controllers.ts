/**
 * The controllers of a program, one row each: name -> start function -> informers watched ->
 * queue -> workers -> sync handler, every cell with its `file:line`, or the reason it is empty.
 *
 * Every cell is read off the program graph of src/trace/program-graph.ts (the program of the
 * component's main package, function values bound per path), from the hops the framework rules
 * made (rules/frameworks.yaml): `informer-handler` hops are the informers watched, a
 * `workqueue-handoff` hop names the queue and the function that Gets from it, `wait-until` hops
 * are the workers, and the queue consumer's call through a function-valued field (or, without
 * one, its first call into its own package after the Get) is the sync handler. Nothing is found by
 * the names of functions; a column the graph does not fill says why, never guesses.
 *
 * A controller manager's controllers are its registered parts (`CallGraph.parts`, the registry of
 * rules/components.yaml): each is expanded from its start function, which takes no function values,
 * so the answer is the subtree `trace <component>/<name>` has under the start function. A
 * controller-runtime program's controllers are the reconcilers its `Complete(r)`/`Build(r)` calls
 * reach (`controller-runtime` hops) from main. The code of the frameworks the rules model (client-go's
 * cache and work queue, wait, controller-runtime, cobra, leader election) is not followed: the rules
 * stand for it, and its own loops are not the controller's.
 */
import { K8sReadError } from '../errors.js';
import type { FrameworkRule } from '../resolve/rules.js';
import { receiverType, symbolParts, underPackage } from '../shared/go-symbol.js';
import type { BindingRow } from '../store/index-store.js';
import type { DefinitionRow, EdgeRow } from '../store/symbols.js';
import {
  expandProgram,
  type GraphSource,
  type PHop,
  type PNode,
  type ProgramGraph,
} from './program-graph.js';
import { dirOf } from '../shared/repo-path.js';
import { componentListing, lookupComponent } from './component-lookup.js';
import { programScope, type PackageInfo } from './program-scope.js';
import type { StructView } from './queries.js';
import {
  globs,
  noisePackage,
  isStd,
  type CallGraph,
  type ComponentEntry,
  type ComponentRules,
} from './trace-component.js';
import type { TraceRepo } from './types.js';

/** The call graph, and the one thing more the queue column needs: a struct's fields. */
export interface ControllerGraph extends CallGraph {
  /** A struct with its promoted fields (`struct <type>`), or null when the index has no such
   * struct. */
  structOf(type: string): Promise<StructView | null>;
}

/** A function or field in the source. */
export interface ControllerPlace {
  symbol: string;
  file: string;
  line: number;
  /** GitHub permalink at the indexed commit, or null. */
  url: string | null;
}

/** An `AddEventHandler` call (or, for controller-runtime, a `For`/`Owns`/`Watches` call). */
export interface InformerCell {
  /** `file:line` of the registration. */
  site: string;
  /** The call as written: `rsInformer.Informer().AddEventHandler`, or null when not recorded. */
  expr: string | null;
  /** The functions the registration makes the informer call (empty for controller-runtime). */
  handlers: ControllerPlace[];
}

/** A work queue: the field handlers `Add` to, and the function that `Get`s from it. */
export interface QueueCell {
  /** The queue as the producers write it: `rsc.queue`. */
  expr: string;
  /** The struct field, when the consumer's receiver type declares (or promotes) it. */
  field: { type: string; name: string; fieldType: string; file: string; line: number } | null;
  consumer: ControllerPlace;
  /** `file:line` of every `Add` that hands an item over to the consumer. */
  producers: string[];
}

/** A function that `wait.Until*` keeps running. */
export interface WorkerCell {
  /** `file:line` of the `wait.Until*` call. */
  site: string;
  /** The wrapper called: `wait.UntilWithContext`. */
  via: string | null;
  worker: ControllerPlace;
}

/** What a queue consumer hands each item to. */
export interface SyncCell {
  handler: ControllerPlace;
  /** `file:line` of the call (of `Complete(r)` for a reconciler). */
  site: string;
  /** `field`: through a function-valued field (`rsc.syncHandler`); `call`: the first method of
   * the consumer's own type it calls after its `Get`; `reconcile`: controller-runtime's
   * `Reconcile`. */
  how: 'field' | 'call' | 'reconcile';
  /** The call as written (`rsc.syncHandler`), or null. */
  expr: string | null;
  /** The queue consumer that makes the call (null for a reconciler). */
  consumer: string | null;
}

export type ControllerColumn = 'informers' | 'queues' | 'workers' | 'sync';

export interface ControllerRow {
  /** The registered name (`replicaset`), or the reconciler's type (`MemcachedReconciler`). */
  name: string;
  /** Other names registered for the same start function. */
  aliases: string[];
  /** The start function (a controller manager's `startXController`, a reconciler's setup). */
  start: ControllerPlace;
  /** What `trace` takes to show this controller: `kube-controller-manager/replicaset`, or a
   * symbol inside the component's program. */
  trace: { target: string; in: string | null };
  informers: InformerCell[];
  queues: QueueCell[];
  workers: WorkerCell[];
  sync: SyncCell[];
  /** For each empty column, why nothing was found. */
  notFound: Partial<Record<ControllerColumn, string>>;
}

export interface ControllerTable {
  component: string;
  /** `registry`: the parts a controller manager registers; `controller-runtime`: the reconcilers
   * a controller-runtime program builds; `program`: the program itself is the one controller. */
  kind: 'registry' | 'controller-runtime' | 'program';
  repo: TraceRepo;
  /** Calls followed from each start function. */
  depth: number;
  /** The directories whose code is followed (the component's own, as rules/components.yaml
   * says), besides each start function's. */
  scope: string[];
  controllers: ControllerRow[];
}

export interface ControllerOptions {
  /** The component; default: kube-controller-manager, else the tree's one component built on
   * controller-runtime. */
  component?: string;
  /** Calls followed from each start function (from main for controller-runtime). @default 10 */
  depth?: number;
  /** rules/frameworks.yaml: which hops mean what, and whose code is the frameworks'. */
  frameworks: readonly FrameworkRule[];
  /** rules/components.yaml: the directories of each component's own code. */
  components?: Record<string, ComponentRules>;
  /** rules/noise.yaml: package prefixes and symbol globs never followed. */
  noise?: { packages: readonly string[]; functions: readonly string[] };
}

/** The rule ids whose hops fill the columns (rules/frameworks.yaml). */
const RULE = {
  informer: 'informer-handler',
  handoff: 'workqueue-handoff',
  worker: 'wait-until',
  runtime: 'controller-runtime',
} as const;

/** controller-runtime's `reconcile.Reconciler` method, and the builder calls that add watches. */
const RECONCILE = 'Reconcile';
const BUILDER = {
  package: 'sigs.k8s.io/controller-runtime/pkg/builder',
  watches: ['For', 'Owns', 'Watches', 'WatchesMetadata', 'WatchesRawSource'],
};
/** The component `controllers` lists by default. */
const CONTROLLER_MANAGER = 'kube-controller-manager';
/** A controller-runtime program imports (transitively) controller-runtime's builder. */
const RUNTIME_BUILDER = 'sigs.k8s.io/controller-runtime/pkg/builder';

/** The wait wrappers that keep running a function until stopped (not the Poll and Backoff ones,
 * which retry a condition until it holds): `wait.Until*`, `Forever`, `wait.Group.Start*`. */
const LOOP =
  /^(Forever|(NonSliding|Jitter|Backoff)?Until(WithContext)?|Start(WithContext|WithChannel)?)$/;

const DEFAULT_DEPTH = 10;

export async function listControllers(
  graph: ControllerGraph,
  options: ControllerOptions,
): Promise<ControllerTable> {
  const depth = options.depth ?? DEFAULT_DEPTH;
  const components = await graph.components();
  const packages = await graph.packages();
  const rules = ruleFacts(options.frameworks);
  const pick = await pickComponent(graph, components, packages, options.component, rules);
  const scope = programScope(packages, [pick.entry.main.package]);
  const source = cachedSource(graph);
  const frameworks = frameworkPackages(options.frameworks);
  const noisePackages = noisePackage(options.noise?.packages ?? [], graph.module);
  const noiseFunction = globs(options.noise?.functions ?? []);
  const hidden = (s: DefinitionRow) =>
    isStd(s.package) || noisePackages(s.package) || noiseFunction(s.symbol);
  const framework = (pkg: string) => frameworks.some((p) => underPackage(pkg, p));
  const rulesOf = options.components?.[pick.entry.name] ?? {};
  const baseScope = unique([dirOf(pick.entry.main.file), ...(rulesOf.scope ?? [])]);
  // The component's own code, as the trace's default view expands it (its cmd/<name>, the
  // directories of rules/components.yaml, the start function's), minus the frameworks' code and
  // the registering calls themselves: the hop a rule made stands for what they do.
  const expandableIn = (dirs: readonly string[]) => (s: DefinitionRow) =>
    s.kind !== 'external' &&
    s.kind !== 'param' &&
    !hidden(s) &&
    !framework(s.package) &&
    !(s.kind === 'method' && rules.registering.has(symbolParts(s.symbol).name)) &&
    dirs.some((dir) => ownedBy(dir, s.file));
  const place = (s: DefinitionRow): ControllerPlace => ({
    symbol: s.symbol,
    file: s.file,
    line: s.line,
    url: graph.urlBase && s.file ? `${graph.urlBase}/${s.file}#L${s.line}` : null,
  });
  const context: ReadContext = {
    graph,
    source,
    place,
    framework,
    rules,
    structs: new Map(),
  };
  const expand = (root: DefinitionRow, dirs: readonly string[]) =>
    expandProgram(source, root, { scope, depth, expandable: expandableIn(dirs), hidden });
  const table = (kind: ControllerTable['kind'], controllers: ControllerRow[]): ControllerTable => ({
    component: pick.entry.name,
    kind,
    repo: { path: graph.repo.path, commit: graph.repo.commit, version: graph.repo.version },
    depth,
    scope: baseScope,
    controllers,
  });

  if (pick.parts.size > 0) {
    const rows: ControllerRow[] = [];
    for (const { name, aliases, start } of distinctParts(pick.parts)) {
      const dirs = unique([...baseScope, dirOf(start.file)]);
      const program = await expand(start, dirs);
      rows.push({
        name,
        aliases,
        start: place(start),
        trace: { target: `${pick.entry.name}/${name}`, in: null },
        ...(await readController(context, program, depth)),
      });
    }
    return table('registry', rows.sort(byName));
  }
  const program = await expand(pick.entry.main, baseScope);
  const reconcilers = reconcilerRows(context, program, pick.entry);
  if (reconcilers.length > 0) return table('controller-runtime', reconcilers.sort(byName));
  const single = await readController(context, program, depth);
  if (single.informers.length + single.queues.length + single.workers.length === 0) {
    const runtime = imports(packages, pick.entry.main.package, RUNTIME_BUILDER)
      ? `its program imports controller-runtime, but no Complete(r)/Build(r) call resolved to a reconciler`
      : 'no controller-runtime reconciler';
    throw new K8sReadError(
      `${pick.entry.name} has no controllers: no registry of parts (rules/components.yaml), ${runtime}, and no informer handler, work queue or wait.Until loop within ${depth} calls of main; \`k8s-read trace ${pick.entry.name}\` shows its calls, unresolved ones too`,
      { code: 'E_NO_CONTROLLERS', exitCode: 2 },
    );
  }
  return table('program', [
    {
      name: pick.entry.name,
      aliases: [],
      start: place(pick.entry.main),
      trace: { target: pick.entry.name, in: null },
      ...single,
    },
  ]);
}

interface Picked {
  entry: ComponentEntry;
  parts: Map<string, DefinitionRow>;
}

/**
 * The component asked for, else kube-controller-manager, else the one component whose program
 * imports controller-runtime.
 */
async function pickComponent(
  graph: CallGraph,
  components: readonly ComponentEntry[],
  packages: readonly PackageInfo[],
  name: string | undefined,
  rules: RuleFacts,
): Promise<Picked> {
  const listed = componentListing(components);
  if (name !== undefined) {
    const found = lookupComponent(components, name);
    const entry = found?.rest === undefined ? found?.entry : undefined;
    if (!entry)
      throw new K8sReadError(
        `unknown component ${JSON.stringify(name)}; components in this index:\n  ${listed}`,
        { code: 'E_NO_COMPONENT', exitCode: 2 },
      );
    return { entry, parts: await graph.parts(entry.name) };
  }
  const manager = components.find((c) => c.name === CONTROLLER_MANAGER);
  if (manager) return { entry: manager, parts: await graph.parts(manager.name) };
  const runtime = components.filter((c) => imports(packages, c.main.package, RUNTIME_BUILDER));
  if (runtime.length === 1) return { entry: runtime[0]!, parts: new Map() };
  if (runtime.length > 1)
    throw new K8sReadError(
      `this tree has ${runtime.length} controller-runtime programs; name one: \`k8s-read controllers <component>\`\n  ${runtime
        .map((c) => c.name)
        .sort()
        .join('\n  ')}`,
      { code: 'E_NO_COMPONENT', exitCode: 2 },
    );
  // A client-go program (sample-controller): the one whose program imports a work queue.
  const queued = components.filter((c) =>
    [...rules.queuePackages].some((p) => imports(packages, c.main.package, p)),
  );
  if (queued.length === 1) return { entry: queued[0]!, parts: new Map() };
  if (queued.length > 1)
    throw new K8sReadError(
      `this tree has no kube-controller-manager and no controller-runtime program, and ${queued.length} programs use a work queue; name one: \`k8s-read controllers <component>\`\n  ${queued
        .map((c) => c.name)
        .sort()
        .join('\n  ')}`,
      { code: 'E_NO_COMPONENT', exitCode: 2 },
    );
  throw new K8sReadError(
    `this tree has no kube-controller-manager, no controller-runtime program and no program that uses a work queue; name a component that runs controllers: \`k8s-read controllers <component>\`; components in this index:\n  ${listed}`,
    { code: 'E_NO_CONTROLLERS', exitCode: 2 },
  );
}

/** Whether the program of `main` imports `target` (indexed or not), directly or through others. */
function imports(packages: readonly PackageInfo[], main: string, target: string): boolean {
  const byPath = new Map(packages.map((p) => [p.path, p]));
  const seen = new Set<string>([main]);
  const stack = [main];
  while (stack.length > 0) {
    for (const imp of byPath.get(stack.pop()!)?.imports ?? []) {
      if (imp === target) return true;
      if (!seen.has(imp)) {
        seen.add(imp);
        stack.push(imp);
      }
    }
  }
  return false;
}

/** One row per start function: names registered for the same function are its aliases. */
function distinctParts(
  parts: ReadonlyMap<string, DefinitionRow>,
): { name: string; aliases: string[]; start: DefinitionRow }[] {
  const byStart = new Map<number, { names: string[]; start: DefinitionRow }>();
  for (const [name, start] of parts) {
    const entry = byStart.get(start.id);
    if (entry) entry.names.push(name);
    else byStart.set(start.id, { names: [name], start });
  }
  return [...byStart.values()].map(({ names, start }) => {
    // The canonical name is the one registered first (a descriptor's name before its aliases).
    const [name, ...aliases] = names;
    return { name: name!, aliases: aliases.sort(), start };
  });
}

function byName(a: ControllerRow, b: ControllerRow): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** What reading one controller off its program graph needs. */
interface ReadContext {
  graph: ControllerGraph;
  source: CachedSource;
  place: (s: DefinitionRow) => ControllerPlace;
  /** Whether a package is a framework's (its code is not followed). */
  framework: (pkg: string) => boolean;
  rules: RuleFacts;
  structs: Map<string, Promise<StructView | null>>;
}

type Columns = Pick<ControllerRow, 'informers' | 'queues' | 'workers' | 'sync' | 'notFound'>;

/** The columns of one controller, from the program graph expanded from its start. */
async function readController(
  context: ReadContext,
  program: ProgramGraph,
  depth: number,
): Promise<Columns> {
  const { nodes, hops } = program;
  const framework = (h: PHop, rule: string) => h.kind === 'framework' && h.via === rule;

  // Informers: every registration in the program, at its AddEventHandler call.
  const informers = readInformers(context, program);

  // Queues: the hand-offs, by the function that Gets.
  const byConsumer = new Map<number, { consumer: DefinitionRow; edges: EdgeRow[] }>();
  for (const list of hops.values()) {
    for (const h of list) {
      if (!framework(h, RULE.handoff)) continue;
      const consumer = nodes[h.to]!.sym;
      const entry = byConsumer.get(consumer.id) ?? { consumer, edges: [] };
      entry.edges.push(h.edge);
      byConsumer.set(consumer.id, entry);
    }
  }
  const queues: QueueCell[] = [];
  for (const { consumer, edges } of byConsumer.values()) {
    const expr = mostCommon(edges.map((e) => queueExpr(e.expr)).filter(isString)) ?? '?';
    queues.push({
      expr,
      field: await queueField(context, consumer, expr),
      consumer: context.place(consumer),
      producers: uniqueSites(edges.map(site)),
    });
  }

  // Workers: what wait.Until* runs on the way up (not inside handlers, workers or sync handlers).
  const workers: WorkerCell[] = [];
  const seenWorker = new Set<string>();
  for (const { hop } of startUpHops(program)) {
    if (!framework(hop, RULE.worker) || !LOOP.test(lastSegment(hop.edge.expr))) continue;
    const worker = nodes[hop.to]!.sym;
    const key = `${site(hop.edge)}>${worker.symbol}`;
    if (seenWorker.has(key)) continue;
    seenWorker.add(key);
    workers.push({ site: site(hop.edge), via: hop.edge.expr, worker: context.place(worker) });
  }

  // Sync handlers: what each consumer hands its items to.
  const sync: SyncCell[] = [];
  const quiet: string[] = [];
  for (const q of queues) {
    const found = syncOf(context, program, q);
    if (found.length > 0) sync.push(...found);
    else quiet.push(shortName(q.consumer.symbol));
  }

  const notFound: Columns['notFound'] = {};
  if (informers.length === 0)
    notFound.informers = `no AddEventHandler call within ${depth} calls of the start`;
  if (queues.length === 0)
    notFound.queues = `no work-queue hand-off (an Add reaching a Get) within ${depth} calls`;
  if (workers.length === 0) notFound.workers = 'no wait.Until* loop on the way from the start';
  if (sync.length === 0)
    notFound.sync =
      queues.length === 0
        ? 'no queue consumer to hand items to'
        : `${quiet.join(', ')} calls no function-valued field, nor a method of its type after Get`;
  return { informers, queues, workers, sync, notFound };
}

/**
 * The informer registrations: an informer-handler hop at an AddEventHandler call is one cell per
 * call; handlers whose literal the program builds where no such call is recorded are one cell
 * per function, at the literal.
 */
function readInformers(context: ReadContext, program: ProgramGraph): InformerCell[] {
  const cells = new Map<string, InformerCell>();
  const seenHandler = new Set<string>();
  const orphans = new Map<
    number,
    { site: string; expr: string | null; handlers: ControllerPlace[] }
  >();
  const done = new Set<number>();
  for (const [id, list] of program.hops) {
    const node = program.nodes[id]!;
    const targets = new Map<number, DefinitionRow>();
    for (const h of list)
      if (h.kind === 'framework' && h.via === RULE.informer)
        targets.set(program.nodes[h.to]!.sym.id, program.nodes[h.to]!.sym);
    if (targets.size === 0 || done.has(node.sym.id)) continue;
    done.add(node.sym.id);
    // The program graph keeps one hop per handler; the index has every edge that made it, the
    // registration call among them.
    const raw = (context.source.edgesOf(node.sym.id) ?? []).filter(
      (e) => e.via === RULE.informer && e.callee !== null && targets.has(e.callee),
    );
    for (const e of raw) {
      if (!context.rules.registering.has(lastSegment(e.expr))) continue;
      const key = `${site(e)}:${e.col}`;
      const cell = cells.get(key) ?? { site: site(e), expr: e.expr, handlers: [] };
      cells.set(key, cell);
      const handler = targets.get(e.callee!)!;
      if (!cell.handlers.some((p) => p.symbol === handler.symbol))
        cell.handlers.push(context.place(handler));
      seenHandler.add(`${node.sym.id}>${handler.id}`);
    }
    for (const e of raw) {
      const handler = targets.get(e.callee!)!;
      if (seenHandler.has(`${node.sym.id}>${handler.id}`)) continue;
      seenHandler.add(`${node.sym.id}>${handler.id}`);
      const orphan =
        orphans.get(node.sym.id) ?? unresolvedRegistration(context, node.sym.id, e, cells);
      orphan.handlers.push(context.place(handler));
      orphans.set(node.sym.id, orphan);
    }
  }
  const out = [...cells.values()];
  for (const o of orphans.values()) out.push(o);
  return out.sort((a, b) => compareSites(a.site, b.site));
}

/**
 * Where handlers whose registration did not resolve were registered: when the literal's fields
 * are all the index has (the informer's type is outside the index, so its `AddEventHandler` is
 * unresolved), the nearest unresolved registering call at or above the literal, in the same
 * function, is the registration as written; else the literal's own line, and no call.
 */
function unresolvedRegistration(
  context: ReadContext,
  caller: number,
  literal: EdgeRow,
  cells: ReadonlyMap<string, InformerCell>,
): { site: string; expr: string | null; handlers: ControllerPlace[] } {
  const taken = new Set([...cells.values()].map((c) => c.site));
  let call: EdgeRow | undefined;
  for (const e of context.source.edgesOf(caller) ?? []) {
    if (e.callee !== null || e.file !== literal.file || e.line > literal.line) continue;
    if (!context.rules.registering.has(lastSegment(e.expr)) || taken.has(site(e))) continue;
    if (!call || e.line > call.line) call = e;
  }
  return call
    ? { site: site(call), expr: call.expr, handlers: [] }
    : { site: site(literal), expr: null, handlers: [] };
}

/**
 * The hops of the start-up path: reached from the root without going through an informer
 * handler, a queue hand-off or a loop wait.Until runs (inside those are the controller's events
 * and its work, not its start).
 */
function startUpHops(program: ProgramGraph): { from: PNode; hop: PHop }[] {
  const out: { from: PNode; hop: PHop }[] = [];
  const seen = new Set<number>([0]);
  const order = [0];
  for (let i = 0; i < order.length; i++) {
    const node = program.nodes[order[i]!]!;
    for (const hop of program.hops.get(node.id) ?? []) {
      out.push({ from: node, hop });
      const inside =
        hop.kind === 'framework' &&
        (hop.via === RULE.informer || hop.via === RULE.handoff || hop.via === RULE.worker);
      if (inside || seen.has(hop.to)) continue;
      seen.add(hop.to);
      order.push(hop.to);
    }
  }
  return out;
}

/**
 * What a queue consumer hands its items to: the function behind a function-valued field it
 * calls (the sync handler field), else the first method of its own type it calls after it Gets
 * from the queue (`err := c.syncService(key)`, before `c.handleErr(err, key)`) — in the consumer
 * or a closure it calls. Nothing when neither is there.
 */
function syncOf(context: ReadContext, program: ProgramGraph, queue: QueueCell): SyncCell[] {
  const consumer = queue.consumer.symbol;
  const mine = (s: string) => s === consumer || s.startsWith(`${consumer}$`);
  const found: { hop: PHop; target: DefinitionRow }[] = [];
  for (const [id, list] of program.hops) {
    if (!mine(program.nodes[id]!.sym.symbol)) continue;
    for (const hop of list) {
      const target = program.nodes[hop.to]!.sym;
      if (mine(target.symbol) || context.framework(target.package)) continue;
      found.push({ hop, target });
    }
  }
  found.sort((a, b) => a.hop.edge.line - b.hop.edge.line || a.hop.edge.col - b.hop.edge.col);
  const cells = (list: typeof found, how: SyncCell['how']): SyncCell[] => {
    const seen = new Set<string>();
    return list.flatMap(({ hop, target }) => {
      if (seen.has(target.symbol)) return [];
      seen.add(target.symbol);
      return [
        {
          handler: context.place(target),
          site: site(hop.edge),
          how,
          expr: hop.edge.expr,
          consumer,
        },
      ];
    });
  };
  // A call through a field: a function value the call's own text selects (`rsc.syncHandler`).
  const fields = found.filter(
    (f) =>
      f.hop.kind === 'funcvalue' &&
      f.hop.via === null &&
      f.target.kind !== 'param' &&
      (f.hop.edge.expr ?? '').includes('.'),
  );
  if (fields.length > 0) return cells(fields, 'field');
  const owner = receiverType(consumer);
  const pkg = symbolParts(consumer).package;
  const getLine = consumeLine(context, program, queue);
  const first = found.find(
    (f) =>
      (f.hop.kind === 'static' || f.hop.kind === 'interface') &&
      (owner
        ? receiverType(f.target.symbol) === owner
        : f.target.package === pkg && f.target.kind === 'func') &&
      (getLine === null || f.hop.edge.line > getLine),
  );
  return first ? cells([first], 'call') : [];
}

/** The line where the consumer Gets from the queue (`rsc.queue.Get()`), or null. */
function consumeLine(context: ReadContext, program: ProgramGraph, queue: QueueCell): number | null {
  const field = lastSegment(queue.expr);
  const consumerId = program.nodes.find((n) => n.sym.symbol === queue.consumer.symbol)?.sym.id;
  if (consumerId === undefined) return null;
  const lines = (context.source.edgesOf(consumerId) ?? [])
    .filter((e) => {
      const parts = (e.expr ?? '').split('.');
      return (
        parts.length >= 2 && parts.at(-2) === field && context.rules.consuming.has(parts.at(-1)!)
      );
    })
    .map((e) => e.line);
  return lines.length ? Math.min(...lines) : null;
}

/** The struct field a queue is, when the consumer's receiver type declares or promotes it. */
async function queueField(
  context: ReadContext,
  consumer: DefinitionRow,
  expr: string,
): Promise<QueueCell['field']> {
  const owner = receiverType(consumer.symbol);
  const name = lastSegment(expr);
  // `rsc.queue`: a field of the receiver; a longer chain is some other value's.
  if (!owner || expr.split('.').length !== 2) return null;
  let view = context.structs.get(owner);
  if (!view) {
    view = context.graph.structOf(owner);
    context.structs.set(owner, view);
  }
  const field = (await view)?.fields.find((f) => f.name === name);
  return field
    ? { type: field.from, name, fieldType: field.type, file: field.file, line: field.line }
    : null;
}

/** The reconcilers a controller-runtime program's builders reach, one row each. */
function reconcilerRows(
  context: ReadContext,
  program: ProgramGraph,
  entry: ComponentEntry,
): ControllerRow[] {
  const rows = new Map<string, ControllerRow>();
  for (const [id, list] of program.hops) {
    const node = program.nodes[id]!;
    for (const hop of list) {
      if (hop.kind !== 'framework' || hop.via !== RULE.runtime) continue;
      const reconcile = program.nodes[hop.to]!.sym;
      const parts = symbolParts(reconcile.symbol);
      if (parts.name !== RECONCILE || parts.receiver === null) continue;
      const key = `${node.sym.symbol}>${reconcile.symbol}`;
      if (rows.has(key)) continue;
      const informers: InformerCell[] = (context.source.edgesOf(node.sym.id) ?? [])
        .filter((e) => {
          const callee = e.callee === null ? undefined : context.source.symbol(e.callee);
          if (!callee) return false;
          const p = symbolParts(callee.symbol);
          return p.package === BUILDER.package && BUILDER.watches.includes(p.name);
        })
        .map((e) => ({
          site: site(e),
          expr: e.expr ?? symbolParts(context.source.symbol(e.callee!)!.symbol).local,
          handlers: [],
        }));
      rows.set(key, {
        name: parts.receiver,
        aliases: [],
        start: context.place(node.sym),
        trace: { target: node.sym.symbol, in: entry.name },
        informers,
        queues: [],
        workers: [],
        sync: [
          {
            handler: context.place(reconcile),
            site: site(hop.edge),
            how: 'reconcile',
            expr: hop.edge.expr,
            consumer: null,
          },
        ],
        notFound: {
          ...(informers.length === 0
            ? { informers: `no builder For/Owns/Watches call in ${shortName(node.sym.symbol)}` }
            : {}),
          queues: "kept inside controller-runtime's Controller, not in this program",
          workers: "run by controller-runtime's Controller (MaxConcurrentReconciles)",
        },
      });
    }
  }
  // Two builders of the same reconciler type are two controllers: name them apart by setup.
  const counts = new Map<string, number>();
  for (const r of rows.values()) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
  return [...rows.values()].map((r) =>
    (counts.get(r.name) ?? 0) > 1 ? { ...r, name: `${r.name} (${shortName(r.start.symbol)})` } : r,
  );
}

/** Facts of rules/frameworks.yaml the columns need. */
interface RuleFacts {
  /** Methods whose call registers informer handlers (`AddEventHandler`). */
  registering: Set<string>;
  /** The packages of the work queues a hand-off goes through (`k8s.io/client-go/util/workqueue`). */
  queuePackages: Set<string>;
  /** Methods a queue consumer calls to take an item (`Get`). */
  consuming: Set<string>;
}

function ruleFacts(rules: readonly FrameworkRule[]): RuleFacts {
  const registering = new Set<string>();
  const consuming = new Set<string>();
  const queuePackages = new Set<string>();
  for (const rule of rules) {
    if (rule.id === RULE.informer && rule.kind === 'literal-field')
      for (const inv of rule.invokedBy ?? []) if ('method' in inv) registering.add(inv.method);
    if (rule.id === RULE.informer && rule.kind === 'arg-methods')
      for (const call of rule.calls) registering.add(call);
    if (rule.id === RULE.handoff && rule.kind === 'queue-handoff') {
      for (const c of rule.consume) consuming.add(c);
      queuePackages.add(rule.package);
    }
  }
  return { registering, consuming, queuePackages };
}

/**
 * The packages whose code the framework rules stand for (what they model is a hop; the code
 * itself is the framework's, and its own loops are not the controller's).
 */
export function frameworkPackages(rules: readonly FrameworkRule[]): string[] {
  const out = new Set<string>();
  const ofSymbol = (s: string) => symbolParts(s).package || s;
  for (const rule of rules) {
    switch (rule.kind) {
      case 'literal-field':
        out.add(ofSymbol(rule.type));
        for (const inv of rule.invokedBy ?? [])
          out.add(ofSymbol('function' in inv ? inv.function : inv.receiver));
        break;
      case 'call-arg':
        for (const f of rule.functions) out.add(ofSymbol(f));
        break;
      case 'arg-methods':
      case 'queue-handoff':
        out.add(rule.package);
        break;
      default:
        break;
    }
  }
  return [...out].sort();
}

/** A GraphSource that keeps what it loaded: the controllers of one tree share most of their code. */
interface CachedSource extends GraphSource {
  /** Every edge (resolved or not) of a function already loaded. */
  edgesOf(id: number): readonly EdgeRow[] | undefined;
  symbol(id: number): DefinitionRow | undefined;
}

function cachedSource(graph: CallGraph): CachedSource {
  const edges = new Map<number, EdgeRow[]>();
  const bindings = new Map<number, BindingRow[]>();
  const bindingsInto = new Map<number, BindingRow[]>();
  const symbols = new Map<number, DefinitionRow>();
  const made = new Map<string, { type: string; package: string }[]>();
  const fill = async <T>(
    ids: readonly number[],
    cache: Map<number, T[]>,
    load: (missing: number[]) => Promise<T[]>,
    key: (row: T) => number,
  ): Promise<T[]> => {
    const missing = [...new Set(ids.filter((id) => !cache.has(id)))];
    if (missing.length > 0) {
      for (const id of missing) cache.set(id, []);
      for (const row of await load(missing)) cache.get(key(row))?.push(row);
    }
    return [...new Set(ids)].flatMap((id) => cache.get(id) ?? []);
  };
  return {
    edgesOf: (id) => edges.get(id),
    symbol: (id) => symbols.get(id),
    edgesFrom: (ids) =>
      fill(
        ids,
        edges,
        (m) => graph.edgesFrom(m),
        (r) => r.caller,
      ),
    bindingsFrom: (ids) =>
      fill(
        ids,
        bindings,
        (m) => graph.bindingsFrom(m),
        (r) => r.caller,
      ),
    bindingsInto: (slots) =>
      fill(
        slots,
        bindingsInto,
        (m) => graph.bindingsInto(m),
        (r) => r.slot,
      ),
    async symbolsByIds(ids) {
      const missing = [...new Set(ids.filter((id) => !symbols.has(id)))];
      if (missing.length > 0)
        for (const s of await graph.symbolsByIds(missing)) symbols.set(s.id, s);
      return ids.flatMap((id) => {
        const s = symbols.get(id);
        return s ? [s] : [];
      });
    },
    async madeBy(types) {
      const missing = types.filter((t) => !made.has(t));
      if (missing.length > 0) {
        for (const t of missing) made.set(t, []);
        for (const m of await graph.madeBy(missing)) made.get(m.type)?.push(m);
      }
      return types.flatMap((t) => made.get(t) ?? []);
    },
  };
}

/** Whether a file is in a directory of the component's own code; the repository's root owns
 * everything but the libraries it vendors or depends on. */
function ownedBy(dir: string, file: string): boolean {
  if (dir === '')
    return !file.startsWith('vendor/') && !file.includes('/vendor/') && !file.startsWith('_deps/');
  return file === dir || file.startsWith(`${dir}/`);
}

function site(e: Pick<EdgeRow, 'file' | 'line'>): string {
  return `${e.file}:${e.line}`;
}

function compareSites(a: string, b: string): number {
  const [fa, la] = [a.slice(0, a.lastIndexOf(':')), Number(a.slice(a.lastIndexOf(':') + 1))];
  const [fb, lb] = [b.slice(0, b.lastIndexOf(':')), Number(b.slice(b.lastIndexOf(':') + 1))];
  return fa < fb ? -1 : fa > fb ? 1 : la - lb;
}

/** `rsc.queue.Add` -> `rsc.queue`. */
function queueExpr(expr: string | null): string | undefined {
  if (!expr || !expr.includes('.')) return undefined;
  return expr.slice(0, expr.lastIndexOf('.'));
}

function lastSegment(expr: string | null): string {
  return (expr ?? '').slice((expr ?? '').lastIndexOf('.') + 1);
}

function shortName(symbol: string): string {
  return symbolParts(symbol).local;
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function uniqueSites(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareSites);
}

function isString(v: string | undefined): v is string {
  return v !== undefined;
}
