/**
 * The link phase: every call site of the model resolved to its callees, with how each was found
 * (static, interface, funcvalue, closure, goroutine), plus the framework edges the rules add. The
 * result is plain rows for the store.
 */
import type { CallFact, Expr } from '../index/facts.js';
import type { EdgeInsert, SymbolInsert } from '../store/index-store.js';
import type { FuncRef, ProgramModel } from './model.js';
import { push, Resolver, type Ctx } from './resolver.js';
import type { FrameworkRule } from './rules.js';
import { deref, parseType, typeKey, type GoType } from './types.js';

export interface LinkResult {
  symbols: SymbolInsert[];
  edges: EdgeInsert[];
  details: { symbol: string; kind: string; payload: string }[];
  counts: Record<string, number>;
}

/**
 * The edges of one link, built as store rows straight away (one object an edge: a link of
 * Kubernetes makes ~330k of them). A callee outside the index is named by its symbol; its id is
 * given once every symbol of the index has one.
 */
class EdgeList {
  readonly rows: EdgeInsert[] = [];
  /**
   * Callees that are not functions of the index, by symbol: calls into unindexed packages and
   * interface methods called where the implementation is not known. Their symbol rows get ids
   * once every symbol of the index has one; `rows` are the edges waiting for it.
   */
  readonly deferred = new Map<string, { symbol: Omit<SymbolInsert, 'id'>; rows: number[] }>();
  framework = 0;

  add(
    caller: FuncRef,
    callee: FuncRef | AbstractMethod | string | null,
    kind: string,
    via: string | null,
    rank: number,
    line: number,
    col: number,
    expr: string | null,
  ): void {
    let id: number | null = null;
    if (typeof callee === 'string' || (callee && 'abstract' in callee)) {
      const key = typeof callee === 'string' ? callee : callee.symbol;
      const entry = this.deferred.get(key);
      if (entry) entry.rows.push(this.rows.length);
      else
        this.deferred.set(key, {
          symbol: typeof callee === 'string' ? externalSymbol(callee) : abstractSymbol(callee),
          rows: [this.rows.length],
        });
    } else if (callee) id = callee.id;
    if (kind === 'framework') this.framework++;
    this.rows.push({
      caller: caller.id,
      callee: id,
      kind,
      via,
      rank,
      file: caller.file.path,
      line,
      col,
      expr,
    });
  }
}

/** A function or method of a package the index does not hold. */
function externalSymbol(sym: string): Omit<SymbolInsert, 'id'> {
  const pkgPath = sym
    .replace(/^\(\*?/, '')
    .replace(/\)\.[^./]*$/, '')
    .replace(/\.[^./]*$/, '');
  return {
    symbol: sym,
    name: sym.slice(sym.lastIndexOf('.') + 1),
    kind: 'external',
    package: pkgPath,
    file: '',
    line: 0,
    endLine: 0,
    col: 0,
    detail: null,
    doc: null,
  };
}

function abstractSymbol(m: AbstractMethod): Omit<SymbolInsert, 'id'> {
  return {
    symbol: m.symbol,
    name: m.name,
    kind: 'imethod',
    package: m.pkg,
    file: m.file,
    line: m.line,
    endLine: m.line,
    col: m.col,
    detail: m.detail,
    doc: null,
  };
}

/** An interface's method as the callee of a dispatch no stored value decides. */
interface AbstractMethod {
  abstract: true;
  symbol: string;
  name: string;
  pkg: string;
  file: string;
  line: number;
  col: number;
  detail: string;
}

/** Bump when resolution changes what it produces, so unchanged trees are re-linked. */
export const LINK_VERSION = 18;

