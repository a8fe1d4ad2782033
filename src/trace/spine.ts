/**
 * The default view of a trace: the spine a reader would draw, from the root to the code that keeps
 * running (loops, goroutines, callbacks, handlers) and the algorithm inside it, within a budget of
 * rows.
 *
 * What a function is worth to a reader is what the text of the code does not tell: the hops the
 * tool had to find (a framework's callback, a goroutine, a function value, an interface's
 * implementation, a channel's receiver) below it, counted more where the code keeps running than
 * where it only sets things up, less inside an implementation an interface call reached (the
 * runner's story ends at the plugin's method) and less out of the component's own code. Again and
 * again the view adds the path, from a function it shows, that adds the most worth per row (a path
 * is worth the sum of its functions), so the way to a deep hop can beat a list of helpers; each
 * function lists at most `maxChildren` calls, except the way to a loop or callback a framework runs.
 *
 * Each function hangs under the first caller met breadth-first, or under a caller in running code
 * when set-up code calls it too (the scheduler's Run, from the leader-election callback). Where one
 * call reaches several functions (an interface's implementations, a registry's entries, the
 * handlers one registration installs), they are peers: the first in the resolver's rank is
 * followed (or a later one that leads to far more: a dispatcher's create route, not its first, a
 * log file handler), the next few are listed at a fifth of their worth, the rest fold. Where the
 * component's story ends (`follow`, rules/components.yaml), the way there is shown first, whatever
 * its worth.
 */
import { NO_IMPLEMENTATION } from '../shared/edge-via.js';
import type { PHop, PNode, ProgramGraph } from './program-graph.js';

export interface SpineOptions {
  /** Rows the view may take, one per call shown. */
  budget: number;
  /** Call sites listed under one function, and peers listed of one call site. */
  maxChildren: number;
  /** Functions (symbol ids) listed wherever a call reaches them, whatever their worth: a
   * component's registered parts (the controllers of a controller manager). */
  always?: ReadonlySet<number>;
  /** The rows a function's unresolved calls take once its calls are listed. */
  unresolvedRows?: (id: number) => number;
  /** Where the component's story ends (rules/components.yaml `follow`): the way to the first
   * function of the tree whose symbol matches is shown, whatever its worth. */
  follow?: (symbol: string) => boolean;
}

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
 * An interface's method that no type of the index implements (`no implementation indexed`): the
 * call's text says all the tool knows, so it counts as a plain call and a one-line function.
 */
function endsAtMethod(n: PNode): boolean {
  return n.dispatch?.edge.via === NO_IMPLEMENTATION;
}

/** What reaching a function this way is worth: hops the text does not show count most. */
function valueOf(h: PHop, fromDispatch: boolean, samePackage: boolean, to?: PNode): number {
  if (to && endsAtMethod(to)) return samePackage ? 0.6 : 0.3;
  if (runs(h)) return 3;
  if (fromDispatch) return 1.5;
  switch (h.kind) {
    case 'framework':
    case 'funcvalue':
      return 2;
    case 'interface':
      return 1;
    case 'closure':
      return 0.3;
    default:
      // A call into the caller's own package is a step of its algorithm; elsewhere, a helper.
      return samePackage ? 0.6 : 0.3;
  }
}

/** How much a call counts that neither leads to nor runs inside code that keeps running. */
const ASIDE = 0.25;
/** A function of 20 lines counts as one: longer ones a little more, shorter a little less. */
const LOG_TYPICAL = Math.log2(22);
/** A second or later implementation at one call site counts this much: the first tells the story,
 * the next few only say there are others. */
const PEER = 0.2;
/** A call out of the component's own code (a client, a lister) is a step the reader does not
 * follow: it counts this much. */
const OUT_OF_SCOPE = 0.4;
/** What a call inside an implementation an interface call reached counts, per such level. */
const INSIDE_IMPLEMENTATION = 0.3;
/** A function already shown elsewhere counts this much where it is called again (`↩`). */
const REPEAT = 0.2;

