/**
 * One call site resolved to what it calls: a package function or a concrete method (static), the
 * implementations behind an interface method (ranked), the functions a function value can be
 * (fields, variables, returned closures, conversions), a parameter slot of the enclosing function
 * (bound per call path by the tracer), a function of an unindexed package, or nothing (builtins,
 * conversions). A call that cannot be pinned down stays unresolved with its text.
 */
import type { CallFact, Expr } from '../index/facts.js';
import type { AbstractMethod, EdgeKind } from './link-output.js';
import type { FuncRef, ValueDecl } from './model.js';
import { ALWAYS, type Needs } from './needs.js';
import { declCtx, type Ctx, type TypeChecker } from './type-checker.js';
import { deref, typeKey, type GoType } from './types.js';
import type { FieldSlot, FuncTarget, Slot, SourceRef, ValueFlow } from './value-flow.js';

export interface CallTarget {
  target: FuncRef | Slot | FieldSlot;
  kind: EdgeKind;
  rank: number;
  needs: Needs;
  /** `field`: the call reads a function-typed field of its method's own receiver. */
  via?: string;
}

export type CallResolution =
  | {
      k: 'targets';
      targets: CallTarget[];
      abstract?: AbstractMethod;
      /**
       * Implementations not listed: more than are kept as alternatives (`runtime.Object`); 0 when
       * no type of the index implements the interface.
       */
      crowded?: number;
    }
  | { k: 'external'; symbol: string }
  | {
      k: 'unresolved';
      externalPackage?: string;
      /** A function-typed field no code of the index stores a value into (a test hook). */
      neverStored?: boolean;
      /** A local or named result that holds nil wherever the index says where it comes from. */
      nilOnly?: boolean;
      /** A value ranged over a package's list that no code of the index fills. */
      neverFilled?: boolean;
    }
  | { k: 'none' };

