/**
 * The type checker: names, scopes and the static types of expressions (receivers, parameters,
 * locals, composite literals, constructor results, multi-value returns, assertions, range,
 * selector chains), declarations, method sets with embedded promotion (the shallowest depth wins,
 * as the Go spec says), interface method sets and the named types that implement them. It knows
 * nothing of where values flow: that is src/resolve/value-flow.ts.
 */
import type { CallFact, Expr, LocalFact, TypeFact } from '../index/facts.js';
import type { FileModel, FuncRef, ProgramModel, TypeDecl, ValueDecl } from './model.js';
import { push } from '../shared/multimap.js';
import { localsOf } from './model.js';
import type { ExternalTypes } from './rules.js';
import {
  bindTypeArgs,
  builtin,
  deref,
  fieldOwnerKey,
  instanceKey,
  isBuiltinType,
  isOpen,
  parseType,
  substitute,
  typeKey,
  unify,
  UNKNOWN,
  type GoType,
  type TypeArgs,
  type TypeScope,
} from './types.js';

/** Where an expression sits: its file, enclosing function (facts index, -1 at package level), line. */
export interface Ctx {
  file: FileModel;
  fn: number;
  line: number;
  /**
   * Reading the right-hand side of a declaration on this line (`f := f`, `h := logged(h)`,
   * `ctx, cancel := context.WithCancel(ctx)`): a name declared there is not in scope yet, its
   * uses are the binding before it.
   */
  decl?: number;
}

/** Whether a local declared at or before `ctx.line` is in scope there (not yet, or no more). */
function inScope(c: LocalFact, ctx: Ctx): boolean {
  return c.line !== ctx.decl && (c.end === undefined || c.end >= ctx.line);
}

/** Where a local's value (its right-hand side, or what it ranges over) is read. */
export function declCtx(file: FileModel, local: LocalFact): Ctx {
  return { file, fn: local.fn, line: local.line, decl: local.line };
}

