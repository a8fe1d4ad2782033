/**
 * The link phase: every call site of the model resolved to its callees (src/resolve/calls.ts),
 * the function values passed at each call bound to the parameter slots of the function called,
 * channel hand-offs (src/resolve/channels.ts) and the edges the framework rules add (one handler
 * per rule kind, src/resolve/frameworks/). The result is plain rows for the store.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CallFact, Expr } from '../index/facts.js';
import { ALWAYS } from './needs.js';
import {
  externalVia,
  NEVER_FILLED,
  NEVER_STORED,
  NIL_ONLY,
  NO_IMPLEMENTATION,
} from '../shared/edge-via.js';
import type { EdgeInsert, EdgeSink, SymbolInsert } from '../store/index-store.js';
import {
  exprText,
  externalMaker,
  resolveCall,
  signatureText,
  type CallResolution,
} from './calls.js';
import { linkChannels } from './channels.js';
import type { LinkContext } from './frameworks/handler.js';
import { createHandlers } from './frameworks/index.js';
import { LinkOutput, type AnySlot, type BindingInsert, type PackageInsert } from './link-output.js';
import type { FileModel, FuncRef, PackageModel, ProgramModel } from './model.js';
import { externalTypes, loadStdMethods, type FrameworkRule } from './rules.js';
import { callCtx, TypeChecker, type Ctx } from './type-checker.js';
import { deref, parseType, typeKey, type GoType } from './types.js';
import {
  fieldKey,
  RECEIVER,
  ValueFlow,
  type FieldSlot,
  type FuncTarget,
  type Slot,
  type SourceRef,
} from './value-flow.js';

/** The rows a link makes besides those of its start (DeclarationRows). */
export interface LinkResult {
  /** Callees that are no declaration of the index (external functions, interface methods, slots). */
  symbols: SymbolInsert[];
  edges: EdgeInsert[];
  bindings: BindingInsert[];
  /** Named types and the packages that construct them (composite literals, `new`). */
  made: { type: string; package: number }[];
  counts: Record<string, number>;
}

/** Rows of what the model declares, which need no call resolved. */
export interface DeclarationRows {
  /** Functions, types and values, ids from 0. */
  symbols: SymbolInsert[];
  details: { symbol: string; kind: string; payload: string }[];
  packages: PackageInsert[];
}

// Bumped in link-version.ts (read by a re-index that links nothing, which need not load this module).
export { LINK_VERSION } from './link-version.js';

/**
 * Files linked between two turns of the event loop (see finishLink): a turn lets SQLite's thread
 * start the next batches of the rows written meanwhile (Store.insertJsonRows: the declarations',
 * then the edges the sink is given). At 8 files a turn the declarations' rows alone ended ~1.4 s
 * after the link; at 2 they end within it, and the edges ~0.1 s after it.
 */
const FILES_PER_TURN = 2;

/** finishLink's passes over every file's calls, as its progress names them. */
export type LinkPass = 'arguments' | 'calls';

/**
 * The first part of a link: the type checker, the stores into fields and variables, and the rows
 * that need nothing more, which the store can write while finishLink resolves the calls (and drop
 * once written: `start` keeps none of them).
 */
export interface LinkStart {
  model: ProgramModel;
  rules: readonly FrameworkRule[];
  types: TypeChecker;
  flow: ValueFlow;
  /** Id of the first symbol after the declarations. */
  nextId: number;
  packageId: ReadonlyMap<string, number>;
}

export function startLink(
  model: ProgramModel,
  rules: readonly FrameworkRule[],
): { start: LinkStart; rows: DeclarationRows } {
  const types = new TypeChecker(model, externalTypes(rules, loadStdMethods()));
  // Which types of unindexed packages are function types is read off the calls first, before any
  // type is worked out with the set half made (and kept so in the type checker's memo).
  types.findCalledExternalTypes();
  const flow = new ValueFlow(types);
  flow.collectStores();
  const rows = declarationRows(model, types, flow);
  const packageId = new Map(rows.packages.map((p) => [p.path, p.id]));
  return {
    start: { model, rules, types, flow, nextId: rows.symbols.length, packageId },
    rows,
  };
}