export function resolveCall(
  types: TypeChecker,
  flow: ValueFlow,
  call: CallFact,
  ctx: Ctx,
): CallResolution {
  let callee: Expr = call.callee;
  // `F[T](x)` calls F (one type argument reads like an index expression); `(*f)(x)` calls f.
  while (
    callee[0] === 'g' ||
    (callee[0] === 'u' && callee[1] === '*') ||
    (callee[0] === 'x' && callee[2] !== undefined && types.genericFunc(callee[1], ctx))
  )
    callee = callee[0] === 'u' ? callee[2] : callee[1];
  const values = (list: FuncTarget[], kind: (t: FuncTarget) => EdgeKind): CallResolution =>
    list.length === 0
      ? { k: 'unresolved' }
      : {
          k: 'targets',
          targets: list.map((t) => ({
            target: t.k === 'fn' ? t.fn : t.slot,
            kind: kind(t),
            rank: 0,
            needs: t.needs,
          })),
        };
  switch (callee[0]) {
    case 'f': {
      const ref = types.model.funcs[ctx.file.funcIds[callee[1]] ?? -1];
      return ref
        ? { k: 'targets', targets: [{ target: ref, kind: 'closure', rank: 0, needs: ALWAYS }] }
        : { k: 'unresolved' };
    }
    case 'i': {
      const b = types.resolveIdent(callee[1], ctx);
      // No binding: a conversion to a type parameter (`PtrT(obj)`), else a name the index lacks.
      if (!b) return types.asType(callee, ctx) ? { k: 'none' } : { k: 'unresolved' };
      if (b.k === 'builtin' || b.k === 'type') return { k: 'none' };
      if (b.k === 'func')
        return {
          k: 'targets',
          targets: [{ target: b.ref, kind: 'static', rank: 0, needs: ALWAYS }],
        };
      const targets = flow.funcTargets(callee, ctx);
      if (targets.length === 0) {
        if (types.asType(callee, ctx)) return { k: 'none' };
        // `ctx, cancel := context.WithCancel(ctx); cancel()`: a function value from an unindexed package.
        const root = externalRoot(types, callee, ctx, 0, true);
        if (root) return { k: 'unresolved', externalPackage: root };
        // `for _, f := range c.runFirstFuncs { f(ctx) }` over a field no code fills.
        const { local } = b.k === 'local' ? b : {};
        if (local?.range && local.index === 1 && local.value?.[0] === 's') {
          const [, x, field] = local.value;
          const sel = types.select(types.typeOf(x, declCtx(ctx.file, local)), field);
          if (sel?.k === 'field' && flow.fieldNeverStored(sel.owner, field))
            return { k: 'unresolved', neverStored: true };
        }
        // `for _, fn := range serializerExtensions { fn(scheme) }` over a list nothing fills.
        if (local?.range && local.index === 1 && local.value?.[0] === 'i') {
          const list = types.resolveIdent(local.value[1], declCtx(ctx.file, local));
          if (list?.k === 'value' && flow.valueNeverFilled(list.decl))
            return { k: 'unresolved', neverFilled: true };
        }
        // `var cleanupAction func()` given only nil, here or by what returns it.
        if (
          (b.k === 'local' || (b.k === 'param' && b.index < 0)) &&
          flow.givesNothing({ expr: callee, ctx })
        )
          return { k: 'unresolved', nilOnly: true };
        return { k: 'unresolved' };
      }
      // A closure held in a local of this function reads as one; anything else is a function value.
      return values(targets, (t) =>
        t.k === 'fn' && t.literal && b.k === 'local' ? 'closure' : 'funcvalue',
      );
    }
    case 's': {
      const [, x, name] = callee;
      if (x[0] === 'i') {
        const b = types.resolveIdent(x[1], ctx);
        if (b?.k === 'import') {
          const pkg = types.model.packages.get(b.path);
          // A conversion to a type of an unindexed package the tables know (`time.Duration(n)`)
          // calls nothing.
          if (!pkg)
            return types.asType(callee, ctx)
              ? { k: 'none' }
              : { k: 'external', symbol: `${b.path}.${name}` };
          const fn = pkg.funcs.get(name);
          if (fn)
            return {
              k: 'targets',
              targets: [{ target: fn, kind: 'static', rank: 0, needs: ALWAYS }],
            };
          if (pkg.types.has(name)) return { k: 'none' };
          // A package-level variable holding a function (`NewControllerManagedBy = builder.ControllerManagedBy`).
          const found = values(flow.funcTargets(callee, ctx), () => 'funcvalue');
          if (found.k !== 'unresolved') return found;
          // One given a method value of a type of an unindexed package (`AddToScheme =
          // localSchemeBuilder.AddToScheme`, apimachinery's SchemeBuilder): a call into it.
          const root = externalRoot(types, callee, ctx, 0, true);
          return root ? { k: 'unresolved', externalPackage: root } : found;
        }
      }
      const xt = types.methodExpressionType(x, ctx) ?? types.typeOf(x, ctx);
      const sel = types.select(xt, name);
      if (sel?.k === 'method')
        return {
          k: 'targets',
          targets: [{ target: sel.fn, kind: 'static', rank: 0, needs: ALWAYS }],
        };
      if (sel?.k === 'imethod') {
        let found = flow.interfaceTargets(sel, x, ctx);
        // Declared by an interface this one embeds (framework.Handle embeds PodNominator), where
        // the implementations found forward the method to a field of that interface whose values
        // are not known: the call goes to one of the declaring interface's implementations.
        const declared =
          found.length === 0 ? declaringInterface(types, sel.iface, name) : undefined;
        if (declared)
          found = flow.interfaceTargets(
            { k: 'imethod', iface: declared, name, depth: sel.depth },
            x,
            ctx,
          );
        if (found.length === 0 && found.crowded) {
          const abstract = abstractMethod(types, sel.iface, name);
          if (abstract) return { k: 'targets', targets: [], abstract, crowded: found.crowded };
        }
        if (found.length === 0) {
          const it = deref(sel.iface);
          if (it.k === 'named' && !types.model.packages.has(it.pkg))
            return { k: 'external', symbol: `(${typeKey(it)}).${name}` };
          // Every implementation has the method from an embedded type of one unindexed package
          // (a proxy socket's Close, from net.Listener or *net.UDPConn): a call into it.
          const from = found.crowded ? undefined : types.implementedIn(sel.iface, name);
          if (from) return { k: 'unresolved', externalPackage: from };
          // No type of the index implements it (`meta.ListMetaAccessor.GetListMeta`, whose `List`
          // result no GetListMeta returns; go-restful's Container, in an unindexed vendor/): the
          // call is the interface's method, said to have no implementation in the index, not a
          // call the resolver could not read. Types that implement it with methods of several
          // unindexed packages stay unresolved.
          const abstract = types.unimplementedInIndex(sel.iface)
            ? abstractMethod(types, sel.iface, name)
            : undefined;
          return abstract
            ? { k: 'targets', targets: [], abstract, crowded: 0 }
            : { k: 'unresolved' };
        }
        const ranked: CallTarget[] = found.map((t) => ({
          target: t.fn,
          kind: 'interface',
          rank: t.rank,
          needs: t.needs,
        }));
        // No value known to be stored there and several implementations could be: the call is one of
        // the interface's method, not a guess among them; the implementations are its alternatives.
        const crowded = found.crowded ? { crowded: found.crowded } : {};
        if (found.some((t) => t.rank === 0)) return { k: 'targets', targets: ranked, ...crowded };
        const abstract = abstractMethod(types, sel.iface, name);
        return abstract
          ? { k: 'targets', targets: ranked, abstract, ...crowded }
          : { k: 'targets', targets: ranked, ...crowded };
      }
      if (sel?.k === 'field') {
        const found = values(flow.funcTargets(callee, ctx), () => 'funcvalue');
        // A field only ever given functions of one unindexed package (`now: time.Now`): a call
        // into that package, whose functions the index does not hold.
        if (found.k === 'unresolved') {
          const pkg = storedPackage(types, flow, flow.fieldSources.get(`${sel.owner}.${name}`));
          if (pkg) return { k: 'unresolved', externalPackage: pkg };
          if (flow.fieldNeverStored(sel.owner, name)) return { k: 'unresolved', neverStored: true };
        }
        // `bfr.fn()` on the method's own receiver: also the field itself, for the tracer to bind
        // to what the value on the path was built with.
        const slot = sel.depth === 0 ? receiverField(types, x, name, ctx) : undefined;
        if (slot && found.k === 'targets')
          found.targets.push({
            target: slot,
            kind: 'funcvalue',
            rank: 0,
            needs: ALWAYS,
            via: 'field',
          });
        return found;
      }
      const base = deref(xt);
      // A type of an unindexed package: the method its declaration names when the standard
      // library's table knows it (`mu.Lock()` on a sync.Mutex value is `(*sync.Mutex).Lock`),
      // else the type as written.
      if (base.k === 'named' && base.pkg !== '' && !types.model.packages.has(base.pkg)) {
        const symbol = types.stdMethodSymbol(base, name) ?? `(${typeKey(xt)}).${name}`;
        return { k: 'external', symbol };
      }
      // Promoted from an embedded type of the standard library (`dsw.Lock()`, `t.Sub(u)` on a
      // metav1.Time): the method that type's declaration names.
      const owner = types.unindexedOwner(xt, name);
      if (owner) return { k: 'external', symbol: owner.symbol };
      if (base.k === 'named' && base.pkg === '') return { k: 'none' };
      // Promoted from an embedded type of another unindexed package (metav1.ObjectMeta's
      // GetFinalizers): a call into that package, whose methods the index does not hold.
      const embedded = types.unindexedEmbedPackage(xt);
      if (embedded) return { k: 'unresolved', externalPackage: embedded };
      // A method of one of the unindexed interfaces an interface embeds, from more than one
      // package (cert-manager's GenericIssuer embeds runtime.Object and metav1.Object; GetUID is
      // metav1's): where every implementation has it from an embedded type of one unindexed
      // package (Issuer's metav1.ObjectMeta), a call into that package.
      const implementedIn = types.isInterface(xt) ? types.implementedIn(xt, name) : undefined;
      if (implementedIn) return { k: 'unresolved', externalPackage: implementedIn };
      const root = externalRoot(types, x, ctx, 0, true);
      return root ? { k: 'unresolved', externalPackage: root } : { k: 'unresolved' };
    }
    // `hooks[i]()`: an element of a slice or map of functions; `v.(Func)()`, what v was given
    // converted to Func.
    case 'a':
    case 'c':
    case 'x': {
      const found = values(flow.funcTargets(callee, ctx), () => 'funcvalue');
      if (found.k !== 'unresolved') return found;
      // Of an unindexed package: a generic function's instantiation (`sets.New[string]()`, which
      // reads like an index), an element of its variable, what its function returned.
      const root = externalRoot(types, callee, ctx, 0, true);
      return root ? { k: 'unresolved', externalPackage: root } : found;
    }
    default:
      return types.asType(callee, ctx) ? { k: 'none' } : { k: 'unresolved' };
  }
}

