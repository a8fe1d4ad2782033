/**
 * `call-arg`: a call to one of the rule's functions runs the function values passed to it
 * (`wait.UntilWithContext(ctx, sched.scheduleOne, 0)` runs scheduleOne). A value that is a
 * parameter of the caller stays a slot, bound per call path by the tracer: a wrapper such as
 * `Parallelizer.Until` runs what its own caller passed, not what every caller passes.
 */
import { exprText } from '../calls.js';
import {
  frameworkEdges,
  MethodsByPackage,
  sameMethod,
  valuesAt,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

export function callArgHandler(rules: RulesOf<'call-arg'>, link: LinkContext): RuleHandler {
  const byFunction = new Map<string, string>();
  const byPackage = new MethodsByPackage();
  for (const rule of rules)
    for (const f of rule.functions) {
      byFunction.set(sameMethod(f), rule.id);
      byPackage.add(f, rule.id);
    }
  return {
    call(site: CallSite) {
      const id = site.primary ? byFunction.get(sameMethod(site.primary)) : byPackage.get(site);
      if (!id) return;
      const at = { line: site.call.line, col: site.call.col, expr: exprText(site.call.callee) };
      for (const arg of site.call.args)
        frameworkEdges(link, site.caller, valuesAt(link, arg, site.ctx, site.caller), id, at);
    },
  };
}