/**
 * Resolves every call site and returns the rows it makes (after startLink's). It gives the
 * event loop a turn every few files: the store writes startLink's rows meanwhile, a batch at a
 * time, on SQLite's thread (on the other core), then the edges `sink` is given as they are made
 * (all but those to interface methods and slots: ~8k of v1.24's 320k wait for the end).
 */
export async function finishLink(
  start: LinkStart,
  sink?: EdgeSink,
  /**
   * Told how far the two passes over every file's calls are (the arguments of direct calls, then
   * the calls linked), counted in calls: files differ a hundredfold in theirs.
   */
  onStep?: (pass: LinkPass, done: number, total: number) => void,
): Promise<LinkResult> {
  const { model, rules, types, flow } = start;

  // Pass 1: what flows into parameters, from direct calls (function values passed as arguments).
  const dynamic: { call: CallFact; ctx: Ctx }[] = [];
  let total = 0;
  for (const file of model.files) total += file.facts.calls.length;
  let files = 0;
  let done = 0;
  const turn = (pass: LinkPass) => {
    onStep?.(pass, done, total);
    return nextTurn();
  };
  onStep?.('arguments', 0, total);
  // Each file's work is a function of its own, here and below: compiled whole at once, where
  // these loops in this (async) function were compiled on the stack, again after each
  // deoptimization (8 compiles of up to ~220 ms each for v1.24, `--trace-opt`).
  for (const file of model.files) {
    if (++files % FILES_PER_TURN === 0) await turn('arguments');
    recordDirectArgs(types, flow, file, dynamic);
    done += file.facts.calls.length;
  }
  onStep?.('arguments', total, total);
  // Pass 2: the same through interfaces and function values, for the calls that pass a channel or
  // a function (`go k.Run(podCfg.Updates())` on the kubelet's Bootstrap interface). Answers
  // computed meanwhile saw only part of the arguments: they are forgotten.
  for (const { call, ctx } of dynamic) {
    const res = resolveCall(types, flow, call, ctx);
    if (res.k !== 'targets') continue;
    for (const t of res.targets) {
      if (t.rank !== 0) continue;
      if (!('elem' in t.target)) flow.recordArgs(t.target as FuncRef, call.args, ctx);
      // A call of a function-typed parameter (`handlerChainBuilder(director)`) passes its
      // arguments to whatever every caller passes there.
      else
        for (const v of flow.funcTargets(call.callee, ctx, false))
          if (v.k === 'fn') flow.recordArgs(v.fn, call.args, ctx);
    }
  }
  // Elements appended through reflection, into slices that pointer parameters name.
  const reflected = flow.collectReflectStores();
  if (dynamic.length > 0 || reflected > 0) flow.forget();

  const out = new LinkOutput(
    model,
    { nextId: start.nextId, packageId: start.packageId, implied: importClosures(model) },
    sink,
  );
  const link: LinkContext = { model, rules, types, flow, out };
  const handlers = createHandlers(rules, link);
  for (const h of handlers) h.prepare?.();
  const slotsOf = funcSlots(types);
  const fieldsOf = funcFields(types);
  const counts: Record<string, number> = {
    calls: 0,
    resolved: 0,
    external: 0,
    unresolved: 0,
    builtin: 0,
  };

  done = 0;
  onStep?.('calls', 0, total);
  for (const file of model.files) {
    if (++files % FILES_PER_TURN === 0) await turn('calls');
    linkFile(link, handlers, slotsOf, fieldsOf, counts, file);
    done += file.facts.calls.length;
  }
  onStep?.('calls', total, total);
  // The receiving method runs on the sender's value: the fields its path built go along.
  linkChannels(link, (sender, receiver, line) => {
    for (const f of fieldsOf(receiver)) out.bind(sender, line, 0, receiver, f, f, ALWAYS);
  });
  for (const h of handlers) h.finish?.();
  return toRows(start, out, counts);
}

