/**
 * Framework rules (rules/frameworks.yaml) are data; each rule kind has one small handler here,
 * keyed by kind. The link phase calls a handler's hooks as it walks the model: once before the
 * calls (`prepare`), at every call site with its resolution (`call`), at every assignment and
 * keyed composite literal inside a function, and once at the end (`finish`).
 */
import type { AssignFact, CallFact, CompositeFact, Expr } from '../../index/facts.js';
import { exprText, externalRoot, type CallResolution } from '../calls.js';
import type { LinkOutput } from '../link-output.js';
import type { FileModel, FuncRef, ProgramModel } from '../model.js';
import { both, either, type Needs } from '../needs.js';
import type { FrameworkRule } from '../rules.js';
import type { Ctx, TypeChecker } from '../type-checker.js';
import { deref, typeKey, type GoType } from '../types.js';
import type { FuncTarget, Slot, ValueFlow } from '../value-flow.js';

export interface LinkContext {
  model: ProgramModel;
  rules: readonly FrameworkRule[];
  types: TypeChecker;
  flow: ValueFlow;
  out: LinkOutput;
}

export interface CallSite {
  file: FileModel;
  call: CallFact;
  ctx: Ctx;
  caller: FuncRef;
  res: CallResolution;
  /** The symbol the call resolved to first (a function of the index or an external one). */
  primary: string | undefined;
  /**
   * For a method call left unresolved: the unindexed package whose function returned the
   * operand (calls.ts externalMaker), whose type the index cannot name.
   */
  madeIn?: string | undefined;
}

export interface RuleHandler {
  prepare?(): void;
  call?(site: CallSite): void;
  assign?(a: AssignFact, caller: FuncRef, ctx: Ctx): void;
  composite?(c: CompositeFact, caller: FuncRef, ctx: Ctx, type: GoType): void;
  finish?(): void;
}

export type RulesOf<K extends FrameworkRule['kind']> = Extract<FrameworkRule, { kind: K }>[];

/** A receiver rule names a type (`pkg.T`) or a whole package (`pkg`). */
export function receiverMatches(t: GoType, receiver: string): boolean {
  const base = deref(t);
  if (base.k !== 'named') return false;
  return typeKey(base) === receiver || base.pkg === receiver;
}

/**
 * Rule methods by package and method name (`golang.org/x/sync/errgroup Go`), for a call whose
 * operand a function of that unindexed package returned (CallSite.madeIn): the rule of the method
 * the call is, when that package has one type with a rule method of that name; else none.
 */
export class MethodsByPackage {
  /** `pkg name` -> the type declaring it and its rule, or null when two types of pkg do. */
  private readonly found = new Map<string, { type: string; rule: string } | null>();

  add(symbol: string, rule: string): void {
    const m = /^\(\*?(.+)\.([^.()]+)\)\.([^.()]+)$/.exec(symbol);
    if (!m) return;
    const key = `${m[1]} ${m[3]}`;
    const had = this.found.get(key);
    if (had === undefined) this.found.set(key, { type: m[2]!, rule });
    else if (had && had.type !== m[2]) this.found.set(key, null);
  }

  get(site: CallSite): string | undefined {
    if (!site.madeIn || site.call.callee[0] !== 's') return undefined;
    return this.found.get(`${site.madeIn} ${site.call.callee[2]}`)?.rule;
  }
}

/** A method symbol without its receiver kind: `(*T).M` and `(T).M` name the same method to a rule. */
export function sameMethod(symbol: string): string {
  return symbol.startsWith('(*') ? `(${symbol.slice(2)}` : symbol;
}

/**
 * The function values `value` can be, as seen from `caller`: a slot of another function than
 * the caller (or those enclosing it) cannot be bound on the caller's path, so its values are
 * whatever that function's callers pass.
 */
export function valuesAt(link: LinkContext, value: Expr, ctx: Ctx, caller: FuncRef): FuncTarget[] {
  const local = link.flow.funcTargets(value, ctx);
  if (local.every((t) => t.k === 'fn' || encloses(t.slot.fn, caller))) return local;
  return link.flow.funcTargets(value, ctx, false);
}