/** A hop of the view: from a node of the program to the node it calls. */
export function hopKey(from: number, hop: PHop): string {
  return `${from}>${hop.to}`;
}

/** Chooses the view: the hops it shows (`hopKey`), within the budget. */
export function chooseSpine(
  rootId: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  options: SpineOptions,
): Set<string> {
  const { nodes } = program;
  const always = options.always ?? new Set<number>();
  const calleesOf = calleesOnce(program);
  const tree = spanningTree(rootId, program, expandable, calleesOf);
  const story = runningParts(rootId, tree.order, program, expandable);
  // Below an implementation an interface call reached, its own steps count less: the runner's
  // story ends at the implementation (a plugin's Filter), unless it starts code that keeps running.
  const depth = new Map<number, number>([[rootId, 1]]);
  for (const id of tree.order) {
    const parent = tree.parent.get(id);
    if (parent === undefined) continue;
    const hop = tree.hop.get(id)!;
    const below = nodes[tree.parent.get(parent) ?? parent]!.dispatch ? INSIDE_IMPLEMENTATION : 1;
    depth.set(id, runs(hop) ? 1 : depth.get(parent)! * below);
  }
  // The functions on the way to a loop or callback a framework runs (wait.Until, an informer's
  // handler, a worker), wherever it starts.
  const toRunning = new Set<number>();
  for (const id of tree.order)
    if (RUNNING.has(tree.hop.get(id)?.via ?? ''))
      for (
        let x: number | undefined = id;
        x !== undefined && !toRunning.has(x);
        x = tree.parent.get(x)
      )
        toRunning.add(x);
  const value = new Map<number, number>();
  for (const id of tree.order) {
    const running = story.path.has(id) || story.inside.has(id) ? 1 : ASIDE;
    const n = nodes[id]!;
    const lines = endsAtMethod(n)
      ? 1
      : n.dispatch
        ? 20
        : Math.max(1, n.sym.endLine - n.sym.line + 1);
    const peer =
      (tree.leaf.has(id) ? PEER : 1) * depth.get(id)! * (expandable(id) ? 1 : OUT_OF_SCOPE);
    value.set(
      id,
      (tree.hopValue.get(id) ?? 1) * running * peer * (Math.log2(2 + lines) / LOG_TYPICAL),
    );
  }

  // Per node, the call site of the hop into it (`parent@line:col`): asked on every scan.
  const siteKey: string[] = [];
  for (const id of tree.order) {
    const parent = tree.parent.get(id);
    if (parent !== undefined) siteKey[id] = `${parent}@${siteOf(tree.hop.get(id)!)}`;
  }

  const shown = new Set<string>();
  // The nodes shown, by node id (asked once per node on every scan below).
  const open = new Uint8Array(nodes.length);
  open[rootId] = 1;
  const rowsOf = new Set<string>();
  const childrenShown = new Map<number, number>();
  const peersShown = new Map<string, number>();
  const shownSymbols = new Set<number>([nodes[rootId]!.sym.id]);
  let rows = 1;
  /** Shows the tree hop into `id` (its parent is shown); returns the rows it took. */
  const show = (id: number): number => {
    const parent = tree.parent.get(id)!;
    const hop = tree.hop.get(id)!;
    const n = nodes[id]!;
    shown.add(hopKey(parent, hop));
    open[id] = 1;
    childrenShown.set(parent, (childrenShown.get(parent) ?? 0) + 1);
    const site = siteKey[id]!;
    peersShown.set(site, (peersShown.get(site) ?? 0) + 1);
    let cost = 0;
    const row = `${nodes[parent]!.sym.id}>${n.sym.id}`;
    if (!rowsOf.has(row)) {
      rowsOf.add(row);
      cost++;
    }
    // A function whose calls get rows lists its unresolved calls too.
    if ((childrenShown.get(parent) ?? 0) === 1) cost += options.unresolvedRows?.(parent) ?? 0;
    shownSymbols.add(n.sym.id);
    return cost;
  };
  const room = (id: number): boolean => {
    const parent = tree.parent.get(id)!;
    // The way to code that keeps running is never folded for lack of room, only for lack of rows.
    if (always.has(nodes[id]!.sym.id) || toRunning.has(id)) return true;
    if ((childrenShown.get(parent) ?? 0) >= options.maxChildren) return false;
    return (peersShown.get(siteKey[id]!) ?? 0) < options.maxChildren;
  };
  /** Shows `id` and the path to it; returns the rows it took. */
  const reach = (id: number): number => {
    const path: number[] = [];
    for (let x: number | undefined = id; x !== undefined && !open[x]; x = tree.parent.get(x))
      path.push(x);
    let cost = 0;
    for (const x of path.reverse()) cost += show(x);
    return cost;
  };

  // A component's registered parts first, each on the path where it runs.
  for (const id of tree.order)
    if (always.has(nodes[id]!.sym.id) && !open[id] && rows < options.budget) rows += reach(id);

  // Then the way to where the component's story ends, breadth-first: the nearest function of each
  // symbol the rules name.
  if (options.follow) {
    const met = new Set<number>();
    for (const id of tree.order) {
      const sym = nodes[id]!.sym;
      if (met.has(sym.id) || !options.follow(sym.symbol)) continue;
      met.add(sym.id);
      if (!open[id] && rows < options.budget) rows += reach(id);
    }
  }

  // Then, again and again, the path that adds the most worth per row. Scanned in tree order, so
  // a parent's gain is known before its children's; typed arrays by node id, as this loop runs
  // once per row over every node of the tree.
  const size = nodes.length;
  const parentOf = new Int32Array(size).fill(-1);
  for (const [child, parent] of tree.parent) parentOf[child] = parent;
  const valueOf = new Float64Array(size);
  for (const [id, v] of value) valueOf[id] = v;
  const gain = new Float64Array(size);
  const cost = new Float64Array(size);
  // Per node, whether a row may not open it (not expandable, or a leaf of the tree): fixed.
  const closed = new Uint8Array(size);
  for (const id of tree.order) if (!expandable(id) || tree.leaf.has(id)) closed[id] = 1;
  const order = Int32Array.from(tree.order);
  while (rows < options.budget) {
    let best = -1;
    let bestRatio = 0;
    for (let i = 0; i < order.length; i++) {
      const id = order[i]!;
      if (open[id]) continue;
      const parent = parentOf[id]!;
      const repeat = shownSymbols.has(nodes[id]!.sym.id) ? REPEAT : 1;
      if (parent >= 0 && open[parent]) {
        if (closed[parent] || !room(id)) {
          gain[id] = -1;
          continue;
        }
        gain[id] = valueOf[id]! * repeat;
        cost[id] = 1;
      } else {
        const g = parent < 0 ? -1 : gain[parent]!;
        if (g < 0 || tree.leaf.has(parent)) {
          gain[id] = -1;
          continue;
        }
        gain[id] = g + valueOf[id]! * repeat;
        cost[id] = cost[parent]! + 1;
      }
      const ratio = gain[id]! / cost[id]!;
      if (ratio > bestRatio && rows + cost[id]! <= options.budget) {
        bestRatio = ratio;
        best = id;
      }
    }
    if (best < 0) break;
    rows += reach(best);
  }
  // Both ways into a loop or callback both functions of which the view shows: the worker that
  // runs a queue's consumer and the informer handler that feeds it; and a call through a function
  // value into a function the view shows elsewhere (the pod worker's syncPodFn is the kubelet's
  // syncPod), a hop the text does not tell, drawn as a reference to where it is expanded.
  for (const id of tree.order) {
    if (!open[id] || !expandable(id) || tree.leaf.has(id)) continue;
    for (const { hop } of calleesOf(id)) {
      const into = tree.hop.get(hop.to);
      if (open[hop.to] && into && (runs(hop) || runs(into) || hop.kind === 'funcvalue'))
        shown.add(hopKey(id, hop));
    }
  }
  return shown;
}