/** Pass 1 of finishLink for one file: arguments of direct calls; calls left for pass 2. */
function recordDirectArgs(
  types: TypeChecker,
  flow: ValueFlow,
  file: FileModel,
  dynamic: { call: CallFact; ctx: Ctx }[],
): void {
  for (const call of file.facts.calls) {
    const ctx = callCtx(file, call);
    const direct = types.directCallees(call.callee, ctx);
    for (const t of direct) flow.recordArgs(t, call.args, ctx);
    if (direct.length === 0 && call.args.length > 0 && carriesFlow(types, call.callee, ctx))
      dynamic.push({ call, ctx });
  }
}

/** The edges, bindings and rule handlers' work of one file's calls, assignments and literals. */
function linkFile(
  link: LinkContext,
  handlers: ReturnType<typeof createHandlers>,
  slotsOf: ReturnType<typeof funcSlots>,
  fieldsOf: (fn: FuncRef) => FieldSlot[],
  counts: Record<string, number>,
  file: FileModel,
): void {
  const { model, types, flow, out } = link;
  for (const call of file.facts.calls) {
    if (call.fn < 0) continue;
    const caller = model.funcs[file.funcIds[call.fn] ?? -1];
    if (!caller) continue;
    counts.calls!++;
    const ctx = callCtx(file, call);
    const res = resolveCall(types, flow, call, ctx);
    const at = { line: call.line, col: call.col };
    if (res.k === 'none') counts.builtin!++;
    else if (res.k === 'unresolved') {
      // A call on a value of unknown type that comes from an unindexed package names the package
      // (`via: external:<path>`), so views can fold it with that package's calls; a call of a
      // field nothing stores into says so (NEVER_STORED), as do a local that holds only nil
      // (NIL_ONLY) and a value ranged over a list nothing fills (NEVER_FILLED).
      if (res.externalPackage) counts.external!++;
      else counts.unresolved!++;
      out.add(caller, null, 'unresolved', {
        line: at.line,
        col: at.col,
        via: res.externalPackage
          ? externalVia(res.externalPackage)
          : res.neverStored
            ? NEVER_STORED
            : res.nilOnly
              ? NIL_ONLY
              : res.neverFilled
                ? NEVER_FILLED
                : null,
        expr: exprText(call.callee),
      });
    } else if (res.k === 'external') {
      counts.external!++;
      out.add(caller, res.symbol, call.go ? 'goroutine' : 'static', {
        line: at.line,
        col: at.col,
        via: call.defer ? 'defer' : null,
      });
    } else {
      counts.resolved!++;
      const text = exprText(call.callee);
      // Too many implementations to list (`runtime.Object`): the method, and how many there are;
      // none: the method, and that no type of the index implements it.
      const crowded =
        res.crowded === 0
          ? NO_IMPLEMENTATION
          : res.crowded
            ? `${res.crowded} implementations`
            : null;
      if (res.abstract)
        out.add(caller, res.abstract, 'interface', {
          line: at.line,
          col: at.col,
          via: call.defer ? 'defer' : crowded,
          expr: text,
        });
      for (const t of res.targets) {
        const slot = 'elem' in t.target;
        out.add(
          caller,
          slot ? { slot: t.target as AnySlot } : (t.target as FuncRef),
          call.go && t.rank === 0 ? 'goroutine' : t.kind,
          {
            line: at.line,
            col: at.col,
            via: t.via ?? (call.defer ? 'defer' : null),
            rank: t.rank,
            expr: t.rank > 0 || t.kind !== 'static' ? text : null,
            needs: t.needs,
          },
        );
        if (!slot) {
          bindArguments(link, slotsOf, caller, t.target as FuncRef, call.args, ctx, at);
          bindReceiver(link, caller, t.target as FuncRef, call, ctx);
          if (t.rank === 0 && (t.kind === 'static' || t.kind === 'interface'))
            bindFields(link, fieldsOf, caller, t.target as FuncRef, call, ctx);
        }
      }
    }
    const madeIn =
      res.k === 'unresolved' && call.callee[0] === 's'
        ? externalMaker(types, call.callee[1], ctx)
        : undefined;
    const site = { file, call, ctx, caller, res, primary: primaryOf(res), madeIn };
    for (const h of handlers) h.call?.(site);
  }
  for (const a of file.facts.assigns) {
    const caller = a.fn >= 0 ? model.funcs[file.funcIds[a.fn] ?? -1] : undefined;
    if (!caller) continue;
    const ctx: Ctx = { file, fn: a.fn, line: a.line };
    for (const h of handlers) h.assign?.(a, caller, ctx);
  }
  for (const c of file.facts.composites) {
    const caller = c.fn >= 0 && c.type ? model.funcs[file.funcIds[c.fn] ?? -1] : undefined;
    if (!caller || !c.type) continue;
    const ctx: Ctx = { file, fn: c.fn, line: c.line };
    const t = deref(types.parse(c.type, types.scopeFor(ctx)));
    if (t.k !== 'named') continue;
    // An unkeyed literal's `#i` entries by the fields they fill, as if keyed.
    const named = c.fields.some(([k]) => k.startsWith('#'))
      ? { ...c, fields: c.fields.map(([k, v, l]) => [fieldKey(types, t, k) ?? k, v, l] as const) }
      : c;
    for (const h of handlers) h.composite?.(named, caller, ctx, t);
  }
}

