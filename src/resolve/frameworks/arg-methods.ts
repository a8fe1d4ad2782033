/**
 * `arg-methods`: a call of one of `calls` on a type from `package` reaches the `methods` of the
 * argument at `arg` (controller-runtime's `Complete(r)` reaches `r.Reconcile`).
 */
import { exprText, externalRoot } from '../calls.js';
import { ALWAYS, either, type Needs } from '../needs.js';
import type { Ctx } from '../type-checker.js';
import { deref, typeKey } from '../types.js';
import type { Expr } from '../../index/facts.js';
import type { FuncRef } from '../model.js';
import type { CallSite, LinkContext, RuleHandler, RulesOf } from './handler.js';

export function argMethodsHandler(rules: RulesOf<'arg-methods'>, link: LinkContext): RuleHandler {
  const { types, flow, out } = link;
  // An argument whose function fields a literal-field rule follows (`ResourceEventHandlerFuncs`)
  // is an adapter: its methods only call those fields, and the rule reaches them directly.
  const adapters = new Set(link.rules.flatMap((r) => (r.kind === 'literal-field' ? [r.type] : [])));
  /** Whether a method call's operand comes from a package under `prefix` (indexed or not). */
  const fromPackage = (operand: Expr, ctx: Ctx, prefix: string, primary: string | undefined) => {
    if (primary?.replace(/^\(\*?/, '').startsWith(prefix)) return true;
    const t = deref(types.typeOf(operand, ctx));
    if (t.k === 'named' && t.pkg.startsWith(prefix)) return true;
    return externalRoot(types, operand, ctx)?.startsWith(prefix) ?? false;
  };
  return {
    call(site: CallSite) {
      const { call, ctx } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      for (const rule of rules) {
        if (!rule.calls.includes(name) || !fromPackage(operand, ctx, rule.package, site.primary))
          continue;
        const arg = call.args[rule.arg];
        if (!arg) continue;
        const found = new Map<number, { fn: FuncRef; needs: Needs }>();
        for (const s of [
          { type: types.typeOf(arg, ctx), needs: ALWAYS },
          ...flow.storedTypes(arg, ctx),
        ]) {
          const base = deref(s.type);
          if (base.k === 'named' && adapters.has(typeKey(base))) continue;
          for (const m of rule.methods) {
            const sel = types.select(s.type, m);
            if (sel?.k !== 'method') continue;
            const prev = found.get(sel.fn.id);
            found.set(sel.fn.id, {
              fn: sel.fn,
              needs: prev ? either(prev.needs, s.needs) : s.needs,
            });
          }
        }
        for (const { fn, needs } of found.values()) {
          out.add(site.caller, fn, 'framework', {
            via: rule.id,
            line: call.line,
            col: call.col,
            expr: exprText(call.callee),
            needs,
          });
        }
      }
    },
  };
}
