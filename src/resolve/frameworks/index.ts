/** Every framework rule kind and its handler. */
import type { FrameworkRule } from '../rules.js';
import { argMethodsHandler } from './arg-methods.js';
import { callArgHandler } from './call-arg.js';
import { externalInterfaceHandler } from './external-interface.js';
import type { LinkContext, RuleHandler, RulesOf } from './handler.js';
import { literalFieldHandler } from './literal-field.js';
import { mapRegisterHandler, registryLiteralHandler } from './map-register.js';
import { queueHandoffHandler } from './queue-handoff.js';
import { registeredFuncHandler } from './registered-func.js';

type Handlers = {
  [K in FrameworkRule['kind']]: (rules: RulesOf<K>, link: LinkContext) => RuleHandler;
};

export const ruleHandlers: Handlers = {
  'literal-field': literalFieldHandler,
  'call-arg': callArgHandler,
  'arg-methods': argMethodsHandler,
  'map-register': mapRegisterHandler,
  'registry-literal': registryLiteralHandler,
  'queue-handoff': queueHandoffHandler,
  'external-interface': externalInterfaceHandler,
  'registered-func': registeredFuncHandler,
};

/** One handler per rule kind present, over all rules of that kind. */
export function createHandlers(rules: readonly FrameworkRule[], link: LinkContext): RuleHandler[] {
  const kinds = [...new Set(rules.map((r) => r.kind))];
  return kinds.map((kind) => {
    const ofKind = rules.filter((r) => r.kind === kind);
    return (ruleHandlers[kind] as (rules: FrameworkRule[], link: LinkContext) => RuleHandler)(
      ofKind,
      link,
    );
  });
}