function primaryOf(res: CallResolution): string | undefined {
  if (res.k === 'external') return res.symbol;
  if (res.k !== 'targets') return undefined;
  const first = res.targets[0]?.target;
  return first && !('elem' in first) ? first.symbol : undefined;
}

/**
 * Whether a call takes a channel, a function or a value of an interface a rule declares (what
 * value flow follows), by its signature.
 */
function carriesFlow(types: TypeChecker, callee: Expr, ctx: Ctx): boolean {
  // A value of a named function type (`HandlerChainBuilderFn`) takes what its type's signature says.
  const ft = types.underlying(types.typeOf(callee, ctx));
  if (ft.k !== 'func') return false;
  return ft.params.some((p) => {
    const k = types.underlying(p).k;
    return (
      k === 'chan' ||
      k === 'func' ||
      (p.k === 'slice' && types.underlying(p.elem).k === 'func') ||
      types.isExternalInterface(p)
    );
  });
}

/**
 * The function-typed fields of the struct a method's receiver is (none for a function), only those
 * some method calls through its own receiver (`bfr.fn()`): binding the others serves no call.
 */
function funcFields(types: TypeChecker): (fn: FuncRef) => FieldSlot[] {
  const all = allFuncFields(types);
  const read = new Set<FieldSlot>();
  for (const file of types.model.files) {
    for (const call of file.facts.calls) {
      const c = call.callee;
      if (c[0] !== 's' || c[1][0] !== 'i') continue;
      let fn = call.fn;
      let f = file.facts.funcs[fn];
      while (f?.kind === 'lit' && f.parent !== undefined) f = file.facts.funcs[(fn = f.parent)];
      if (!f?.recv || f.recv.name !== c[1][1]) continue;
      const method = types.model.funcs[file.funcIds[fn] ?? -1];
      const field = method && all(method).find((x) => x.name === c[2]);
      if (field) read.add(field);
    }
  }
  const memo = new Map<FuncRef, FieldSlot[]>();
  return (fn) => {
    let fields = memo.get(fn);
    if (!fields) memo.set(fn, (fields = all(fn).filter((x) => read.has(x))));
    return fields;
  };
}