/** Whether `outer` is `inner` or a function whose closures include `inner`. */
export function encloses(outer: FuncRef, inner: FuncRef): boolean {
  return inner.symbol === outer.symbol || inner.symbol.startsWith(`${outer.symbol}$`);
}

/** Adds a framework edge to each value. */
export function frameworkEdges(
  link: LinkContext,
  caller: FuncRef,
  targets: readonly FuncTarget[],
  via: string,
  at: { line: number; col: number; expr: string },
  needs?: Needs,
): void {
  for (const t of targets) {
    const callee: FuncRef | { slot: Slot } = t.k === 'fn' ? t.fn : { slot: t.slot };
    link.out.add(caller, callee, 'framework', {
      via,
      line: at.line,
      col: at.col,
      expr: at.expr,
      needs: needs ? both(t.needs, needs) : t.needs,
    });
  }
}

/** Adds a framework edge from the call site to each function found, with the needs of each. */
export function siteEdges(
  link: LinkContext,
  site: CallSite,
  found: Iterable<{ fn: FuncRef; needs: Needs }>,
  via: string,
  needs?: Needs,
): void {
  const { call } = site;
  for (const f of found) {
    link.out.add(site.caller, f.fn, 'framework', {
      via,
      line: call.line,
      col: call.col,
      expr: exprText(call.callee),
      needs: needs ? both(f.needs, needs) : f.needs,
    });
  }
}

/**
 * Whether a method call's operand comes from a package under `prefix`, indexed or not: by the
 * symbol the call resolved to, the operand's type, or the package its chain starts from
 * (`ws.POST(path).To(h)` on go-restful's `*WebService`).
 */
export function fromPackage(
  link: LinkContext,
  operand: Expr,
  ctx: Ctx,
  prefix: string,
  primary: string | undefined,
): boolean {
  if (primary?.replace(/^\(\*?/, '').startsWith(prefix)) return true;
  const t = deref(link.types.typeOf(operand, ctx));
  if (t.k === 'named' && t.pkg.startsWith(prefix)) return true;
  return externalRoot(link.types, operand, ctx)?.startsWith(prefix) ?? false;
}

/**
 * What calling `methods` on an interface value runs: those methods of the concrete types stored
 * into it, and the function values it holds (a function gets into an interface only converted
 * to a function type with that method, as `http.HandlerFunc(f)`, whose method calls it). Asked
 * from anywhere: a parameter stands for whatever every caller passes.
 */
export function methodTargets(
  link: LinkContext,
  value: Expr,
  ctx: Ctx,
  methods: readonly string[],
): { fn: FuncRef; needs: Needs }[] {
  const { types, flow } = link;
  const found = new Map<number, { fn: FuncRef; needs: Needs }>();
  const add = (fn: FuncRef, needs: Needs) => {
    const prev = found.get(fn.id);
    found.set(fn.id, { fn, needs: prev ? either(prev.needs, needs) : needs });
  };
  for (const s of flow.storedTypes(value, ctx)) {
    if (types.isInterface(deref(s.type))) continue;
    for (const m of methods) {
      const sel = types.select(s.type, m);
      if (sel?.k === 'method') add(sel.fn, s.needs);
    }
  }
  for (const t of flow.funcTargets(value, ctx, false)) if (t.k === 'fn') add(t.fn, t.needs);
  // Nearest first: a value that came through the caller's own packages (the handler chain the
  // server builds) before one another component passes to the same helper (a custom resource's
  // handler wrapped by the same filter); readers follow the first.
  const from = ctx.file.pkg.path;
  return [...found.values()]
    .map((f, i) => ({ f, i, d: farness(f.needs, from) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map(({ f }) => f);
}

/** How far the packages a value needs lie from `pkg`: import-path segments not shared, fewest. */
function farness(needs: Needs, pkg: string): number {
  const own = pkg.split('/');
  let best = Infinity;
  for (const alt of needs) {
    let sum = 0;
    for (const p of alt) {
      const parts = p.split('/');
      let common = 0;
      while (common < parts.length && parts[common] === own[common]) common++;
      sum += parts.length - common;
    }
    best = Math.min(best, sum);
  }
  return best;
}