/**
 * The one unindexed package every value stored (`sources`) comes from, if there is one: values
 * that give nothing (nil, a field nothing sets, a parameter only ever passed such) aside, and a
 * local followed to what it is assigned (cert-manager's `f = os.ReadFile`, else the parameter
 * every caller passes nil).
 */
function storedPackage(
  types: TypeChecker,
  flow: ValueFlow,
  sources: readonly SourceRef[] | undefined,
  depth = 0,
): string | undefined {
  let pkg: string | undefined;
  for (const s of sources ?? []) {
    if (flow.givesNothing(s)) continue;
    let root = externalRoot(types, s.expr, s.ctx);
    const local = s.expr[0] === 'i' && types.resolveIdent(s.expr[1], s.ctx)?.k === 'local';
    if (!root && local && depth < 3)
      root = storedPackage(types, flow, flow.sourcesOf(s.expr, s.ctx), depth + 1);
    if (!root || (pkg !== undefined && root !== pkg)) return undefined;
    pkg = root;
  }
  return pkg;
}

/** The field `name` of the struct a method's receiver `x` is, when x is that receiver. */
export function receiverField(
  types: TypeChecker,
  x: Expr,
  name: string,
  ctx: Ctx,
): FieldSlot | undefined {
  if (!types.isReceiver(x, ctx)) return undefined;
  const owner = types.typeDecl(deref(types.typeOf(x, ctx)));
  return owner?.fact.kind === 'struct' ? { owner, name, elem: false, field: true } : undefined;
}