/**
 * The calls the view may follow, as a tree breadth-first from the root: each function's parent,
 * the hop into it and what that hop is worth. Registry hops (`map-register`: where a function is
 * put in a table, not where it runs) only reach what nothing else does; a peer after the first is
 * a leaf.
 */
function spanningTree(
  rootId: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  calleesOf: (id: number) => Callee[],
): {
  order: number[];
  parent: Map<number, number>;
  hop: Map<number, PHop>;
  hopValue: Map<number, number>;
  leaf: Set<number>;
} {
  const { nodes } = program;
  const order: number[] = [rootId];
  const parent = new Map<number, number>();
  const hop = new Map<number, PHop>();
  const hopValue = new Map<number, number>();
  const leaf = new Set<number>();
  const reached = new Set([rootId]);
  const below: WorthBelow = {
    memo: new Map(),
    seen: new Int32Array(nodes.length),
    round: 0,
  };
  /** Call sites (`caller@line:col`) whose first function not met before is followed. */
  const followed = new Set<string>();
  // Whether a node was reached inside code that keeps running, and how deep.
  const running = new Map<number, boolean>([[rootId, false]]);
  const depth = new Map<number, number>([[rootId, 0]]);
  /** The one function of the index a function calls, if it calls one. */
  const onlyCall = (id: number): number | undefined => {
    const inIndex = new Set(
      (program.hops.get(id) ?? [])
        .filter((h) => nodes[h.to]!.sym.kind !== 'external')
        .map((h) => h.to),
    );
    return inIndex.size === 1 ? [...inIndex][0] : undefined;
  };
  const above = (a: number, b: number) => {
    for (let x: number | undefined = b; x !== undefined; x = parent.get(x))
      if (x === a) return true;
    return false;
  };
  for (const registries of [false, true]) {
    for (let i = 0; i < order.length; i++) {
      const id = order[i]!;
      if (!expandable(id) || leaf.has(id)) continue;
      const from = nodes[id]!;
      for (const c of byWorthBelow(calleesOf(id), program, expandable, below)) {
        if ((c.hop.via === 'map-register') !== registries && !registries) continue;
        const to = nodes[c.hop.to]!;
        const v = valueOf(c.hop, Boolean(from.dispatch), to.sym.package === from.sym.package, to);
        if (v > (hopValue.get(c.hop.to) ?? 0)) hopValue.set(c.hop.to, v);
        const inRunning = runs(c.hop) || running.get(id)!;
        // The first function of a call site not met before is followed; the next are its peers.
        const site = `${id}@${siteOf(c.hop)}`;
        const first = !followed.has(site);
        if (
          reached.has(c.hop.to) &&
          leaf.has(c.hop.to) &&
          first &&
          c.hop.via !== 'map-register' &&
          c.hop.to !== id
        ) {
          // A function first met as a later peer (a leaf) that a call here reaches first hangs
          // here, where it is followed: a handler chain whose filters are each one of several
          // values of the next handler does not end at the first filter already met.
          const there = c.hop.to;
          parent.set(there, id);
          hop.set(there, c.hop);
          leaf.delete(there);
          running.set(there, inRunning);
          depth.set(there, depth.get(id)! + 1);
          order.push(there);
          followed.add(site);
          continue;
        }
        if (reached.has(c.hop.to)) {
          // A function set-up code calls and a loop or callback calls too (the scheduler's Run,
          // called directly and from the leader-election callback) hangs where it runs, when that
          // is no more than one call deeper.
          // So does a function that starts a goroutine or a loop where a hand-off calls it, a
          // function whose one call in the index it is (the kubelet's dispatchWork, for the pod
          // workers' UpdatePod that starts the pod's worker; HandlePodCleanups calls it too).
          const there = c.hop.to;
          const handOff =
            running.get(there) === true &&
            parent.get(there) !== id &&
            onlyCall(id) === there &&
            (program.hops.get(there) ?? []).some(runs);
          if (
            c.peer === 0 &&
            inRunning &&
            (!running.get(there) || handOff) &&
            depth.get(id)! <= depth.get(there)! &&
            !above(there, id)
          ) {
            parent.set(there, id);
            hop.set(there, c.hop);
            leaf.delete(there);
            running.set(there, true);
            depth.set(there, depth.get(id)! + 1);
          }
          continue;
        }
        reached.add(c.hop.to);
        parent.set(c.hop.to, id);
        hop.set(c.hop.to, c.hop);
        running.set(c.hop.to, inRunning);
        depth.set(c.hop.to, depth.get(id)! + 1);
        if (first) followed.add(site);
        else leaf.add(c.hop.to);
        order.push(c.hop.to);
      }
    }
  }
  // Parents before their children, breadth-first over the tree as it ended.
  const children = new Map<number, number[]>();
  for (const id of new Set(order)) {
    const p = parent.get(id);
    if (p !== undefined) children.set(p, [...(children.get(p) ?? []), id]);
  }
  const sorted = [rootId];
  for (let i = 0; i < sorted.length; i++) sorted.push(...(children.get(sorted[i]!) ?? []));
  return { order: sorted, parent, hop, hopValue, leaf };
}

