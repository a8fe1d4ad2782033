/**
 * The calls of one program from a root, with function values bound per call path. A node is a
 * function together with what its function-typed parameters hold on the path that reached it
 * (its *environment*): `wait.BackoffUntil` reached from the scheduler's `Run` calls
 * `sched.scheduleOne`, reached from a reflector it calls `ListAndWatch`'s closure, and the two
 * never mix. A closure sees the environment of the function that made it. Edges whose callee lies
 * outside the program, or that need code of packages outside it, are cut.
 *
 * The index gives each call's edges and the bindings of its function-valued arguments
 * (src/resolve/link.ts); this module walks them breadth first, a few bulk queries per level.
 */
import type { DefinitionRow, EdgeRow } from '../store/symbols.js';
import type { BindingRow } from '../store/index-store.js';
import { isTestDouble, receiverType, slotOwner, symbolParts } from '../shared/go-symbol.js';
import { push } from '../shared/multimap.js';
import type { ProgramScope } from './program-scope.js';
import type { EdgeKind } from './types.js';

/** What a function-typed parameter holds: a function, and for a closure what it captured. */
export interface Value {
  fn: number;
  env: Env | null;
  /**
   * The function whose call passed this value on (symbol id): where the path named it. Not part
   * of the value's identity: the same function passed by two callers is one value.
   */
  by?: number;
}

/**
 * What the function-typed parameters of a node and of the functions enclosing it hold on the
 * path: `slots` (slot symbol id -> values) for the functions in `known`, whose calls the path went
 * through. A slot of a function not in `known` (the trace's root, a closure that reached the path
 * from elsewhere) is unbound: shown as such, never guessed.
 */
export interface Env {
  slots: ReadonlyMap<number, readonly Value[]>;
  known: readonly string[];
}

export interface GraphSource {
  symbolsByIds(ids: readonly number[]): Promise<DefinitionRow[]>;
  edgesFrom(ids: readonly number[]): Promise<EdgeRow[]>;
  bindingsFrom(ids: readonly number[]): Promise<BindingRow[]>;
  /** What every call passes into these parameter slots (CallGraph.bindingsInto). */
  bindingsInto(slots: readonly number[]): Promise<BindingRow[]>;
  madeBy(types: readonly string[]): Promise<{ type: string; package: string }[]>;
}

export interface PNode {
  id: number;
  sym: DefinitionRow;
  env: Env | null;
  depth: number;
  /** For an interface's method called where no stored value decides: the call it stands for. */
  dispatch?: { caller: PNode; edge: EdgeRow; alternatives: EdgeRow[] };
  expanded: boolean;
  /**
   * A closure reached, with nothing of its maker's parameters known, from a function other than
   * the one that made it (a factory kept in a registry and called later): its calls through
   * those parameters run what the call that made it passed (loadMadeValues).
   */
  madeElsewhere?: true;
}

export interface PHop {
  to: number;
  edge: EdgeRow;
  kind: EdgeKind;
  via: string | null;
  /** Lower-ranked implementations in the program (symbol ids), best first. */
  alternatives: number[];
  /** For a call through a parameter: the function that passed the value it runs (symbol id). */
  by?: number;
}

export interface ProgramGraph {
  nodes: PNode[];
  hops: Map<number, PHop[]>;
  unresolved: Map<number, EdgeRow[]>;
  symbols: Map<number, DefinitionRow>;
  /** Calls left out because their callee or what they need is outside the program. */
  cut: number;
  /** Per node: how many distinct helpers (rules/noise.yaml, not the standard library) it calls. */
  helpers: Map<number, number>;
  /** Functions at the depth limit that call further: their calls were not followed. */
  deeper: number;
}

export interface ExpandOptions {
  scope: ProgramScope;
  depth: number;
  /** Whether a node's own calls are followed. */
  expandable: (s: DefinitionRow) => boolean;
  /** Callees left out of the view (noise, the standard library). */
  hidden: (s: DefinitionRow) => boolean;
  /** Of those, the ones a reader is told about (helpers: status checks, logging, deep copies). */
  counted?: (s: DefinitionRow) => boolean;
  /**
   * A controller's trace needs main's way to its start function and what runs below it: once a
   * `target` is reached (by a hop whose `via` is not in `ignoreVia`, such as where it is only
   * registered), the levels after expand only the code below the targets.
   */
  below?: { target: (s: DefinitionRow) => boolean; ignoreVia: readonly string[] };
}