export function linkModel(model: ProgramModel, rules: readonly FrameworkRule[]): LinkResult {
  const r = new Resolver(model);
  r.collectStores();

  // Pass 1: what flows into parameters, from direct calls (function values passed as arguments).
  for (const file of model.files) {
    for (const call of file.facts.calls) {
      const ctx: Ctx = { file, fn: call.fn, line: call.line };
      for (const t of r.directCallees(call.callee, ctx)) r.recordArgs(t, call.args, ctx);
    }
  }

  const edges = new EdgeList();
  const callArgRules = new Map<string, string>();
  for (const rule of rules)
    if (rule.kind === 'call-arg') for (const f of rule.functions) callArgRules.set(f, rule.id);
  const argMethodRules = rules.filter((x) => x.kind === 'arg-methods');
  const queueRules = rules.filter((x) => x.kind === 'queue-handoff');
  const literalRules = rules.filter((x) => x.kind === 'literal-field');
  const mapRule = rules.find((x) => x.kind === 'map-register');
  // `invokedBy` of literal-field rules: calls that run the function values of such literals.
  const invokedByFunction = new Map<
    string,
    { rule: Extract<FrameworkRule, { kind: 'literal-field' }>; arg: number }[]
  >();
  const invokedByMethod = new Map<
    string,
    { rule: Extract<FrameworkRule, { kind: 'literal-field' }>; receiver: string; arg?: number }[]
  >();
  const collectors = new Map<string, string[]>();
  /** Packages of the functions literal-field rules name as invokers (`k8s.io/component-base/cli`). */
  const invokerPackages = new Set<string>();
  for (const rule of literalRules) {
    for (const inv of rule.invokedBy ?? []) {
      if ('function' in inv) {
        push(invokedByFunction, inv.function, { rule, arg: inv.arg });
        invokerPackages.add(inv.function.slice(0, inv.function.lastIndexOf('.')));
      } else
        push(invokedByMethod, inv.method, {
          rule,
          receiver: inv.receiver,
          ...(inv.arg !== undefined ? { arg: inv.arg } : {}),
        });
    }
    for (const c of rule.collects ?? []) push(collectors, c.method, c.receiver);
  }
  /** A receiver rule names a type (`pkg.T`) or a whole package (`pkg`). */
  const receiverMatches = (t: GoType, receiver: string) => {
    const base = deref(t);
    if (base.k !== 'named') return false;
    const key = typeKey(base);
    return key === receiver || base.pkg === receiver;
  };
  if (collectors.size > 0) {
    for (const file of model.files) {
      for (const call of file.facts.calls) {
        if (call.callee[0] !== 's' || !call.args[0]) continue;
        const receivers = collectors.get(call.callee[2]);
        if (!receivers) continue;
        const ctx: Ctx = { file, fn: call.fn, line: call.line };
        const t = r.typeOf(call.callee[1], ctx);
        if (receivers.some((rcv) => receiverMatches(t, rcv)))
          r.addCollected(call.callee[1], call.args[0], ctx);
      }
    }
  }
  const invoke = (
    rule: Extract<FrameworkRule, { kind: 'literal-field' }>,
    value: Expr,
    ctx: Ctx,
    base: { caller: FuncRef; line: number; col: number },
    callee: Expr,
  ) => {
    const seen = new Set<number>();
    for (const { lit, ctx: litCtx } of r.literalsReaching(value, ctx, rule.type)) {
      if (lit[0] !== 'l') continue;
      for (const [field, fieldValue] of lit[2]) {
        if (!rule.fields.includes(field)) continue;
        for (const t of r.funcTargets(fieldValue, litCtx)) {
          if (seen.has(t.fn.id)) continue;
          seen.add(t.fn.id);
          edges.add(
            base.caller,
            t.fn,
            'framework',
            rule.id,
            0,
            base.line,
            base.col,
            exprText(callee),
          );
        }
      }
    }
  };
  const queueProducers = new Map<
    string,
    { caller: FuncRef; line: number; col: number; rule: string; expr: string }[]
  >();
  const queueConsumers = new Map<string, Set<FuncRef>>();
  const counts: Record<string, number> = {
    calls: 0,
    resolved: 0,
    external: 0,
    unresolved: 0,
    builtin: 0,
  };

  for (const file of model.files) {
    for (const call of file.facts.calls) {
      if (call.fn < 0) continue;
      const caller = model.funcs[file.funcIds[call.fn] ?? -1];
      if (!caller) continue;
      counts.calls!++;
      const ctx: Ctx = { file, fn: call.fn, line: call.line };
      const res = resolveCall(r, call, ctx);
      const base = { caller, line: call.line, col: call.col };
      if (res.k === 'none') counts.builtin!++;
      else if (res.k === 'unresolved') {
        // A call on a value of unknown type that comes from an unindexed package names the package
        // (`via: external:<path>`), so views can fold it with that package's calls.
        if (res.externalPackage) counts.external!++;
        else counts.unresolved!++;
        edges.add(
          base.caller,
          null,
          'unresolved',
          res.externalPackage ? `external:${res.externalPackage}` : null,
          0,
          base.line,
          base.col,
          exprText(call.callee),
        );
      } else if (res.k === 'external') {
        counts.external!++;
        edges.add(
          base.caller,
          res.symbol,
          call.go ? 'goroutine' : 'static',
          call.defer ? 'defer' : null,
          0,
          base.line,
          base.col,
          null,
        );
      } else {
        counts.resolved!++;
        if (res.abstract)
          edges.add(
            base.caller,
            res.abstract,
            'interface',
            call.defer ? 'defer' : null,
            0,
            base.line,
            base.col,
            exprText(call.callee),
          );
        for (const t of res.targets) {
          edges.add(
            base.caller,
            t.fn,
            call.go && t.rank === 0 ? 'goroutine' : t.kind,
            call.defer ? 'defer' : null,
            t.rank,
            base.line,
            base.col,
            t.rank > 0 || t.kind !== 'static' ? exprText(call.callee) : null,
          );
        }
      }
      // Framework rules keyed by what the call resolved to.
      const primary =
        res.k === 'external'
          ? res.symbol
          : res.k === 'targets'
            ? res.targets[0]?.fn.symbol
            : undefined;
      const ruleId = primary ? callArgRules.get(primary) : undefined;
      if (ruleId) {
        // A wrapper the rules list (`Parallelizer.Until` calling `ParallelizeUntil`) only forwards
        // its parameter: its own callers' edges say what runs, and an edge from the wrapper would
        // fan in every function value any caller passes.
        const wrapper = callArgRules.has(caller.symbol);
        for (const arg of call.args) {
          if (wrapper && isParam(r, arg, ctx)) continue;
          for (const t of r.funcTargets(arg, ctx)) {
            edges.add(
              base.caller,
              t.fn,
              'framework',
              ruleId,
              0,
              base.line,
              base.col,
              exprText(call.callee),
            );
          }
        }
      }
      // A function the rules name as an invoker (`cli.Run`), and its package's helpers (`cli.run`,
      // which calls `cmd.Execute()`), only forward their parameter: the callers' edges say what
      // runs, and an edge from inside would fan in every command of the repository.
      const forwards = (value: Expr) =>
        (invokedByFunction.has(caller.symbol) || invokerPackages.has(caller.pkg.path)) &&
        isParam(r, value, ctx);
      for (const inv of primary ? (invokedByFunction.get(primary) ?? []) : []) {
        const arg = call.args[inv.arg];
        if (arg && !forwards(arg)) invoke(inv.rule, arg, ctx, base, call.callee);
      }
      if (call.callee[0] === 's') {
        const [, operand, name] = call.callee;
        for (const inv of invokedByMethod.get(name) ?? []) {
          if (!receiverMatches(r.typeOf(operand, ctx), inv.receiver)) continue;
          const value = inv.arg === undefined ? operand : call.args[inv.arg];
          if (value && !forwards(value)) invoke(inv.rule, value, ctx, base, call.callee);
        }
        for (const rule of argMethodRules) {
          if (!rule.calls.includes(name) || !fromPackage(r, operand, ctx, rule.package, primary))
            continue;
          const arg = call.args[rule.arg];
          if (!arg) continue;
          const types = [r.typeOf(arg, ctx), ...r.storedTypes(arg, ctx)];
          const seen = new Set<number>();
          for (const t of types) {
            for (const m of rule.methods) {
              const sel = r.select(t, m);
              if (sel?.k === 'method' && !seen.has(sel.fn.id)) {
                seen.add(sel.fn.id);
                edges.add(
                  base.caller,
                  sel.fn,
                  'framework',
                  rule.id,
                  0,
                  base.line,
                  base.col,
                  exprText(call.callee),
                );
              }
            }
          }
        }
        for (const rule of queueRules) {
          const produce = rule.produce.includes(name);
          const consume = rule.consume.includes(name);
          if ((!produce && !consume) || operand[0] !== 's') continue;
          const sel = r.select(r.typeOf(operand[1], ctx), operand[2]);
          if (sel?.k !== 'field') continue;
          const ft = deref(sel.type);
          if (ft.k !== 'named' || !ft.pkg.startsWith(rule.package)) continue;
          const key = `${sel.owner}.${operand[2]}`;
          if (produce)
            push(queueProducers, key, {
              caller,
              line: call.line,
              col: call.col,
              rule: rule.id,
              expr: exprText(call.callee),
            });
          if (consume) {
            let set = queueConsumers.get(key);
            if (!set) queueConsumers.set(key, (set = new Set()));
            set.add(caller);
          }
        }
      }
    }
    if (mapRule) {
      for (const a of file.facts.assigns) {
        if (a.lhs[0] !== 'x' || a.fn < 0 || a.lhs[2] === undefined || !/^["`]/.test(a.lhs[2]))
          continue;
        const caller = model.funcs[file.funcIds[a.fn] ?? -1];
        if (!caller) continue;
        const ctx: Ctx = { file, fn: a.fn, line: a.line };
        for (const t of r.funcTargets(a.rhs, ctx)) {
          edges.add(
            caller,
            t.fn,
            'framework',
            mapRule.id,
            0,
            a.line,
            0,
            `${exprText(a.lhs[1])}[${a.lhs[2]}]`,
          );
        }
      }
    }
    for (const c of file.facts.composites) {
      if (!c.type || c.fn < 0) continue;
      const caller = model.funcs[file.funcIds[c.fn] ?? -1];
      if (!caller) continue;
      const ctx: Ctx = { file, fn: c.fn, line: c.line };
      const t = deref(r.parse(c.type, r.scopeFor(ctx)));
      if (t.k !== 'named') continue;
      const key = typeKey(t);
      for (const rule of literalRules) {
        if (rule.type !== key) continue;
        for (const [field, value, line] of c.fields) {
          if (!rule.fields.includes(field)) continue;
          for (const target of r.funcTargets(value, { ...ctx, line })) {
            edges.add(caller, target.fn, 'framework', rule.id, 0, line, 0, `${t.name}.${field}`);
          }
        }
      }
    }
  }
  for (const [key, producers] of queueProducers) {
    for (const consumer of queueConsumers.get(key) ?? []) {
      for (const p of producers) {
        if (p.caller === consumer) continue;
        edges.add(p.caller, consumer, 'framework', p.rule, 0, p.line, p.col, p.expr);
      }
    }
  }
  return toRows(model, r, edges, counts);
}

type CallResolution =
  | {
      k: 'targets';
      targets: { fn: FuncRef; kind: string; rank: number }[];
      abstract?: AbstractMethod;
    }
  | { k: 'external'; symbol: string }
  | { k: 'unresolved'; externalPackage?: string }
  | { k: 'none' };

function resolveCall(r: Resolver, call: CallFact, ctx: Ctx): CallResolution {
  let callee: Expr = call.callee;
  while (callee[0] === 'g' || (callee[0] === 'u' && callee[1] === '*'))
    callee = callee[0] === 'g' ? callee[1] : callee[2];
  switch (callee[0]) {
    case 'f': {
      const ref = r.model.funcs[ctx.file.funcIds[callee[1]] ?? -1];
      return ref
        ? { k: 'targets', targets: [{ fn: ref, kind: 'closure', rank: 0 }] }
        : { k: 'unresolved' };
    }
    case 'i': {
      const b = r.resolveIdent(callee[1], ctx);
      if (!b) return { k: 'unresolved' };
      if (b.k === 'builtin' || b.k === 'type') return { k: 'none' };
      if (b.k === 'func')
        return { k: 'targets', targets: [{ fn: b.ref, kind: 'static', rank: 0 }] };
      const literalLocal = b.k === 'local';
      const targets = r.funcTargets(callee, ctx);
      if (targets.length === 0) {
        if (r.asType(callee, ctx)) return { k: 'none' };
        // `ctx, cancel := context.WithCancel(ctx); cancel()`: a function value from an unindexed package.
        const root = externalRoot(r, callee, ctx);
        return root ? { k: 'unresolved', externalPackage: root } : { k: 'unresolved' };
      }
      return {
        k: 'targets',
        targets: targets.map((t) => ({
          fn: t.fn,
          kind: t.literal && literalLocal ? 'closure' : 'funcvalue',
          rank: 0,
        })),
      };
    }
    case 's': {
      const [, x, name] = callee;
      if (x[0] === 'i') {
        const b = r.resolveIdent(x[1], ctx);
        if (b?.k === 'import') {
          const pkg = r.model.packages.get(b.path);
          if (!pkg) return { k: 'external', symbol: `${b.path}.${name}` };
          const fn = pkg.funcs.get(name);
          if (fn) return { k: 'targets', targets: [{ fn, kind: 'static', rank: 0 }] };
          if (pkg.types.has(name)) return { k: 'none' };
          const targets = r.funcTargets(callee, ctx);
          if (targets.length)
            return {
              k: 'targets',
              targets: targets.map((t) => ({ fn: t.fn, kind: 'funcvalue', rank: 0 })),
            };
          return { k: 'unresolved' };
        }
      }
      const xt = r.methodExpressionType(x, ctx) ?? r.typeOf(x, ctx);
      const sel = r.select(xt, name);
      if (sel?.k === 'method')
        return { k: 'targets', targets: [{ fn: sel.fn, kind: 'static', rank: 0 }] };
      if (sel?.k === 'imethod') {
        const targets = r.interfaceTargets(sel, x, ctx);
        if (targets.length === 0) {
          const it = deref(sel.iface);
          return it.k === 'named' && !r.model.packages.has(it.pkg)
            ? { k: 'external', symbol: `(${typeKey(it)}).${name}` }
            : { k: 'unresolved' };
        }
        const ranked = targets.map((t) => ({ fn: t.fn, kind: 'interface', rank: t.rank }));
        // No value known to be stored there and several implementations could be: the call is one of
        // the interface's method, not a guess among them; the implementations are its alternatives.
        if (targets.some((t) => t.rank === 0)) return { k: 'targets', targets: ranked };
        const abstract = abstractMethod(r, sel.iface, name);
        return abstract
          ? { k: 'targets', targets: ranked, abstract }
          : { k: 'targets', targets: ranked };
      }
      if (sel?.k === 'field') {
        const targets = r.funcTargets(callee, ctx);
        if (targets.length)
          return {
            k: 'targets',
            targets: targets.map((t) => ({ fn: t.fn, kind: 'funcvalue', rank: 0 })),
          };
        return { k: 'unresolved' };
      }
      const base = deref(xt);
      if (base.k === 'named' && base.pkg !== '' && !r.model.packages.has(base.pkg)) {
        return { k: 'external', symbol: `(${typeKey(xt)}).${name}` };
      }
      if (base.k === 'named' && base.pkg === '') return { k: 'none' };
      const root = externalRoot(r, x, ctx);
      return root ? { k: 'unresolved', externalPackage: root } : { k: 'unresolved' };
    }
    case 'c': {
      const targets = r.funcTargets(callee, ctx);
      return targets.length
        ? { k: 'targets', targets: targets.map((t) => ({ fn: t.fn, kind: 'funcvalue', rank: 0 })) }
        : { k: 'unresolved' };
    }
    default:
      return r.asType(callee, ctx) ? { k: 'none' } : { k: 'unresolved' };
  }
}

/**
 * Import path of an unindexed package an expression chain starts from (`klog.V(2).InfoS`), also
 * through locals bound to such chains (`klogV := klog.V(2); klogV.InfoS(...)`).
 */
function externalRoot(r: Resolver, expr: Expr, ctx: Ctx, depth = 0): string | undefined {
  let e: Expr = expr;
  for (let i = 0; i < 20; i++) {
    if (e[0] === 's') e = e[1];
    else if (e[0] === 'c' || e[0] === 'x' || e[0] === 'g' || e[0] === 'sl') e = e[1];
    else if (e[0] === 'u') e = e[2];
    else break;
  }
  if (e[0] !== 'i') return undefined;
  const b = r.resolveIdent(e[1], ctx);
  if (b?.k === 'import' && !r.model.packages.has(b.path)) return b.path;
  if (b?.k === 'local' || b?.k === 'param' || b?.k === 'value') {
    const t = deref(r.typeOfBinding(b));
    if (t.k === 'named' && t.pkg !== '' && !r.model.packages.has(t.pkg)) return t.pkg;
    if (b.k === 'local' && b.local.value && depth < 4) {
      return externalRoot(
        r,
        b.local.value,
        { file: b.file, fn: b.local.fn, line: b.local.line },
        depth + 1,
      );
    }
  }
  return undefined;
}

/** Whether a method call's operand comes from a package under `prefix` (indexed or not). */
function fromPackage(
  r: Resolver,
  operand: Expr,
  ctx: Ctx,
  prefix: string,
  primary: string | undefined,
): boolean {
  if (primary?.replace(/^\(\*?/, '').startsWith(prefix)) return true;
  const t = deref(r.typeOf(operand, ctx));
  if (t.k === 'named' && t.pkg.startsWith(prefix)) return true;
  return externalRoot(r, operand, ctx)?.startsWith(prefix) ?? false;
}

export function exprText(e: Expr, depth = 0): string {
  if (depth > 8) return '…';
  switch (e[0]) {
    case 'i':
      return e[1];
    case 's':
      return `${exprText(e[1], depth + 1)}.${e[2]}`;
    case 'c':
      return `${exprText(e[1], depth + 1)}(${e[2].length ? '…' : ''})`;
    case 'l':
      return `${e[1] ?? ''}{…}`;
    case 'f':
      return 'func(){…}';
    case 'u':
      return `${e[1]}${exprText(e[2], depth + 1)}`;
    case 'x':
      return `${exprText(e[1], depth + 1)}[${e[2] ?? '…'}]`;
    case 'g':
      return `${exprText(e[1], depth + 1)}[${e[2].join(', ')}]`;
    case 'sl':
      return `${exprText(e[1], depth + 1)}[:]`;
    case 'a':
      return `${exprText(e[1], depth + 1)}.(${e[2] ?? 'type'})`;
    case 'n':
      return e[1];
    case 'b':
      return `${exprText(e[2], depth + 1)} ${e[1]} ${exprText(e[3], depth + 1)}`;
    case '?':
      return e[1];
  }
}

function toRows(
  model: ProgramModel,
  r: Resolver,
  list: EdgeList,
  counts: Record<string, number>,
): LinkResult {
  const symbols: SymbolInsert[] = [];
  for (const f of model.funcs) {
    symbols.push({
      id: f.id,
      symbol: f.symbol,
      name: f.fact.kind === 'lit' ? f.symbol.slice(f.symbol.lastIndexOf('.') + 1) : f.fact.name,
      kind: f.fact.kind === 'lit' ? 'closure' : f.fact.kind,
      package: f.pkg.path,
      file: f.file.path,
      line: f.fact.line,
      endLine: f.fact.endLine,
      col: f.fact.col,
      detail: signature(f),
      doc: f.fact.doc ?? null,
    });
  }
  let nextId = model.funcs.length;
  const details: LinkResult['details'] = [];
  for (const pkg of model.packages.values()) {
    for (const decl of pkg.types.values()) {
      const f = decl.fact;
      symbols.push({
        id: nextId++,
        symbol: decl.symbol,
        name: decl.name,
        kind: f.kind === 'struct' ? 'struct' : f.kind === 'interface' ? 'interface' : 'type',
        package: pkg.path,
        file: decl.file.path,
        line: f.line,
        endLine: f.endLine,
        col: f.col,
        detail:
          f.kind === 'named' || f.kind === 'alias'
            ? `${f.kind === 'alias' ? '= ' : ''}${f.underlying ?? ''}`
            : f.kind,
        doc: f.doc ?? null,
      });
      const named: GoType = { k: 'named', pkg: pkg.path, name: decl.name };
      if (f.kind === 'struct') {
        details.push({
          symbol: decl.symbol,
          kind: 'struct',
          payload: JSON.stringify({
            fields: (f.fields ?? []).map((fl) => {
              const t = parseType(fl.type, decl.file.scope);
              const base = deref(t);
              return {
                name: fl.name ?? (base.k === 'named' ? base.name : fl.type.replace(/^\*/, '')),
                type: fl.type,
                embedded: fl.name === null,
                typeSymbol: base.k === 'named' && base.pkg ? typeKey(base) : null,
                line: fl.line,
              };
            }),
            methods: [...(pkg.methods.get(decl.name)?.values() ?? [])].map((m) => m.symbol).sort(),
          }),
        });
      } else if (f.kind === 'interface') {
        const impls = r.implementations(named).map(typeKey);
        details.push({
          symbol: decl.symbol,
          kind: 'interface',
          payload: JSON.stringify({
            methods: [...r.interfaceMethods(named).keys()].sort(),
            embeds: f.embeds ?? [],
            implementations: impls,
          }),
        });
      } else {
        const methods = [...(pkg.methods.get(decl.name)?.values() ?? [])]
          .map((m) => m.symbol)
          .sort();
        details.push({
          symbol: decl.symbol,
          kind: 'type',
          payload: JSON.stringify({ underlying: f.underlying ?? null, methods }),
        });
      }
    }
    for (const v of pkg.values.values()) {
      symbols.push({
        id: nextId++,
        symbol: v.symbol,
        name: v.fact.name,
        kind: v.fact.const ? 'const' : 'var',
        package: pkg.path,
        file: v.file.path,
        line: v.fact.line,
        endLine: v.fact.line,
        col: v.fact.col,
        detail: v.fact.type ?? null,
        doc: v.fact.doc ?? null,
      });
    }
  }
  // Who stores what into each field (for `assigns` and interface ranking explanations).
  for (const [key, sources] of r.fieldSources) {
    details.push({
      symbol: key,
      kind: 'assigns',
      payload: JSON.stringify(
        sources.slice(0, 200).map((s) => {
          const fnRef = s.ctx.fn >= 0 ? model.funcs[s.ctx.file.funcIds[s.ctx.fn] ?? -1] : undefined;
          const t = r.typeOf(s.expr, s.ctx);
          return {
            file: s.ctx.file.path,
            line: s.ctx.line,
            expr: exprText(s.expr),
            in: fnRef?.symbol ?? null,
            type: t.k === 'unknown' ? null : typeKey(t),
          };
        }),
      ),
    });
  }
  const edges = list.rows;
  // Calls into unindexed packages first, then interface methods (the order ids had before).
  const deferred = [...list.deferred.values()];
  for (const { symbol, rows } of [
    ...deferred.filter((d) => d.symbol.kind === 'external'),
    ...deferred.filter((d) => d.symbol.kind !== 'external'),
  ]) {
    const id = nextId++;
    symbols.push({ id, ...symbol });
    for (const i of rows) edges[i]!.callee = id;
  }
  counts.edges = edges.length;
  counts.frameworkEdges = list.framework;
  return { symbols, edges, details, counts };
}

/** Whether a value is one of its function's parameters, as written (`cmd`, not `cmd.Root()`). */
function isParam(r: Resolver, value: Expr, ctx: Ctx): boolean {
  return value[0] === 'i' && r.resolveIdent(value[1], ctx)?.k === 'param';
}

/** The interface method a call names, as a symbol `(pkg.Iface).Name` at its declaration. */
function abstractMethod(r: Resolver, iface: GoType, name: string): AbstractMethod | undefined {
  const t = deref(iface);
  if (t.k !== 'named') return undefined;
  const found = r.interfaceMethodDecl(t, name);
  if (!found) return undefined;
  const { decl, method } = found;
  return {
    abstract: true,
    symbol: `(${typeKey(t)}).${name}`,
    name,
    pkg: t.pkg,
    file: decl.file.path,
    line: method.line,
    col: 0,
    detail: signatureText(method.params, method.results),
  };
}

function signature(f: FuncRef): string {
  return signatureText(f.fact.params, f.fact.results);
}

function signatureText(
  paramList: readonly (readonly [string | null, string])[],
  resultList: readonly (readonly [string | null, string])[],
): string {
  const params = paramList.map(([n, t]) => (n ? `${n} ${t}` : t)).join(', ');
  const results = resultList.map(([n, t]) => (n ? `${n} ${t}` : t));
  const res =
    results.length === 0
      ? ''
      : results.length === 1 && !resultList[0]![0]
        ? ` ${results[0]}`
        : ` (${results.join(', ')})`;
  return `func(${params})${res}`;
}