/** How many levels, and how many functions at most, `worthBelow` looks at. */
const BELOW_LEVELS = 12;
const BELOW_FUNCTIONS = 400;
/** How much more worth a later peer must lead to than the first for the view to follow it. */
const FAR_MORE = 4;

/**
 * The peers of each call site in the resolver's rank, except that a peer leading to far more worth
 * than the first goes first: of the routes a request dispatcher reaches, the one that leads
 * through the registry into the storage is followed, not the first route registered (a log file
 * handler).
 */
function byWorthBelow(
  list: Callee[],
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  below: WorthBelow,
): Callee[] {
  if (!list.some((c) => c.peer > 0)) return list;
  const bySite = new Map<string, Callee[]>();
  for (const c of list) {
    const site = siteOf(c.hop);
    const at = bySite.get(site);
    if (at) at.push(c);
    else bySite.set(site, [c]);
  }
  const worth = (id: number) => worthBelow(id, program, expandable, below);
  return [...bySite.values()].flatMap((peers) => {
    if (peers.length === 1) return peers;
    const first = worth(peers[0]!.hop.to);
    let best = 0;
    for (let i = 1; i < peers.length; i++)
      if (worth(peers[i]!.hop.to) > worth(peers[best]!.hop.to)) best = i;
    if (worth(peers[best]!.hop.to) < FAR_MORE * first) return peers;
    return [peers[best]!, ...peers.filter((_, i) => i !== best)].map((c, peer) => ({
      hop: c.hop,
      peer,
    }));
  });
}

