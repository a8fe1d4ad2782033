/**
 * `arg-methods`: a call of one of `calls` on a type from `package` reaches the `methods` of the
 * argument at `arg` (controller-runtime's `Complete(r)` reaches `r.Reconcile`).
 */
import { ALWAYS, either, type Needs } from '../needs.js';
import { deref, typeKey } from '../types.js';
import type { FuncRef } from '../model.js';
import {
  fromPackage,
  siteEdges,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

export function argMethodsHandler(rules: RulesOf<'arg-methods'>, link: LinkContext): RuleHandler {
  const { types, flow } = link;
  // An argument whose function fields a literal-field rule follows (`ResourceEventHandlerFuncs`)
  // is an adapter: its methods only call those fields, and the rule reaches them directly.
  const adapters = new Set(link.rules.flatMap((r) => (r.kind === 'literal-field' ? [r.type] : [])));
  return {
    call(site: CallSite) {
      const { call, ctx } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      for (const rule of rules) {
        if (
          !rule.calls.includes(name) ||
          !fromPackage(link, operand, ctx, rule.package, site.primary)
        )
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
        siteEdges(link, site, found.values(), rule.id);
      }
    },
  };
}