function allFuncFields(types: TypeChecker): (fn: FuncRef) => FieldSlot[] {
  const memo = new Map<string, FieldSlot[]>();
  return (fn) => {
    const recv = fn.fact.recv;
    if (!recv) return [];
    const ctx = types.funcCtx(fn);
    const owner = types.typeDecl(deref(types.parse(recv.type, types.scopeFor(ctx))));
    if (!owner || owner.fact.kind !== 'struct') return [];
    let fields = memo.get(owner.symbol);
    if (fields) return fields;
    const scope = types.declScope(owner);
    fields = (owner.fact.fields ?? []).flatMap((f) =>
      f.name && types.underlying(types.parse(f.type, scope)).k === 'func'
        ? [{ owner, name: f.name, elem: false as const, field: true as const }]
        : [],
    );
    memo.set(owner.symbol, fields);
    return fields;
  };
}

/**
 * Binds the function-typed fields of the value a method is called on, for the tracer to follow
 * per path: on the method's own receiver (`bfr.tryRun()`), what the caller's fields hold on its
 * path; on another value (`proxier.syncRunner.Loop()`), what that value was built with, when every
 * way it is made is known (`NewBoundedFrequencyRunner("sync", proxier.syncProxyRules)`).
 */
function bindFields(
  link: LinkContext,
  fieldsOf: (fn: FuncRef) => FieldSlot[],
  caller: FuncRef,
  callee: FuncRef,
  call: CallFact,
  ctx: Ctx,
): void {
  const { types, flow, out } = link;
  const c = call.callee;
  if (c[0] !== 's') return;
  const fields = fieldsOf(callee);
  if (fields.length === 0) return;
  const x = c[1];
  const own = types.isReceiver(x, ctx);
  for (const f of fields) {
    if (own) {
      out.bind(caller, call.line, call.col, callee, f, f, ALWAYS);
      continue;
    }
    const values = flow.fieldValues(x, ctx, f.owner.symbol, f.name);
    for (const v of values ?? [])
      out.bind(caller, call.line, call.col, callee, f, v.k === 'fn' ? v.fn : v.slot, v.needs);
  }
}

/**
 * Binds what a method runs through its receiver to what the value it is called on holds: for a
 * method of a function type (`(RequestFunc).AuthenticateRequest`), the function converted to that
 * type, also when the call goes through an interface that holds it
 * (`a.authenticator.AuthenticateRequest(req)`); for a method of a slice of functions, its elements
 * (`core.AddToScheme(scheme)`, the method value of core's own builder: the functions registered
 * into that builder, not into every one).
 */
function bindReceiver(
  link: LinkContext,
  caller: FuncRef,
  callee: FuncRef,
  call: CallFact,
  ctx: Ctx,
): void {
  const { flow, out } = link;
  const bind = (elem: boolean, values: readonly FuncTarget[]) => {
    const slot: Slot = { fn: callee, index: RECEIVER, elem };
    for (const v of values)
      out.bind(caller, call.line, call.col, callee, slot, v.k === 'fn' ? v.fn : v.slot, v.needs);
  };
  const c = call.callee;
  if (c[0] === 's') {
    const recv = flow.funcReceiver(callee);
    if (recv) bind(false, flow.receiverTargets(c[1], ctx, recv));
  }
  if (!flow.receiverElements(callee)) return;
  const on = flow.receiverOperand(c, ctx);
  if (on) bind(true, flow.elementTargets(['u', '...', on.expr], on.ctx));
}

/** The function-typed parameters of a function (and the elements of a variadic one), as slots. */
function funcSlots(types: TypeChecker): (fn: FuncRef) => Slot[] {
  const memo = new Map<number, Slot[]>();
  const isFunc = (t: GoType) => types.isFuncLike(t);
  return (fn) => {
    let slots = memo.get(fn.id);
    if (slots) return slots;
    slots = [];
    const scope = types.scopeFor(types.funcCtx(fn));
    const last = fn.fact.params.length - 1;
    fn.fact.params.forEach(([, text], index) => {
      const t = types.parse(text, scope);
      if (fn.fact.variadic && index === last) {
        if (t.k === 'slice' && isFunc(t.elem)) slots!.push({ fn, index, elem: true });
      } else if (isFunc(t)) slots!.push({ fn, index, elem: false });
    });
    memo.set(fn.id, slots);
    return slots;
  };
}