/**
 * Import path of an unindexed package an expression chain starts from (`klog.V(2).InfoS`), also
 * through locals bound to such chains (`klogV := klog.V(2); klogV.InfoS(...)`).
 */
export function externalRoot(
  types: TypeChecker,
  expr: Expr,
  ctx: Ctx,
  depth = 0,
  /**
   * Also a field of such a type (a mock's `m.ctrl.T.Helper()`, `ctrl` a `*gomock.Controller`):
   * for naming an unresolved call's package, not for the rules, whose registries would take in
   * what a struct merely keeps (apiextensions' OpenAPI builder's `b.ws...To(func...)`).
   */
  throughFields = false,
): string | undefined {
  let e: Expr = expr;
  for (let i = 0; i < 80; i++) {
    // A call returning a type of an unindexed package (`f.NewBuilder()` returning kubectl's
    // `*resource.Builder`): the rest of the chain is that package's.
    if ((e[0] === 'c' || (throughFields && e[0] === 's')) && i > 0) {
      const t = deref(types.typeOf(e, ctx));
      if (t.k === 'named' && t.pkg !== '' && !types.model.packages.has(t.pkg)) return t.pkg;
    }
    // A field promoted from an embedded type of an unindexed package
    // (`obj.DeletionTimestamp.IsZero()` on a custom resource embedding metav1.ObjectMeta).
    if (throughFields && e[0] === 's' && deref(types.typeOf(e, ctx)).k !== 'named') {
      const owner = types.typeOf(e[1], ctx);
      const embedded = types.select(owner, e[2]) ? undefined : types.unindexedEmbedPackage(owner);
      if (embedded) return embedded;
    }
    if (e[0] === 's') {
      // A package-level variable of another package of the tree (`metrics.PodsEvicted.With(...)`,
      // the variable `= metrics.NewCounterVec(...)` of an unindexed package): its initializer.
      const value =
        e[1][0] === 'i' && depth < 4 ? importedValue(types, e[1][1], e[2], ctx) : undefined;
      if (value) return valueRoot(types, value, depth, throughFields);
      e = e[1];
    } else if (e[0] === 'c' || e[0] === 'x' || e[0] === 'g' || e[0] === 'sl') e = e[1];
    else if (e[0] === 'u') e = e[2];
    else break;
  }
  if (e[0] !== 'i') return undefined;
  const b = types.resolveIdent(e[1], ctx);
  if (b?.k === 'import' && !types.model.packages.has(b.path)) return b.path;
  if (b?.k === 'local' || b?.k === 'param' || b?.k === 'value') {
    const t = deref(types.typeOfBinding(b));
    if (t.k === 'named' && t.pkg !== '' && !types.model.packages.has(t.pkg)) return t.pkg;
    if (b.k === 'local' && b.local.value && depth < 4) {
      const at = declCtx(b.file, b.local);
      return externalRoot(types, b.local.value, at, depth + 1, throughFields);
    }
    if (b.k === 'value' && depth < 4) return valueRoot(types, b.decl, depth, throughFields);
  }
  return undefined;
}

/**
 * The unindexed package whose function returned the value `x` holds, when `x` is that result
 * itself, through locals and package variables declared without a type (`g, ctx :=
 * errgroup.WithContext(ctx)`, then `g.Go(...)`): the value is of a type of that package as far
 * as the tree can tell, though the index cannot name the type. Not through fields, selectors or
 * further calls, whose results may be another package's.
 */
