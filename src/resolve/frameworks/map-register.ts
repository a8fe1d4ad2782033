/**
 * `map-register`: a function that stores function values under literal keys
 * (`controllers["replicaset"] = startReplicaSetController`) registers them: it reaches them, and
 * the key names them.
 */
import type { AssignFact } from '../../index/facts.js';
import { exprText } from '../calls.js';
import type { FuncRef } from '../model.js';
import type { Ctx } from '../type-checker.js';
import {
  frameworkEdges,
  valuesAt,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

export function mapRegisterHandler(rules: RulesOf<'map-register'>, link: LinkContext): RuleHandler {
  const rule = rules[0];
  if (!rule) return {};
  return {
    assign(a: AssignFact, caller: FuncRef, ctx: Ctx) {
      if (a.lhs[0] !== 'x' || a.lhs[2] === undefined || !/^["`]/.test(a.lhs[2])) return;
      const at = { line: a.line, col: 0, expr: `${exprText(a.lhs[1])}[${a.lhs[2]}]` };
      frameworkEdges(link, caller, valuesAt(link, a.rhs, ctx, caller), rule.id, at);
    },
  };
}
