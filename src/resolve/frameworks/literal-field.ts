/**
 * `literal-field`: a composite literal of `type` stores function values in `fields` (cobra's
 * `RunE`, leader election's `OnStartedLeading`, informer handler funcs). The function that builds
 * the literal reaches them, and so does every call listed in `invokedBy` on a value such a literal
 * flows into (`cmd.Execute()`, `le.Run(ctx)`, `informer.AddEventHandler(h)`). `collects` names
 * methods whose argument joins the receiver (cobra's `AddCommand`: the root's `Execute` runs the
 * subcommands). A function assigned to one of `fields` after construction (`cmd.Run = func...` on
 * a command from a package variable, component-base's `cmd.PersistentPreRun = ...`) belongs to
 * the literals the assigned value can be: an invoker reaches it only on a value one of those
 * literals flows into, and the function that assigns it reaches it. With `methods`, the fields
 * hold interface values whose `methods` the invokers call (`http.Server{Handler: h}`: `Serve`
 * runs `h.ServeHTTP`); the literal's builder does not reach them.
 */
import type { AssignFact, CompositeFact, Expr } from '../../index/facts.js';
import { exprText } from '../calls.js';
import { push } from '../../shared/multimap.js';
import type { FuncRef } from '../model.js';
import { both, through, type Needs } from '../needs.js';
import { callCtx, type Ctx } from '../type-checker.js';
import { typeKey, type GoType } from '../types.js';
import { mergeTargets, type FuncTarget } from '../value-flow.js';
import {
  frameworkEdges,
  methodTargets,
  receiverMatches,
  siteEdges,
  sameMethod,
  valuesAt,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

type Rule = RulesOf<'literal-field'>[number];

export function literalFieldHandler(
  rules: RulesOf<'literal-field'>,
  link: LinkContext,
): RuleHandler {
  const { model, types, flow } = link;
  const byFunction = new Map<string, { rule: Rule; arg: number }[]>();
  const byMethod = new Map<string, { rule: Rule; receiver: string; arg?: number }[]>();
  const collectors = new Map<string, string[]>();
  /** Rules by the fields they read, for assignments after construction. */
  const byField = new Map<string, Rule[]>();
  /**
   * What is assigned to a rule's field on the values each literal can be, by literal; `made`, the
   * calls in the assigning function that made the value assigned to, when those are all it can be
   * (`put := NewPutCommand(); put.Run = f`): only a value from one of them has that field.
   */
  const assigned = new Map<
    Expr,
    { rule: Rule; value: Expr; ctx: Ctx; needs: Needs; made: ReadonlySet<Expr> | undefined }[]
  >();
  /** Packages of the functions the rules name as invokers (`k8s.io/component-base/cli`). */
  const invokerPackages = new Set<string>();
  for (const rule of rules) {
    for (const inv of rule.invokedBy ?? []) {
      if ('function' in inv) {
        push(byFunction, sameMethod(inv.function), { rule, arg: inv.arg });
        invokerPackages.add(inv.function.slice(0, inv.function.lastIndexOf('.')));
      } else
        push(byMethod, inv.method, {
          rule,
          receiver: inv.receiver,
          ...(inv.arg !== undefined ? { arg: inv.arg } : {}),
        });
    }
    for (const c of rule.collects ?? []) push(collectors, c.method, c.receiver);
    if (!rule.methods) for (const f of rule.fields) push(byField, f, rule);
  }

  /** The rules whose field `a` assigns on a value of their type (`cmd.Run = ...`). */
  const assignedRules = (a: AssignFact, ctx: Ctx): Rule[] => {
    if (a.lhs[0] !== 's' || a.index !== undefined) return [];
    const candidates = byField.get(a.lhs[2]);
    if (!candidates) return [];
    const t = types.typeOf(a.lhs[1], ctx);
    return candidates.filter((rule) => receiverMatches(t, rule.type));
  };

  /**
   * The rule's function values in the literals that reach `value`, invoked from the site: each
   * function once, with the needs of every way it got there (a literal reached on several paths,
   * the same function assigned on several).
   */
  const invoke = (rule: Rule, value: Expr, site: CallSite) => {
    const at = { line: site.call.line, col: site.call.col, expr: exprText(site.call.callee) };
    const found: FuncTarget[] = [];
    const gather = (targets: readonly FuncTarget[], needs: Needs) => {
      for (const t of targets) found.push({ ...t, needs: both(t.needs, needs) });
    };
    // Every expression the search went through: an assignment whose value was made by calls of
    // its own function counts where the invoked value comes from one of those calls.
    const visited = new Set<object>();
    const reaching = flow.literalsReaching(value, site.ctx, rule.type, 0, visited);
    for (const { lit, ctx: litCtx, needs } of reaching) {
      if (lit[0] !== 'l') continue;
      for (const [field, fieldValue] of lit[2]) {
        if (!rule.fields.includes(field)) continue;
        if (rule.methods) {
          siteEdges(
            link,
            site,
            methodTargets(link, fieldValue, litCtx, rule.methods),
            rule.id,
            needs,
          );
          continue;
        }
        const owner = model.funcs[litCtx.file.funcIds[litCtx.fn] ?? -1];
        const targets = owner
          ? valuesAt(link, fieldValue, litCtx, site.caller)
          : flow.funcTargets(fieldValue, litCtx, false);
        gather(targets, needs);
      }
      for (const a of assigned.get(lit) ?? []) {
        if (a.rule === rule && (!a.made || [...a.made].some((call) => visited.has(call))))
          gather(valuesAt(link, a.value, a.ctx, site.caller), both(needs, a.needs));
      }
    }
    frameworkEdges(link, site.caller, mergeTargets(found), rule.id, at);
  };

  /**
   * The calls of this function that a local holds the results of, when it holds nothing else
   * (`put := NewPutCommand()`): undefined for anything else (a parameter, a package variable, a
   * field, a local also given another value).
   */
  const madeHere = (x: Expr, ctx: Ctx): ReadonlySet<Expr> | undefined => {
    if (x[0] !== 'i' || types.resolveIdent(x[1], ctx)?.k !== 'local') return undefined;
    const sources = flow.sourcesOf(x, ctx);
    const here = sources.every(
      (s) => s.expr[0] === 'c' && s.ctx.file === ctx.file && s.ctx.fn === ctx.fn,
    );
    return here && sources.length > 0 ? new Set(sources.map((s) => s.expr)) : undefined;
  };

  /** A param forwarded by an invoker (`cli.Run`) or its package's helpers (`cli.run` calling `cmd.Execute()`). */
  const forwards = (value: Expr, site: CallSite) =>
    (byFunction.has(sameMethod(site.caller.symbol)) || invokerPackages.has(site.caller.pkg.path)) &&
    value[0] === 'i' &&
    types.resolveIdent(value[1], site.ctx)?.k === 'param';

  return {
    prepare() {
      if (collectors.size > 0) {
        for (const file of model.files) {
          for (const call of file.facts.calls) {
            if (call.callee[0] !== 's' || call.args.length === 0) continue;
            const receivers = collectors.get(call.callee[2]);
            if (!receivers) continue;
            const ctx = callCtx(file, call);
            const t = types.typeOf(call.callee[1], ctx);
            // Every argument: `AddCommand(get, put, ...)` is variadic (a spread `subs...` passes
            // its elements, which the value flow reads through it).
            if (receivers.some((rcv) => receiverMatches(t, rcv)))
              for (const arg of call.args) flow.addCollected(call.callee[1], arg, ctx);
          }
        }
      }
      // After the collected values joined (the value flow keeps what it answered): `root.Run = f`
      // belongs to the subcommands' literals too, which only the root's `Execute` reaches anyway,
      // and elsewhere only with the assigning package in the program (its needs).
      if (byField.size === 0) return;
      for (const file of model.files) {
        for (const a of file.facts.assigns) {
          const lhs = a.lhs;
          if (a.fn < 0 || lhs[0] !== 's') continue;
          const ctx: Ctx = { file, fn: a.fn, line: a.line };
          for (const rule of assignedRules(a, ctx)) {
            const made = madeHere(lhs[1], ctx);
            for (const r of flow.literalsReaching(lhs[1], ctx, rule.type)) {
              if (r.lit[0] !== 'l') continue;
              const needs = through(r.needs, file.pkg.path);
              push(assigned, r.lit, { rule, value: a.rhs, ctx, needs, made });
            }
          }
        }
      }
    },
    call(site: CallSite) {
      for (const inv of site.primary ? (byFunction.get(sameMethod(site.primary)) ?? []) : []) {
        const arg = site.call.args[inv.arg];
        if (arg && !forwards(arg, site)) invoke(inv.rule, arg, site);
      }
      if (site.call.callee[0] !== 's') return;
      const [, operand, name] = site.call.callee;
      for (const inv of byMethod.get(name) ?? []) {
        if (!receiverMatches(types.typeOf(operand, site.ctx), inv.receiver)) continue;
        const value = inv.arg === undefined ? operand : site.call.args[inv.arg];
        if (value && !forwards(value, site)) invoke(inv.rule, value, site);
      }
    },
    assign(a: AssignFact, caller: FuncRef, ctx: Ctx) {
      for (const rule of assignedRules(a, ctx)) {
        const at = { line: a.line, col: 0, expr: exprText(a.lhs) };
        frameworkEdges(link, caller, valuesAt(link, a.rhs, ctx, caller), rule.id, at);
      }
    },
    composite(c: CompositeFact, caller: FuncRef, ctx: Ctx, type: GoType) {
      const key = typeKey(type);
      for (const rule of rules) {
        if (rule.type !== key || rule.methods) continue;
        for (const [field, value, line] of c.fields) {
          if (!rule.fields.includes(field)) continue;
          const at = { line, col: 0, expr: `${type.k === 'named' ? type.name : key}.${field}` };
          frameworkEdges(
            link,
            caller,
            valuesAt(link, value, { ...ctx, line }, caller),
            rule.id,
            at,
          );
        }
      }
    },
  };
}