/** Per view: what `worthBelow` found, and its marks of the functions met (by round). */
interface WorthBelow {
  memo: Map<number, number>;
  seen: Int32Array;
  round: number;
}

/** The worth of the hops a function reaches, breadth-first, within bounds (once per function). */
function worthBelow(
  start: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  below: WorthBelow,
): number {
  const known = below.memo.get(start);
  if (known !== undefined) return known;
  const sum = walkBelow(start, program, expandable, below);
  below.memo.set(start, sum);
  return sum;
}

function walkBelow(
  start: number,
  program: ProgramGraph,
  expandable: (id: number) => boolean,
  below: WorthBelow,
): number {
  const { nodes } = program;
  const { seen } = below;
  const round = ++below.round;
  seen[start] = round;
  let met = 1;
  let frontier = [start];
  let sum = 0;
  for (let level = 0; level < BELOW_LEVELS && frontier.length > 0; level++) {
    const next: number[] = [];
    for (const id of frontier) {
      if (!expandable(id)) continue;
      const from = nodes[id]!;
      for (const h of program.hops.get(id) ?? []) {
        if (seen[h.to] === round) continue;
        const to = nodes[h.to]!;
        if (to.sym.kind === 'external') continue;
        if (met >= BELOW_FUNCTIONS) return sum;
        seen[h.to] = round;
        met++;
        sum += valueOf(h, Boolean(from.dispatch), to.sym.package === from.sym.package, to);
        next.push(h.to);
      }
    }
    frontier = next;
  }
  return sum;
}

