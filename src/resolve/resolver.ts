/**
 * Static resolution without a Go toolchain: the static type of an operand (receivers, parameters,
 * locals, composite literals, constructor results, multi-value returns, assertions, range,
 * selector chains, embedded promotion), the targets of function values (fields, variables,
 * parameters fed by call sites, returned closures) and the implementations behind an interface
 * call, ranked by what is actually stored into the field or variable.
 */
import type { CallFact, Expr, LocalFact, TypeFact } from '../index/facts.js';
import type { FileModel, FuncRef, ProgramModel, TypeDecl, ValueDecl } from './model.js';
import { localsOf } from './model.js';
import {
  builtin,
  deref,
  isBuiltinType,
  parseType,
  typeKey,
  UNKNOWN,
  type GoType,
  type TypeScope,
} from './types.js';

/** Where an expression sits: its file, enclosing function (facts index, -1 at package level), line. */
export interface Ctx {
  file: FileModel;
  fn: number;
  line: number;
}

export type Binding =
  | { k: 'local'; local: LocalFact; file: FileModel }
  | { k: 'param'; file: FileModel; fn: number; index: number; type: string }
  | { k: 'recv'; file: FileModel; fn: number }
  | { k: 'value'; decl: ValueDecl }
  | { k: 'func'; ref: FuncRef }
  | { k: 'type'; type: GoType }
  | { k: 'import'; path: string }
  | { k: 'builtin'; name: string };

export type Selection =
  | { k: 'method'; fn: FuncRef; depth: number }
  | { k: 'imethod'; iface: GoType; name: string; depth: number; embeddedIn?: string }
  | { k: 'field'; type: GoType; owner: string; name: string; depth: number };

const BUILTIN_FUNCS = new Set([
  'append',
  'cap',
  'clear',
  'close',
  'complex',
  'copy',
  'delete',
  'imag',
  'len',
  'make',
  'max',
  'min',
  'new',
  'panic',
  'print',
  'println',
  'real',
  'recover',
]);

export interface SourceRef {
  expr: Expr;
  ctx: Ctx;
  index?: number;
}

/** Beyond this many targets a function value or interface call is reported, not expanded. */
export const MAX_TARGETS = 40;

/** Flow steps look at this many sources of one value (a helper called from 5,000 places has 5,000). */
export const MAX_SOURCES = 64;

/** Interface calls keep this many lower-ranked implementations as alternatives. */
export const MAX_ALTERNATIVES = 5;

export class Resolver {
  private readonly typeMemo = new WeakMap<object, GoType>();
  private readonly funcTargetsMemo = new WeakMap<object, { fn: FuncRef; literal: boolean }[]>();
  private readonly storedMemo = new WeakMap<object, GoType[]>();
  private readonly parseMemo = new WeakMap<TypeScope, Map<string, GoType>>();
  private readonly ifaceMemo = new Map<string, Map<string, MethodShape>>();
  private readonly shapeMemo = new Map<number, string>();
  private readonly callsByLine = new Map<FileModel, Map<string, CallFact[]>>();
  private readonly scopeMemo = new WeakMap<FileModel, Map<number, TypeScope>>();
  /** pkg -> type name -> member -> selection (null: none), for named types. */
  private readonly selectMemo = new Map<string, Map<string, Map<string, Selection | null>>>();
  private readonly inProgress = new WeakSet<object>();
  private readonly underlyingMemo = new Map<string, GoType>();
  private methodIndex: Map<string, Set<string>> | undefined;
  private readonly implMemo = new Map<string, GoType[]>();
  /** `struct symbol.field` -> what is stored into it (assignments and keyed literals). */
  readonly fieldSources = new Map<string, SourceRef[]>();
  /** Package-level variable symbol -> assignments to it. */
  readonly valueSources = new Map<string, SourceRef[]>();
  /** function id -> parameter index -> arguments passed at resolved call sites. */
  readonly argSources = new Map<number, Map<number, SourceRef[]>>();
  /** Local assignments `v = expr` by file, enclosing function and name. */
  private readonly localAssigns = new Map<FileModel, Map<string, SourceRef[]>>();
  /** Element stores `m[k] = v` into locals and parameters, by file and binding. */
  private readonly elementAssigns = new Map<FileModel, Map<string, SourceRef[]>>();
  private elementDepth = 0;
  private readonly elementActive = new Set<object>();
  /** Element stores into package-level variables (registries: `plugins[name] = factory`). */
  private readonly valueElementAssigns = new Map<string, SourceRef[]>();

  constructor(readonly model: ProgramModel) {}

  // ---------------------------------------------------------------- names and scopes

  funcCtx(ref: FuncRef): Ctx {
    return { file: ref.file, fn: ref.index, line: ref.fact.line };
  }

  /** Type text parsed once per scope (most scopes are a file's; the text repeats a lot). */
  parse(text: string, scope: TypeScope): GoType {
    let memo = this.parseMemo.get(scope);
    if (!memo) this.parseMemo.set(scope, (memo = new Map()));
    let t = memo.get(text);
    if (!t) memo.set(text, (t = parseType(text, scope)));
    return t;
  }

  scopeFor(ctx: Ctx): TypeScope {
    // Type parameters of the enclosing generic function (and its receiver) are in scope.
    let fn = ctx.fn;
    let names: Set<string> | undefined;
    while (fn >= 0) {
      const f = ctx.file.facts.funcs[fn];
      if (!f) break;
      for (const [n] of f.typeParams ?? []) if (n) (names ??= new Set()).add(n);
      for (const a of f.recv?.typeArgs ?? []) (names ??= new Set()).add(a);
      fn = f.kind === 'lit' ? (f.parent ?? -1) : -1;
    }
    if (!names) return ctx.file.scope;
    let byFn = this.scopeMemo.get(ctx.file);
    if (!byFn) this.scopeMemo.set(ctx.file, (byFn = new Map()));
    let scope = byFn.get(ctx.fn);
    if (!scope) byFn.set(ctx.fn, (scope = { ...ctx.file.scope, typeParams: names }));
    return scope;
  }