/**
 * Binds the function values a call passes to the slots of the function it calls: a literal or a
 * named function, or a slot of the caller itself (forwarded: `JitterUntil` passing its `f` on to
 * `BackoffUntil`). The tracer follows these per call path.
 */
function bindArguments(
  link: LinkContext,
  slotsOf: (fn: FuncRef) => Slot[],
  caller: FuncRef,
  callee: FuncRef,
  args: readonly Expr[],
  ctx: Ctx,
  at: { line: number; col: number },
): void {
  for (const slot of slotsOf(callee)) {
    const passed = slot.elem ? args.slice(slot.index) : args.slice(slot.index, slot.index + 1);
    for (const arg of passed) {
      const values = slot.elem
        ? link.flow.elementTargets(arg, ctx)
        : link.flow.funcTargets(arg, ctx);
      for (const v of values) {
        link.out.bind(caller, at.line, at.col, callee, slot, v.k === 'fn' ? v.fn : v.slot, v.needs);
      }
      // A function the index cannot follow (one of an unindexed package's): the slot bound to
      // itself by another function says so (by the function itself, it passes its own on), and a
      // trace does not take the slot for one nothing is passed to.
      const unknown =
        values.length === 0 &&
        !slot.elem &&
        caller !== callee &&
        !link.flow.givesNothing({ expr: arg, ctx });
      if (unknown) link.out.bind(caller, at.line, at.col, callee, slot, slot, ALWAYS);
    }
  }
}

/**
 * Rows of what the model declares: symbols of functions, types and values (ids in that order),
 * the details of types, and who stores what into each field and package-level variable.
 */
