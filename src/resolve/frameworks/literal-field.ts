/**
 * `literal-field`: a composite literal of `type` stores function values in `fields` (cobra's
 * `RunE`, leader election's `OnStartedLeading`, informer handler funcs). The function that builds
 * the literal reaches them, and so does every call listed in `invokedBy` on a value such a literal
 * flows into (`cmd.Execute()`, `le.Run(ctx)`, `informer.AddEventHandler(h)`). `collects` names
 * methods whose argument joins the receiver (cobra's `AddCommand`: the root's `Execute` runs the
 * subcommands). With `methods`, the fields hold interface values whose `methods` the invokers call
 * (`http.Server{Handler: h}`: `Serve` runs `h.ServeHTTP`); the literal's builder does not reach them.
 */
import type { CompositeFact, Expr } from '../../index/facts.js';
import { exprText } from '../calls.js';
import { push } from '../../shared/multimap.js';
import type { FuncRef } from '../model.js';
import type { Ctx } from '../type-checker.js';
import { typeKey, type GoType } from '../types.js';
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
  }

  /** The rule's function values in the literals that reach `value`, invoked from the site. */
  const invoke = (rule: Rule, value: Expr, site: CallSite) => {
    const at = { line: site.call.line, col: site.call.col, expr: exprText(site.call.callee) };
    for (const { lit, ctx: litCtx, needs } of flow.literalsReaching(value, site.ctx, rule.type)) {
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
        frameworkEdges(link, site.caller, targets, rule.id, at, needs);
      }
    }
  };

  /** A param forwarded by an invoker (`cli.Run`) or its package's helpers (`cli.run` calling `cmd.Execute()`). */
  const forwards = (value: Expr, site: CallSite) =>
    (byFunction.has(sameMethod(site.caller.symbol)) || invokerPackages.has(site.caller.pkg.path)) &&
    value[0] === 'i' &&
    types.resolveIdent(value[1], site.ctx)?.k === 'param';

  return {
    prepare() {
      if (collectors.size === 0) return;
      for (const file of model.files) {
        for (const call of file.facts.calls) {
          if (call.callee[0] !== 's' || !call.args[0]) continue;
          const receivers = collectors.get(call.callee[2]);
          if (!receivers) continue;
          const ctx: Ctx = { file, fn: call.fn, line: call.line };
          const t = types.typeOf(call.callee[1], ctx);
          if (receivers.some((rcv) => receiverMatches(t, rcv)))
            flow.addCollected(call.callee[1], call.args[0], ctx);
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
