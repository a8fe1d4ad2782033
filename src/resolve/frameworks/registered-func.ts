/**
 * `registered-func`: a function handed to one of `register` on a type from `package` is kept in
 * the library's table and run later by the calls of `runBy` on that package's types (go-restful:
 * `ws.POST(path).To(handler)` registers the route's function, `(*restful.Container).Dispatch` runs
 * it). A function stored into one of `fields` of a struct of that package, in a keyed literal or by
 * an assignment, is registered too (urfave/cli: `app.Action = run`, `&cli.Command{Action: run}`,
 * run by `app.Run`). Each call of `runBy` reaches every function registered in the program: the
 * edge needs the package that registered it.
 */
import type { AssignFact, Expr } from '../../index/facts.js';
import { exprText } from '../calls.js';
import type { FuncRef } from '../model.js';
import { either, through, type Needs } from '../needs.js';
import { underPackage } from '../../shared/go-symbol.js';
import type { Ctx } from '../type-checker.js';
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
  /** Registers what a call site or store passes, run on other paths: as every caller passes. */
  const register = (rule: string, value: Expr, ctx: Ctx, pkg: string) => {
    const table = registered.get(rule)!;
    for (const t of flow.funcTargets(value, ctx, false)) {
      if (t.k !== 'fn') continue;
      const needs = through(t.needs, pkg);
      const prev = table.get(t.fn.id);
      table.set(t.fn.id, { fn: t.fn, needs: prev ? either(prev.needs, needs) : needs });
    }
  };
  /**
   * The functions keyed literals store into the rule's fields of the package's structs, package
   * level ones included (`var runCommand = &cli.Command{Action: ...}`): the value flow's stores,
   * keyed `<pkg>.<Type>.<field>`, of every struct, the index's or not.
   */
  const registerLiterals = (rule: RulesOf<'registered-func'>[number]) => {
    for (const [key, sources] of flow.fieldSources) {
      const dot = key.lastIndexOf('.');
      if (!rule.fields.includes(key.slice(dot + 1))) continue;
      const owner = key.slice(0, dot);
      if (!underPackage(owner.slice(0, owner.lastIndexOf('.')), rule.package)) continue;
      for (const s of sources)
        if (s.index === undefined) register(rule.id, s.expr, s.ctx, s.ctx.file.pkg.path);
    }
  };
  return {
    // `app.Action = run`, also on a value of a package the index does not hold (`cli.NewApp()`).
    assign(a: AssignFact, caller: FuncRef, ctx: Ctx) {
      if (a.lhs[0] !== 's' || a.index !== undefined) return;
      const [, x, name] = a.lhs;
      for (const rule of rules) {
        if (rule.fields.includes(name) && fromPackage(link, x, ctx, rule.package, undefined))
          register(rule.id, a.rhs, ctx, caller.pkg.path);
      }
    },
    call(site: CallSite) {
      const { call, ctx } = site;
      if (call.callee[0] !== 's') return;
      const [, operand, name] = call.callee;
      for (const rule of rules) {
        const registers = rule.register.includes(name);
        const run = rule.runBy.includes(name);
        if ((!registers && !run) || !fromPackage(link, operand, ctx, rule.package, site.primary))
          continue;
        if (run) {
          invokers.get(rule.id)!.push({
            caller: site.caller,
            line: call.line,
            col: call.col,
            expr: exprText(call.callee),
          });
        }
        const arg = registers ? call.args[rule.arg] : undefined;
        if (arg) register(rule.id, arg, ctx, site.caller.pkg.path);
      }
    },
    finish() {
      for (const rule of rules) {
        if (rule.fields.length > 0) registerLiterals(rule);
      }
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