  resolveIdent(name: string, ctx: Ctx): Binding | undefined {
    const file = ctx.file;
    let fn = ctx.fn;
    while (fn >= 0) {
      const f = file.facts.funcs[fn];
      if (!f) break;
      const candidates = localsOf(file, fn)?.get(name);
      if (candidates) {
        let best: LocalFact | undefined;
        for (const c of candidates)
          if (c.line <= ctx.line && (!best || c.line >= best.line)) best = c;
        if (best) return { k: 'local', local: best, file };
      }
      const pi = f.params.findIndex(([n]) => n === name);
      if (pi >= 0) return { k: 'param', file, fn, index: pi, type: f.params[pi]![1] };
      const ri = f.results.findIndex(([n]) => n === name);
      if (ri >= 0) return { k: 'param', file, fn, index: -1 - ri, type: f.results[ri]![1] };
      if (f.recv?.name === name) return { k: 'recv', file, fn };
      if (candidates?.[0]) return { k: 'local', local: candidates[0], file };
      fn = f.kind === 'lit' ? (f.parent ?? -1) : -1;
    }
    const pkg = file.pkg;
    const value = pkg.values.get(name);
    if (value) return { k: 'value', decl: value };
    const func = pkg.funcs.get(name);
    if (func) return { k: 'func', ref: func };
    if (pkg.types.has(name)) return { k: 'type', type: { k: 'named', pkg: pkg.path, name } };
    const imp = file.imports.get(name);
    if (imp !== undefined) return { k: 'import', path: imp };
    if (BUILTIN_FUNCS.has(name)) return { k: 'builtin', name };
    if (isBuiltinType(name)) return { k: 'type', type: builtin(name) };
    return undefined;
  }

  // ---------------------------------------------------------------- types of expressions

  typeOf(expr: Expr, ctx: Ctx): GoType {
    const memo = this.typeMemo.get(expr);
    if (memo) return memo;
    if (this.inProgress.has(expr)) return UNKNOWN;
    this.inProgress.add(expr);
    const t = this.computeType(expr, ctx);
    this.inProgress.delete(expr);
    this.typeMemo.set(expr, t);
    return t;
  }

  private computeType(expr: Expr, ctx: Ctx): GoType {
    switch (expr[0]) {
      case 'i': {
        const b = this.resolveIdent(expr[1], ctx);
        return b ? this.typeOfBinding(b) : UNKNOWN;
      }
      case 's': {
        const [, x, name] = expr;
        if (x[0] === 'i') {
          const b = this.resolveIdent(x[1], ctx);
          if (b?.k === 'import') return this.typeOfQualified(b.path, name);
        }
        const sel = this.select(this.methodExpressionType(x, ctx) ?? this.typeOf(x, ctx), name);
        if (!sel) return UNKNOWN;
        if (sel.k === 'field') return sel.type;
        if (sel.k === 'method') return this.funcType(sel.fn);
        return this.interfaceMethodType(sel.iface, name);
      }
      case 'c': {
        const [, callee, args] = expr;
        const b = callee[0] === 'i' ? this.resolveIdent(callee[1], ctx) : undefined;
        if (b?.k === 'builtin') {
          const first = args[0];
          if (b.name === 'new' && first?.[0] === '?')
            return { k: 'ptr', elem: this.parse(first[1], this.scopeFor(ctx)) };
          if (b.name === 'make' && first?.[0] === '?')
            return this.parse(first[1], this.scopeFor(ctx));
          if (b.name === 'append' && first) return this.typeOf(first, ctx);
          if (b.name === 'len' || b.name === 'cap' || b.name === 'copy') return builtin('int');
          if (b.name === 'recover') return builtin('any');
          return UNKNOWN;
        }
        const conversion = this.asType(callee, ctx);
        if (conversion) return conversion;
        const ft = this.typeOf(callee, ctx);
        if (ft.k !== 'func') return UNKNOWN;
        if (ft.results.length === 1) return ft.results[0]!;
        return ft.results.length === 0 ? UNKNOWN : { k: 'tuple', items: ft.results };
      }
      case 'l':
        return expr[1] === null ? UNKNOWN : this.parse(expr[1], this.scopeFor(ctx));
      case 'f': {
        const ref = this.model.funcs[ctx.file.funcIds[expr[1]] ?? -1];
        return ref ? this.funcType(ref) : UNKNOWN;
      }
      case 'u': {
        const inner = this.typeOf(expr[2], ctx);
        if (expr[1] === '&') return inner.k === 'unknown' ? inner : { k: 'ptr', elem: inner };
        if (expr[1] === '*') return inner.k === 'ptr' ? inner.elem : UNKNOWN;
        if (expr[1] === '<-')
          return this.underlying(inner).k === 'chan'
            ? (this.underlying(inner) as { elem: GoType }).elem
            : UNKNOWN;
        if (expr[1] === '!') return builtin('bool');
        return inner;
      }
      case 'x': {
        const u = this.underlying(deref(this.typeOf(expr[1], ctx)));
        if (u.k === 'slice' || u.k === 'map') return u.elem;
        if (u.k === 'named' && u.name === 'string') return builtin('byte');
        return UNKNOWN;
      }
      case 'g':
      case 'sl':
        return this.typeOf(expr[1], ctx);
      case 'a':
        return expr[2] === null ? UNKNOWN : this.parse(expr[2], this.scopeFor(ctx));
      case 'n':
        return expr[1] === 'nil' ? UNKNOWN : builtin(expr[1]);
      case 'b': {
        if (['==', '!=', '<', '<=', '>', '>=', '&&', '||'].includes(expr[1]))
          return builtin('bool');
        return this.typeOf(expr[2], ctx);
      }
      default:
        return UNKNOWN;
    }
  }

  /** The type in a method expression `(*T).M` / `T.M` / `pkg.T.M`, or undefined. */
  methodExpressionType(x: Expr, ctx: Ctx): GoType | undefined {
    if (x[0] === 'u' && x[1] === '*') {
      const t = this.asType(x[2], ctx);
      return t ? { k: 'ptr', elem: t } : undefined;
    }
    return this.asType(x, ctx);
  }

  /** `T` or `pkg.T` used as a value (a conversion `T(x)`), or undefined. */
  asType(expr: Expr, ctx: Ctx): GoType | undefined {
    if (expr[0] === 'i') {
      const b = this.resolveIdent(expr[1], ctx);
      return b?.k === 'type' ? b.type : undefined;
    }
    if (expr[0] === 's' && expr[1][0] === 'i') {
      const b = this.resolveIdent(expr[1][1], ctx);
      if (b?.k !== 'import') return undefined;
      const pkg = this.model.packages.get(b.path);
      if (pkg?.types.has(expr[2])) return { k: 'named', pkg: b.path, name: expr[2] };
      return undefined;
    }
    if (expr[0] === '?' && expr[1].startsWith('type:'))
      return parseType(expr[1].slice(5), this.scopeFor(ctx));
    if (expr[0] === 'g') return this.asType(expr[1], ctx);
    return undefined;
  }

  private typeOfQualified(pkgPath: string, name: string): GoType {
    const pkg = this.model.packages.get(pkgPath);
    if (!pkg) return UNKNOWN;
    const value = pkg.values.get(name);
    if (value) return this.typeOfValue(value);
    const func = pkg.funcs.get(name);
    if (func) return this.funcType(func);
    return UNKNOWN;
  }