/** Where a call's callee and arguments are read. */
export function callCtx(file: FileModel, call: CallFact): Ctx {
  return call.decl === undefined
    ? { file, fn: call.fn, line: call.line }
    : { file, fn: call.fn, line: call.line, decl: call.decl };
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
  /** `on`: the named type declaring the method, instantiated (`Client[*v1.Pod]`) for generic ones. */
  | { k: 'method'; fn: FuncRef; depth: number; on: GoType }
  | { k: 'imethod'; iface: GoType; name: string; depth: number; embeddedIn?: string }
  | { k: 'field'; type: GoType; owner: string; name: string; depth: number };

/** A candidate of `implementations`: its type, its key (the sort order) and its methods checked. */
interface ImplCandidate {
  type: GoType;
  key: string;
  iface: boolean;
  methods: Map<string, CandidateMethod>;
}

/** No such method (or a field by that name). */
const MISSING = 0;
/** Promoted from an embedded type of an unindexed package: the type has it, the index cannot say more. */
const UNINDEXED = 1;
/** A method of an embedded interface: neither a declaration of the type nor a miss. */
const IMETHOD = 2;
type CandidateMethod =
  | typeof MISSING
  | typeof UNINDEXED
  | typeof IMETHOD
  | {
      sel: Extract<Selection, { k: 'method' }>;
      /** selectedShape(sel), once asked (undefined before). */
      shape: string | null | undefined;
    };

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

/** The predeclared `error` interface. */
function isPredeclaredError(t: GoType): boolean {
  return t.k === 'named' && t.pkg === '' && t.name === 'error';
}

export class TypeChecker {
  /**
   * Expressions, locals, values and functions -> their types; UNKNOWN while one is computed, so a
   * use reached again inside its own computation is unknown. A Map, not a WeakMap: its keys (the
   * facts) live as long as the checker, and a WeakMap's ephemerons cost every collection.
   */
  private readonly typeMemo = new Map<object, GoType>();
  private readonly parseMemo = new WeakMap<TypeScope, Map<string, GoType>>();
  private readonly ifaceMemo = new Map<string, Map<string, MethodShape>>();
  private readonly shapeMemo = new Map<number, string>();
  private readonly callsByLine = new Map<FileModel, Map<string, CallFact[]>>();
  private readonly scopeMemo = new WeakMap<FileModel, Map<number, TypeScope>>();
  /** pkg -> type name -> member -> selection (null: none), for named types. */
  private readonly selectMemo = new Map<string, Map<string, Map<string, Selection | null>>>();
  /** Instantiated type (instanceKey) -> member -> selection (null: none). */
  private readonly instanceSelectMemo = new Map<string, Map<string, Selection | null>>();
  /** Alias type key -> what it stands for and its type-parameter names (null: not an alias). */
  private readonly aliasMemo = new Map<
    string,
    { type: GoType; params: (string | null)[] } | null
  >();
  /** A type declaration's scope: its file's, with its own type parameters. */
  private readonly declScopeMemo = new WeakMap<TypeDecl, TypeScope>();
  private readonly underlyingMemo = new Map<string, GoType>();
  private methodIndex: Map<string, Set<string>> | undefined;
  private readonly implMemo = new Map<string, GoType[]>();
  /** Interfaces (instance keys) that no type of the index has the methods of (unimplementedInIndex). */
  private readonly unimplemented = new Set<string>();
  /** Interface key -> the types `var _ I = ...` declarations say implement it (see `asserted`). */
  private assertedImpls: Map<string, Extract<GoType, { k: 'named' }>[]> | undefined;
  private readonly implCandidates = new Map<string, ImplCandidate>();
  private readonly unindexedMemo = new Map<string, ReadonlySet<string>>();
  private readonly embedPackageMemo = new Map<string, string | null>();

  /**
   * @param external types of unindexed packages that framework rules declare: interfaces
   * (`net/http.Handler`), whose values hold whatever concrete types or function values flow into
   * them as with an indexed interface, and function types (`net/http.HandlerFunc`), so that
   * `http.HandlerFunc(f)` reads as a conversion.
   */
  constructor(
    readonly model: ProgramModel,
    private readonly external: ExternalTypes = { interfaces: new Set(), funcTypes: new Set() },
  ) {}

  // ---------------------------------------------------------------- names and scopes

  funcCtx(ref: FuncRef): Ctx {
    return { file: ref.file, fn: ref.index, line: ref.fact.line };
  }

  /**
   * Type text parsed once per scope (most scopes are a file's; the text repeats a lot), aliases
   * replaced by what they stand for, as go/types does: `*workqueue.Type` is `*workqueue.Typed[any]`,
   * `*builder.Builder` is `*builder.TypedBuilder[reconcile.Request]`.
   */
  parse(text: string, scope: TypeScope): GoType {
    let memo = this.parseMemo.get(scope);
    if (!memo) this.parseMemo.set(scope, (memo = new Map()));
    let t = memo.get(text);
    if (!t) memo.set(text, (t = this.unalias(parseType(text, scope))));
    return t;
  }

  /** `t` with every alias in it replaced by its target (type arguments of generic aliases bound). */
  unalias(t: GoType, depth = 0): GoType {
    if (depth > 8) return t;
    switch (t.k) {
      case 'named': {
        const args = t.args?.map((a) => this.unalias(a, depth + 1));
        const target = this.aliasTarget(t, depth);
        if (target) return args ? substitute(target.type, target.bind(args)) : target.type;
        return args ? { ...t, args } : t;
      }
      case 'ptr':
      case 'slice':
      case 'chan': {
        const elem = this.unalias(t.elem, depth + 1);
        return elem === t.elem ? t : { ...t, elem };
      }
      case 'map':
        return {
          k: 'map',
          key: this.unalias(t.key, depth + 1),
          elem: this.unalias(t.elem, depth + 1),
        };
      case 'func':
        return {
          ...t,
          params: t.params.map((p) => this.unalias(p, depth + 1)),
          results: t.results.map((r) => this.unalias(r, depth + 1)),
        };
      default:
        return t;
    }
  }

  private aliasTarget(
    t: Extract<GoType, { k: 'named' }>,
    depth: number,
  ): { type: GoType; bind: (args: GoType[]) => TypeArgs | undefined } | undefined {
    const key = `${t.pkg}\u0000${t.name}`;
    let target = this.aliasMemo.get(key);
    if (target === undefined) {
      const decl = this.typeDecl(t);
      const type =
        decl?.fact.kind === 'alias' && decl.fact.underlying
          ? this.unalias(parseType(decl.fact.underlying, this.declScope(decl)), depth + 1)
          : UNKNOWN;
      target =
        decl && type.k !== 'unknown'
          ? { type, params: typeParamNames(decl.fact.typeParams) }
          : null;
      this.aliasMemo.set(key, target);
    }
    if (!target) return undefined;
    const { type, params } = target;
    return { type, bind: (args) => bindTypeArgs(params, args) };
  }

  /** A type declaration's scope: its file's, with its type parameters. */
  declScope(decl: TypeDecl): TypeScope {
    let scope = this.declScopeMemo.get(decl);
    if (scope) return scope;
    const params = decl.fact.typeParams ?? [];
    if (params.length === 0) scope = decl.file.scope;
    else {
      // While the constraints are read (one may name the type itself), the parameters are unbound.
      const names = typeParamNames(params).filter((n): n is string => !!n);
      this.declScopeMemo.set(decl, { ...decl.file.scope, typeParams: new Set(names) });
      scope = this.withTypeParams(decl.file.scope, params);
    }
    this.declScopeMemo.set(decl, scope);
    return scope;
  }

  /**
   * A scope with type parameters in it, each bound to its constraint when that is a named
   * interface: a method called on a value of type `T objectWithMeta` is `objectWithMeta`'s, as
   * go/ssa calls it (on the interface). Constraints are read with the parameters in scope, unbound.
   */
  private withTypeParams(
    base: TypeScope,
    params: readonly (readonly [string | null, string])[],
  ): TypeScope {
    const names = new Set<string>();
    for (const [n] of params) if (n) names.add(n);
    const plain: TypeScope = { ...base, typeParams: names };
    const bounds = new Map<string, GoType>();
    for (const [n, constraint] of params) {
      if (!n || bounds.has(n)) continue;
      const t = this.parse(constraint, plain);
      if (t.k === 'named' && t.pkg !== '' && this.isInterface(t)) bounds.set(n, t);
    }
    return bounds.size > 0 ? { ...plain, bounds } : plain;
  }

  scopeFor(ctx: Ctx): TypeScope {
    // Type parameters of the enclosing generic function (and its receiver) are in scope.
    let byFn = this.scopeMemo.get(ctx.file);
    const hit = byFn?.get(ctx.fn);
    if (hit) return hit;
    let fn = ctx.fn;
    const params: (readonly [string | null, string])[] = [];
    while (fn >= 0) {
      const f = ctx.file.facts.funcs[fn];
      if (!f) break;
      params.push(...(f.typeParams ?? []));
      // A receiver's type parameters are constrained as its type declares them, by position.
      const declared = f.recv?.typeArgs && ctx.file.pkg.types.get(f.recv.type)?.fact.typeParams;
      f.recv?.typeArgs?.forEach((a, i) => params.push([a, declared?.[i]?.[1] ?? 'any']));
      fn = f.kind === 'lit' ? (f.parent ?? -1) : -1;
    }
    if (params.length === 0) return ctx.file.scope;
    if (!byFn) this.scopeMemo.set(ctx.file, (byFn = new Map()));
    const scope = this.withTypeParams(ctx.file.scope, params);
    byFn.set(ctx.fn, scope);
    return scope;
  }

  /** Whether `x` is the receiver of the method at ctx (or of the method a closure there is in). */
  isReceiver(x: Expr, ctx: Ctx): boolean {
    return x[0] === 'i' && this.resolveIdent(x[1], ctx)?.k === 'recv';
  }

  resolveIdent(name: string, ctx: Ctx): Binding | undefined {
    const file = ctx.file;
    let fn = ctx.fn;
    while (fn >= 0) {
      const f = file.facts.funcs[fn];
      if (!f) break;
      const candidates = localsOf(file, fn)?.get(name);
      // A variable is in scope from the end of its statement to the end of its block: on its
      // own line a name that is also an import is the package (`cleaner := cleaner.New(...)`),
      // in the declaration's own right-hand side the name is the binding before it (`f := f`),
      // and past its block the name is another binding again. Above its declaration it is not yet
      // declared: the name is what an enclosing function, the package or an import binds.
      const shadows = file.imports.has(name);
      if (candidates) {
        let best: LocalFact | undefined;
        for (const c of candidates)
          if (
            (shadows ? c.line < ctx.line : c.line <= ctx.line) &&
            inScope(c, ctx) &&
            (!best || c.line >= best.line)
          )
            best = c;
        if (best) return { k: 'local', local: best, file };
      }
      for (let i = 0; i < f.params.length; i++)
        if (f.params[i]![0] === name)
          return { k: 'param', file, fn, index: i, type: f.params[i]![1] };
      for (let i = 0; i < f.results.length; i++)
        if (f.results[i]![0] === name)
          return { k: 'param', file, fn, index: -1 - i, type: f.results[i]![1] };
      if (f.recv?.name === name) return { k: 'recv', file, fn };
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
    // UNKNOWN until computed: a use reached again while its own type is computed is unknown.
    this.typeMemo.set(expr, UNKNOWN);
    const t = this.computeType(expr, ctx);
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
        if (sel.k === 'method') return this.methodType(sel);
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
        let ft = this.typeOf(callee, ctx);
        // A value of a named function type (`makeProxySocket ProxySocketFunc`): its results.
        if (ft.k === 'named') ft = this.underlying(ft);
        if (ft.k !== 'func') return UNKNOWN;
        if (isOpen(ft) && callee[0] !== 'g') ft = this.inferCall(ft, callee, expr, ctx);
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
        // `F[T]` with one type argument reads like an index expression.
        const generic = expr[2] === undefined ? undefined : this.genericFunc(expr[1], ctx);
        if (generic) return this.instantiate(generic, [expr[2]!], ctx);
        const u = this.underlying(deref(this.typeOf(expr[1], ctx)));
        if (u.k === 'slice' || u.k === 'map') return u.elem;
        if (u.k === 'named' && u.name === 'string') return builtin('byte');
        return UNKNOWN;
      }
      case 'g': {
        const ref = this.genericFunc(expr[1], ctx);
        return ref ? this.instantiate(ref, expr[2], ctx) : this.typeOf(expr[1], ctx);
      }
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

  /**
   * The string a constant expression stands for: a literal, a constant (of this package or
   * another, `names.ReplicaSetController`), a local bound to one, a conversion `Name("x")`.
   */
  constantString(expr: Expr, ctx: Ctx, depth = 0): string | undefined {
    if (depth > 6) return undefined;
    switch (expr[0]) {
      case 'n':
        return expr[1] === 'string' ? expr[2] : undefined;
      case 'i': {
        const b = this.resolveIdent(expr[1], ctx);
        if (b?.k === 'value' && b.decl.fact.value && b.decl.fact.index === undefined)
          return this.constantString(
            b.decl.fact.value,
            { file: b.decl.file, fn: -1, line: b.decl.fact.line },
            depth + 1,
          );
        if (b?.k === 'local' && b.local.value && b.local.index === undefined)
          return this.constantString(b.local.value, declCtx(b.file, b.local), depth + 1);
        return undefined;
      }
      case 's': {
        const [, x, name] = expr;
        if (x[0] !== 'i') return undefined;
        const b = this.resolveIdent(x[1], ctx);
        if (b?.k !== 'import') return undefined;
        const decl = this.model.packages.get(b.path)?.values.get(name);
        if (!decl?.fact.value || decl.fact.index !== undefined) return undefined;
        return this.constantString(
          decl.fact.value,
          { file: decl.file, fn: -1, line: decl.fact.line },
          depth + 1,
        );
      }
      case 'c': {
        const first = expr[2][0];
        if (!first) return undefined;
        if (this.asType(expr[1], ctx)) return this.constantString(first, ctx, depth + 1);
        // `fmt.Sprintf("get [%s] ...", ...)`: known up to its first verb.
        const callee = expr[1];
        if (callee[0] === 's' && callee[1][0] === 'i' && /^Sprint/.test(callee[2])) {
          const b = this.resolveIdent(callee[1][1], ctx);
          const format =
            b?.k === 'import' && b.path === 'fmt'
              ? this.constantString(first, ctx, depth + 1)
              : undefined;
          return format?.split('%')[0];
        }
        return undefined;
      }
      default:
        return undefined;
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
    // `(*pb.RangeResponse)(resp)`: a conversion to a pointer type.
    if (expr[0] === 'u' && expr[1] === '*') {
      const elem = this.asType(expr[2], ctx);
      return elem && { k: 'ptr', elem };
    }
    // An alias converts to what it stands for: `reconcile.Func(f)` is a `TypedFunc[Request]`.
    if (expr[0] === 'i') {
      const b = this.resolveIdent(expr[1], ctx);
      if (b) return b.k === 'type' ? this.unalias(b.type) : undefined;
      // A type parameter of the generic function or method around (`PtrT(new(T))`): a
      // conversion to it, typed as its constraint where that is a named interface.
      const scope = this.scopeFor(ctx);
      return scope.typeParams?.has(expr[1]) ? this.parse(expr[1], scope) : undefined;
    }
    if (expr[0] === 's' && expr[1][0] === 'i') {
      const b = this.resolveIdent(expr[1][1], ctx);
      if (b?.k !== 'import') return undefined;
      const pkg = this.model.packages.get(b.path);
      if (pkg?.types.has(expr[2])) return this.unalias({ k: 'named', pkg: b.path, name: expr[2] });
      const key = `${b.path}.${expr[2]}`;
      // Of an unindexed package, a type the rules or the standard library's table name
      // (`time.Duration(n)`, whose `Seconds` the table knows), or a function type the index
      // calls values of (`restful.RouteFunction(f)` is f).
      if (
        !pkg &&
        (this.external.funcTypes.has(key) ||
          this.external.interfaces.has(key) ||
          this.external.methods?.has(key) ||
          this.calledExternalTypes().has(key))
      )
        return { k: 'named', pkg: b.path, name: expr[2] };
      return undefined;
    }
    if (expr[0] === '?' && expr[1].startsWith('type:'))
      return this.parse(expr[1].slice(5), this.scopeFor(ctx));
    if (expr[0] === 'g' || (expr[0] === 'x' && expr[2] !== undefined)) {
      // `List[T]` used as a value: a conversion to, or a method expression of, an instantiation.
      const base = this.asType(expr[1], ctx);
      if (base?.k !== 'named') return base;
      const scope = this.scopeFor(ctx);
      const args = expr[0] === 'g' ? expr[2] : [expr[2]!];
      return this.unalias({ ...base, args: args.map((a) => this.parse(a, scope)) });
    }
    return undefined;
  }

  /** `F[X, Y]`: a generic function's type with its type parameters bound in order. */
  private instantiate(ref: FuncRef, typeArgs: readonly string[], ctx: Ctx): GoType {
    const scope = this.scopeFor(ctx);
    const args = bindTypeArgs(
      typeParamNames(ref.fact.typeParams),
      typeArgs.map((a) => this.parse(a, scope)),
    );
    return substitute(this.funcType(ref), args);
  }

  /** The generic function an expression names (`F`, `pkg.F`), or undefined. */
  genericFunc(expr: Expr, ctx: Ctx): FuncRef | undefined {
    let ref: FuncRef | undefined;
    if (expr[0] === 'i') {
      const b = this.resolveIdent(expr[1], ctx);
      if (b?.k === 'func') ref = b.ref;
    } else if (expr[0] === 's' && expr[1][0] === 'i') {
      const b = this.resolveIdent(expr[1][1], ctx);
      if (b?.k === 'import') ref = this.model.packages.get(b.path)?.funcs.get(expr[2]);
    }
    return ref?.fact.typeParams?.length ? ref : undefined;
  }

  /**
   * A call of a generic function without type arguments: they are inferred from the arguments'
   * types (`NewTypedMaxOfRateLimiter(limiter)` with a `TypedRateLimiter[cache.ObjectName]`).
   */
  private inferCall(
    ft: Extract<GoType, { k: 'func' }>,
    callee: Expr,
    call: Extract<Expr, { 0: 'c' }>,
    ctx: Ctx,
  ): Extract<GoType, { k: 'func' }> {
    if (!this.genericFunc(callee, ctx)) return ft;
    const args = call[2].length > 0 ? call[2] : (this.callFactAt(call, ctx)?.args ?? []);
    if (args.length === 0) return ft;
    const bound = new Map<string, GoType>();
    const last = ft.params.length - 1;
    args.forEach((arg, i) => {
      let param = ft.params[Math.min(i, last)];
      if (!param || arg[0] === 'f') return;
      const spread = arg[0] === 'u' && arg[1] === '...';
      if (ft.variadic && i >= last && !spread && param.k === 'slice') param = param.elem;
      if (isOpen(param)) unify(param, this.typeOf(spread ? arg[2] : arg, ctx), bound);
    });
    return bound.size > 0 ? (substitute(ft, bound) as Extract<GoType, { k: 'func' }>) : ft;
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
        // The receiver of a generic type's method is that type instantiated with the method's own
        // names for its type parameters: `(q *Typed[T])`.
        const scope = this.scopeFor({ file: b.file, fn: b.fn, line: 0 });
        const args = f.recv.typeArgs?.map((name) => this.parse(name, scope));
        const named: GoType = {
          k: 'named',
          pkg: b.file.pkg.path,
          name: f.recv.type,
          ...(args?.length ? { args } : {}),
        };
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
    this.typeMemo.set(decl.fact, UNKNOWN);
    let t: GoType = UNKNOWN;
    if (decl.fact.type) t = this.parse(decl.fact.type, ctx.file.scope);
    else if (decl.fact.value) t = pick(this.typeOf(decl.fact.value, ctx), decl.fact.index);
    this.typeMemo.set(decl.fact, t);
    return t;
  }

  typeOfLocal(local: LocalFact, file: FileModel): GoType {
    const memo = this.typeMemo.get(local);
    if (memo) return memo;
    this.typeMemo.set(local, UNKNOWN);
    const ctx = declCtx(file, local);
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
    // `sorting, err := cmd.Flags().GetString(...)` after `infos, err := r.Infos()` in the same
    // block declares only `sorting`: `err` is the variable before, with its type.
    if (t.k === 'unknown' && local.index !== undefined && local.end !== undefined) {
      let before: LocalFact | undefined;
      for (const c of localsOf(file, local.fn)?.get(local.name) ?? [])
        if (c.end === local.end && c.line < local.line && (!before || c.line > before.line))
          before = c;
      if (before) t = this.typeOfLocal(before, file);
    }
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

  /** A selected method's type, the receiver's type arguments bound (`Get` of `*Typed[*item]`). */
  methodType(sel: Extract<Selection, { k: 'method' }>): GoType {
    return substitute(this.funcType(sel.fn), this.receiverArgs(sel));
  }

  /** The method's receiver type-parameter names bound to the arguments of the type it was found on. */
  private receiverArgs(sel: Extract<Selection, { k: 'method' }>): TypeArgs | undefined {
    const names = sel.fn.fact.recv?.typeArgs;
    const on = deref(sel.on);
    return names && on.k === 'named' ? bindTypeArgs(names, on.args) : undefined;
  }

  // ---------------------------------------------------------------- declarations and selectors

  typeDecl(t: GoType): TypeDecl | undefined {
    if (t.k !== 'named') return undefined;
    return this.model.packages.get(t.pkg)?.types.get(t.name);
  }

  /**
   * Whether values of `t` are functions: its underlying type is a function type, or it is a named
   * type of an unindexed package whose values the index calls (`handler(req, res)` on go-restful's
   * RouteFunction, `fn(path, info, err)` on a filepath.WalkFunc): such a value is a function,
   * though the type's declaration is not indexed.
   */
  isFuncLike(t: GoType): boolean {
    if (this.underlying(t).k === 'func') return true;
    return (
      t.k === 'named' &&
      t.pkg !== '' &&
      !this.model.packages.has(t.pkg) &&
      this.calledExternalTypes().has(typeKey(t))
    );
  }

  private calledExternal?: Set<string>;

  /** Reads which named types of unindexed packages are function types (calledExternalTypes). */
  findCalledExternalTypes(): void {
    this.calledExternalTypes();
  }

  /** The named types of unindexed packages of the parameters, locals and fields the index calls. */
  private calledExternalTypes(): Set<string> {
    if (this.calledExternal) return this.calledExternal;
    const found = new Set<string>();
    this.calledExternal = found;
    // Only fields declared with a qualified type (`handler restful.RouteFunction`) can be one:
    // the receivers of other selector calls (most calls are methods) are not typed for this.
    const isQualified = (type: string | undefined) => type !== undefined && /^\w+\.\w+$/.test(type);
    const qualified = new Set<string>();
    for (const pkg of this.model.packages.values())
      for (const decl of pkg.types.values())
        for (const f of decl.fact.fields ?? [])
          if (f.name && isQualified(f.type)) qualified.add(f.name);
    for (const file of this.model.files) {
      // Likewise the parameters of this file declared so, and its locals (typed by their values).
      const named = new Set<string>();
      for (const f of file.facts.funcs)
        for (const [name, type] of f.params) if (name && isQualified(type)) named.add(name);
      for (const l of file.facts.locals) named.add(l.name);
      for (const call of file.facts.calls) {
        const c = call.callee;
        let t: GoType | undefined;
        if (c[0] === 'i' && named.has(c[1])) {
          const b = this.resolveIdent(c[1], callCtx(file, call));
          if (b?.k === 'param' || b?.k === 'local') t = this.typeOf(c, callCtx(file, call));
        } else if (c[0] === 's' && qualified.has(c[2])) {
          const ctx = callCtx(file, call);
          const sel = this.select(this.typeOf(c[1], ctx), c[2]);
          if (sel?.k === 'field') t = sel.type;
        }
        if (t?.k === 'named' && t.pkg !== '' && !this.model.packages.has(t.pkg))
          found.add(typeKey(t));
      }
    }
    return found;
  }

  /** The underlying type: struct, interface, map, func... (named types followed, aliases too). */
  underlying(t: GoType, depth = 0): GoType {
    if (t.k !== 'named' || depth > 10) return t;
    // Each instantiation has its own: the fields of `Client[*v1.Pod]` are of `*v1.Pod`.
    const key = t.args ? instanceKey(t) : `${t.pkg}\u0000${t.name}`;
    const memo = this.underlyingMemo.get(key);
    if (memo) return memo;
    const decl = this.typeDecl(t);
    let u: GoType = t;
    if (decl) {
      const scope = this.declScope(decl);
      const f = decl.fact;
      const args = bindTypeArgs(typeParamNames(f.typeParams), t.args);
      if (f.kind === 'struct')
        u = {
          k: 'struct',
          fields: (f.fields ?? []).map((fl) => ({
            name: fl.name,
            type: substitute(this.parse(fl.type, scope), args),
          })),
        };
      else if (f.kind === 'interface')
        u = { k: 'iface', methods: (f.methods ?? []).map((m) => m.name) };
      else if (f.underlying)
        u = this.underlying(substitute(this.parse(f.underlying, scope), args), depth + 1);
    }
    this.underlyingMemo.set(key, u);
    return u;
  }

  isInterface(t: GoType): boolean {
    return (
      this.underlying(t).k === 'iface' ||
      (t.k === 'named' && t.pkg === '' && (t.name === 'error' || t.name === 'any')) ||
      this.isExternalInterface(t)
    );
  }

  /** Whether `t` is an interface of an unindexed package that a rule declares (`net/http.Handler`). */
  isExternalInterface(t: GoType): boolean {
    return (
      this.external.interfaces.size > 0 &&
      t.k === 'named' &&
      this.external.interfaces.has(typeKey(t)) &&
      !this.model.packages.has(t.pkg)
    );
  }

  /**
   * Finds field or method `name` of a value of type `t`: declared methods, then fields and
   * methods promoted through embedded fields, breadth first (the shallowest depth wins, as the Go
   * spec says).
   */
  select(t: GoType, name: string): Selection | undefined {
    const base = deref(t);
    // A value of a type parameter has the methods of its constraint (an interface).
    if (base.k === 'typeparam') return base.bound ? this.select(base.bound, name) : undefined;
    if (base.k !== 'named') return this.selectUncached(base, name);
    if (base.args) {
      const key = instanceKey(base);
      let byMember = this.instanceSelectMemo.get(key);
      if (!byMember) this.instanceSelectMemo.set(key, (byMember = new Map()));
      const hit = byMember.get(name);
      if (hit !== undefined) return hit ?? undefined;
      const sel = this.selectUncached(base, name);
      byMember.set(name, sel ?? null);
      return sel;
    }
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
        const key = instanceKey(cur);
        if (seen.has(key)) continue;
        seen.add(key);
        if (cur.k === 'named') {
          const method = this.model.packages.get(cur.pkg)?.methods.get(cur.name)?.get(name);
          if (method) return { k: 'method', fn: method, depth, on: cur };
        }
        const u = this.underlying(cur);
        // The predeclared `error` embedded in a struct (`type internalError struct{ error }`) gives
        // it Error, as an interface's method; `err.Error()` on an error itself is no call to follow.
        if (u.k === 'iface' || (depth > 0 && isPredeclaredError(cur))) {
          if (this.interfaceMethods(cur).has(name)) {
            const via = reachedVia.get(cur);
            return { k: 'imethod', iface: cur, name, depth, ...(via ? { embeddedIn: via } : {}) };
          }
          continue;
        }
        if (u.k !== 'struct') continue;
        for (const field of u.fields) {
          if (field.name === name)
            return { k: 'field', type: field.type, owner: fieldOwnerKey(cur), name, depth };
          if (field.name === null) {
            const embedded = deref(field.type);
            const fieldName = embedded.k === 'named' ? embedded.name : '';
            if (embedded.k === 'named' && embedded.name === name) {
              return { k: 'field', type: field.type, owner: fieldOwnerKey(cur), name, depth };
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
    const key = t.args ? instanceKey(t) : `${t.pkg}\u0000${t.name}`;
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
    // The predeclared `error`, embedded in an interface (`Aggregate interface { error; ... }`):
    // its one method.
    if (isPredeclaredError(t)) {
      out.set('Error', { params: 0, shape: null });
      return out;
    }
    const decl = this.typeDecl(t);
    if (!decl) return out;
    const scope = this.declScope(decl);
    const args =
      t.k === 'named' ? bindTypeArgs(typeParamNames(decl.fact.typeParams), t.args) : undefined;
    const inScope = (text: string) => substitute(this.parse(text, scope), args);
    if (decl.fact.kind !== 'interface') {
      if (decl.fact.kind === 'alias' || decl.fact.kind === 'named')
        return this.interfaceMethods(inScope(decl.fact.underlying ?? ''), depth + 1);
      return out;
    }
    // A generic interface's methods mention its type parameters: their types are compared only
    // once the instantiation binds them all (`TypedReconciler[reconcile.Request]`), else the arity.
    const generic = (decl.fact.typeParams?.length ?? 0) > 0;
    for (const m of decl.fact.methods ?? [])
      out.set(m.name, {
        params: m.params.length,
        shape: generic
          ? closedShape(
              m.params.map(([, text]) => inScope(text)),
              m.results.map(([, text]) => inScope(text)),
            )
          : signatureShape(m.params, m.results, scope, (text, sc) => this.parse(text, sc)),
      });
    for (const e of decl.fact.embeds ?? []) {
      for (const [n, c] of this.interfaceMethods(inScope(e), depth + 1))
        if (!out.has(n)) out.set(n, c);
    }
    return out;
  }

  /**
   * The signature of an interface's method (embedded interfaces searched), as a func type, the
   * interface's type arguments bound (`Get` of `TypedInterface[cache.ObjectName]`).
   */
  interfaceMethodType(t: GoType, name: string): GoType {
    const found = this.interfaceMethodDecl(t, name);
    if (!found) return UNKNOWN;
    const scope = this.declScope(found.decl);
    const inScope = ([, text]: readonly [string | null, string]) =>
      substitute(this.parse(text, scope), found.args);
    return {
      k: 'func',
      params: found.method.params.map(inScope),
      results: found.method.results.map(inScope),
    };
  }

  /**
   * Concrete named types whose method set (of the pointer type, which holds every method)
   * includes all of the interface's methods, by name and signature (parameter and result types).
   */
  implementations(iface: GoType): GoType[] {
    const key = instanceKey(iface);
    const memo = this.implMemo.get(key);
    if (memo) return memo;
    const methods = this.interfaceMethods(iface);
    const found: ImplCandidate[] = [];
    let forwarding = false;
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
        const c = this.implCandidate(cand);
        if (c.iface) continue;
        let ok = true;
        let concrete = 0;
        for (const [name, want] of methods) {
          const has = this.candidateMethod(c, name);
          // A method promoted from an embedded type of the standard library (tcpProxySocket's
          // Close, from net.Listener): the type has it; nothing in the index to call.
          if (has === UNINDEXED) continue;
          if (has === MISSING) {
            ok = false;
            break;
          }
          // From an embedded interface (aws's requestError embeds an Error whose Code returns a
          // string): the signature that interface declares, compared as a declared one is.
          if (has === IMETHOD) {
            const shape = this.embeddedInterfaceShape(c.type, name);
            if (want.shape !== null && shape !== null && shape !== want.shape) {
              ok = false;
              break;
            }
            continue;
          }
          if (want.params >= 0 && has.sel.fn.fact.params.length !== want.params) ok = false;
          // Same parameter and result types: `Get(string) (*v1.Pod, error)` is not implemented by a
          // lister's `Get(string) (*v1.Example, error)`, nor by `Get` of the generic client
          // `gentype.Client[*v1.Example]` a typed client embeds.
          else if (want.shape !== null) {
            if (has.shape === undefined) has.shape = this.selectedShape(has.sel);
            if (has.shape !== null && has.shape !== want.shape) ok = false;
          }
          if (!ok) break;
          concrete++;
        }
        // A struct whose every method comes from an embedded interface only forwards to whatever it
        // holds (a wrapper, not an implementation to dispatch to); one that declares some of them
        // itself (PriorityQueue embedding PodNominator) implements the interface.
        if (ok && concrete > 0) found.push(c);
        // Every method, but only from what it embeds: not an implementation to list, but one.
        else if (ok) forwarding = true;
      }
    }
    // What the code asserts (`var _ Interface = new(cadvisorClient)`) implements it, even where
    // the index cannot see every method: some are promoted from an embedded type of a package it
    // does not hold (cadvisorClient's DockerContainer, from cadvisor's manager.Manager).
    for (const type of this.asserted().get(key) ?? []) {
      const c = this.implCandidate(`${type.pkg}.${type.name}`);
      if (!found.includes(c)) found.push(c);
    }
    found.sort((a, b) => (a.key < b.key ? -1 : 1));
    const result = found.map((c) => c.type);
    this.implMemo.set(key, result);
    if (result.length === 0 && !forwarding) this.unimplemented.add(key);
    return result;
  }

  /**
   * Whether no type of the index has the interface's methods, with their signatures as far as the
   * index reads them (as `implementations` checks): not one that declares them, nor one that has
   * them only from what it embeds (a socket's Close from net.Listener, a wrapper forwarding to an
   * embedded interface), which `implementations` leaves out.
   */
  unimplementedInIndex(iface: GoType): boolean {
    this.implementations(iface);
    return this.unimplemented.has(instanceKey(iface));
  }

  /**
   * The compile-time assertions of the indexed code, `var _ I = new(T)` (or `&T{}`, `(*T)(nil)`,
   * `T{}`) at package level: the compiler checked that T implements I. By I's key, the named
   * concrete types of indexed packages, each once.
   */
  private asserted(): Map<string, Extract<GoType, { k: 'named' }>[]> {
    if (this.assertedImpls) return this.assertedImpls;
    const out = new Map<string, Extract<GoType, { k: 'named' }>[]>();
    for (const file of this.model.files) {
      for (const v of file.facts.values) {
        if (v.name !== '_' || !v.type || !v.value || v.index !== undefined) continue;
        const ctx: Ctx = { file, fn: -1, line: v.line };
        const iface = this.parse(v.type, this.scopeFor(ctx));
        if (!this.isInterface(iface)) continue;
        const t = deref(this.typeOf(v.value, ctx));
        if (t.k !== 'named' || !this.model.packages.has(t.pkg) || this.isInterface(t)) continue;
        const key = instanceKey(iface);
        let list = out.get(key);
        if (!list) out.set(key, (list = []));
        if (!list.some((x) => x.pkg === t.pkg && x.name === t.name))
          list.push({ k: 'named', pkg: t.pkg, name: t.name });
      }
    }
    this.assertedImpls = out;
    return out;
  }

  /**
   * A type of the method index as `implementations` checks it, made once for all interfaces: v1.24's
   * ~6,800 interfaces come to ~187k candidates and ~265k method checks, of only ~40k (type, method)
   * pairs.
   */
  private implCandidate(cand: string): ImplCandidate {
    let c = this.implCandidates.get(cand);
    if (!c) {
      const dot = cand.lastIndexOf('.');
      const type: GoType = { k: 'named', pkg: cand.slice(0, dot), name: cand.slice(dot + 1) };
      c = { type, key: typeKey(type), iface: this.isInterface(type), methods: new Map() };
      this.implCandidates.set(cand, c);
    }
    return c;
  }

  /** The shape of method `name` as the interface that a type embeds declares it; null: unknown. */
  private embeddedInterfaceShape(t: GoType, name: string): string | null {
    const sel = this.select(t, name);
    if (sel?.k !== 'imethod') return null;
    return this.interfaceMethods(sel.iface).get(name)?.shape ?? null;
  }

  /** What a candidate has by a method's name: `select` asked once per type and name. */
  private candidateMethod(c: ImplCandidate, name: string): CandidateMethod {
    let m = c.methods.get(name);
    if (m === undefined) {
      const sel = this.select(c.type, name);
      if (!sel) m = this.unindexedPromoted(c.type).has(name) ? UNINDEXED : MISSING;
      else if (sel.k === 'field') m = MISSING;
      else if (sel.k === 'imethod') m = IMETHOD;
      else m = { sel, shape: undefined };
      c.methods.set(name, m);
    }
    return m;
  }

  /**
   * The shape of a selected method: its declared signature, or for a method of a generic type the
   * signature with the receiver's type arguments bound (null while any is still a parameter).
   */
  private selectedShape(sel: Extract<Selection, { k: 'method' }>): string | null {
    const fn = sel.fn;
    if (fn.fact.recv?.typeArgs?.length) {
      const t = this.methodType(sel);
      return t.k === 'func' ? closedShape(t.params, t.results) : null;
    }
    let shape = this.shapeMemo.get(fn.id);
    if (shape === undefined)
      this.shapeMemo.set(
        fn.id,
        (shape = signatureShape(fn.fact.params, fn.fact.results, fn.file.scope, (text, sc) =>
          this.parse(text, sc),
        )),
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

  /** The methods of a type of an unindexed package the rules know (the standard library's). */
  private unindexedMethods(t: GoType): ReadonlySet<string> | undefined {
    if (t.k !== 'named' || this.model.packages.has(t.pkg)) return undefined;
    return this.external.methods?.get(`${t.pkg}.${t.name}`);
  }

  /**
   * The symbol of method `name` of a standard-library type the rules know, as go/ssa names the
   * method a call reaches: `(net.Conn).Read` on an interface, `(*sync.Mutex).Lock` whether the
   * mutex is a value or a pointer, `(time.Time).Add`, `(*bufio.Writer).Flush` promoted into
   * bufio.ReadWriter. Undefined for a type or method the table does not hold.
   */
  stdMethodSymbol(t: GoType, name: string): string | undefined {
    if (!this.unindexedMethods(t)?.has(name) || t.k !== 'named') return undefined;
    const key = `${t.pkg}.${t.name}`;
    if (this.external.stdInterfaces?.has(key)) return `(${key}).${name}`;
    return this.external.declared?.get(key)?.get(name) ?? `(*${key}).${name}`;
  }

  /**
   * The type of an unindexed package (the standard library's) whose method `name` a value of
   * type `t` calls through embedding (`dsw.Lock()` on a struct embedding `sync.RWMutex`), the
   * shallowest first, with the symbol of the method the call reaches (stdMethodSymbol). Only
   * where `select` found nothing.
   */
  unindexedOwner(t: GoType, name: string): { type: GoType; symbol: string } | undefined {
    const base = deref(t);
    // A named type of the index, or a struct type written out (`var rng = struct{ sync.Mutex;
    // ... }{...}`).
    if (base.k !== 'struct' && (base.k !== 'named' || !this.model.packages.has(base.pkg)))
      return undefined;
    for (const cur of this.embeddedTypes(base)) {
      const symbol = this.stdMethodSymbol(cur, name);
      if (!symbol) continue;
      return { type: cur, symbol };
    }
    return undefined;
  }

  /**
   * The one unindexed package every implementation of `iface` in the index takes its method
   * `name` from, through an embedded type (kube-proxy's `ProxySocket.Close`: tcpProxySocket's from
   * `net.Listener`, udpProxySocket's from `*net.UDPConn`); undefined when some implementation has
   * the method of its own, takes it from another package, or none implements it.
   */
  implementedIn(iface: GoType, name: string): string | undefined {
    let pkg: string | undefined;
    for (const impl of this.implementations(iface)) {
      if (this.select(impl, name)) return undefined;
      const owner = deref(this.unindexedOwner(impl, name)?.type ?? UNKNOWN);
      const from = owner.k === 'named' ? owner.pkg : this.unindexedEmbedPackage(impl);
      if (!from || (pkg !== undefined && from !== pkg)) return undefined;
      pkg = from;
    }
    return pkg;
  }

  /**
   * The one unindexed package whose types `t` embeds, in its struct fields or its interface, at
   * any depth the index can follow: where `select` finds no method of a name, such a type is
   * where the method comes from (`so.GetFinalizers()` on a custom resource embedding
   * metav1.ObjectMeta, when apimachinery is not indexed). Undefined when `t` embeds none, or
   * types of more than one unindexed package.
   */
  unindexedEmbedPackage(t: GoType): string | undefined {
    const base = deref(t);
    if (base.k !== 'named' || !this.model.packages.has(base.pkg)) return undefined;
    const key = typeKey(base);
    let memo = this.embedPackageMemo.get(key);
    if (memo === undefined) {
      const found = new Set<string>();
      const seen = new Set<string>();
      const visit = (cur: GoType, depth: number): void => {
        const named = deref(cur);
        if (named.k !== 'named' || depth > 5 || found.size > 1) return;
        if (!this.model.packages.has(named.pkg)) {
          if (named.pkg !== '' && depth > 0) found.add(named.pkg);
          return;
        }
        const k = typeKey(named);
        if (seen.has(k)) return;
        seen.add(k);
        const decl = this.typeDecl(named);
        if (!decl) return;
        if (decl.fact.kind === 'interface') {
          const scope = this.declScope(decl);
          for (const e of decl.fact.embeds ?? []) visit(this.parse(e, scope), depth + 1);
          return;
        }
        const u = this.underlying(named);
        if (u.k === 'struct')
          for (const f of u.fields) if (f.name === null) visit(f.type, depth + 1);
      };
      visit(base, 0);
      memo = found.size === 1 ? [...found][0]! : null;
      this.embedPackageMemo.set(key, memo);
    }
    return memo ?? undefined;
  }

  /**
   * Methods a named type gets through embedded types of unindexed packages (at any depth of
   * embedding), which `select` cannot find: the index holds no declaration of them.
   */
  private unindexedPromoted(t: GoType): ReadonlySet<string> {
    const key = typeKey(t);
    const known = this.unindexedMemo.get(key);
    if (known) return known;
    const names = new Set<string>();
    for (const cur of this.embeddedTypes(deref(t)))
      for (const m of this.unindexedMethods(cur) ?? []) names.add(m);
    this.unindexedMemo.set(key, names);
    return names;
  }

  private promotedMethodNames(t: GoType): Set<string> {
    const names = new Set<string>();
    for (const cur of this.embeddedTypes(t)) {
      if (cur.k !== 'named') continue;
      for (const m of this.model.packages.get(cur.pkg)?.methods.get(cur.name)?.keys() ?? [])
        names.add(m);
      for (const m of this.unindexedMethods(cur) ?? []) names.add(m);
      if (this.isInterface(cur)) for (const m of this.interfaceMethods(cur).keys()) names.add(m);
    }
    return names;
  }

  /** The types embedded in a struct type, and in those, breadth first (five levels), each once. */
  private embeddedTypes(t: GoType): GoType[] {
    const out: GoType[] = [];
    let level: GoType[] = [t];
    const seen = new Set<string>();
    for (let depth = 0; depth < 5 && level.length; depth++) {
      const next: GoType[] = [];
      for (const cur of level) {
        const key = typeKey(cur);
        if (seen.has(key)) continue;
        seen.add(key);
        if (depth > 0) out.push(cur);
        const u = this.underlying(cur);
        if (u.k === 'struct')
          for (const f of u.fields) if (f.name === null) next.push(deref(f.type));
      }
      level = next;
    }
    return out;
  }

  /** Functions a call reaches directly (named functions and concrete methods), no value flow. */
  directCallees(callee: Expr, ctx: Ctx): FuncRef[] {
    // `F[T](x)` calls F.
    if (callee[0] === 'g') return this.directCallees(callee[1], ctx);
    if (callee[0] === 'x' && callee[2] !== undefined) {
      const generic = this.genericFunc(callee[1], ctx);
      return generic ? [generic] : [];
    }
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

  /**
   * The call fact of a call expression met inside another expression (whose arguments the nested
   * expression does not keep): same function, line and called name.
   */
  callFactAt(expr: Extract<Expr, { 0: 'c' }>, ctx: Ctx): CallFact | undefined {
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

  /** The declaration of an interface's method, and the interface declaring it (embedded ones searched). */
  interfaceMethodDecl(
    t: GoType,
    name: string,
    depth = 0,
  ):
    | { decl: TypeDecl; method: NonNullable<TypeFact['methods']>[number]; args?: TypeArgs }
    | undefined {
    if (depth > 8) return undefined;
    const decl = this.typeDecl(t);
    if (!decl) return undefined;
    const scope = this.declScope(decl);
    const args =
      t.k === 'named' ? bindTypeArgs(typeParamNames(decl.fact.typeParams), t.args) : undefined;
    // Embedded interfaces and underlying types are instantiated with this one's arguments.
    const inScope = (text: string) => substitute(this.parse(text, scope), args);
    if (decl.fact.kind === 'alias' || decl.fact.kind === 'named')
      return this.interfaceMethodDecl(inScope(decl.fact.underlying ?? ''), name, depth + 1);
    const method = decl.fact.methods?.find((x) => x.name === name);
    if (method) return { decl, method, ...(args ? { args } : {}) };
    for (const e of decl.fact.embeds ?? []) {
      const found = this.interfaceMethodDecl(inScope(e), name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
}

/** The name a call expression calls: `f` in `f(x)`, `Add` in `q.Add(x)`. */
export function calledName(callee: Expr): string | undefined {
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
  parse: (text: string, scope: TypeScope) => GoType = parseType,
): string {
  const types = (list: readonly (readonly [string | null, string])[]) =>
    list
      .map(([, text]) => {
        const key = typeKey(parse(text, scope));
        return key.includes('?')
          ? text.replace(/\b[A-Za-z_]\w*\.(?=[A-Za-z_])/g, '').replace(/\s+/g, '')
          : shapeKey(key);
      })
      .join(',');
  return `(${types(params)})(${types(results)})`;
}

/** The shape of a signature given as types, or null while a type parameter is left in it. */
function closedShape(params: readonly GoType[], results: readonly GoType[]): string | null {
  if (params.some(isOpen) || results.some(isOpen)) return null;
  const types = (list: readonly GoType[]) => list.map((t) => shapeKey(typeKey(t))).join(',');
  return `(${types(params)})(${types(results)})`;
}

function shapeKey(key: string): string {
  return key.replace(/\bany\b/g, 'interface{...}');
}

/** The names of declared type parameters (`[K comparable, V any]` -> K, V). */
function typeParamNames(
  params: readonly (readonly [string | null, string])[] | undefined,
): (string | null)[] {
  return params?.map(([n]) => n) ?? [];
}

function pick(t: GoType, index: number | undefined): GoType {
  if (index === undefined) return t.k === 'tuple' ? (t.items[0] ?? UNKNOWN) : t;
  return t.k === 'tuple' ? (t.items[index] ?? UNKNOWN) : index === 0 ? t : UNKNOWN;
}