function declarationRows(
  model: ProgramModel,
  types: TypeChecker,
  flow: ValueFlow,
): DeclarationRows {
  const symbols: SymbolInsert[] = [];
  for (const f of model.funcs) {
    symbols.push({
      id: f.id,
      symbol: f.symbol,
      name: f.fact.kind === 'lit' ? f.symbol.slice(f.symbol.lastIndexOf('.') + 1) : f.fact.name,
      kind: f.fact.kind === 'lit' ? 'closure' : f.fact.kind,
      package: f.pkg.path,
      file: f.file.path,
      line: f.fact.line,
      endLine: f.fact.endLine,
      col: f.fact.col,
      detail: signatureText(f.fact.params, f.fact.results, f.fact.variadic),
      doc: f.fact.doc ?? null,
    });
  }
  let nextId = model.funcs.length;
  const details: DeclarationRows['details'] = [];
  for (const pkg of model.packages.values()) {
    for (const decl of pkg.types.values()) {
      const f = decl.fact;
      symbols.push({
        id: nextId++,
        symbol: decl.symbol,
        name: decl.name,
        kind: f.kind === 'struct' ? 'struct' : f.kind === 'interface' ? 'interface' : 'type',
        package: pkg.path,
        file: decl.file.path,
        line: f.line,
        endLine: f.endLine,
        col: f.col,
        detail:
          f.kind === 'named' || f.kind === 'alias'
            ? `${f.kind === 'alias' ? '= ' : ''}${f.underlying ?? ''}`
            : f.kind,
        doc: f.doc ?? null,
      });
      const named: GoType = { k: 'named', pkg: pkg.path, name: decl.name };
      const methods = () =>
        [...(pkg.methods.get(decl.name)?.values() ?? [])].map((m) => m.symbol).sort();
      if (f.kind === 'struct') {
        details.push({
          symbol: decl.symbol,
          kind: 'struct',
          payload: JSON.stringify({
            fields: (f.fields ?? []).map((fl) => {
              const base = deref(parseType(fl.type, decl.file.scope));
              return {
                name: fl.name ?? (base.k === 'named' ? base.name : fl.type.replace(/^\*/, '')),
                type: fl.type,
                embedded: fl.name === null,
                typeSymbol: base.k === 'named' && base.pkg ? typeKey(base) : null,
                line: fl.line,
              };
            }),
            methods: methods(),
          }),
        });
      } else if (f.kind === 'interface') {
        details.push({
          symbol: decl.symbol,
          kind: 'interface',
          payload: JSON.stringify({
            methods: [...types.interfaceMethods(named).keys()].sort(),
            embeds: f.embeds ?? [],
            implementations: types.implementations(named).map(typeKey),
          }),
        });
      } else {
        details.push({
          symbol: decl.symbol,
          kind: 'type',
          payload: JSON.stringify({ underlying: f.underlying ?? null, methods: methods() }),
        });
      }
    }
    for (const v of pkg.values.values()) {
      symbols.push({
        id: nextId++,
        symbol: v.symbol,
        name: v.fact.name,
        kind: v.fact.const ? 'const' : 'var',
        package: pkg.path,
        file: v.file.path,
        line: v.fact.line,
        endLine: v.fact.line,
        col: v.fact.col,
        detail: v.fact.type ?? null,
        doc: v.fact.doc ?? null,
      });
    }
  }
  // Who stores what into each field and package-level variable, and its declared type (for
  // `assigns` and `impls`).
  const stored: { key: string; declared: GoType | undefined; sources: SourceRef[] }[] = [];
  for (const [key, sources] of flow.fieldSources) {
    const dot = key.lastIndexOf('.');
    const ownerKey = key.slice(0, dot);
    const owner: GoType = {
      k: 'named',
      pkg: ownerKey.slice(0, ownerKey.lastIndexOf('.')),
      name: ownerKey.slice(ownerKey.lastIndexOf('.') + 1),
    };
    const sel = types.select(owner, key.slice(dot + 1));
    stored.push({ key, declared: sel?.k === 'field' ? sel.type : undefined, sources });
  }
  for (const pkg of model.packages.values()) {
    for (const v of pkg.values.values()) {
      if (v.fact.const || !v.fact.type) continue;
      const declared = types.parse(v.fact.type, v.file.scope);
      if (!types.isInterface(declared)) continue;
      const initial: SourceRef[] = v.fact.value
        ? [{ expr: v.fact.value, ctx: { file: v.file, fn: -1, line: v.fact.line } }]
        : [];
      stored.push({
        key: v.symbol,
        declared,
        sources: [...initial, ...(flow.valueSources.get(v.symbol) ?? [])],
      });
    }
  }
  for (const { key, declared, sources } of stored) {
    if (sources.length === 0) continue;
    details.push({
      symbol: key,
      kind: 'assigns',
      payload: JSON.stringify({
        fieldType: declared ? typeKey(declared) : null,
        stores: sources.slice(0, 200).map((s) => {
          const fnRef = s.ctx.fn >= 0 ? model.funcs[s.ctx.file.funcIds[s.ctx.fn] ?? -1] : undefined;
          const t = types.typeOf(s.expr, s.ctx);
          return {
            file: s.ctx.file.path,
            line: s.ctx.line,
            expr: exprText(s.expr),
            in: fnRef?.symbol ?? null,
            type: t.k === 'unknown' ? null : typeKey(t),
          };
        }),
      }),
    });
  }

  return { symbols, details, packages: packageRows(model) };
}

function toRows(start: LinkStart, out: LinkOutput, counts: Record<string, number>): LinkResult {
  const { model, types, packageId } = start;
  const rows = out.finish();
  counts.edges = rows.edges.length;
  counts.frameworkEdges = out.framework;
  counts.bindings = rows.bindings.length;
  return {
    symbols: rows.symbols,
    edges: rows.edges,
    bindings: rows.bindings,
    made: madeTypes(model, types, packageId),
    counts,
  };
}