  typeOfBinding(b: Binding): GoType {
    switch (b.k) {
      case 'local':
        return this.typeOfLocal(b.local, b.file);
      case 'param': {
        const t = this.parse(b.type, this.scopeFor({ file: b.file, fn: b.fn, line: 0 }));
        return t;
      }
      case 'recv': {
        const f = b.file.facts.funcs[b.fn];
        if (!f?.recv) return UNKNOWN;
        const named: GoType = { k: 'named', pkg: b.file.pkg.path, name: f.recv.type };
        return f.recv.ptr ? { k: 'ptr', elem: named } : named;
      }
      case 'value':
        return this.typeOfValue(b.decl);
      case 'func':
        return this.funcType(b.ref);
      default:
        return UNKNOWN;
    }
  }

  private typeOfValue(decl: ValueDecl): GoType {
    const memo = this.typeMemo.get(decl.fact);
    if (memo) return memo;
    const ctx: Ctx = { file: decl.file, fn: -1, line: decl.fact.line };
    let t: GoType = UNKNOWN;
    if (!this.inProgress.has(decl.fact)) {
      this.inProgress.add(decl.fact);
      if (decl.fact.type) t = this.parse(decl.fact.type, ctx.file.scope);
      else if (decl.fact.value) t = pick(this.typeOf(decl.fact.value, ctx), decl.fact.index);
      this.inProgress.delete(decl.fact);
    }
    this.typeMemo.set(decl.fact, t);
    return t;
  }

  typeOfLocal(local: LocalFact, file: FileModel): GoType {
    const memo = this.typeMemo.get(local);
    if (memo) return memo;
    if (this.inProgress.has(local)) return UNKNOWN;
    this.inProgress.add(local);
    const ctx: Ctx = { file, fn: local.fn, line: local.line };
    let t: GoType = UNKNOWN;
    if (local.type) t = this.parse(local.type, this.scopeFor(ctx));
    else if (local.value) {
      const v = local.value;
      const vt = this.typeOf(v, ctx);
      if (local.range) {
        const u = this.underlying(deref(vt));
        if (u.k === 'slice') t = local.index === 0 ? builtin('int') : u.elem;
        else if (u.k === 'map') t = local.index === 0 ? u.key : u.elem;
        else if (u.k === 'chan') t = local.index === 0 ? u.elem : UNKNOWN;
        else if (u.k === 'named' && u.name === 'string')
          t = local.index === 0 ? builtin('int') : builtin('rune');
        else if (u.k === 'named' && u.name === 'int') t = builtin('int');
      } else if (local.index !== undefined) {
        // `v, ok := x.(T)`, `v, ok := m[k]`, `v, ok := <-ch`: the second value is a bool.
        if (vt.k === 'tuple') t = vt.items[local.index] ?? UNKNOWN;
        else if (v[0] === 'a' || v[0] === 'x' || (v[0] === 'u' && v[1] === '<-'))
          t = local.index === 0 ? vt : builtin('bool');
      } else t = vt.k === 'tuple' ? (vt.items[0] ?? UNKNOWN) : vt;
    }
    this.inProgress.delete(local);
    this.typeMemo.set(local, t);
    return t;
  }

  funcType(ref: FuncRef): GoType {
    const memo = this.typeMemo.get(ref.fact);
    if (memo) return memo;
    const scope = this.scopeFor(this.funcCtx(ref));
    const t: GoType = {
      k: 'func',
      params: ref.fact.params.map(([, text]) => this.parse(text, scope)),
      results: ref.fact.results.map(([, text]) => this.parse(text, scope)),
      ...(ref.fact.variadic ? { variadic: true } : {}),
    };
    this.typeMemo.set(ref.fact, t);
    return t;
  }

  // ---------------------------------------------------------------- declarations and selectors

  typeDecl(t: GoType): TypeDecl | undefined {
    if (t.k !== 'named') return undefined;
    return this.model.packages.get(t.pkg)?.types.get(t.name);
  }

  /** The underlying type: struct, interface, map, func... (named types followed, aliases too). */
  underlying(t: GoType, depth = 0): GoType {
    if (t.k !== 'named' || depth > 10) return t;
    const key = t.args ? typeKey(t) : `${t.pkg}\u0000${t.name}`;
    const memo = this.underlyingMemo.get(key);
    if (memo) return memo;
    const decl = this.typeDecl(t);
    let u: GoType = t;
    if (decl) {
      const scope = decl.file.scope;
      const f = decl.fact;
      const tpScope = f.typeParams
        ? { ...scope, typeParams: new Set(f.typeParams.map(([n]) => n ?? '')) }
        : scope;
      if (f.kind === 'struct')
        u = {
          k: 'struct',
          fields: (f.fields ?? []).map((fl) => ({
            name: fl.name,
            type: this.parse(fl.type, tpScope),
          })),
        };
      else if (f.kind === 'interface')
        u = { k: 'iface', methods: (f.methods ?? []).map((m) => m.name) };
      else if (f.underlying) u = this.underlying(parseType(f.underlying, tpScope), depth + 1);
    }
    this.underlyingMemo.set(key, u);
    return u;
  }

  isInterface(t: GoType): boolean {
    return (
      this.underlying(t).k === 'iface' ||
      (t.k === 'named' && t.pkg === '' && (t.name === 'error' || t.name === 'any'))
    );
  }

  /**
   * Finds field or method `name` of a value of type `t`: declared methods, then fields and
   * methods promoted through embedded fields, breadth first (the shallowest depth wins, as the Go
   * spec says).
   */
  select(t: GoType, name: string): Selection | undefined {
    const base = deref(t);
    if (base.k !== 'named' || base.args) return this.selectUncached(base, name);
    let byName = this.selectMemo.get(base.pkg);
    if (!byName) this.selectMemo.set(base.pkg, (byName = new Map()));
    let byMember = byName.get(base.name);
    if (!byMember) byName.set(base.name, (byMember = new Map()));
    const hit = byMember.get(name);
    if (hit !== undefined) return hit ?? undefined;
    const sel = this.selectUncached(base, name);
    byMember.set(name, sel ?? null);
    return sel;
  }