export function externalMaker(
  types: TypeChecker,
  x: Expr,
  ctx: Ctx,
  depth = 0,
): string | undefined {
  if (x[0] !== 'i' || depth > 4) return undefined;
  const b = types.resolveIdent(x[1], ctx);
  let value: Expr | undefined;
  let at: Ctx;
  if (b?.k === 'local') {
    const { local } = b;
    if (local.type || local.range || (local.index ?? 0) !== 0) return undefined;
    value = local.value;
    at = declCtx(b.file, local);
  } else if (b?.k === 'value') {
    const { fact } = b.decl;
    if (fact.type || (fact.index ?? 0) !== 0) return undefined;
    value = fact.value;
    at = { file: b.decl.file, fn: -1, line: fact.line };
  } else return undefined;
  if (!value) return undefined;
  if (value[0] === 'i') return externalMaker(types, value, at, depth + 1);
  if (value[0] !== 'c' || value[1][0] !== 's' || value[1][1][0] !== 'i') return undefined;
  const p = types.resolveIdent(value[1][1][1], at);
  return p?.k === 'import' && !types.model.packages.has(p.path) ? p.path : undefined;
}

/** `pkg.Name` where `pkg` imports a package of the index that declares the variable `Name`. */
function importedValue(
  types: TypeChecker,
  pkgName: string,
  name: string,
  ctx: Ctx,
): ValueDecl | undefined {
  const b = types.resolveIdent(pkgName, ctx);
  return b?.k === 'import' ? types.model.packages.get(b.path)?.values.get(name) : undefined;
}

/** externalRoot of a package-level variable declared without a type: its initializer's. */
function valueRoot(
  types: TypeChecker,
  decl: ValueDecl,
  depth: number,
  throughFields: boolean,
): string | undefined {
  const { fact } = decl;
  if (fact.type || !fact.value) return undefined;
  const at: Ctx = { file: decl.file, fn: -1, line: fact.line };
  return externalRoot(types, fact.value, at, depth + 1, throughFields);
}

/**
 * The interface that declares `name` when it is not `iface` itself but one it embeds (not for a
 * generic one, whose arguments would have to be carried over).
 */
function declaringInterface(types: TypeChecker, iface: GoType, name: string): GoType | undefined {
  const t = deref(iface);
  if (t.k !== 'named') return undefined;
  const found = types.interfaceMethodDecl(t, name);
  if (!found || found.decl.fact.typeParams?.length) return undefined;
  const { decl } = found;
  if (decl.pkg.path === t.pkg && decl.name === t.name) return undefined;
  return { k: 'named', pkg: decl.pkg.path, name: decl.name };
}

/** The interface method a call names, as a symbol `(pkg.Iface).Name` at its declaration. */
function abstractMethod(
  types: TypeChecker,
  iface: GoType,
  name: string,
): AbstractMethod | undefined {
  const t = deref(iface);
  if (t.k !== 'named') return undefined;
  const found = types.interfaceMethodDecl(t, name);
  if (!found) return undefined;
  const { decl, method } = found;
  // A generic interface is named by its origin with its declared type-parameter names, as generic
  // methods are: `(k8s.io/client-go/util/workqueue.TypedInterface[T]).Add`.
  const params = types.typeDecl(t)?.fact.typeParams?.map(([n]) => n ?? '_');
  return {
    abstract: true,
    symbol: `(${typeKey(t)}${params?.length ? `[${params.join(',')}]` : ''}).${name}`,
    name,
    pkg: t.pkg,
    file: decl.file.path,
    line: method.line,
    col: 0,
    detail: signatureText(method.params, method.results, method.variadic),
  };
}

export function signatureText(
  paramList: readonly (readonly [string | null, string])[],
  resultList: readonly (readonly [string | null, string])[],
  /** The last parameter is `...T` (its type is kept as `[]T`, as the function sees it). */
  variadic = false,
): string {
  const last = paramList.length - 1;
  const params = paramList
    .map(([n, t], i) => {
      const shown = variadic && i === last && t.startsWith('[]') ? `...${t.slice(2)}` : t;
      return n ? `${n} ${shown}` : shown;
    })
    .join(', ');
  const results = resultList.map(([n, t]) => (n ? `${n} ${t}` : t));
  const res =
    results.length === 0
      ? ''
      : results.length === 1 && !resultList[0]![0]
        ? ` ${results[0]}`
        : ` (${results.join(', ')})`;
  return `func(${params})${res}`;
}

/** An expression as written, shortened (kept with unresolved and non-static edges). */
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
      return e[1] === '...'
        ? `${exprText(e[2], depth + 1)}...`
        : `${e[1]}${exprText(e[2], depth + 1)}`;
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