function packageRows(model: ProgramModel): PackageInsert[] {
  const rows: PackageInsert[] = [];
  let id = 0;
  for (const pkg of model.packages.values()) {
    const imports = new Set<string>();
    for (const file of pkg.files) for (const imp of file.facts.imports) imports.add(imp.path);
    rows.push({
      id: id++,
      path: pkg.path,
      name: pkg.name,
      dir: pkg.dir,
      imports: [...imports].sort(),
    });
  }
  return rows;
}

/**
 * Whether package `pkg` is in the import closure of `from` (so in every program holding `from`).
 * Closures are bit sets over the indexed packages, computed once each.
 */
function importClosures(model: ProgramModel): (from: string, pkg: string) => boolean {
  const index = new Map<string, number>();
  const list: PackageModel[] = [];
  for (const pkg of model.packages.values()) {
    index.set(pkg.path, list.length);
    list.push(pkg);
  }
  const words = Math.ceil(list.length / 32);
  const memo = new Map<number, Uint32Array>();
  const active = new Set<number>();
  const closure = (i: number): Uint32Array => {
    const hit = memo.get(i);
    if (hit) return hit;
    const bits = new Uint32Array(words);
    bits[i >> 5]! |= 1 << (i & 31);
    if (active.has(i)) return bits;
    active.add(i);
    for (const file of list[i]!.files) {
      for (const imp of file.facts.imports) {
        const j = index.get(imp.path);
        if (j === undefined || j === i) continue;
        const sub = closure(j);
        for (let w = 0; w < words; w++) bits[w]! |= sub[w]!;
      }
    }
    active.delete(i);
    memo.set(i, bits);
    return bits;
  };
  return (from, pkg) => {
    const i = index.get(from);
    const j = index.get(pkg);
    if (i === undefined || j === undefined) return false;
    return (closure(i)[j >> 5]! & (1 << (j & 31))) !== 0;
  };
}

/** Named types each package constructs: composite literals anywhere in its expressions, `new(T)`. */
function madeTypes(
  model: ProgramModel,
  types: TypeChecker,
  packageId: ReadonlyMap<string, number>,
): { type: string; package: number }[] {
  const seen = new Set<string>();
  const rows: { type: string; package: number }[] = [];
  for (const file of model.files) {
    const pkg = packageId.get(file.pkg.path);
    if (pkg === undefined) continue;
    const add = (text: string | null) => {
      if (!text) return;
      const t = deref(types.parse(text, file.scope));
      if (t.k !== 'named' || t.pkg === '') return;
      const key = `${typeKey({ k: 'named', pkg: t.pkg, name: t.name })}\u0000${pkg}`;
      if (seen.has(key)) return;
      seen.add(key);
      rows.push({ type: typeKey({ k: 'named', pkg: t.pkg, name: t.name }), package: pkg });
    };
    const walk = (e: Expr, depth = 0): void => {
      if (depth > 8) return;
      switch (e[0]) {
        case 'l':
          add(e[1]);
          for (const [, v] of e[2]) walk(v, depth + 1);
          for (const v of e[3] ?? []) walk(v, depth + 1);
          return;
        case 'c':
          if (e[1][0] === 'i' && e[1][1] === 'new' && e[2][0]?.[0] === '?') add(e[2][0][1]);
          for (const a of e[2]) walk(a, depth + 1);
          return;
        case 'u':
          walk(e[2], depth + 1);
          return;
        default:
          return;
      }
    };
    const f = file.facts;
    for (const c of f.composites) add(c.type);
    for (const l of f.locals) if (l.value) walk(l.value);
    for (const a of f.assigns) walk(a.rhs);
    for (const r of f.returns) for (const v of r.values) walk(v);
    for (const c of f.calls) for (const a of c.args) walk(a);
    for (const v of f.values) if (v.value) walk(v.value);
  }
  return rows;
}