  private selectUncached(t: GoType, name: string): Selection | undefined {
    let level: GoType[] = [deref(t)];
    // For a type reached through an embedded field: `owner.field` of that field.
    const reachedVia = new Map<GoType, string>();
    const seen = new Set<string>();
    for (let depth = 0; depth < 6 && level.length > 0; depth++) {
      const next: GoType[] = [];
      for (const cur of level) {
        const key = typeKey(cur);
        if (seen.has(key)) continue;
        seen.add(key);
        if (cur.k === 'named') {
          const method = this.model.packages.get(cur.pkg)?.methods.get(cur.name)?.get(name);
          if (method) return { k: 'method', fn: method, depth };
        }
        const u = this.underlying(cur);
        if (u.k === 'iface') {
          if (this.interfaceMethods(cur).has(name)) {
            const via = reachedVia.get(cur);
            return { k: 'imethod', iface: cur, name, depth, ...(via ? { embeddedIn: via } : {}) };
          }
          continue;
        }
        if (u.k !== 'struct') continue;
        for (const field of u.fields) {
          if (field.name === name)
            return { k: 'field', type: field.type, owner: typeKey(cur), name, depth };
          if (field.name === null) {
            const embedded = deref(field.type);
            const fieldName = embedded.k === 'named' ? embedded.name : '';
            if (embedded.k === 'named' && embedded.name === name) {
              return { k: 'field', type: field.type, owner: typeKey(cur), name, depth };
            }
            reachedVia.set(embedded, `${typeKey(cur)}.${fieldName}`);
            next.push(embedded);
          }
        }
      }
      level = next;
    }
    return undefined;
  }

  /** Method names of an interface, embedded interfaces included, with their signatures' shapes. */
  interfaceMethods(t: GoType, depth = 0): Map<string, MethodShape> {
    if (t.k !== 'named' || depth > 0) return this.interfaceMethodsUncached(t, depth);
    const key = `${t.pkg}\u0000${t.name}`;
    let memo = this.ifaceMemo.get(key);
    if (!memo) this.ifaceMemo.set(key, (memo = this.interfaceMethodsUncached(t, depth)));
    return memo;
  }

  private interfaceMethodsUncached(t: GoType, depth: number): Map<string, MethodShape> {
    const out = new Map<string, MethodShape>();
    if (depth > 8) return out;
    if (t.k === 'iface') {
      for (const m of t.methods) out.set(m, { params: -1, shape: null });
      return out;
    }
    const decl = this.typeDecl(t);
    if (!decl || decl.fact.kind !== 'interface') {
      if (decl?.fact.kind === 'alias' || decl?.fact.kind === 'named') {
        const target = parseType(decl.fact.underlying ?? '', decl.file.scope);
        return this.interfaceMethods(target, depth + 1);
      }
      return out;
    }
    // A generic interface's methods mention its type parameters: only their arity is compared.
    const generic = (decl.fact.typeParams?.length ?? 0) > 0;
    for (const m of decl.fact.methods ?? [])
      out.set(m.name, {
        params: m.params.length,
        shape: generic ? null : signatureShape(m.params, m.results, decl.file.scope),
      });
    for (const e of decl.fact.embeds ?? []) {
      for (const [n, c] of this.interfaceMethods(parseType(e, decl.file.scope), depth + 1))
        if (!out.has(n)) out.set(n, c);
    }
    return out;
  }

  /** The signature of an interface's method (embedded interfaces searched), as a func type. */
  interfaceMethodType(t: GoType, name: string): GoType {
    const found = this.interfaceMethodDecl(t, name);
    if (!found) return UNKNOWN;
    const scope = found.decl.file.scope;
    return {
      k: 'func',
      params: found.method.params.map(([, text]) => parseType(text, scope)),
      results: found.method.results.map(([, text]) => parseType(text, scope)),
    };
  }

  /**
   * Concrete named types whose method set (of the pointer type, which holds every method)
   * includes all of the interface's methods, by name and signature (parameter and result types).
   */
  implementations(iface: GoType): GoType[] {
    const key = typeKey(iface);
    const memo = this.implMemo.get(key);
    if (memo) return memo;
    const methods = this.interfaceMethods(iface);
    const result: GoType[] = [];
    if (methods.size > 0) {
      const index = this.buildMethodIndex();
      let candidates: Set<string> | undefined;
      for (const name of methods.keys()) {
        const set = index.get(name);
        if (!set) {
          candidates = new Set();
          break;
        }
        if (!candidates || set.size < candidates.size) candidates = set;
      }
      for (const cand of candidates ?? []) {
        const dot = cand.lastIndexOf('.');
        const t: GoType = { k: 'named', pkg: cand.slice(0, dot), name: cand.slice(dot + 1) };
        if (this.isInterface(t)) continue;
        let ok = true;
        let concrete = 0;
        for (const [name, want] of methods) {
          const sel = this.select(t, name);
          if (!sel || sel.k === 'field') {
            ok = false;
            break;
          }
          if (sel.k === 'method') {
            const fact = sel.fn.fact;
            if (want.params >= 0 && fact.params.length !== want.params) ok = false;
            // Same parameter and result types: `Get(string) (*v1.Pod, error)` is not implemented by a
            // lister's `Get(string) (*v1.Example, error)`.
            else if (
              want.shape !== null &&
              !fact.recv?.typeArgs &&
              this.shapeOf(sel.fn) !== want.shape
            )
              ok = false;
            if (!ok) break;
            concrete++;
          }
        }
        // A struct whose every method comes from an embedded interface only forwards to whatever it
        // holds (a wrapper, not an implementation to dispatch to); one that declares some of them
        // itself (PriorityQueue embedding PodNominator) implements the interface.
        if (ok && concrete > 0) result.push(t);
      }
    }
    result.sort((a, b) => (typeKey(a) < typeKey(b) ? -1 : 1));
    this.implMemo.set(key, result);
    return result;
  }

  private shapeOf(fn: FuncRef): string {
    let shape = this.shapeMemo.get(fn.id);
    if (shape === undefined)
      this.shapeMemo.set(
        fn.id,
        (shape = signatureShape(fn.fact.params, fn.fact.results, fn.file.scope)),
      );
    return shape;
  }

  /** method name -> types having it (declared, or promoted through an embedded field). */
  private buildMethodIndex(): Map<string, Set<string>> {
    if (this.methodIndex) return this.methodIndex;
    const index = new Map<string, Set<string>>();
    const add = (name: string, type: string) => {
      let set = index.get(name);
      if (!set) index.set(name, (set = new Set()));
      set.add(type);
    };
    for (const pkg of this.model.packages.values()) {
      for (const [typeName, methods] of pkg.methods)
        for (const m of methods.keys()) add(m, `${pkg.path}.${typeName}`);
    }
    for (const pkg of this.model.packages.values()) {
      for (const decl of pkg.types.values()) {
        if (decl.fact.kind !== 'struct' || !decl.fact.fields?.some((f) => f.name === null))
          continue;
        const self = `${pkg.path}.${decl.name}`;
        for (const name of this.promotedMethodNames({ k: 'named', pkg: pkg.path, name: decl.name }))
          add(name, self);
      }
    }
    this.methodIndex = index;
    return index;
  }