/** Where a call is made (for an interface's method, one place for all its implementations). */
function siteOf(h: PHop): string {
  return `${h.edge.line}:${h.edge.col}`;
}

/** A call the view may show, and its place among the functions its call site reaches. */
interface Callee {
  hop: PHop;
  peer: number;
}

/** `callees` of each node, worked out once per view: every pass over the tree asks for them. */
function calleesOnce(program: ProgramGraph): (id: number) => Callee[] {
  const memo = new Map<number, Callee[]>();
  return (id) => {
    let out = memo.get(id);
    if (!out) memo.set(id, (out = callees(id, program)));
    return out;
  };
}

/**
 * The calls the view may show under a function, each with its place among the functions its call
 * site reaches (`peer`, 0 for the first): not into code outside the index, and not the call of a
 * wrapper (`wait.Until`, `Parallelizer.Until`) where a framework hop at the same site already goes
 * to the function it runs.
 */
function callees(id: number, program: ProgramGraph): Callee[] {
  const list = program.hops.get(id) ?? [];
  const framed = new Set(list.filter((h) => h.kind === 'framework').map(siteOf));
  const seen = new Set<number>();
  const peers = new Map<string, number>();
  const out: Callee[] = [];
  for (const hop of list) {
    const target = program.nodes[hop.to]!;
    if (target.sym.kind === 'external') continue;
    const site = siteOf(hop);
    if (hop.kind !== 'framework' && framed.has(site)) continue;
    if (seen.has(target.sym.id)) continue;
    seen.add(target.sym.id);
    const peer = peers.get(site) ?? 0;
    peers.set(site, peer + 1);
    out.push({ hop, peer });
  }
  return out;
}

/**
 * The story of a program: `path`, the nodes on the way from the root to something that keeps
 * running (a goroutine, a loop `wait.Until` runs, a leader-election callback, an informer handler,
 * a channel's receiver), those included; `inside`, everything below them.
 */
function runningParts(
  rootId: number,
  order: readonly number[],
  program: ProgramGraph,
  expandable: (id: number) => boolean,
): { path: Set<number>; inside: Set<number> } {
  const parent = new Map<number, number>();
  const inside = new Set<number>();
  for (const id of order) {
    if (!expandable(id)) continue;
    for (const h of program.hops.get(id) ?? []) {
      if (runs(h) || inside.has(id)) inside.add(h.to);
      if (!parent.has(h.to) && h.to !== rootId) parent.set(h.to, id);
    }
  }
  // A goroutine or loop that running code starts too (the pod workers' UpdatePod, from the
  // kubelet's dispatch, and from run-once's admission, whose eviction kills a pod through them)
  // is entered where it runs: the set-up code's way to it is not the way to running code.
  const startedInside = new Set<number>();
  for (const id of inside)
    for (const h of program.hops.get(id) ?? [])
      if (runs(h)) startedInside.add(program.nodes[h.to]!.sym.id);
  const entries = new Set<number>();
  for (const id of order) {
    if (inside.has(id) || !expandable(id)) continue;
    for (const h of program.hops.get(id) ?? [])
      if (runs(h) && !startedInside.has(program.nodes[h.to]!.sym.id)) entries.add(h.to);
  }
  const path = new Set<number>([rootId, ...entries]);
  for (const id of entries) {
    for (let p = parent.get(id); p !== undefined && !path.has(p); p = parent.get(p)) path.add(p);
  }
  return { path, inside };
}
