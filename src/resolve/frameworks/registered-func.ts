/**
 * `registered-func`: a function handed to one of `register` on a type from `package` is kept in
 * the library's table and run later by the calls of `runBy` on that package's types (go-restful:
 * `ws.POST(path).To(handler)` registers the route's function, `(*restful.Container).Dispatch` runs
 * it). Each call of `runBy` reaches every function registered in the program: the edge needs the
 * package that registered it.
 */
import { exprText } from '../calls.js';
import type { FuncRef } from '../model.js';
import { either, through, type Needs } from '../needs.js';
import {
  fromPackage,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

interface Invoker {
  caller: FuncRef;
  line: number;
  col: number;
  expr: string;
}

export function registeredFuncHandler(
  rules: RulesOf<'registered-func'>,
  link: LinkContext,
): RuleHandler {
  const { flow, out } = link;
  const registered = new Map<string, Map<number, { fn: FuncRef; needs: Needs }>>();
  const invokers = new Map<string, Invoker[]>();
  for (const rule of rules) {
    registered.set(rule.id, new Map());
    invokers.set(rule.id, []);
  }
  return {
    call(site: CallSite) {
      const { call, ctx } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      for (const rule of rules) {
        const register = rule.register.includes(name);
        const run = rule.runBy.includes(name);
        if ((!register && !run) || !fromPackage(link, operand, ctx, rule.package, site.primary))
          continue;
        if (run) {
          invokers.get(rule.id)!.push({
            caller: site.caller,
            line: call.line,
            col: call.col,
            expr: exprText(call.callee),
          });
        }
        const arg = register ? call.args[rule.arg] : undefined;
        if (!arg) continue;
        // The function runs on another path than the registering call's: parameters stand for
        // whatever every caller passes.
        const table = registered.get(rule.id)!;
        for (const t of flow.funcTargets(arg, ctx, false)) {
          if (t.k !== 'fn') continue;
          const needs = through(t.needs, site.caller.pkg.path);
          const prev = table.get(t.fn.id);
          table.set(t.fn.id, { fn: t.fn, needs: prev ? either(prev.needs, needs) : needs });
        }
      }
    },
    finish() {
      for (const rule of rules) {
        for (const inv of invokers.get(rule.id)!) {
          for (const { fn, needs } of registered.get(rule.id)!.values()) {
            out.add(inv.caller, fn, 'framework', {
              via: rule.id,
              line: inv.line,
              col: inv.col,
              expr: inv.expr,
              needs,
            });
          }
        }
      }
    },
  };
}