  private promotedMethodNames(t: GoType): Set<string> {
    const names = new Set<string>();
    let level: GoType[] = [t];
    const seen = new Set<string>();
    for (let depth = 0; depth < 5 && level.length; depth++) {
      const next: GoType[] = [];
      for (const cur of level) {
        const key = typeKey(cur);
        if (seen.has(key)) continue;
        seen.add(key);
        if (depth > 0 && cur.k === 'named') {
          for (const m of this.model.packages.get(cur.pkg)?.methods.get(cur.name)?.keys() ?? [])
            names.add(m);
          if (this.isInterface(cur))
            for (const m of this.interfaceMethods(cur).keys()) names.add(m);
        }
        const u = this.underlying(cur);
        if (u.k === 'struct')
          for (const f of u.fields) if (f.name === null) next.push(deref(f.type));
      }
      level = next;
    }
    return names;
  }

  // ---------------------------------------------------------------- flows

  /** Indexes assignments and keyed literals by the field or variable they store into. */
  collectStores(): void {
    for (const file of this.model.files) {
      const facts = file.facts;
      for (const c of facts.composites) {
        if (!c.type) continue;
        const ctx: Ctx = { file, fn: c.fn, line: c.line };
        const t = deref(this.parse(c.type, this.scopeFor(ctx)));
        if (t.k !== 'named') continue;
        for (const [key, value, line] of c.fields) {
          const sel = this.select(t, key);
          const owner = sel?.k === 'field' ? sel.owner : typeKey(t);
          push(this.fieldSources, `${owner}.${key}`, {
            expr: value,
            ctx: { file, fn: c.fn, line },
          });
        }
      }
      for (const a of facts.assigns) {
        const ctx: Ctx = { file, fn: a.fn, line: a.line };
        const source: SourceRef = {
          expr: a.rhs,
          ctx,
          ...(a.index !== undefined ? { index: a.index } : {}),
        };
        if (a.lhs[0] === 's') {
          const [, x, name] = a.lhs;
          if (x[0] === 'i') {
            const b = this.resolveIdent(x[1], ctx);
            if (b?.k === 'import') {
              push(this.valueSources, `${b.path}.${name}`, source);
              continue;
            }
          }
          const sel = this.select(this.typeOf(x, ctx), name);
          if (sel?.k === 'field') push(this.fieldSources, `${sel.owner}.${name}`, source);
        } else if (a.lhs[0] === 'x' && a.lhs[1][0] === 'i') {
          const b = this.resolveIdent(a.lhs[1][1], ctx);
          if (b?.k === 'value') push(this.valueElementAssigns, b.decl.symbol, source);
          else if (b?.k === 'local' || b?.k === 'param') {
            let byName = this.elementAssigns.get(file);
            if (!byName) this.elementAssigns.set(file, (byName = new Map()));
            push(byName, localKey(b), source);
          }
        } else if (a.lhs[0] === 'i') {
          const b = this.resolveIdent(a.lhs[1], ctx);
          if (b?.k === 'value') push(this.valueSources, b.decl.symbol, source);
          else if (b?.k === 'local' || b?.k === 'param') {
            let byName = this.localAssigns.get(file);
            if (!byName) this.localAssigns.set(file, (byName = new Map()));
            push(byName, localKey(b), source);
          }
        }
      }
    }
  }

  /** Records the arguments of a resolved call, so parameters know what flows into them. */
  recordArgs(target: FuncRef, args: readonly Expr[], ctx: Ctx): void {
    if (args.length === 0) return;
    let byParam = this.argSources.get(target.id);
    if (!byParam) this.argSources.set(target.id, (byParam = new Map()));
    const last = target.fact.params.length - 1;
    args.forEach((arg, i) => {
      // Arguments past the last parameter of a variadic function are elements of it.
      if (i > last && !(target.fact.variadic && last >= 0)) return;
      push(byParam, Math.min(i, last), { expr: arg, ctx });
    });
  }

  /** The expressions that can flow into an expression's storage (one step back). */
  sourcesOf(expr: Expr, ctx: Ctx): SourceRef[] {
    if (expr[0] === 'i') {
      const b = this.resolveIdent(expr[1], ctx);
      if (!b) return [];
      if (b.k === 'local') {
        const out: SourceRef[] = [];
        if (b.local.range && b.local.value) {
          // `for _, v := range x`: v holds x's elements.
          return b.local.index === 1
            ? this.elementSources(b.local.value, {
                file: b.file,
                fn: b.local.fn,
                line: b.local.line,
              })
            : [];
        }
        if (b.local.value) {
          out.push({
            expr: b.local.value,
            ctx: { file: b.file, fn: b.local.fn, line: b.local.line },
            ...(b.local.index !== undefined && !b.local.range ? { index: b.local.index } : {}),
          });
        }
        out.push(...(this.localAssigns.get(b.file)?.get(localKey(b)) ?? []));
        return out;
      }
      if (b.k === 'param') {
        const ref = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
        const fromCalls = ref ? (this.argSources.get(ref.id)?.get(b.index) ?? []) : [];
        return [...fromCalls, ...(this.localAssigns.get(b.file)?.get(localKey(b)) ?? [])];
      }
      if (b.k === 'value') {
        const out: SourceRef[] = [];
        const v = b.decl.fact;
        if (v.value)
          out.push({
            expr: v.value,
            ctx: { file: b.decl.file, fn: -1, line: v.line },
            ...(v.index !== undefined ? { index: v.index } : {}),
          });
        out.push(...(this.valueSources.get(b.decl.symbol) ?? []));
        return out;
      }
      return [];
    }
    if (expr[0] === 's') {
      const [, x, name] = expr;
      if (x[0] === 'i') {
        const b = this.resolveIdent(x[1], ctx);
        if (b?.k === 'import') {
          const decl = this.model.packages.get(b.path)?.values.get(name);
          const out: SourceRef[] = [];
          if (decl?.fact.value)
            out.push({
              expr: decl.fact.value,
              ctx: { file: decl.file, fn: -1, line: decl.fact.line },
            });
          out.push(...(this.valueSources.get(`${b.path}.${name}`) ?? []));
          return out;
        }
      }
      const sel = this.select(this.typeOf(x, ctx), name);
      if (sel?.k === 'field') return this.fieldSources.get(`${sel.owner}.${name}`) ?? [];
      return [];
    }
    if (expr[0] === 'u' || expr[0] === 'g')
      return this.sourcesOf(expr[0] === 'u' ? expr[2] : expr[1], ctx);
    // `v.(Shape)`: what flows into v flows on (the assertion only narrows it).
    if (expr[0] === 'a') return [{ expr: expr[1], ctx }];
    // `m[k]`: the elements stored in m.
    if (expr[0] === 'x') return this.elementSources(expr[1], ctx);
    return [];
  }

