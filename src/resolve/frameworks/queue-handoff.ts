/**
 * `queue-handoff`: a `produce` call on a struct field whose type comes from `package`
 * (`c.queue.Add(key)`) reaches the functions that `consume` from the same field
 * (`c.queue.Get()` in the worker): the work-queue hand-off between an informer handler and the
 * controller's workers.
 */
import { exprText } from '../calls.js';
import { push } from '../../shared/multimap.js';
import type { FuncRef } from '../model.js';
import { deref } from '../types.js';
import type { CallSite, LinkContext, RuleHandler, RulesOf } from './handler.js';

export function queueHandoffHandler(
  rules: RulesOf<'queue-handoff'>,
  link: LinkContext,
): RuleHandler {
  const { types, out } = link;
  const producers = new Map<
    string,
    { caller: FuncRef; line: number; col: number; rule: string; expr: string }[]
  >();
  const consumers = new Map<string, Set<FuncRef>>();
  return {
    call(site: CallSite) {
      const { call, ctx, caller } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      if (operand[0] !== 's') return;
      for (const rule of rules) {
        const produce = rule.produce.includes(name);
        const consume = rule.consume.includes(name);
        if (!produce && !consume) continue;
        const sel = types.select(types.typeOf(operand[1], ctx), operand[2]);
        if (sel?.k !== 'field') continue;
        const ft = deref(sel.type);
        if (ft.k !== 'named' || !ft.pkg.startsWith(rule.package)) continue;
        const key = `${sel.owner}.${operand[2]}`;
        if (produce)
          push(producers, key, {
            caller,
            line: call.line,
            col: call.col,
            rule: rule.id,
            expr: exprText(call.callee),
          });
        if (consume) {
          let set = consumers.get(key);
          if (!set) consumers.set(key, (set = new Set()));
          set.add(caller);
        }
      }
    },
    finish() {
      for (const [key, list] of producers) {
        for (const consumer of consumers.get(key) ?? []) {
          for (const p of list) {
            if (p.caller === consumer) continue;
            out.add(p.caller, consumer, 'framework', {
              via: p.rule,
              line: p.line,
              col: p.col,
              expr: p.expr,
            });
          }
        }
      }
    },
  };
}