/**
 * Environments kept per function (recursion, fan-in). Past this, further paths share one node
 * that knows nothing of its parameters: its calls through them show as unbound, never as the
 * union of every path's values (which would invent paths).
 */
const MAX_CONTEXTS = 64;
/** Interface alternatives kept per call. */
const MAX_ALTERNATIVES = 40;
/**
 * A closure's call through a parameter of the function that made it, reached where no path
 * says which call made it (a factory kept in a registry): the functions every call of the maker
 * passes there, when no more than this many; past it the call shows as unbound.
 */
const MAX_MADE_VALUES = 64;
/** Parameters passed on from parameter to parameter, followed this many calls back. */
const MAX_PASSED_ON = 4;

export async function expandProgram(
  source: GraphSource,
  root: DefinitionRow,
  options: ExpandOptions,
  rootEnv: Env | null = null,
): Promise<ProgramGraph> {
  const { scope } = options;
  const symbols = new Map<number, DefinitionRow>([[root.id, root]]);
  const edgesBy = new Map<number, EdgeRow[]>();
  const bindingsBy = new Map<string, BindingRow[]>();
  const made = new Map<string, Set<string>>();
  const nodes: PNode[] = [];
  const byKey = new Map<string, number>();
  const contexts = new Map<number, number>();
  const hops = new Map<number, PHop[]>();
  const unresolved = new Map<number, EdgeRow[]>();
  const helpers = new Map<number, number>();
  const receivers = new Map<number, string | undefined>();
  const standings = new Map<number, number>();
  /** Per slot: the functions every call of its function passes there (madeValues). */
  const passedInto = new Map<number, Value[]>();
  /**
   * Slots into which the index binds values, each of another program (passed by code outside it,
   * or needing packages it lacks), and no call of this program a function the index cannot
   * follow: in this program nothing is passed there, and a call through one runs nothing (the
   * informers' `tweakListOptions`, which only kube-proxy's and the kubelet's factories set, in
   * kube-controller-manager).
   */
  const passedNothing = new Set<number>();
  /** Maker calls makerEnv is reading (node id, line): a call passed its own result stops there. */
  const making = new Set<string>();
  let cut = 0;

  const nodeFor = (
    sym: DefinitionRow,
    env: Env | null,
    depth: number,
    extra?: string,
  ): { node: PNode; fresh: boolean } => {
    let key = `${sym.id}|${extra ?? ''}|${envKey(env)}`;
    const existing = byKey.get(key);
    if (existing !== undefined) return { node: nodes[existing]!, fresh: false };
    const count = contexts.get(sym.id) ?? 0;
    if (!extra && env && count >= MAX_CONTEXTS) {
      key = `${sym.id}||*`;
      const overflow = byKey.get(key);
      if (overflow !== undefined) return { node: nodes[overflow]!, fresh: false };
      const node: PNode = { id: nodes.length, sym, env: null, depth, expanded: false };
      nodes.push(node);
      byKey.set(key, node.id);
      return { node, fresh: true };
    }
    contexts.set(sym.id, count + 1);
    const node: PNode = { id: nodes.length, sym, env, depth, expanded: false };
    nodes.push(node);
    byKey.set(key, node.id);
    return { node, fresh: true };
  };

  const start = nodeFor(root, rootEnv, 0).node;
  const knows = (env: Env | null, owner: string | undefined) =>
    Boolean(owner && env?.known.includes(owner));
  const under = new Set<number>();
  let reached = false;
  let frontier: PNode[] = [start];
  for (let depth = 0; depth < options.depth && frontier.length > 0; depth++) {
    await load(frontier);
    const next: PNode[] = [];
    const enqueue = (node: PNode, fresh: boolean) => {
      if (fresh && !node.expanded && (node.dispatch || options.expandable(node.sym)))
        next.push(node);
    };
    for (const node of frontier) {
      if (node.expanded) continue;
      node.expanded = true;
      const list: PHop[] = [];
      hops.set(node.id, list);
      if (node.dispatch) {
        expandDispatch(node, list, enqueue);
        continue;
      }
      expandCalls(node, list, enqueue);
    }
    frontier = narrow(frontier, next);
  }
  const deeper = await countDeeper(frontier);
  return { nodes, hops, unresolved, symbols, cut, helpers, deeper };

  /**
   * What the depth left: the functions of the last level that call on into the program (an
   * interface's method always does), so that a view can say it stopped there. A function is
   * counted once, and not when another of its nodes (a closure reached with other values bound)
   * was expanded: its calls are in the trace.
   */
  async function countDeeper(level: PNode[]): Promise<number> {
    const expandedSymbols = new Set(nodes.filter((n) => n.expanded).map((n) => n.sym.id));
    const waiting = [
      ...new Map(
        level
          .filter((n) => !n.expanded && !expandedSymbols.has(n.sym.id))
          .map((n) => [n.sym.id, n]),
      ).values(),
    ];
    const asked = [...new Set(waiting.flatMap((n) => (n.dispatch ? [] : [n.sym.id])))];
    const rows = asked.length > 0 ? await source.edgesFrom(asked) : [];
    const unknown = [
      ...new Set(
        rows.flatMap((e) => (e.callee === null || symbols.has(e.callee) ? [] : [e.callee])),
      ),
    ];
    for (const s of unknown.length > 0 ? await source.symbolsByIds(unknown) : [])
      symbols.set(s.id, s);
    const calling = new Set<number>();
    for (const e of rows) {
      const s = e.callee === null ? undefined : symbols.get(e.callee);
      // A function of the program, called for certain (not an alternative, not a parameter's slot).
      if (!s || e.rank !== 0 || ['external', 'param', 'field'].includes(s.kind)) continue;
      if (!options.hidden(s) && scope.has(s.package) && scope.satisfies(e.needs))
        calling.add(e.caller);
    }
    return waiting.filter((n) => n.dispatch || calling.has(n.sym.id)).length;
  }

  /** The next level, or only its nodes below a target once one is reached (options.below). */
  function narrow(level: PNode[], next: PNode[]): PNode[] {
    const below = options.below;
    if (!below) return next;
    // A node already expanded from elsewhere: its known calls are below the target too.
    const mark = (id: number) => addReachable(hops, id, under);
    for (const node of level) {
      const parentUnder = under.has(node.id);
      for (const h of hops.get(node.id) ?? []) {
        const child = nodes[h.to]!;
        if (below.target(child.sym)) {
          if (!below.ignoreVia.includes(h.via ?? '')) reached = true;
          mark(child.id);
        } else if (parentUnder) mark(child.id);
      }
    }
    return reached ? next.filter((n) => under.has(n.id)) : next;
  }

  /** Loads edges, bindings, symbols and constructed types for a level, in a few queries. */
  async function load(level: PNode[]): Promise<void> {
    const fnIds = [
      ...new Set(level.flatMap((n) => (n.dispatch || edgesBy.has(n.sym.id) ? [] : [n.sym.id]))),
    ];
    if (fnIds.length > 0) {
      const [rows, bindings] = await Promise.all([
        source.edgesFrom(fnIds),
        source.bindingsFrom(fnIds),
      ]);
      for (const id of fnIds) edgesBy.set(id, []);
      for (const r of rows) edgesBy.get(r.caller)!.push(r);
      for (const b of bindings) {
        const key = `${b.caller}:${b.line}:${b.col}:${b.callee}`;
        const list = bindingsBy.get(key);
        if (list) list.push(b);
        else bindingsBy.set(key, [b]);
      }
      const unknown = new Set<number>();
      for (const r of rows) if (r.callee !== null && !symbols.has(r.callee)) unknown.add(r.callee);
      for (const b of bindings) {
        if (!symbols.has(b.value)) unknown.add(b.value);
        if (!symbols.has(b.slot)) unknown.add(b.slot);
      }
      for (const s of await source.symbolsByIds([...unknown])) symbols.set(s.id, s);
    }
    await loadMadeValues(level);
    // Constructed types, for ranking the implementations behind interface calls.
    const wanted = new Set<string>();
    for (const n of level) {
      for (const e of n.dispatch ? n.dispatch.alternatives : (edgesBy.get(n.sym.id) ?? [])) {
        if (e.rank === 0 && !n.dispatch) continue;
        const t = e.callee === null ? undefined : receiverOf(e.callee);
        if (t && !made.has(t)) wanted.add(t);
      }
    }
    if (wanted.size > 0) {
      for (const t of wanted) made.set(t, new Set());
      for (const m of await source.madeBy([...wanted])) made.get(m.type)?.add(m.package);
    }
  }

  /**
   * A closure that calls a parameter of the function that made it (`FactoryAdapter(fts, New)`
   * returns `func(...) { return withFts(..., fts) }`), reached where the path did not go through
   * that call: it runs what the call that made it passed, one of what every call of the maker in
   * the program passes. Those are read here, for the closures of this level, following a value
   * that is itself a caller's parameter back through that caller's calls (MAX_PASSED_ON).
   */
  async function loadMadeValues(level: PNode[]): Promise<void> {
    const wanted = new Set<number>();
    for (const n of level) {
      if (n.dispatch) continue;
      for (const e of edgesBy.get(n.sym.id) ?? []) {
        const s = e.callee === null ? undefined : symbols.get(e.callee);
        if (s && madeSlot(n, s) && !passedInto.has(s.id)) wanted.add(s.id);
      }
    }
    if (wanted.size === 0) return;
    const rowsBySlot = new Map<number, BindingRow[]>();
    let ask = [...wanted];
    for (let round = 0; round < MAX_PASSED_ON && ask.length > 0; round++) {
      for (const id of ask) rowsBySlot.set(id, []);
      const rows = await source.bindingsInto(ask);
      const unknown = new Set<number>();
      for (const b of rows) {
        rowsBySlot.get(b.slot)?.push(b);
        for (const id of [b.caller, b.value]) if (!symbols.has(id)) unknown.add(id);
      }
      for (const s of await source.symbolsByIds([...unknown])) symbols.set(s.id, s);
      ask = [
        ...new Set(
          rows.flatMap((b) =>
            symbols.get(b.value)?.kind === 'param' && !rowsBySlot.has(b.value) ? [b.value] : [],
          ),
        ),
      ];
    }
    // Whether every value the program passes is known: no slot without bindings or past the
    // rounds read, no field, no function the index could not follow (a slot bound to itself).
    let whole = true;
    const valuesOf = (slot: number, seen: Set<number>): Value[] => {
      if (seen.has(slot)) return [];
      seen.add(slot);
      const rows = rowsBySlot.get(slot) ?? [];
      if (rows.length === 0) whole = false;
      return rows.flatMap((b): Value[] => {
        const caller = symbols.get(b.caller);
        const value = symbols.get(b.value);
        if (!caller || !value || unfollowed(b) || value.kind === 'field') {
          // What the program may pass here is not known, if this call is the program's.
          if (!caller || !value || (inProgram(caller) && scope.satisfies(b.needs))) whole = false;
          return [];
        }
        if (!inProgram(caller) || !scope.satisfies(b.needs)) return [];
        if (value.kind === 'param') return valuesOf(value.id, seen);
        return inProgram(value) ? [{ fn: value.id, env: null, by: b.caller }] : [];
      });
    };
    for (const id of wanted) {
      whole = true;
      const values = dedupe(valuesOf(id, new Set()));
      passedInto.set(id, values.length <= MAX_MADE_VALUES ? values : []);
      if (values.length === 0 && whole) passedNothing.add(id);
    }
  }

  /**
   * A parameter's slot bound to itself by another function: what that call passes is a function
   * the index could not follow (the link's bindArguments). A field bound to itself, or a slot by
   * its own function, passes on what the path holds.
   */
  function unfollowed(b: BindingRow): boolean {
    return b.value === b.slot && b.caller !== b.callee && symbols.get(b.slot)?.kind === 'param';
  }

  /**
   * Whether `s` is a parameter of a function enclosing the closure `node` that this path did not
   * bind (the closure reached the path as a value made elsewhere).
   */
  function madeSlot(node: PNode, s: DefinitionRow): boolean {
    if (!node.madeElsewhere || s.kind !== 'param') return false;
    const owner = slotOwner(s.symbol);
    return (
      owner !== undefined && node.sym.symbol.startsWith(`${owner}$`) && !knows(node.env, owner)
    );
  }

  function inProgram(s: DefinitionRow): boolean {
    return (
      s.kind === 'external' || s.kind === 'param' || s.kind === 'field' || scope.has(s.package)
    );
  }

  function expandCalls(
    node: PNode,
    list: PHop[],
    enqueue: (n: PNode, fresh: boolean) => void,
  ): void {
    const rows = edgesBy.get(node.sym.id) ?? [];
    const seenTargets = new Set<string>();
    const bySite = new Map<string, PHop>();
    const alternativesAt = new Map<string, EdgeRow[]>();
    const { doubles, promoted } = storedDoubles(rows);
    // The lower-ranked targets of each site, and the doubles a real type there stands before.
    const listedOnly = (e: EdgeRow) => (e.rank > 0 && !promoted.has(e)) || doubles.has(e);
    for (const e of rows) if (listedOnly(e)) push(alternativesAt, `${e.line}:${e.col}`, e);
    // Calls through a function-typed field of the receiver that this path built: the values it
    // was built with stand for the field's values over the program.
    const builtField = new Set<string>();
    for (const e of rows) {
      if (e.via !== 'field' || e.callee === null || e.rank > 0) continue;
      if (symbols.get(e.callee)?.kind === 'field' && node.env?.slots.get(e.callee)?.length)
        builtField.add(`${e.line}:${e.col}`);
    }
    for (const e of rows) {
      if (e.callee === null) {
        const u = unresolved.get(node.id);
        if (u) u.push(e);
        else unresolved.set(node.id, [e]);
        continue;
      }
      if (listedOnly(e)) continue;
      const field = symbols.get(e.callee)?.kind === 'field';
      if (field !== builtField.has(`${e.line}:${e.col}`)) continue;
      if (!scope.satisfies(e.needs)) {
        cut++;
        continue;
      }
      const s = symbols.get(e.callee);
      if (!s) continue;
      if (!inProgram(s)) {
        cut++;
        continue;
      }
      if (s.kind !== 'param' && s.kind !== 'field' && options.hidden(s)) {
        if (options.counted?.(s) && !seenTargets.has(`h${s.id}`)) {
          seenTargets.add(`h${s.id}`);
          helpers.set(node.id, (helpers.get(node.id) ?? 0) + 1);
        }
        continue;
      }
      const site = `${e.line}:${e.col}`;
      // An interface's method that stands for its implementations lists those it leads to (no
      // test double while a real type exists), so its `+N` counts what is drawn below it.
      const alternatives = rankAlternatives(alternativesAt.get(site) ?? [], s.kind === 'imethod');
      const add = (
        child: PNode,
        fresh: boolean,
        kind: EdgeKind,
        via: string | null,
        by?: number,
      ) => {
        const key = `${child.id}:${kind}:${via ?? ''}`;
        if (seenTargets.has(key)) return;
        seenTargets.add(key);
        const hop: PHop = {
          to: child.id,
          edge: e,
          kind,
          via,
          alternatives: [],
          ...(by !== undefined ? { by } : {}),
        };
        if (!bySite.has(`${site}:${kind}:${via ?? ''}`)) {
          bySite.set(`${site}:${kind}:${via ?? ''}`, hop);
          hop.alternatives = alternatives.map((a) => a.callee!);
        }
        list.push(hop);
        enqueue(child, fresh);
      };
      if (s.kind === 'param' || s.kind === 'field') {
        // A call through a parameter: what the caller on this path passed; through a field of the
        // receiver: what the value was built with.
        const kind: EdgeKind =
          e.kind === 'framework' || e.kind === 'goroutine' ? (e.kind as EdgeKind) : 'funcvalue';
        // (A field's value reads as the field's other calls do: a plain function value.)
        const via = e.kind === 'framework' ? e.via : s.kind === 'field' ? null : `param ${s.name}`;
        let values = node.env?.slots.get(s.id) ?? [];
        let hopVia = via;
        if (s.kind === 'param' && !knows(node.env, slotOwner(s.symbol))) {
          values = madeSlot(node, s) ? (passedInto.get(s.id) ?? []) : [];
          // Passed nothing in this program: the call runs nothing here, as on a path that
          // passes nothing.
          if (values.length === 0 && madeSlot(node, s) && passedNothing.has(s.id)) continue;
          if (values.length === 0) {
            const { node: child, fresh } = nodeFor(s, null, node.depth + 1);
            add(child, fresh, kind, via);
            continue;
          }
          // Not this path's own value: one of what the calls that make this closure pass.
          hopVia = `${via} of every ${symbolParts(slotOwner(s.symbol)!).local} call`;
        }
        for (const v of values) {
          const target = symbols.get(v.fn);
          if (!target || !inProgram(target) || options.hidden(target)) continue;
          // Called through the slot: its own slots hold what it captured and what this call
          // passes it, when the index bound that (it does for a function it also lists here).
          const slots = new Map<number, readonly Value[]>(v.env?.slots ?? []);
          bindAt(node, e, target, slots);
          const env: Env = { slots, known: [...(v.env?.known ?? []), target.symbol] };
          // A closure another function made, passed along with nothing of its maker known (the
          // apiserver's instrumented route function, reached through the warnings wrapper's
          // parameter): as when reached directly, its maker's calls say what it runs.
          const elsewhere =
            target.kind === 'closure' && !isMadeBy(target, node.sym) && env.known.length === 1;
          const { node: child, fresh } = nodeFor(
            target,
            env,
            node.depth + 1,
            elsewhere ? MADE : undefined,
          );
          if (elsewhere) child.madeElsewhere = true;
          add(child, fresh, kind, hopVia, s.kind === 'param' ? v.by : undefined);
        }
        continue;
      }
      if (s.kind === 'imethod') {
        // An interface's method no stored value decides: the call stands for its implementations.
        const { node: child, fresh } = nodeFor(s, null, node.depth + 1, `${node.id}:${site}`);
        child.dispatch ??= { caller: node, edge: e, alternatives: alternativesAt.get(site) ?? [] };
        add(child, fresh, e.kind as EdgeKind, e.via);
        continue;
      }
      const madeByOther = s.kind === 'closure' && !isMadeBy(s, node.sym);
      // A closure another function made and returned on this line (a poll running
      // `condition.WithContext()`, by a framework rule): what that call bound, too.
      const env = withEnv(childEnv(node, e, s), madeByOther ? makerEnv(node, s, e.line) : null);
      // A closure its own maker calls keeps the maker's path (unbound where the maker's is).
      const elsewhere = madeByOther && env.known.length === 1;
      const { node: child, fresh } = nodeFor(s, env, node.depth + 1, elsewhere ? MADE : undefined);
      if (elsewhere) child.madeElsewhere = true;
      add(child, fresh, e.kind as EdgeKind, e.via);
    }
  }

  /**
   * Interface calls where the program stores a test double and holds a real type (kubeadm's
   * dry-run clientset beside the real one, a metrics stub's fakes): the doubles there, which the
   * view lists as alternatives and does not follow, as it does an unstored double. Where the
   * doubles are all the index found stored and the program constructs one real type the call can
   * reach (the descheduler's sandbox stores a fake clientset, the real one comes through more
   * steps than the value flow follows), that type is `promoted`: followed in their place.
   */
  function storedDoubles(rows: readonly EdgeRow[]): {
    doubles: Set<EdgeRow>;
    promoted: Set<EdgeRow>;
  } {
    const bySite = new Map<string, { real: boolean; doubles: EdgeRow[]; others: EdgeRow[] }>();
    for (const e of rows) {
      if (e.kind !== 'interface' || e.callee === null) continue;
      const s = symbols.get(e.callee);
      if (!s || s.kind === 'imethod' || !inProgram(s) || !scope.satisfies(e.needs)) continue;
      const site = `${e.line}:${e.col}`;
      let at = bySite.get(site);
      if (!at) bySite.set(site, (at = { real: false, doubles: [], others: [] }));
      const standing = standingOf(s);
      if (e.rank > 0) {
        // A real type the program constructs, not known stored here.
        if (standing < CONSTRUCTED_STANDING) at.others.push(e);
      } else if (standing >= TEST_DOUBLE_STANDING) at.doubles.push(e);
      else at.real = true;
    }
    const doubles = new Set<EdgeRow>();
    const promoted = new Set<EdgeRow>();
    for (const at of bySite.values()) {
      if (at.doubles.length === 0) continue;
      if (!at.real && at.others.length !== 1) continue;
      for (const e of at.doubles) doubles.add(e);
      if (!at.real) promoted.add(at.others[0]!);
    }
    return { doubles, promoted };
  }

  function expandDispatch(
    node: PNode,
    list: PHop[],
    enqueue: (n: PNode, fresh: boolean) => void,
  ): void {
    const { caller, alternatives } = node.dispatch!;
    for (const e of rankAlternatives(alternatives, true)) {
      const s = symbols.get(e.callee!);
      if (!s || options.hidden(s)) continue;
      const env = childEnv(caller, e, s);
      const { node: child, fresh } = nodeFor(s, env, node.depth + 1);
      const edge: EdgeRow = {
        ...e,
        caller: node.sym.id,
        rank: 0,
        file: node.sym.file,
        line: node.sym.line,
        col: node.sym.col,
      };
      list.push({ to: child.id, edge, kind: 'interface', via: null, alternatives: [] });
      enqueue(child, fresh);
    }
  }

  /** A method's receiver type (`pkg.T`), per symbol: asked for every call with alternatives. */
  function receiverOf(id: number): string | undefined {
    if (!receivers.has(id)) receivers.set(id, receiverType(symbols.get(id)?.symbol));
    return receivers.get(id);
  }

  /**
   * How an implementation ranks, before its edge's own rank: a test double last, a type the
   * program does not construct after one it does. Fixed once its level is loaded (the types
   * constructed are read before the level's calls are ranked), so kept per symbol.
   */
  function standingOf(s: DefinitionRow): number {
    let standing = standings.get(s.id);
    if (standing === undefined) {
      const t = receiverOf(s.id);
      const built = t ? [...(made.get(t) ?? [])].some((p) => scope.has(p) && p !== '') : false;
      standing =
        (isTestDouble(s.symbol, s.package) ? TEST_DOUBLE_STANDING : 0) +
        (built ? 0 : CONSTRUCTED_STANDING);
      standings.set(s.id, standing);
    }
    return standing;
  }

  /**
   * The implementations at a call, in the program only: constructed by the program first, test
   * doubles last (and, where a real one exists, only as alternatives, never followed).
   */
  function rankAlternatives(list: readonly EdgeRow[], follow = false): EdgeRow[] {
    const scored = list.flatMap((e) => {
      const s = e.callee === null ? undefined : symbols.get(e.callee);
      if (!s || !inProgram(s) || !scope.satisfies(e.needs)) return [];
      return [{ e, score: standingOf(s) + e.rank / 1000 }];
    });
    scored.sort((a, b) => a.score - b.score);
    const real = scored.filter((x) => x.score < TEST_DOUBLE_STANDING);
    const kept = follow && real.length > 0 ? real : scored;
    return kept.slice(0, MAX_ALTERNATIVES).map((x) => x.e);
  }

  /**
   * What the callee's slots hold on this path: the bindings at this call (a function, or what one
   * of the caller's own slots holds), plus, for a closure made inside the caller, the caller's
   * environment it captured.
   */
  function childEnv(node: PNode, e: EdgeRow, s: DefinitionRow): Env {
    const slots = new Map<number, Value[]>();
    const known = [s.symbol];
    if (node.env) {
      for (const owner of node.env.known) if (s.symbol.startsWith(`${owner}$`)) known.push(owner);
      const inside = s.symbol.startsWith(`${node.sym.symbol}$`);
      for (const [slot, values] of node.env.slots) {
        const held = symbols.get(slot);
        const owner = slotOwner(held?.symbol);
        // A closure sees its enclosing functions' parameters, and the receiver's fields.
        if (held?.kind === 'field' ? inside : owner && s.symbol.startsWith(`${owner}$`))
          slots.set(slot, [...values]);
      }
    }
    bindAt(node, e, s, slots);
    return { slots, known };
  }

  /** Adds to `slots` what the call `e` of `node` passes `s` on this path (the index's bindings). */
  function bindAt(
    node: PNode,
    e: EdgeRow,
    s: DefinitionRow,
    slots: Map<number, readonly Value[]>,
  ): void {
    for (const b of bindingsBy.get(`${node.sym.id}:${e.line}:${e.col}:${s.id}`) ?? []) {
      if (!scope.satisfies(b.needs) || unfollowed(b)) continue;
      const v = symbols.get(b.value);
      if (!v) continue;
      const into = [...(slots.get(b.slot) ?? [])];
      if (v.kind === 'param' || v.kind === 'field') into.push(...(node.env?.slots.get(v.id) ?? []));
      else if (inProgram(v))
        into.push({
          fn: v.id,
          env: v.kind === 'closure' ? closureEnv(node, v, b.line) : null,
          by: node.sym.id,
        });
      if (into.length > 0) slots.set(b.slot, dedupe(into));
    }
  }

  /**
   * What a closure passed at line `line` of `node` captured: the node's own environment, or, for a
   * closure another function makes and returns, what the call of its maker on that line bound
   * (`PollImmediateWithContext(ctx, interval, timeout, condition.WithContext())`: the closure
   * runs the condition this path passed, not one of every `WithContext` call's).
   */
  function closureEnv(node: PNode, v: DefinitionRow, line: number): Env | null {
    const own = capture(node.env, v.symbol, node.sym.symbol);
    return isMadeBy(v, node.sym) ? own : (makerEnv(node, v, line) ?? own);
  }

  /**
   * What the call of closure `v`'s maker on line `line` of `node` bound, as `v` captures it; null
   * when `node` calls no maker of `v` on that line.
   */
  function makerEnv(node: PNode, v: DefinitionRow, line: number): Env | null {
    const maker = v.symbol.slice(0, v.symbol.lastIndexOf('$'));
    const key = `${node.id}:${line}`;
    if (making.has(key)) return null;
    for (const e of edgesBy.get(node.sym.id) ?? []) {
      if (e.line !== line || e.rank !== 0 || e.callee === null) continue;
      const m = symbols.get(e.callee);
      if (m?.symbol !== maker || m.kind === 'closure') continue;
      making.add(key);
      try {
        return capture(childEnv(node, e, m), v.symbol, m.symbol);
      } finally {
        making.delete(key);
      }
    }
    return null;
  }

  /**
   * The part of an environment a closure made there captures: its enclosing functions' slots, and
   * the fields of the receiver when it is made in the method (`where`) that holds them.
   */
  function capture(env: Env | null, closure: string, where: string): Env | null {
    if (!env) return null;
    const known = env.known.filter((owner) => closure.startsWith(`${owner}$`));
    const inside = closure.startsWith(`${where}$`);
    const slots = new Map<number, readonly Value[]>();
    for (const [slot, values] of env.slots) {
      const held = symbols.get(slot);
      const owner = slotOwner(held?.symbol);
      if (held?.kind === 'field' ? inside : owner && known.includes(owner)) slots.set(slot, values);
    }
    if (known.length === 0 && slots.size === 0) return null;
    return { slots, known };
  }
}

