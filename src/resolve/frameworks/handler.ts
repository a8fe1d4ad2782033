/**
 * Framework rules (rules/frameworks.yaml) are data; each rule kind has one small handler here,
 * keyed by kind. The link phase calls a handler's hooks as it walks the model: once before the
 * calls (`prepare`), at every call site with its resolution (`call`), at every assignment and
 * keyed composite literal inside a function, and once at the end (`finish`).
 */
import type { AssignFact, CallFact, CompositeFact, Expr } from '../../index/facts.js';
import type { CallResolution } from '../calls.js';
import type { LinkOutput } from '../link-output.js';
import type { FileModel, FuncRef, ProgramModel } from '../model.js';
import { both, type Needs } from '../needs.js';
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
