/**
 * Registries: a function that stores function values under string keys registers them; it
 * reaches them, and the key names them. Every shape Kubernetes' controller manager has had is
 * one of these:
 * - `map-register`: `controllers["replicaset"] = startReplicaSetController` (v1.10-v1.27), the key
 *   a literal or a string constant; and a call of a function that stores one parameter under
 *   another, `register(names.ReplicaSetController, startReplicaSetController)` with
 *   `register := func(name string, fn InitFunc) { controllers[name] = fn }` (v1.28);
 * - `registry-literal`: a composite literal of a descriptor type whose `key` field (its first
 *   word) names the function in its `values` fields (`&ControllerDescriptor{name: names.X,
 *   initFunc: startX}`, v1.29 on; `&cobra.Command{Use: "get [...]", Run: ...}`, kubectl's
 *   subcommands); `aliases` names a field listing more keys.
 * The edges go from the function that registers (or builds the descriptor), `via: map-register`,
 * with the key in their text: `controllers["replicaset"]`.
 */
import { underPackage } from '../../shared/go-symbol.js';
import type { AssignFact, CompositeFact, Expr } from '../../index/facts.js';
import { exprText } from '../calls.js';
import type { FuncRef } from '../model.js';
import type { Ctx } from '../type-checker.js';
import { typeKey, type GoType } from '../types.js';
import {
  frameworkEdges,
  valuesAt,
  type CallSite,
  type LinkContext,
  type RuleHandler,
  type RulesOf,
} from './handler.js';

const VIA = 'map-register';

export function mapRegisterHandler(rules: RulesOf<'map-register'>, link: LinkContext): RuleHandler {
  if (rules.length === 0) return {};
  const { model, types } = link;
  /** Functions storing parameter `value` into a map under parameter `key`. */
  const forwarders = new Map<number, { key: number; value: number; map: string }>();
  return {
    prepare() {
      for (const file of model.files) {
        for (const a of file.facts.assigns) {
          if (a.lhs[0] !== 'x' || a.lhs[2] === undefined || a.fn < 0) continue;
          const ctx: Ctx = { file, fn: a.fn, line: a.line };
          const key = paramIndex(link, keyExpr(a.lhs[2]), ctx);
          const value = paramIndex(link, a.rhs, ctx);
          const fn = model.funcs[file.funcIds[a.fn] ?? -1];
          if (fn && key !== undefined && value !== undefined)
            forwarders.set(fn.id, { key, value, map: exprText(a.lhs[1]) });
        }
      }
    },
    assign(a: AssignFact, caller: FuncRef, ctx: Ctx) {
      if (a.lhs[0] !== 'x' || a.lhs[2] === undefined) return;
      const key = types.constantString(keyExpr(a.lhs[2]), ctx);
      if (key === undefined) return;
      const at = { line: a.line, col: 0, expr: `${exprText(a.lhs[1])}[${JSON.stringify(key)}]` };
      frameworkEdges(link, caller, valuesAt(link, a.rhs, ctx, caller), VIA, at);
    },
    call(site: CallSite) {
      if (site.res.k !== 'targets') return;
      for (const t of site.res.targets) {
        const f = 'elem' in t.target ? undefined : forwarders.get(t.target.id);
        if (!f) continue;
        const keyArg = site.call.args[f.key];
        const valueArg = site.call.args[f.value];
        const key = keyArg ? types.constantString(keyArg, site.ctx) : undefined;
        if (key === undefined || !valueArg) continue;
        const at = {
          line: site.call.line,
          col: site.call.col,
          expr: `${f.map}[${JSON.stringify(key)}]`,
        };
        frameworkEdges(link, site.caller, valuesAt(link, valueArg, site.ctx, site.caller), VIA, at);
      }
    },
  };
}

export function registryLiteralHandler(
  rules: RulesOf<'registry-literal'>,
  link: LinkContext,
): RuleHandler {
  const { types } = link;
  return {
    composite(c: CompositeFact, caller: FuncRef, ctx: Ctx, type: GoType) {
      for (const rule of rules) {
        if (typeKey(type) !== rule.type) continue;
        const pkg = caller.pkg.path;
        if (rule.in && !rule.in.some((p) => underPackage(pkg, p))) continue;
        const field = (name: string) => c.fields.find(([k]) => k === name);
        const keyField = field(rule.key);
        const valueField = rule.values.map(field).find((f) => f !== undefined);
        if (!keyField || !valueField) continue;
        const keys = [types.constantString(keyField[1], ctx)?.split(/\s/)[0]];
        const aliases = rule.aliases ? field(rule.aliases) : undefined;
        if (aliases && aliases[1][0] === 'l')
          for (const e of aliases[1][3] ?? []) keys.push(types.constantString(e, ctx));
        const at = { ...ctx, line: valueField[2] };
        const values = valuesAt(link, valueField[1], at, caller);
        for (const key of new Set(keys)) {
          if (key === undefined) continue;
          frameworkEdges(link, caller, values, VIA, {
            line: valueField[2],
            col: 0,
            expr: `${rule.key}[${JSON.stringify(key)}]`,
          });
        }
      }
    },
  };
}

/** The index text of `m[k]` as an expression: a quoted literal, `names.X` or an identifier. */
function keyExpr(text: string): Expr {
  if (/^["`]/.test(text)) {
    try {
      return [
        'n',
        'string',
        text.startsWith('`') ? text.slice(1, -1) : (JSON.parse(text) as string),
      ];
    } catch {
      return ['?', text];
    }
  }
  const m = /^([\p{L}_][\p{L}\p{N}_]*)(?:\.([\p{L}_][\p{L}\p{N}_]*))?$/u.exec(text);
  if (!m) return ['?', text];
  return m[2] ? ['s', ['i', m[1]!], m[2], 0, 0] : ['i', m[1]!];
}

/** The index of the parameter of the function at ctx that `e` names, if it names one directly. */
function paramIndex(link: LinkContext, e: Expr, ctx: Ctx): number | undefined {
  if (e[0] !== 'i') return undefined;
  const b = link.types.resolveIdent(e[1], ctx);
  return b?.k === 'param' && b.fn === ctx.fn && b.index >= 0 ? b.index : undefined;
}