/** `env` with what `more` adds: slots it does not hold, owners it does not know. */
function withEnv(env: Env, more: Env | null): Env {
  if (!more) return env;
  const slots = new Map(more.slots);
  for (const [slot, values] of env.slots) slots.set(slot, values);
  return { slots, known: [...new Set([...env.known, ...more.known])] };
}

/** What standingOf adds for a test double: past any real type, whatever else it weighs. */
const TEST_DOUBLE_STANDING = 100;
/** What standingOf adds for a type the program does not construct: below it, one it does. */
const CONSTRUCTED_STANDING = 10;

/** Node key part of a closure reached from elsewhere than its maker (PNode.madeElsewhere). */
const MADE = 'made';

/** Whether `fn` is made inside `maker` (a closure of it, at any depth). */
function isMadeBy(fn: DefinitionRow, maker: DefinitionRow): boolean {
  return fn.symbol.startsWith(`${maker.symbol}$`);
}

function dedupe(values: Value[]): Value[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = valueKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function valueKey(v: Value, depth = 0): string {
  return v.env && depth < 4 ? `${v.fn}{${envKey(v.env, depth + 1)}}` : String(v.fn);
}

function envKey(env: Env | null, depth = 0): string {
  if (!env) return '';
  const slots = [...env.slots.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([slot, values]) =>
        `${slot}=${values
          .map((v) => valueKey(v, depth))
          .sort()
          .join(',')}`,
    )
    .join(';');
  return `${[...env.known].sort().join(',')}/${slots}`;
}

/** Adds `from` and every node the hops from it reach to `seen`, not walking past nodes in it. */
export function addReachable(
  hops: ReadonlyMap<number, readonly PHop[]>,
  from: number,
  seen: Set<number>,
): void {
  const stack = [from];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (seen.has(x)) continue;
    seen.add(x);
    for (const h of hops.get(x) ?? []) stack.push(h.to);
  }
}