  /** Records `arg` as collected into the value `into` (a framework's `collects` method). */
  addCollected(into: Expr, arg: Expr, ctx: Ctx): void {
    if (into[0] !== 'i') return;
    const b = this.resolveIdent(into[1], ctx);
    if (b?.k !== 'local' && b?.k !== 'param') return;
    let byName = this.elementAssigns.get(b.file);
    if (!byName) this.elementAssigns.set(b.file, (byName = new Map()));
    push(byName, localKey(b), { expr: arg, ctx });
  }

  /** Values stored as elements of a slice or map: literal entries and `m[k] = v` assignments. */
  elementSources(expr: Expr, ctx: Ctx, depth = 0): SourceRef[] {
    // sourcesOf and elementSources call each other (`m[k]` of a map of maps): one bound for both.
    if (depth > 5 || this.elementDepth > 8 || this.elementActive.has(expr)) return [];
    this.elementDepth++;
    this.elementActive.add(expr);
    try {
      return this.elementSourcesUnguarded(expr, ctx, depth);
    } finally {
      this.elementDepth--;
      this.elementActive.delete(expr);
    }
  }

  private elementSourcesUnguarded(expr: Expr, ctx: Ctx, depth: number): SourceRef[] {
    if (expr[0] === 'l') return (expr[3] ?? []).map((e) => ({ expr: e, ctx }));
    const out: SourceRef[] = [];
    if (expr[0] === 'i') {
      const b = this.resolveIdent(expr[1], ctx);
      if (b && (b.k === 'local' || b.k === 'param'))
        out.push(...(this.elementAssigns.get(b.file)?.get(localKey(b)) ?? []));
      if (b?.k === 'value') out.push(...(this.valueElementAssigns.get(b.decl.symbol) ?? []));
      if (b?.k === 'param') {
        // `func New(opts ...Option)`: each argument in the variadic position is an element.
        const f = b.file.facts.funcs[b.fn];
        const ref = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
        if (f?.variadic && ref && b.index === f.params.length - 1)
          out.push(...(this.argSources.get(ref.id)?.get(b.index) ?? []));
      }
    }
    if (expr[0] === 'c') {
      // A function returning a map or slice: the elements of what it returns.
      for (const callee of this.directCallees(expr[1], ctx)) {
        for (const ret of callee.file.facts.returns) {
          if (ret.fn === callee.index && ret.values[0])
            out.push(
              ...this.elementSources(
                ret.values[0],
                { file: callee.file, fn: ret.fn, line: ret.line },
                depth + 1,
              ),
            );
        }
      }
      return out;
    }
    for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES))
      out.push(...this.elementSources(s.expr, s.ctx, depth + 1));
    return out.slice(0, MAX_SOURCES * 4);
  }

  /**
   * The functions a function value can be: literals, named functions, method values — followed
   * through locals, fields, package variables, parameters (via call sites) and returned closures.
   */
  funcTargets(
    expr: Expr,
    ctx: Ctx,
    depth = 0,
    seen = new Set<object>(),
  ): { fn: FuncRef; literal: boolean }[] {
    // Memoized per expression: each expression sits in one place, so its answer does not depend on
    // who asks. (An answer cut short by a cycle stays cut: the analysis is an approximation anyway.)
    const memo = this.funcTargetsMemo.get(expr);
    if (memo) return memo;
    if (depth > 6 || seen.has(expr)) return [];
    seen.add(expr);
    const result = this.funcTargetsUncached(expr, ctx, depth, seen);
    this.funcTargetsMemo.set(expr, result);
    return result;
  }

  private funcTargetsUncached(
    expr: Expr,
    ctx: Ctx,
    depth: number,
    seen: Set<object>,
  ): { fn: FuncRef; literal: boolean }[] {
    switch (expr[0]) {
      case 'f': {
        const ref = this.model.funcs[ctx.file.funcIds[expr[1]] ?? -1];
        return ref ? [{ fn: ref, literal: true }] : [];
      }
      case 'i': {
        const b = this.resolveIdent(expr[1], ctx);
        if (b?.k === 'func') return [{ fn: b.ref, literal: false }];
        break;
      }
      case 's': {
        const [, x, name] = expr;
        if (x[0] === 'i') {
          const b = this.resolveIdent(x[1], ctx);
          if (b?.k === 'import') {
            const fn = this.model.packages.get(b.path)?.funcs.get(name);
            if (fn) return [{ fn, literal: false }];
            break;
          }
        }
        const sel = this.select(this.methodExpressionType(x, ctx) ?? this.typeOf(x, ctx), name);
        if (sel?.k === 'method') return [{ fn: sel.fn, literal: false }];
        if (sel?.k === 'imethod') {
          return this.interfaceTargets(sel, x, ctx)
            .filter((t) => t.rank === 0)
            .map((t) => ({ fn: t.fn, literal: false }));
        }
        break;
      }
      case 'c': {
        // A call whose result is a function: the closures and functions the callee returns.
        const out: { fn: FuncRef; literal: boolean }[] = [];
        for (const callee of this.funcTargets(expr[1], ctx, depth + 1, seen)) {
          for (const ret of callee.fn.file.facts.returns) {
            if (ret.fn !== callee.fn.index || !ret.values[0]) continue;
            out.push(
              ...this.funcTargets(
                ret.values[0],
                { file: callee.fn.file, fn: ret.fn, line: ret.line },
                depth + 1,
                seen,
              ),
            );
          }
        }
        return dedupe(out);
      }
      case 'u':
        return this.funcTargets(expr[2], ctx, depth + 1, seen);
      case 'g':
        return this.funcTargets(expr[1], ctx, depth + 1, seen);
      default:
        return [];
    }
    const out: { fn: FuncRef; literal: boolean }[] = [];
    for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES)) {
      if (s.index !== undefined && s.expr[0] === 'c') continue;
      out.push(...this.funcTargets(s.expr, s.ctx, depth + 1, seen));
      if (out.length > MAX_TARGETS) break;
    }
    return dedupe(out);
  }

  /**
   * Composite literals of type `target` (a type key) whose value can reach `expr`: directly, nested
   * in another literal's fields, through locals, parameters (via call sites), constructor returns
   * and stores into struct fields. Flow-insensitive, depth-limited.
   */
  literalsReaching(
    expr: Expr,
    ctx: Ctx,
    target: string,
    depth = 0,
    seen = new Set<object>(),
    bound?: ArgBinding,
  ): { lit: Expr; ctx: Ctx }[] {
    if (depth > 10 || seen.has(expr)) return [];
    seen.add(expr);
    const out: { lit: Expr; ctx: Ctx }[] = [];
    switch (expr[0]) {
      case 'l': {
        if (expr[1] !== null && typeKey(deref(this.parse(expr[1], this.scopeFor(ctx)))) === target)
          return [{ lit: expr, ctx }];
        for (const [, value] of expr[2])
          out.push(...this.literalsReaching(value, ctx, target, depth + 1, seen, bound));
        return out;
      }
      case 'u':
        return this.literalsReaching(expr[2], ctx, target, depth + 1, seen, bound);
      case 'c': {
        // Into the callee's returns with this call's arguments bound to its parameters: what a
        // constructor wraps (`NewLeaderElector(cfg)` returning `&LeaderElector{config: lec}`) is
        // this caller's argument, not every caller's.
        const call = this.callFactAt(expr, ctx);
        for (const callee of this.directCallees(expr[1], ctx)) {
          const inner: ArgBinding | undefined =
            call && !callee.fact.variadic
              ? { file: callee.file, fn: callee.index, args: call.args, ctx }
              : undefined;
          for (const ret of callee.file.facts.returns) {
            if (ret.fn === callee.index && ret.values[0]) {
              out.push(
                ...this.literalsReaching(
                  ret.values[0],
                  { file: callee.file, fn: ret.fn, line: ret.line },
                  target,
                  depth + 1,
                  seen,
                  inner,
                ),
              );
            }
          }
        }
        return out;
      }
      default: {
        if (expr[0] === 'i' && bound && bound.file === ctx.file && bound.fn === ctx.fn) {
          const b = this.resolveIdent(expr[1], ctx);
          const arg = b?.k === 'param' && b.index >= 0 ? bound.args[b.index] : undefined;
          if (arg) return this.literalsReaching(arg, bound.ctx, target, depth + 1, seen);
        }
        for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES)) {
          // A local of the bound function keeps the binding (`le := LeaderElector{config: lec}`).
          const keep =
            bound && s.ctx.file === bound.file && s.ctx.fn === bound.fn ? bound : undefined;
          out.push(...this.literalsReaching(s.expr, s.ctx, target, depth + 1, seen, keep));
        }
        // Values collected into it (`root.AddCommand(sub)`; `m[k] = v`).
        for (const s of this.elementSources(expr, ctx).slice(0, MAX_SOURCES))
          out.push(...this.literalsReaching(s.expr, s.ctx, target, depth + 1, seen));
        // A struct value whose field of the target type was assigned later
        // (`cfg.Callbacks = LeaderCallbacks{...}`).
        const t = deref(this.typeOf(expr, ctx));
        if (t.k === 'named' && typeKey(t) !== target) {
          const u = this.underlying(t);
          if (u.k === 'struct') {
            for (const f of u.fields) {
              const ft = deref(f.type);
              if (ft.k !== 'named' || typeKey(ft) !== target) continue;
              // Only stores near this value can have filled its field: those in this very function,
              // else those in its package. A store in another component configures another object
              // of the same type (kube-controller-manager's callbacks are not the scheduler's).
              const all = this.fieldSources.get(`${typeKey(t)}.${f.name ?? ft.name}`) ?? [];
              const inFunction = all.filter((s) => s.ctx.file === ctx.file && s.ctx.fn === ctx.fn);
              const near =
                inFunction.length > 0
                  ? inFunction
                  : all.filter((s) => s.ctx.file.pkg === ctx.file.pkg);
              for (const s of near.slice(0, MAX_SOURCES)) {
                out.push(...this.literalsReaching(s.expr, s.ctx, target, depth + 1, seen));
              }
            }
          }
        }
        return out;
      }
    }
  }

  /**
   * The call fact of a call expression met inside another expression (whose arguments the nested
   * expression does not keep): same function, line and called name.
   */
  private callFactAt(expr: Extract<Expr, { 0: 'c' }>, ctx: Ctx): CallFact | undefined {
    const name = calledName(expr[1]);
    if (name === undefined) return undefined;
    let byLine = this.callsByLine.get(ctx.file);
    if (!byLine) {
      byLine = new Map();
      for (const c of ctx.file.facts.calls) push(byLine, `${c.fn}:${c.line}`, c);
      this.callsByLine.set(ctx.file, byLine);
    }
    const here = (byLine.get(`${ctx.fn}:${ctx.line}`) ?? []).filter(
      (c) => calledName(c.callee) === name,
    );
    return here.length === 1 ? here[0] : undefined;
  }

  /** Concrete types that can be stored in an expression of interface type (flow-insensitive). */
  storedTypes(expr: Expr, ctx: Ctx, depth = 0, seen = new Set<object>()): GoType[] {
    const memo = this.storedMemo.get(expr);
    if (memo) return memo;
    if (depth > 6 || seen.has(expr)) return [];
    seen.add(expr);
    const result = this.storedTypesUncached(expr, ctx, depth, seen);
    this.storedMemo.set(expr, result);
    return result;
  }

  private storedTypesUncached(expr: Expr, ctx: Ctx, depth: number, seen: Set<object>): GoType[] {
    const t = this.typeOf(expr, ctx);
    const concrete = (x: GoType) => {
      const base = deref(x);
      return base.k === 'named' && base.pkg !== '' && !this.isInterface(base);
    };
    if (concrete(t)) return [t];
    const out: GoType[] = [];
    if (expr[0] === 'c') {
      for (const callee of this.directCallees(expr[1], ctx)) {
        for (const ret of callee.file.facts.returns) {
          if (ret.fn !== callee.index) continue;
          const v = ret.values[0];
          if (v)
            out.push(
              ...this.storedTypes(
                v,
                { file: callee.file, fn: ret.fn, line: ret.line },
                depth + 1,
                seen,
              ),
            );
        }
      }
      return out;
    }
    for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES)) {
      if (s.index !== undefined && s.index > 0) continue;
      out.push(...this.storedTypes(s.expr, s.ctx, depth + 1, seen));
      if (out.length > MAX_TARGETS) break;
    }
    return out;
  }

  /** Functions a call reaches directly (named functions and concrete methods), no value flow. */
  directCallees(callee: Expr, ctx: Ctx): FuncRef[] {
    if (callee[0] === 'i') {
      const b = this.resolveIdent(callee[1], ctx);
      return b?.k === 'func' ? [b.ref] : [];
    }
    if (callee[0] === 's') {
      const [, x, name] = callee;
      if (x[0] === 'i') {
        const b = this.resolveIdent(x[1], ctx);
        if (b?.k === 'import') {
          const fn = this.model.packages.get(b.path)?.funcs.get(name);
          return fn ? [fn] : [];
        }
      }
      const sel = this.select(this.typeOf(x, ctx), name);
      if (sel?.k === 'method') return [sel.fn];
    }
    return [];
  }

  /** Implementations of an interface method call, ranked: stored types first (rank 0). */
  interfaceTargets(
    sel: Extract<Selection, { k: 'imethod' }>,
    operand: Expr,
    ctx: Ctx,
  ): { fn: FuncRef; rank: number }[] {
    const impls = this.implementations(sel.iface);
    // Promoted through an embedded interface field: what is stored is what that field holds.
    const stored = sel.embeddedIn
      ? (this.fieldSources.get(sel.embeddedIn) ?? []).flatMap((src) =>
          this.storedTypes(src.expr, src.ctx),
        )
      : this.storedTypes(operand, ctx);
    const storedKeys = new Set(stored.map((t) => typeKey(deref(t))));
    const primary: FuncRef[] = [];
    const rest: FuncRef[] = [];
    for (const impl of impls) {
      const stored = storedKeys.has(typeKey(impl));
      // Past the alternatives kept, only stored types still matter.
      if (!stored && rest.length > MAX_ALTERNATIVES) continue;
      const m = this.select(impl, sel.name);
      if (m?.k !== 'method') continue;
      if (stored) primary.push(m.fn);
      else rest.push(m.fn);
    }
    // Nothing known to be stored: a single implementation is the answer, and so is the only real
    // one among test doubles. Otherwise all stay alternatives (none has rank 0), real code before
    // test doubles, nearest package first.
    if (primary.length === 0 && rest.length === 1 && impls.length === 1)
      return [{ fn: rest[0]!, rank: 0 }];
    rest.sort(
      (a, b) => rankImplementation(a, ctx.file.pkg.path) - rankImplementation(b, ctx.file.pkg.path),
    );
    if (primary.length === 0 && rest.length === impls.length) {
      const real = rest.filter((fn) => !isTestDouble(fn));
      if (real.length === 1) primary.push(...rest.splice(rest.indexOf(real[0]!), 1));
    }
    return [
      ...primary.map((fn) => ({ fn, rank: 0 })),
      ...rest.slice(0, MAX_ALTERNATIVES).map((fn, i) => ({ fn, rank: i + 1 })),
    ];
  }

  /** The declaration of an interface's method, and the interface declaring it (embedded ones searched). */
  interfaceMethodDecl(
    t: GoType,
    name: string,
    depth = 0,
  ): { decl: TypeDecl; method: NonNullable<TypeFact['methods']>[number] } | undefined {
    if (depth > 8) return undefined;
    const decl = this.typeDecl(t);
    if (!decl) return undefined;
    if (decl.fact.kind === 'alias' || decl.fact.kind === 'named') {
      return this.interfaceMethodDecl(
        parseType(decl.fact.underlying ?? '', decl.file.scope),
        name,
        depth + 1,
      );
    }
    const method = decl.fact.methods?.find((x) => x.name === name);
    if (method) return { decl, method };
    for (const e of decl.fact.embeds ?? []) {
      const found = this.interfaceMethodDecl(parseType(e, decl.file.scope), name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
}

/** A call's arguments bound to the parameters of the function it called (one call deep). */
interface ArgBinding {
  file: FileModel;
  fn: number;
  args: readonly Expr[];
  ctx: Ctx;
}

/** The name a call expression calls: `f` in `f(x)`, `Add` in `q.Add(x)`. */
function calledName(callee: Expr): string | undefined {
  if (callee[0] === 'i') return callee[1];
  if (callee[0] === 's') return callee[2];
  if (callee[0] === 'g') return calledName(callee[1]);
  return undefined;
}

/** How a method looks to the interfaces it may satisfy: its parameter and result types. */
export interface MethodShape {
  /** Parameter count, or -1 when unknown. */
  params: number;
  /** Parameter and result types (`(string)(*k8s.io/api/core/v1.Pod,error)`), or null when not compared. */
  shape: string | null;
}

/**
 * A signature's parameter and result types, resolved in the file that declares it: `v1.Interface`
 * in informers/core is not `v1.Interface` in informers/apps. A type the index cannot resolve is
 * compared by its text without package qualifier.
 */
export function signatureShape(
  params: readonly (readonly [string | null, string])[],
  results: readonly (readonly [string | null, string])[],
  scope: TypeScope,
): string {
  const types = (list: readonly (readonly [string | null, string])[]) =>
    list
      .map(([, text]) => {
        const key = typeKey(parseType(text, scope));
        return key.includes('?')
          ? text.replace(/\b[A-Za-z_]\w*\.(?=[A-Za-z_])/g, '').replace(/\s+/g, '')
          : key.replace(/\bany\b/g, 'interface{...}');
      })
      .join(',');
  return `(${types(params)})(${types(results)})`;
}

/** Test doubles (fakes, mocks, testing packages) rank after real implementations. */
const TEST_DOUBLE =
  /(^|\/)(fake|fakes|testing|testutil|testutils|mock|mocks)(\/|$)|\.(fake|Fake|mock|Mock|stub|Stub)[A-Z\w]*\)/;

function isTestDouble(fn: FuncRef): boolean {
  return TEST_DOUBLE.test(fn.pkg.path) || TEST_DOUBLE.test(fn.symbol);
}

function rankImplementation(fn: FuncRef, fromPackage: string): number {
  const double = isTestDouble(fn) ? 1000 : 0;
  // Shared leading path elements with the calling package: nearer code is likelier.
  const a = fn.pkg.path.split('/');
  const b = fromPackage.split('/');
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return double - common;
}

function pick(t: GoType, index: number | undefined): GoType {
  if (index === undefined) return t.k === 'tuple' ? (t.items[0] ?? UNKNOWN) : t;
  return t.k === 'tuple' ? (t.items[index] ?? UNKNOWN) : index === 0 ? t : UNKNOWN;
}

/** Appends to the list under `key`, creating it. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function localKey(b: Binding): string {
  if (b.k === 'local') return `${b.local.fn}:${b.local.name}:${b.local.line}`;
  if (b.k === 'param') return `${b.fn}:param:${b.index}`;
  return '';
}

function dedupe(list: { fn: FuncRef; literal: boolean }[]): { fn: FuncRef; literal: boolean }[] {
  const seen = new Set<number>();
  return list.filter((x) => (seen.has(x.fn.id) ? false : (seen.add(x.fn.id), true)));
}
