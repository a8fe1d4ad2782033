/**
 * `external-interface`: an interface of a package the index does not hold (`net/http.Handler`).
 * A call of one of its `methods` on a value of that type reaches those methods of the concrete
 * types stored into the value, and the function values it holds (`http.HandlerFunc(f)`: the
 * handler chain's filters), as a call on an indexed interface reaches its implementations.
 */
import { deref, typeKey } from '../types.js';
import {
  methodTargets,
  siteEdges,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

export function externalInterfaceHandler(
  rules: RulesOf<'external-interface'>,
  link: LinkContext,
): RuleHandler {
  const { types } = link;
  return {
    call(site: CallSite) {
      const { call, ctx } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      const t = deref(types.typeOf(operand, ctx));
      if (t.k !== 'named') return;
      for (const rule of rules) {
        if (!rule.methods.includes(name) || typeKey(t) !== rule.type) continue;
        siteEdges(link, site, methodTargets(link, operand, ctx, [name]), rule.id);
      }
    },
  };
}
