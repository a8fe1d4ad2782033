/**
 * The value-flow analysis: where values go. Stores into fields, variables and elements,
 * arguments into parameters, returns out of calls; from those, the functions a function value can
 * be, the concrete types an interface value can hold, the composite literals that reach a value,
 * and the origins of a channel. Types come from the type checker (src/resolve/type-checker.ts).
 *
 * Two things keep the answers true to one program:
 * - A function-typed parameter called (or forwarded) in its own function, or in a closure inside
 *   it, is a *slot*: its value depends on the caller on the current path, so it is left for the
 *   tracer to bind per call path (bindings are recorded at every call site), never merged over
 *   every caller in the repository.
 * - Every answer that came through code elsewhere carries the packages it came through
 *   (src/resolve/needs.ts), so a trace keeps it only when those packages are in its program.
 */
import type { Expr, FileFacts } from '../index/facts.js';
import { push } from '../shared/multimap.js';
import type { FileModel, FuncRef, ProgramModel, TypeDecl, ValueDecl } from './model.js';
import { ALWAYS, both, either, through, type Needs } from './needs.js';
import { isTestDouble } from '../shared/go-symbol.js';
import {
  callCtx,
  declCtx,
  type Binding,
  type Ctx,
  type Selection,
  type TypeChecker,
} from './type-checker.js';
import { deref, instanceKey, typeKey, type GoType } from './types.js';

export interface SourceRef {
  expr: Expr;
  ctx: Ctx;
  index?: number;
  /** For an assignment to a variable: the indentation of its line and its last line. */
  at?: { indent: number; endLine: number };
  /** Packages the step needs beyond the source's own (a function value it was returned by). */
  needs?: Needs;
  /**
   * The type the value is held as where reflection stored it (a slice's element type): Go checks
   * that only when the program runs, so stored types that cannot be held so are dropped here.
   */
  holds?: GoType;
}

/**
 * A function-typed parameter (or, `elem`, the elements of a variadic one) of a function, or the
 * receiver of a method of a function type.
 */
export interface Slot {
  fn: FuncRef;
  /** The parameter's position, or RECEIVER. */
  index: number;
  elem: boolean;
}

/**
 * Slot.index of a method's receiver of function type (`func (f RequestFunc)
 * AuthenticateRequest(req) { return f(req) }`): what the value the method is called on holds.
 */
export const RECEIVER = -1;

/**
 * A function-typed field of a struct, called through a method's own receiver (`bfr.fn()` in
 * `(*BoundedFrequencyRunner).tryRun`): what it holds depends on which value of the struct the
 * path built, so the tracer binds it per path from the calls on that value (bindings at each
 * call whose receiver's construction is known). Without a binding the call keeps the field's
 * values over the program.
 */
export interface FieldSlot {
  owner: TypeDecl;
  name: string;
  elem: false;
  field: true;
}

export type FuncTarget =
  | { k: 'fn'; fn: FuncRef; literal: boolean; needs: Needs }
  | { k: 'slot'; slot: Slot; needs: Needs };

export interface StoredType {
  type: GoType;
  needs: Needs;
}

export interface ReachingLiteral {
  lit: Expr;
  ctx: Ctx;
  needs: Needs;
}

export interface InterfaceTarget {
  fn: FuncRef;
  rank: number;
  needs: Needs;
}

/** Where a channel comes from: the field, variable or `make` it was stored in first. */
export interface ChannelOrigin {
  key: string;
  label: string;
  needs: Needs;
  /**
   * For a channel in a field: the composite literals the struct holding it can be, where they are
   * found through locals, fields, parameters and channels alone (`req := scrapeRequest{done:
   * make(...)}`; `for req := range p.scrapeChan`, what was sent on it), not through a call. Two
   * requests made apart hand nothing to each other through their `done`.
   */
  made?: () => ReadonlySet<Expr> | undefined;
}

/** Beyond this many stored types an interface value is reported, not expanded. */
export const MAX_TARGETS = 40;

/**
 * Function values kept for one expression, and sources looked at for them. Each value carries the
 * packages it needs and a trace keeps those of its program: a cut before that filter, at 40 in
 * file order, left out the program's own (ctr's subcommands past the 41st of the tree's).
 */
const MAX_FUNCTION_VALUES = 400;

/** Flow steps look at this many sources of one value (a helper called from 5,000 places has 5,000). */
export const MAX_SOURCES = 64;

/** Interface calls keep this many lower-ranked implementations as alternatives. */
export const MAX_ALTERNATIVES = 40;

/**
 * Steps a function value is followed back through. A filter of the API server's handler chain is
 * nine away from the server that calls it (a field, a closure's result, a function-valued field,
 * a local reassigned per filter, a wrapper's result, a conversion).
 */
const MAX_DEPTH = 9;
/**
 * Steps a stored type is followed back through: past eight, `runtime.Object` funnels mix them.
 * Six was enough while every assignment of a local reached every read of it, whose answers (kept
 * per expression) gave shortcuts; with only the assignments that can reach a read, a
 * controller-runtime reconciler's client comes from client.New seven steps away (its field, the
 * manager's and the cluster's GetClient, the cluster's field, NewClient's result, client.New's).
 */
const MAX_STORED_DEPTH = 8;

export class ValueFlow {
  readonly model: ProgramModel;
  private localMemo = new WeakMap<object, Memo<FuncTarget>>();
  private remoteMemo = new WeakMap<object, Memo<FuncTarget>>();
  /** Whether an answer being computed was cut short by the depth bound. */
  private cut = false;
  private storedMemo = new WeakMap<object, Memo<StoredType>>();
  /** Expressions storedTypes is answering now, whatever question asked (see storedTypes). */
  private readonly storedActive = new Set<object>();
  private originMemo = new WeakMap<object, ChannelOrigin[]>();
  private elementMemo = new WeakMap<object, SourceRef[]>();
  /** receiverElements's answers, by function id. */
  private readonly elementsMemo = new Map<number, boolean>();
  /** funcReceiver's answers, by function id. */
  private readonly receiverMemo = new Map<number, string | undefined>();
  /** `struct symbol.field` -> what is stored into it (assignments and keyed literals). */
  readonly fieldSources = new Map<string, SourceRef[]>();
  /** Fields (`owner.name`) assigned outside keyed literals (`x.f = v`), set after construction: those stores. */
  private readonly fieldAssigns = new Map<string, SourceRef[]>();
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
  /** Element stores into fields (`pm.plugins[name] = plugin`), by `owner.field` as fieldSources. */
  private readonly fieldElementAssigns = new Map<string, SourceRef[]>();
  /**
   * Field names written where the owner's type was not worked out (`{RunIf: f}` in a literal of
   * unknown type, `x.RunIf = f` on a value of unknown type): such a write may be into any struct
   * with a field of that name. And structs an unkeyed literal gave values the link could not
   * place.
   */
  private readonly unplacedFieldNames = new Set<string>();
  private readonly unplacedOwners = new Set<string>();
  /** How many composite literals of each named type the program writes (by type key). */
  private readonly literalSites = new Map<string, number>();

  constructor(readonly types: TypeChecker) {
    this.model = types.model;
  }

  /** Forgets every answer: what flows into parameters grew since they were computed. */
  forget(): void {
    this.localMemo = new WeakMap();
    this.remoteMemo = new WeakMap();
    this.storedMemo = new WeakMap();
    this.originMemo = new WeakMap();
    this.elementMemo = new WeakMap();
    // Methods forwarded through embedded interface fields depend on what is stored in them.
    this.methodsMemo.clear();
  }

  // ---------------------------------------------------------------- stores

  /** Indexes assignments and keyed literals by the field or variable they store into. */
  collectStores(): void {
    const t = this.types;
    for (const file of this.model.files) {
      const facts = file.facts;
      for (const c of facts.composites) {
        const lt = c.type
          ? deref(t.parse(c.type, t.scopeFor({ file, fn: c.fn, line: c.line })))
          : undefined;
        if (lt?.k !== 'named') {
          for (const [entry] of c.fields)
            if (!entry.startsWith('#')) this.unplacedFieldNames.add(entry);
          continue;
        }
        const madeType = typeKey(lt);
        this.literalSites.set(madeType, (this.literalSites.get(madeType) ?? 0) + 1);
        for (const [entry, value, line] of c.fields) {
          const key = fieldKey(t, lt, entry);
          if (!key) {
            this.unplacedOwners.add(typeKey(lt));
            continue;
          }
          const sel = t.select(lt, key);
          const owner = sel?.k === 'field' ? sel.owner : typeKey(lt);
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
          const into = this.selectedStorage(a.lhs, ctx);
          if (into?.k === 'value') push(this.valueSources, into.key, source);
          else if (into?.k === 'field') {
            push(this.fieldSources, into.key, source);
            push(this.fieldAssigns, into.key, source);
          } else this.unplacedFieldNames.add(a.lhs[2]);
        } else if (a.lhs[0] === 'x' && a.lhs[1][0] === 'i') {
          const b = t.resolveIdent(a.lhs[1][1], ctx);
          if (b?.k === 'value') push(this.valueElementAssigns, b.decl.symbol, source);
          else if (b?.k === 'local' || b?.k === 'param')
            pushIn(this.elementAssigns, file, b, source);
        } else if (a.lhs[0] === 'x' && a.lhs[1][0] === 's') {
          // `pm.plugins[name] = plugin`, `registry.Factories[k] = f`: a registry kept in a field
          // or in another package's variable.
          const into = this.selectedStorage(a.lhs[1], ctx);
          if (into?.k === 'value') push(this.valueElementAssigns, into.key, source);
          else if (into?.k === 'field') push(this.fieldElementAssigns, into.key, source);
          else this.unplacedFieldNames.add(a.lhs[1][2]);
        } else if (a.lhs[0] === 'i') {
          const b = t.resolveIdent(a.lhs[1], ctx);
          if (b?.k === 'value') push(this.valueSources, b.decl.symbol, source);
          else if (b?.k === 'local' || b?.k === 'param') {
            const at =
              a.indent === undefined
                ? {}
                : { at: { indent: a.indent, endLine: a.endLine ?? a.line } };
            pushIn(this.localAssigns, file, b, { ...source, ...at });
          }
        } else {
          // `*x.f = v`, `x.f[i][j] = v`: a write the link does not place, through the field.
          const written = writtenField(a.lhs);
          if (written) this.unplacedFieldNames.add(written);
        }
      }
      // `copy(dst, src)`: dst holds src's elements (etcd's interrupt handlers, copied before
      // they are run).
      for (const call of facts.calls) {
        if (call.callee[0] !== 'i' || call.callee[1] !== 'copy' || call.args.length !== 2) continue;
        const [dst, src] = call.args as [Expr, Expr];
        const ctx: Ctx = { file, fn: call.fn, line: call.line };
        if (t.resolveIdent('copy', ctx)?.k !== 'builtin') continue;
        this.addElements(dst, { expr: ['u', '...', src], ctx }, ctx);
      }
      // `ch <- v`: what is sent is an element of the channel, which `<-ch` and `range ch` give.
      for (const send of facts.sends) {
        // Not a signal (`done <- struct{}{}`, `ch <- true`): it carries nothing to follow.
        const v = send.value;
        if (!v || v[0] === 'n' || (v[0] === 'l' && v[1] === 'struct{}')) continue;
        const ctx: Ctx = { file, fn: send.fn, line: send.line };
        this.addElements(send.ch, { expr: v, ctx }, ctx);
      }
    }
    this.collectReceiverAppends();
  }

  /**
   * `localSchemeBuilder.Register(addDefaultingFuncs)`, where `Register` does `*sb = append(*sb, f)`
   * for each `f` of its arguments: those arguments are elements of what the call's receiver names
   * (a package variable, through a pointer variable set to its address; a local), not of every
   * value of the receiver's type: each API group's builder holds its own functions.
   */
  private collectReceiverAppends(): void {
    const t = this.types;
    // Methods that append to their own receiver: function id -> parameters whose values (each
    // element, for `each`) are appended.
    const appenders = new Map<number, { index: number; each: boolean }[]>();
    const names = new Set<string>();
    for (const file of this.model.files) {
      for (const a of file.facts.assigns) {
        if (a.lhs[0] !== 'u' || a.lhs[1] !== '*' || a.lhs[2][0] !== 'i') continue;
        const ctx: Ctx = { file, fn: a.fn, line: a.line };
        const recv = a.lhs[2][1];
        if (t.resolveIdent(recv, ctx)?.k !== 'recv') continue;
        const args = this.appendArgs(a.rhs, ctx);
        const first = args?.[0];
        if (!args || !first || first[0] !== 'u' || first[1] !== '*') continue;
        if (first[2][0] !== 'i' || first[2][1] !== recv) continue;
        const fn = this.model.funcs[file.funcIds[a.fn] ?? -1];
        if (!fn?.fact.recv) continue;
        const variadic = (index: number) =>
          fn.fact.variadic === true && index === fn.fact.params.length - 1;
        const found: { index: number; each: boolean }[] = [];
        for (const x of args.slice(1)) {
          const spread = spreadOf(x);
          const v = spread ?? x;
          if (v[0] !== 'i') continue;
          const b = t.resolveIdent(v[1], ctx);
          if (b?.k === 'param' && b.index >= 0) {
            if (spread) found.push({ index: b.index, each: true });
            else if (!variadic(b.index)) found.push({ index: b.index, each: false });
          } else if (b?.k === 'local' && b.local.range && b.local.index === 1 && !spread) {
            // `for _, f := range funcs { *sb = append(*sb, f) }` over a variadic parameter.
            const over = b.local.value;
            const p =
              over?.[0] === 'i' ? t.resolveIdent(over[1], declCtx(file, b.local)) : undefined;
            if (p?.k === 'param' && variadic(p.index)) found.push({ index: p.index, each: true });
          }
        }
        if (found.length === 0) continue;
        appenders.set(fn.id, [...(appenders.get(fn.id) ?? []), ...found]);
        names.add(fn.fact.name);
      }
    }
    if (appenders.size === 0) return;
    for (const file of this.model.files) {
      for (const call of file.facts.calls) {
        const c = call.callee;
        if (c[0] !== 's' || !names.has(c[2]) || call.args.length === 0) continue;
        const ctx = callCtx(file, call);
        const sel = t.select(t.typeOf(c[1], ctx), c[2]);
        const params = sel?.k === 'method' ? appenders.get(sel.fn.id) : undefined;
        if (!params) continue;
        const into = this.addressed(c[1], ctx);
        for (const { index, each } of params) {
          for (const arg of each ? call.args.slice(index) : call.args.slice(index, index + 1))
            this.addElements(into.expr, { expr: arg, ctx }, into.ctx);
        }
      }
    }
  }

  /**
   * The variable a pointer names, where that is known: `&v`'s v, and a package variable set only
   * to `&v` (`localSchemeBuilder = &SchemeBuilder`, `= &v1.SchemeBuilder`); else the expression
   * itself.
   */
  private addressed(x: Expr, ctx: Ctx): SourceRef {
    const named = (e: Expr) => e[0] === 'i' || e[0] === 's';
    if (x[0] === 'u' && x[1] === '&' && named(x[2])) return { expr: x[2], ctx };
    if (x[0] !== 'i') return { expr: x, ctx };
    const b = this.types.resolveIdent(x[1], ctx);
    const v = b?.k === 'value' ? b.decl.fact.value : undefined;
    if (b?.k !== 'value' || !v || this.valueSources.has(b.decl.symbol)) return { expr: x, ctx };
    // (`&v1.SchemeBuilder`: another package's builder, which this package's init fills too.)
    if (v[0] !== 'u' || v[1] !== '&' || !named(v[2])) return { expr: x, ctx };
    return { expr: v[2], ctx: { file: b.decl.file, fn: -1, line: b.decl.fact.line } };
  }

  /**
   * Whether no code of the index gives the field `owner.name` a value: no literal or assignment
   * gives it or its elements one, but nil or a copy of another such field (etcd's
   * `sctx.serviceRegister = cfg.ServiceRegister`) or of a parameter every caller passes such a
   * field (`newDecoratedWatcher(w, e.Decorator)`), and no write the link could not place names a
   * field of that name. A hook only tests or other programs set (kubeadm's `Phase.RunIf`, the pod
   * workers' `workerChannelFn`). Asked once the arguments are recorded.
   */
  fieldNeverStored(owner: string, name: string, seen = new Set<string>()): boolean {
    const key = `${owner}.${name}`;
    if (
      this.fieldElementAssigns.has(key) ||
      this.unplacedFieldNames.has(name) ||
      this.unplacedOwners.has(owner)
    )
      return false;
    // A copy of itself, back round a cycle, gives it nothing more.
    if (seen.has(key)) return true;
    seen.add(key);
    return (this.fieldSources.get(key) ?? []).every((s) => this.givesNothing(s, seen));
  }

  /**
   * Whether no code of the index puts anything in a package's list: unexported, declared with no
   * value or an empty literal, never assigned nor given elements, its address taken nowhere in
   * its package (apimachinery's `serializerExtensions`, which files built in elsewhere append to).
   */
  valueNeverFilled(decl: ValueDecl): boolean {
    const { symbol, fact } = decl;
    if (!/^[a-z_]/.test(fact.name)) return false;
    if (this.valueSources.has(symbol) || this.valueElementAssigns.has(symbol)) return false;
    const v = fact.value;
    if (v && !(v[0] === 'l' && v[2].length === 0 && !v[3]?.length)) return false;
    return !decl.pkg.files.some((f) => addressTaken(f, fact.name));
  }

  /**
   * Whether a value is nil wherever the index tells where it comes from: nil itself, a field no
   * code sets (above), a parameter every recorded call passes such a value, a local declared with
   * none (`var cleanupAction func()`) or given only such values, a named result likewise, or the
   * result of a call whose every callee returns such a value there. The kubelet's `cleanupAction`
   * comes back through two interfaces from a subpath's `cleanupAction = nil`, and no
   * implementation of either returns anything else. Bounded: past MAX_SOURCES steps, it is not.
   */
  givesNothing(s: SourceRef, seen = new Set<string>()): boolean {
    const e = s.expr;
    if (e[0] === 'n') return e[1] === 'nil';
    if (seen.size > MAX_SOURCES) return false;
    if (e[0] === 's') {
      const from = this.selectedStorage(e, s.ctx);
      if (from?.k !== 'field') return false;
      const dot = from.key.lastIndexOf('.');
      return this.fieldNeverStored(from.key.slice(0, dot), from.key.slice(dot + 1), seen);
    }
    if (e[0] === 'c') return this.returnsNothing(e, s.index ?? 0, s.ctx, seen);
    if (e[0] !== 'i') return false;
    const b = this.types.resolveIdent(e[1], s.ctx);
    if (b?.k === 'local' || (b?.k === 'param' && b.index < 0))
      return this.holdsNothing(e, b, s, seen);
    if (b?.k !== 'param') return false;
    const f = b.file.facts.funcs[b.fn];
    const ref = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
    if (!f || !ref || (f.variadic && b.index === f.params.length - 1)) return false;
    const args = this.argSources.get(ref.id)?.get(b.index);
    const key = `${ref.id}#${b.index}`;
    if (!args?.length) return false;
    if (seen.has(key)) return true;
    seen.add(key);
    return args.every((a) => this.givesNothing(a, seen));
  }

  /**
   * A local or a named result that holds nil wherever it is given a value: its declaration gives
   * none (`var x T`, or a named result's start) or nil, and every assignment that reaches `s`
   * gives nothing. Not one whose address is taken in its file (`&x`): what is stored through the
   * pointer is not placed.
   */
  private holdsNothing(
    e: Extract<Expr, { 0: 'i' }>,
    b: Extract<Binding, { k: 'local' | 'param' }>,
    s: SourceRef,
    seen: Set<string>,
  ): boolean {
    if (b.k === 'local' && (b.local.range || (!b.local.zero && !b.local.value))) return false;
    const key = `${b.file.path}:${localKey(b)}`;
    if (seen.has(key)) return true;
    seen.add(key);
    if (addressTaken(b.file, e[1])) return false;
    return this.sourcesOf(e, s.ctx).every((from) => this.givesNothing(from, seen));
  }

  /**
   * Whether every function the call `call` can reach returns nothing at result `index`: named
   * functions and concrete methods, or every implementation of an interface's method. Not a call
   * of a function value, or of a function with no return statement.
   */
  private returnsNothing(
    call: Extract<Expr, { 0: 'c' }>,
    index: number,
    ctx: Ctx,
    seen: Set<string>,
  ): boolean {
    const callee = call[1];
    let callees: readonly FuncRef[] = this.types.directCallees(callee, ctx);
    if (callees.length === 0 && callee[0] === 's') {
      const recv = this.types.typeOf(callee[1], ctx);
      const sel = this.types.select(recv, callee[2]);
      if (sel?.k === 'imethod' && !sel.embeddedIn && this.types.isInterface(recv))
        callees = this.implementingMethods(recv, callee[2]).all;
    }
    if (callees.length === 0) return false;
    for (const fn of callees) {
      const key = `${fn.id}@${index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const results = fn.fact.results;
      let returns = 0;
      for (const ret of fn.file.facts.returns) {
        if (ret.fn !== fn.index) continue;
        returns++;
        const at: Ctx = { file: fn.file, fn: ret.fn, line: ret.line };
        const named = results[index]?.[0];
        // A bare `return` gives the named result's value; `return f()` gives f's results.
        const from: SourceRef | undefined =
          ret.values.length === 0
            ? named
              ? { expr: ['i', named], ctx: at }
              : undefined
            : ret.values.length === 1 && results.length > 1
              ? { expr: ret.values[0]!, ctx: at, index }
              : ret.values[index] && { expr: ret.values[index], ctx: at };
        if (!from || !this.givesNothing(from, seen)) return false;
      }
      if (returns === 0) return false;
    }
    return true;
  }

  /**
   * Elements appended through reflection: with `v := reflect.ValueOf(p).Elem()`,
   * `v.Set(reflect.Append(v, reflect.ValueOf(x)))` appends x to the slice p points to. The
   * scheduler fills each extension point's plugin list so (`updatePluginList(e.slicePtr, ...)`,
   * `slicePtr` being `&f.filterPlugins` in a literal): its plugins are stored nowhere else (their
   * factories lie past MAX_STORED_DEPTH from where the lists are read, so on Kubernetes they stay
   * alternatives; docs/accuracy.md). p is followed back to the `&s` it holds, through parameters
   * too: call this once the arguments of direct calls are recorded. Returns how many stores it
   * added.
   */
  collectReflectStores(): number {
    let added = 0;
    for (const file of this.model.files) {
      for (const call of file.facts.calls) {
        const callee = call.callee;
        if (callee[0] !== 's' || callee[2] !== 'Set' || call.args.length !== 1) continue;
        if (call.fn < 0) continue;
        const ctx: Ctx = { file, fn: call.fn, line: call.line };
        const pointers = this.reflectElemOf(callee[1], ctx);
        if (pointers.length === 0) continue;
        const values = this.reflectAppended(call.args[0]!, callee[1], ctx);
        if (values.length === 0) continue;
        for (const p of pointers)
          for (const into of this.pointees(p.expr, p.ctx)) {
            const list = this.types.underlying(this.types.typeOf(into.expr, into.ctx));
            if (list.k !== 'slice') continue;
            for (const value of values)
              if (this.addElements(into.expr, { ...value, holds: list.elem }, into.ctx)) added++;
          }
      }
    }
    return added;
  }

  /** Whether `expr` calls `reflect.<name>`. */
  private isReflectCall(expr: Expr, name: string, ctx: Ctx): expr is Extract<Expr, { 0: 'c' }> {
    if (expr[0] !== 'c' || expr[1][0] !== 's' || expr[1][2] !== name) return false;
    const x = expr[1][1];
    if (x[0] !== 'i') return false;
    const b = this.types.resolveIdent(x[1], ctx);
    return b?.k === 'import' && b.path === 'reflect';
  }

  /** A call's arguments, whole from its own fact, else those the expression kept (not all). */
  private argsOf(call: Extract<Expr, { 0: 'c' }>, ctx: Ctx): readonly Expr[] {
    return this.types.callFactAt(call, ctx)?.args ?? call[2];
  }

  /** The pointers p of the `reflect.ValueOf(p).Elem()` a value is (itself, or a variable's value). */
  private reflectElemOf(v: Expr, ctx: Ctx): SourceRef[] {
    const out: SourceRef[] = [];
    for (const s of [{ expr: v, ctx }, ...(v[0] === 'i' ? this.sourcesOf(v, ctx) : [])]) {
      const e = s.expr;
      if (e[0] !== 'c' || e[1][0] !== 's' || e[1][2] !== 'Elem') continue;
      const inner = e[1][1];
      if (!this.isReflectCall(inner, 'ValueOf', s.ctx)) continue;
      const p = this.argsOf(inner, s.ctx)[0];
      if (p) out.push({ expr: p, ctx: s.ctx });
    }
    return out;
  }

  /** The x of each `reflect.ValueOf(x)` that `reflect.Append(recv, ...)` appends, where `set` is that. */
  private reflectAppended(set: Expr, recv: Expr, ctx: Ctx): SourceRef[] {
    const t = this.types;
    const self = recv[0] === 'i' ? t.resolveIdent(recv[1], ctx) : undefined;
    const out: SourceRef[] = [];
    for (const s of [{ expr: set, ctx }, ...(set[0] === 'i' ? this.sourcesOf(set, ctx) : [])]) {
      if (!this.isReflectCall(s.expr, 'Append', s.ctx)) continue;
      const [base, ...values] = this.argsOf(s.expr, s.ctx);
      // Appended to the value it is set into: `v.Set(reflect.Append(v, ...))`.
      if (base?.[0] !== 'i' || !sameBinding(t.resolveIdent(base[1], s.ctx), self)) continue;
      for (const value of values)
        if (this.isReflectCall(value, 'ValueOf', s.ctx)) {
          const x = this.argsOf(value, s.ctx)[0];
          if (x) out.push({ expr: x, ctx: s.ctx });
        }
    }
    return out;
  }

  /** What a pointer can point to: the `s` of each `&s` that flows into it, a few steps back. */
  private pointees(p: Expr, ctx: Ctx): SourceRef[] {
    const out: SourceRef[] = [];
    const queue: SourceRef[] = [{ expr: p, ctx }];
    const seen = new Set<Expr>([p]);
    for (let i = 0; i < queue.length && i < MAX_SOURCES; i++) {
      const s = queue[i]!;
      if (s.expr[0] === 'u' && s.expr[1] === '&') {
        out.push({ expr: s.expr[2], ctx: s.ctx });
        continue;
      }
      for (const next of this.sourcesOf(s.expr, s.ctx))
        if (!seen.has(next.expr)) {
          seen.add(next.expr);
          queue.push(next);
        }
    }
    return out;
  }

  /** Where an element store into `x` goes: a field, another package's variable, or a variable here. */
  private storageOf(
    x: Expr,
    ctx: Ctx,
  ):
    | { k: 'value' | 'field'; key: string }
    | { k: 'local'; b: Extract<Binding, { k: 'local' | 'param' }> }
    | undefined {
    if (x[0] === 's') {
      const into = this.selectedStorage(x, ctx);
      return into && { k: into.k, key: into.key };
    }
    if (x[0] !== 'i') return undefined;
    const b = this.types.resolveIdent(x[1], ctx);
    if (b?.k === 'value') return { k: 'value', key: b.decl.symbol };
    if (b?.k === 'local' || b?.k === 'param') return { k: 'local', b };
    return undefined;
  }

  /**
   * Whether a value of type `type` can be held as `as`: it has every method of an interface, or
   * is the type itself.
   */
  private canHold(as: GoType, type: GoType): boolean {
    const t = this.types;
    if (!t.isInterface(as)) return typeKey(deref(as)) === typeKey(deref(type));
    for (const name of t.interfaceMethods(as).keys()) {
      const m = t.select(type, name);
      if (m?.k !== 'method' && m?.k !== 'imethod') return false;
    }
    return true;
  }

  /**
   * What `x.name` stores into: another package's variable (`path.name`, keyed as valueSources) or
   * a field (`owner.name`, keyed as fieldSources).
   */
  private selectedStorage(
    expr: Extract<Expr, { 0: 's' }>,
    ctx: Ctx,
  ): { k: 'value'; path: string; key: string } | { k: 'field'; key: string } | undefined {
    const t = this.types;
    const [, x, name] = expr;
    if (x[0] === 'i') {
      const b = t.resolveIdent(x[1], ctx);
      if (b?.k === 'import') return { k: 'value', path: b.path, key: `${b.path}.${name}` };
    }
    const sel = t.select(t.typeOf(x, ctx), name);
    return sel?.k === 'field' ? { k: 'field', key: `${sel.owner}.${name}` } : undefined;
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

  /**
   * Records `arg` as collected into the value `into` (a framework's `collects` method): a local,
   * a package variable (etcdctl's `rootCmd.AddCommand(...)` in an init) or a field.
   */
  addCollected(into: Expr, arg: Expr, ctx: Ctx): void {
    this.addElements(into, { expr: arg, ctx }, ctx);
  }

  /**
   * Records `source` as an element of what `into` stores into (a local, variable or field);
   * false where that is none of them.
   */
  private addElements(into: Expr, source: SourceRef, ctx: Ctx): boolean {
    const key = this.storageOf(into, ctx);
    if (key?.k === 'local') pushIn(this.elementAssigns, key.b.file, key.b, source);
    else if (key)
      push(
        key.k === 'value' ? this.valueElementAssigns : this.fieldElementAssigns,
        key.key,
        source,
      );
    return key !== undefined;
  }

  // ---------------------------------------------------------------- one step back

  /** The expressions that can flow into an expression's storage (one step back). */
  sourcesOf(expr: Expr, ctx: Ctx): SourceRef[] {
    const t = this.types;
    if (expr[0] === 'i') {
      const b = t.resolveIdent(expr[1], ctx);
      if (!b) return [];
      if (b.k === 'local') {
        if (b.local.range && b.local.value) {
          // `for _, v := range x`: v holds x's elements; `for v := range ch`, what is sent on ch.
          const at = declCtx(b.file, b.local);
          const index = t.underlying(t.typeOf(b.local.value, at)).k === 'chan' ? 0 : 1;
          return b.local.index === index ? this.elementSources(b.local.value, at) : [];
        }
        const { assigns, initial } = visibleAssigns(
          this.localAssigns.get(b.file)?.get(localKey(b)) ?? [],
          b.local.fn,
          b.local.indent,
          b.local.line,
          ctx,
          b.file.facts,
        );
        const out: SourceRef[] = [];
        if (initial && b.local.value) {
          out.push({
            expr: b.local.value,
            ctx: declCtx(b.file, b.local),
            ...(b.local.index !== undefined ? { index: b.local.index } : {}),
          });
        }
        out.push(...assigns);
        return out;
      }
      if (b.k === 'param') {
        const decl = b.file.facts.funcs[b.fn];
        const { assigns, initial } = visibleAssigns(
          this.localAssigns.get(b.file)?.get(localKey(b)) ?? [],
          b.fn,
          decl?.indent === undefined ? undefined : decl.indent + 1,
          decl?.line ?? 0,
          ctx,
          b.file.facts,
        );
        const ref = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
        const fromCalls = initial && ref ? (this.argSources.get(ref.id)?.get(b.index) ?? []) : [];
        return [...fromCalls, ...assigns];
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
      const from = this.selectedStorage(expr, ctx);
      if (from?.k === 'value') {
        const decl = this.model.packages.get(from.path)?.values.get(expr[2]);
        const out: SourceRef[] = [];
        if (decl?.fact.value)
          out.push({
            expr: decl.fact.value,
            ctx: { file: decl.file, fn: -1, line: decl.fact.line },
          });
        out.push(...(this.valueSources.get(from.key) ?? []));
        return out;
      }
      return from ? (this.fieldSources.get(from.key) ?? []) : [];
    }
    // `<-ch`: what is sent on ch.
    if (expr[0] === 'u' && expr[1] === '<-') return this.elementSources(expr[2], ctx);
    if (expr[0] === 'u' || expr[0] === 'g')
      return this.sourcesOf(expr[0] === 'u' ? expr[2] : expr[1], ctx);
    // `v.(Shape)`: what flows into v flows on (the assertion only narrows it).
    if (expr[0] === 'a') return [{ expr: expr[1], ctx }];
    // `m[k]`: the elements stored in m.
    if (expr[0] === 'x') return this.elementSources(expr[1], ctx);
    return [];
  }

  /**
   * Values stored as elements of a slice or map: literal entries and `m[k] = v` assignments.
   * `bound`: the call whose result is asked for, when `expr` is in the function it calls: its
   * variadic parameter holds that call's arguments, not every caller's.
   */
  elementSources(expr: Expr, ctx: Ctx, depth = 0, bound?: ArgBinding): SourceRef[] {
    // Memoized per expression, as funcTargets is: without it a chain of maps handed through
    // parameters, fields and returns is walked again from every step (exponential past a few).
    // (Not for one call's answer, which differs from call to call.)
    const hit = bound ? undefined : this.elementMemo.get(expr);
    if (hit) return hit;
    // sourcesOf and elementSources call each other (`m[k]` of a map of maps): one bound for both.
    if (depth > 10 || this.elementDepth > 12 || this.elementActive.has(expr)) return [];
    this.elementDepth++;
    this.elementActive.add(expr);
    try {
      const result = this.elementSourcesUnguarded(expr, ctx, depth, bound);
      if (!bound) this.elementMemo.set(expr, result);
      return result;
    } finally {
      this.elementDepth--;
      this.elementActive.delete(expr);
    }
  }

  /**
   * Element stores as read: a spread stored (`copy(dst, src)`, `root.AddCommand(subs...)`) gives
   * its own elements.
   */
  private storedElements(
    list: readonly SourceRef[] | undefined,
    depth: number,
    bound?: ArgBinding,
  ): SourceRef[] {
    const out: SourceRef[] = [];
    for (const s of list ?? []) {
      const spread = spreadOf(s.expr);
      const inBound =
        bound && s.ctx.file === bound.file && s.ctx.fn === bound.fn ? bound : undefined;
      if (spread) out.push(...this.elementSources(spread, s.ctx, depth + 1, inBound));
      else out.push(s);
    }
    return out;
  }

  private elementSourcesUnguarded(
    expr: Expr,
    ctx: Ctx,
    depth: number,
    bound?: ArgBinding,
  ): SourceRef[] {
    if (expr[0] === 'l') return (expr[3] ?? []).map((e) => ({ expr: e, ctx }));
    // `&v`, `*p`: what v holds (a builder's functions, read through the pointer its method has).
    if (expr[0] === 'u' && (expr[1] === '&' || expr[1] === '*'))
      return this.elementSources(expr[2], ctx, depth + 1, bound);
    const t = this.types;
    const out: SourceRef[] = [];
    if (expr[0] === 'i') {
      const b = t.resolveIdent(expr[1], ctx);
      if (b && (b.k === 'local' || b.k === 'param'))
        out.push(
          ...this.storedElements(this.elementAssigns.get(b.file)?.get(localKey(b)), depth, bound),
        );
      if (b?.k === 'value')
        out.push(...this.storedElements(this.valueElementAssigns.get(b.decl.symbol), depth));
      if (b?.k === 'param') {
        // `func New(opts ...Option)`: each argument in the variadic position is an element; a
        // spread argument `opts...` passes its own elements.
        const f = b.file.facts.funcs[b.fn];
        const ref = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
        if (f?.variadic && ref && b.index === f.params.length - 1) {
          const passed =
            bound && bound.file === b.file && bound.fn === b.fn
              ? bound.args.slice(b.index).map((a) => ({ expr: a, ctx: bound.ctx }))
              : (this.argSources.get(ref.id)?.get(b.index) ?? []);
          for (const arg of passed) {
            const spread = spreadOf(arg.expr);
            if (spread) out.push(...this.elementSources(spread, arg.ctx, depth + 1));
            else out.push(arg);
          }
          return out;
        }
      }
    }
    if (expr[0] === 's') {
      const from = this.selectedStorage(expr, ctx);
      if (from)
        out.push(
          ...this.storedElements(
            (from.k === 'value' ? this.valueElementAssigns : this.fieldElementAssigns).get(
              from.key,
            ),
            depth,
          ),
        );
    }
    const appended = this.appendArgs(expr, ctx);
    if (appended) {
      // `all = append(base, more...)`: base's elements and each value appended.
      const [first, ...rest] = appended;
      if (first) out.push(...this.elementSources(first, ctx, depth + 1));
      out.push(...this.appendedValues(rest, ctx, depth));
      return out.slice(0, MAX_SOURCES * 4);
    }
    if (expr[0] === 'c') {
      // A function returning a map or slice (`initializersFunc(loopMode)` too): the elements of
      // what it returns.
      const args = this.argsOf(expr, ctx);
      for (const { fn: callee, needs } of this.calledFunctions(expr[1], ctx)) {
        // Its variadic parameter holds this call's arguments (`NewSchemeBuilder(addKnownTypes)`).
        const inner: ArgBinding | undefined =
          args.length > 0 && callee.fact.variadic
            ? { file: callee.file, fn: callee.index, args, ctx }
            : undefined;
        for (const ret of callee.file.facts.returns) {
          if (ret.fn !== callee.index || !ret.values[0]) continue;
          const at: Ctx = { file: callee.file, fn: ret.fn, line: ret.line };
          for (const s of this.elementSources(ret.values[0], at, depth + 1, inner))
            out.push(needs === ALWAYS ? s : { ...s, needs: both(s.needs ?? ALWAYS, needs) });
        }
      }
      return out;
    }
    // The variable's values: each one's elements, through its own appends (`all = append(all,
    // probe)`).
    out.push(
      ...this.appendedToItself(expr, ctx, depth, (s) =>
        this.elementSources(s.expr, s.ctx, depth + 1),
      ),
    );
    return out.slice(0, MAX_SOURCES * 4);
  }

  /**
   * The values a variable was given by `x = append(x, v...)` that reach `x` here, following each
   * append's own `x` back; each other value that reaches it goes through `other` (left out without
   * one: for a parameter, its slot stands for them). As often as a function appends (thirty in a
   * row, as kubelet gathers its volume plugins): followed here in a loop, not by recursion, which
   * went past the depth bound and lost the first ones.
   */
  private appendedToItself(
    x: Expr,
    ctx: Ctx,
    depth: number,
    other?: (s: SourceRef) => SourceRef[],
  ): SourceRef[] {
    const t = this.types;
    const self = x[0] === 'i' ? t.resolveIdent(x[1], ctx) : undefined;
    const out: SourceRef[] = [];
    const queue = this.sourcesOf(x, ctx).slice(0, MAX_SOURCES);
    const seen = new Set<Expr>(queue.map((q) => q.expr));
    for (let i = 0; i < queue.length && i < MAX_SOURCES * 4; i++) {
      const s = queue[i]!;
      const args = self ? this.appendArgs(s.expr, s.ctx) : undefined;
      const first = args?.[0];
      if (args && first?.[0] === 'i' && sameBinding(t.resolveIdent(first[1], s.ctx), self)) {
        out.push(...this.appendedValues(args.slice(1), s.ctx, depth));
        for (const before of this.sourcesOf(first, s.ctx))
          if (!seen.has(before.expr)) {
            seen.add(before.expr);
            queue.push(before);
          }
        continue;
      }
      if (other) out.push(...other(s));
    }
    return out;
  }

  /** The arguments of a call of the builtin `append` (the call site's: an expression keeps one). */
  private appendArgs(expr: Expr, ctx: Ctx): readonly Expr[] | undefined {
    if (expr[0] !== 'c' || expr[1][0] !== 'i' || expr[1][1] !== 'append') return undefined;
    if (this.types.resolveIdent('append', ctx)?.k !== 'builtin') return undefined;
    return this.argsOf(expr, ctx);
  }

  /** Values appended after the first argument: each one, or a spread slice's elements. */
  private appendedValues(args: readonly Expr[], ctx: Ctx, depth: number): SourceRef[] {
    const out: SourceRef[] = [];
    for (const arg of args) {
      const spread = spreadOf(arg);
      if (spread) out.push(...this.elementSources(spread, ctx, depth + 1));
      else out.push({ expr: arg, ctx });
    }
    return out;
  }

  // ---------------------------------------------------------------- function values

  /**
   * The functions a function value can be: literals, named functions, method values — followed
   * through locals, fields, package variables, conversions, parameters and returned closures.
   *
   * `local` (the default) asks from the expression's own function: a parameter of that function
   * or of a function enclosing it is then a slot, bound per call path by the tracer. Once the flow
   * leaves the function (into a field, a variable, another function's return), parameters stand
   * for whatever every caller passes, with the callers' packages as needs.
   */
  funcTargets(
    expr: Expr,
    ctx: Ctx,
    local = true,
    depth = 0,
    seen = new Set<object>(),
  ): FuncTarget[] {
    // Memoized per expression and mode: each expression sits in one place, so its answer does not
    // depend on who asks. (An answer cut short by a cycle stays cut: the analysis approximates.
    // One cut short by the depth bound does not, see `memoized`.)
    return this.memoized(
      local ? this.localMemo : this.remoteMemo,
      expr,
      depth,
      MAX_DEPTH,
      seen,
      () => this.funcTargetsUncached(expr, ctx, local, depth, seen),
    );
  }

  /**
   * `compute`'s answer and whether something cut it short, `this.cut` left as it was before: the
   * caller decides whether a cut answer is used (and then says so) or refused.
   */
  private cutApart<T>(compute: () => T): { result: T; cut: boolean } {
    const outer = this.cut;
    this.cut = false;
    try {
      const result = compute();
      return { result, cut: this.cut };
    } finally {
      this.cut = outer;
    }
  }

  /**
   * An answer memoized per expression. One cut short by the depth bound is kept with the depth it
   * was asked at: asked again nearer the start of a chain (a filter of a long handler chain), it
   * is computed again.
   */
  private memoized<T>(
    memo: WeakMap<object, Memo<T>>,
    expr: Expr,
    depth: number,
    max: number,
    seen: Set<object>,
    compute: () => T[],
    pathOnly = false,
  ): T[] {
    const hit = memo.get(expr);
    if (hit && (hit.depth === undefined || hit.depth <= depth)) {
      if (hit.depth !== undefined) this.cut = true;
      return hit.result;
    }
    if (depth > max) {
      this.cut = true;
      return [];
    }
    if (seen.has(expr)) {
      // With `pathOnly`, `seen` holds the expressions on the way here: cut short like the bound.
      if (pathOnly) this.cut = true;
      return [];
    }
    seen.add(expr);
    const { result, cut } = this.cutApart(compute);
    if (pathOnly) seen.delete(expr);
    memo.set(expr, cut ? { result, depth } : { result });
    this.cut ||= cut;
    return result;
  }

  private funcTargetsUncached(
    expr: Expr,
    ctx: Ctx,
    local: boolean,
    depth: number,
    seen: Set<object>,
  ): FuncTarget[] {
    const t = this.types;
    switch (expr[0]) {
      case 'f': {
        const ref = this.model.funcs[ctx.file.funcIds[expr[1]] ?? -1];
        return ref ? [{ k: 'fn', fn: ref, literal: true, needs: ALWAYS }] : [];
      }
      case 'i': {
        const b = t.resolveIdent(expr[1], ctx);
        if (b?.k === 'func') return [{ k: 'fn', fn: b.ref, literal: false, needs: ALWAYS }];
        if (local && b?.k === 'param' && b.index >= 0) {
          const fn = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
          if (!fn || !this.isFuncType(b.type, { file: b.file, fn: b.fn, line: 0 })) return [];
          const out: FuncTarget[] = [
            { k: 'slot', slot: { fn, index: b.index, elem: false }, needs: ALWAYS },
          ];
          // `f = wrap(f)` inside the function: what it assigns, too.
          for (const s of this.localAssigns.get(b.file)?.get(localKey(b)) ?? [])
            out.push(...this.funcTargets(s.expr, s.ctx, true, depth + 1, seen));
          return mergeTargets(out);
        }
        // `f(req)` in a method of a function type: what the value it is called on holds.
        if (local && b?.k === 'recv') {
          const fn = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
          if (fn && this.funcReceiver(fn))
            return [{ k: 'slot', slot: { fn, index: RECEIVER, elem: false }, needs: ALWAYS }];
          return [];
        }
        if (local && b?.k === 'local' && b.local.range && b.local.index === 1 && b.local.value) {
          // `for _, opt := range opts { opt(&o) }` over a variadic parameter: its elements' slot.
          const slot = this.elementSlot(b.local.value, declCtx(b.file, b.local));
          if (slot) return [{ k: 'slot', slot, needs: ALWAYS }];
        }
        break;
      }
      case 's': {
        const [, x, name] = expr;
        if (x[0] === 'i') {
          const b = t.resolveIdent(x[1], ctx);
          if (b?.k === 'import') {
            const fn = this.model.packages.get(b.path)?.funcs.get(name);
            if (fn) return [{ k: 'fn', fn, literal: false, needs: ALWAYS }];
            break;
          }
        }
        const sel = t.select(t.methodExpressionType(x, ctx) ?? t.typeOf(x, ctx), name);
        if (sel?.k === 'method') return [{ k: 'fn', fn: sel.fn, literal: false, needs: ALWAYS }];
        if (sel?.k === 'imethod') {
          return this.interfaceTargets(sel, x, ctx)
            .filter((it) => it.rank === 0)
            .map((it) => ({ k: 'fn', fn: it.fn, literal: false, needs: it.needs }));
        }
        if (sel?.k === 'field' && this.types.underlying(sel.type).k === 'func') {
          // What this value was built with (`helpCommand.Action`, a package variable's literal),
          // not what every value of the struct holds; a parameter's slot only when asked locally.
          const built = this.fieldValues(x, ctx, sel.owner, name, depth + 1, seen);
          if (built && (local || built.every((v) => v.k === 'fn'))) return built;
        }
        break;
      }
      case 'c': {
        // A conversion `HandlerFunc(f)` is the value it converts.
        if (t.asType(expr[1], ctx) && expr[2][0])
          return this.funcTargets(expr[2][0], ctx, local, depth + 1, seen);
        // A call whose result is a function: the closures and functions the callee returns.
        return this.resultTargets(expr, 0, ctx, local, depth, seen);
      }
      case 'u':
        // `<-ch`: what is sent on ch (below, through its sources).
        if (expr[1] === '<-') break;
        return expr[1] === '...' ? [] : this.funcTargets(expr[2], ctx, local, depth + 1, seen);
      case 'g':
        return this.funcTargets(expr[1], ctx, local, depth + 1, seen);
      case 'a': {
        // `event.Object.(functionFakeRuntimeObject)()`: the functions converted to that type
        // where a value was stored there (the broadcaster's queued `functionFakeRuntimeObject(func()
        // {...})` among every event's object). Asserted to any other type, no function.
        const as = expr[2] ? t.parse(expr[2], t.scopeFor(ctx)) : undefined;
        if (!as || as.k !== 'named' || !t.isFuncLike(as)) return [];
        const out: FuncTarget[] = [];
        for (const s of this.sourcesOf(expr[1], ctx)) {
          const e = s.expr;
          if (e[0] !== 'c' || !e[2][0]) continue;
          const to = t.asType(e[1], s.ctx);
          if (!to || to.k !== 'named' || typeKey(to) !== typeKey(as)) continue;
          for (const r of this.funcTargets(e[2][0], s.ctx, false, depth + 1, seen))
            out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
        }
        return mergeTargets(out);
      }
      case 'x':
        // `F[T]`: one type argument reads like an index; the value is the generic function F.
        if (expr[2] !== undefined && t.genericFunc(expr[1], ctx))
          return this.funcTargets(expr[1], ctx, local, depth + 1, seen);
        // `m[k]`: the functions stored as elements (the predicate and priority maps of the
        // genericScheduler era, registries filled by `Register(name, fn)`).
        break;
      default:
        return [];
    }
    const sources = this.sourcesOf(expr, ctx);
    // Past the sources any value has (a helper's 64), only where a function can be at all.
    if (sources.length > MAX_SOURCES && !this.mayHoldFunction(expr, ctx)) return [];
    const out: FuncTarget[] = [];
    for (const s of sources.slice(0, MAX_FUNCTION_VALUES)) {
      if (s.index !== undefined && s.expr[0] === 'c') {
        // `m, r := factory(args)`: the m-th result of what the call reaches.
        const results = this.resultTargets(s.expr, s.index, s.ctx, false, depth + 1, seen);
        for (const r of results) out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
        continue;
      }
      // A step inside the same function chain keeps asking locally; any other step leaves it.
      const stay = local && s.ctx.file === ctx.file && sameChain(ctx, s.ctx) && !s.needs;
      for (const r of this.funcTargets(s.expr, s.ctx, stay, depth + 1, seen)) {
        const needs = stay ? r.needs : step(r.needs, s.ctx, ctx);
        out.push({ ...r, needs: s.needs ? both(needs, s.needs) : needs });
      }
      if (out.length > MAX_FUNCTION_VALUES) break;
    }
    return mergeTargets(out);
  }

  /**
   * The functions the function-typed field `name` of struct `owner` holds in the value `expr`
   * evaluates to, read from where that value was built: the keyed literal that made it (`&T{fn:
   * fn}`), through constructors (`return construct(name, fn)`, a parameter of the constructor
   * being the argument of that call), locals, package variables and fields that hold it. A
   * function-typed parameter of the function at ctx comes back as its slot. A field also assigned
   * after construction (`x.fn = f`, `if c.Action == nil { c.Action = help }`) holds what it was
   * built with and what any such assignment stores: any value of the struct may be the one
   * assigned. Undefined when one of the ways the value is made is not known.
   */
  fieldValues(
    expr: Expr,
    ctx: Ctx,
    owner: string,
    name: string,
    flowDepth = 0,
    seen = new Set<object>(),
  ): FuncTarget[] | undefined {
    const built = this.builtFieldValues(expr, ctx, owner, name, 0, flowDepth, seen);
    const assigned = this.fieldAssigns.get(`${owner}.${name}`);
    if (!built || !assigned) return built;
    if (assigned.length > MAX_SOURCES) return undefined;
    const out = [...built];
    for (const s of assigned) {
      for (const r of this.funcTargets(s.expr, s.ctx, false, flowDepth + 1, seen))
        out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
    }
    return mergeTargets(out);
  }

  /**
   * What the field holds in `expr` from how that value was built (see `fieldValues`): `depth`
   * counts the steps back through values, `flowDepth` is the function-value question's own.
   */
  private builtFieldValues(
    expr: Expr,
    ctx: Ctx,
    owner: string,
    name: string,
    depth: number,
    flowDepth: number,
    seen: Set<object>,
    stored?: GoType,
  ): FuncTarget[] | undefined {
    if (depth > 8) return undefined;
    const t = this.types;
    const inner = (e: Expr, at: Ctx, type?: GoType) =>
      this.builtFieldValues(e, at, owner, name, depth + 1, flowDepth, seen, type);
    switch (expr[0]) {
      case 'u':
        return expr[1] === '&' ? inner(expr[2], ctx, stored) : undefined;
      case 'g':
        return inner(expr[1], ctx, stored);
      case 'l': {
        // A literal with its type elided (`[]*Command{{Name: "x"}}`) is of the type of what it
        // was stored into.
        const lt = expr[1] ? deref(t.parse(expr[1], t.scopeFor(ctx))) : stored;
        // A literal nested deeper in an expression keeps only its type (src/index/extract.ts):
        // with no entries at all, what it sets is not known here.
        if (!lt || (expr[2].length === 0 && !expr[3])) return undefined;
        if (lt.k !== 'named' || typeKey(lt) !== owner) return undefined;
        const entry = expr[2].find(([key]) => key === name)?.[1] ?? positional(t, lt, expr, name);
        return entry ? this.funcTargets(entry, ctx, true, flowDepth, seen) : [];
      }
      case 'c': {
        const callees = t.directCallees(expr[1], ctx);
        if (callees.length === 0) return undefined;
        const args = t.callFactAt(expr, ctx)?.args ?? expr[2];
        const out: FuncTarget[] = [];
        for (const callee of callees) {
          let made = false;
          for (const ret of callee.file.facts.returns) {
            if (ret.fn !== callee.index || !ret.values[0]) continue;
            made = true;
            const at: Ctx = { file: callee.file, fn: ret.fn, line: ret.line };
            const values = inner(ret.values[0], at);
            if (!values) return undefined;
            for (const v of values) {
              if (v.k === 'fn') {
                out.push({ ...v, needs: step(v.needs, at, ctx) });
                continue;
              }
              // The constructor's own parameter: what this call passes.
              const arg = v.slot.fn === callee && !v.slot.elem ? args[v.slot.index] : undefined;
              if (!arg) return undefined;
              out.push(...this.funcTargets(arg, ctx, true, flowDepth, seen));
            }
          }
          if (!made) return undefined;
        }
        return mergeTargets(out);
      }
      case 'i': {
        if (expr[1] === 'nil') return [];
        const k = t.resolveIdent(expr[1], ctx)?.k;
        if (k !== 'local' && k !== 'value') return undefined;
        break;
      }
      case 's':
        break;
      default:
        return undefined;
    }
    // A local, a package variable or a field: every value stored into it.
    const sources = this.sourcesOf(expr, ctx);
    if (sources.length === 0 || sources.length > MAX_SOURCES) return undefined;
    const type = deref(t.typeOf(expr, ctx));
    const out: FuncTarget[] = [];
    for (const s of sources) {
      if (s.index !== undefined && s.index > 0) return undefined;
      const values = inner(s.expr, s.ctx, type.k === 'named' ? type : undefined);
      if (!values) return undefined;
      const here = s.ctx.file === ctx.file && sameChain(ctx, s.ctx);
      for (const v of values) {
        // A parameter of another function: no path here to say what it holds.
        if (v.k === 'slot' && !here) return undefined;
        out.push(here ? v : { ...v, needs: step(v.needs, s.ctx, ctx) });
      }
    }
    return mergeTargets(out);
  }

  /**
   * Whether a value of the expression's type can be a function: not a string, a number, a struct,
   * a pointer, a map or a channel (a type not worked out, an interface or a type parameter may;
   * so may a slice: a variadic parameter's sources are its elements). Stores into a string field
   * are not followed for functions.
   */
  private mayHoldFunction(expr: Expr, ctx: Ctx): boolean {
    const u = this.types.underlying(this.types.typeOf(expr, ctx));
    switch (u.k) {
      case 'func':
      case 'iface':
      case 'typeparam':
      case 'unknown':
      case 'slice':
        return true;
      case 'named':
        // A basic type (`string`, `int`); `error` is an interface.
        return u.pkg !== '' || u.name === 'error';
      default:
        return false;
    }
  }

  /**
   * The functions a call's `index`-th result can be: that result of each function the call
   * reaches (`return m, r`), or, through `return f(x)`, the same result of what that call reaches.
   */
  private resultTargets(
    call: Expr,
    index: number,
    ctx: Ctx,
    local: boolean,
    depth: number,
    seen: Set<object>,
  ): FuncTarget[] {
    // (funcTargets only asks within its own bound: the guard is for results asked for by index.)
    if (call[0] !== 'c' || depth > MAX_DEPTH) return [];
    const out: FuncTarget[] = [];
    for (const callee of this.funcTargets(call[1], ctx, local, depth + 1, seen)) {
      if (callee.k !== 'fn') continue;
      for (const ret of callee.fn.file.facts.returns) {
        if (ret.fn !== callee.fn.index) continue;
        const at: Ctx = { file: callee.fn.file, fn: ret.fn, line: ret.line };
        const value = ret.values[index];
        const found = value
          ? this.funcTargets(value, at, false, depth + 1, seen)
          : ret.values.length === 1 && ret.values[0]
            ? this.resultTargets(ret.values[0], index, at, false, depth + 1, seen)
            : [];
        for (const r of found) out.push({ ...r, needs: both(r.needs, callee.needs) });
      }
    }
    return mergeTargets(out);
  }

  /**
   * Functions a call reaches, for what they return: named functions, concrete methods, the
   * stored implementations of an interface method, and the functions a function value can be
   * (whatever every caller passes, when it is a parameter: no path is known here). Asked by
   * storedTypes (`on`: its depth and path, for the interface's stored values), function values
   * are left out: storedTypes takes their answer itself, only when whole.
   */
  private calledFunctions(
    callee: Expr,
    ctx: Ctx,
    on?: { depth: number; seen: Set<object> },
  ): { fn: FuncRef; needs: Needs }[] {
    const direct = this.types.directCallees(callee, ctx);
    if (direct.length > 0) return direct.map((fn) => ({ fn, needs: ALWAYS }));
    if (callee[0] === 's') {
      const sel = this.types.select(this.types.typeOf(callee[1], ctx), callee[2]);
      if (sel?.k === 'imethod')
        return this.interfaceTargets(sel, callee[1], ctx, on?.depth, on?.seen)
          .filter((it) => it.rank === 0)
          .map((it) => ({ fn: it.fn, needs: it.needs }));
    }
    return on ? [] : this.heldFunctions(callee, ctx);
  }

  /** The functions a function value can be, with their needs (slots left out). */
  private heldFunctions(callee: Expr, ctx: Ctx): { fn: FuncRef; needs: Needs }[] {
    return this.funcTargets(callee, ctx, false).flatMap((t) =>
      t.k === 'fn' ? [{ fn: t.fn, needs: t.needs }] : [],
    );
  }

  /** The element slot of `x` when it is a variadic parameter of the function chain at ctx. */
  private elementSlot(x: Expr, ctx: Ctx): Slot | undefined {
    // `range *sb` in a method of a slice of functions (the scheme builder's AddToScheme): the
    // receiver's elements, bound per call to what the value it is called on holds.
    if (x[0] === 'u' && x[1] === '*') x = x[2];
    if (x[0] !== 'i') return undefined;
    const b = this.types.resolveIdent(x[1], ctx);
    if (b?.k === 'recv') {
      const fn = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
      return fn && this.receiverElements(fn) ? { fn, index: RECEIVER, elem: true } : undefined;
    }
    if (b?.k !== 'param' || b.index < 0) return undefined;
    const f = b.file.facts.funcs[b.fn];
    const fn = this.model.funcs[b.file.funcIds[b.fn] ?? -1];
    if (!f?.variadic || !fn || b.index !== f.params.length - 1) return undefined;
    if (!this.isFuncType(b.type, { file: b.file, fn: b.fn, line: 0 }, true)) return undefined;
    return { fn, index: b.index, elem: true };
  }

  /** Whether a parameter's type text is a function type (or, `elem`, a slice of them). */
  private isFuncType(text: string, ctx: Ctx, elem = false): boolean {
    const t = this.types.parse(text, this.types.scopeFor(ctx));
    const inner = elem ? (t.k === 'slice' ? t.elem : undefined) : t;
    return inner !== undefined && this.types.isFuncLike(inner);
  }

  /**
   * The value a method is called on, for a call of `callee`: `x` of `x.M(...)`; for a package
   * variable holding a method value (`AddToScheme = localSchemeBuilder.AddToScheme`, called as
   * `AddToScheme(s)` or `core.AddToScheme(s)`), the value the method was taken from, when that is
   * the variable's only value.
   */
  receiverOperand(callee: Expr, ctx: Ctx): SourceRef | undefined {
    const t = this.types;
    let decl: ValueDecl | undefined;
    if (callee[0] === 'i') {
      const b = t.resolveIdent(callee[1], ctx);
      if (b?.k !== 'value') return undefined;
      decl = b.decl;
    } else if (callee[0] === 's') {
      const x = callee[1];
      const b = x[0] === 'i' ? t.resolveIdent(x[1], ctx) : undefined;
      if (b?.k !== 'import') return t.asType(x, ctx) ? undefined : { expr: x, ctx };
      decl = this.model.packages.get(b.path)?.values.get(callee[2]);
    }
    const v = decl?.fact.value;
    if (!decl || !v || v[0] !== 's' || this.valueSources.has(decl.symbol)) return undefined;
    return { expr: v[1], ctx: { file: decl.file, fn: -1, line: decl.fact.line } };
  }

  /** Whether a method's receiver is a slice of functions (or a pointer to one). */
  receiverElements(fn: FuncRef): boolean {
    const recv = fn.fact.recv;
    if (!recv) return false;
    let known = this.elementsMemo.get(fn.id);
    if (known === undefined) {
      const t = this.types.parse(recv.type, this.types.scopeFor(this.types.funcCtx(fn)));
      const u = this.types.underlying(deref(t));
      known = u.k === 'slice' && this.types.isFuncLike(u.elem);
      this.elementsMemo.set(fn.id, known);
    }
    return known;
  }

  /**
   * The named function type `fn`'s receiver is (`RequestFunc` of `(RequestFunc).AuthenticateRequest`),
   * as a type key; undefined for a function, or a receiver of any other type.
   */
  funcReceiver(fn: FuncRef): string | undefined {
    const recv = fn.fact.recv;
    if (!recv || recv.ptr) return undefined;
    if (this.receiverMemo.has(fn.id)) return this.receiverMemo.get(fn.id);
    const t = this.types.parse(recv.type, this.types.scopeFor(this.types.funcCtx(fn)));
    const key = t.k === 'named' && this.types.underlying(t).k === 'func' ? typeKey(t) : undefined;
    this.receiverMemo.set(fn.id, key);
    return key;
  }

  /**
   * What a method of the function type `recv` (funcReceiver) runs as its receiver when it is called
   * on `expr`: what `expr` holds when it is of that type; when it is an interface, what its sources
   * of that type hold (an `AuthorizerFunc(fn)` stored into an `Authorizer` field, or returned by
   * the constructor that made it). A source of any other type is no receiver of this method.
   */
  receiverTargets(
    expr: Expr,
    ctx: Ctx,
    recv: string,
    local = true,
    depth = 0,
    seen = new Set<object>(),
  ): FuncTarget[] {
    const t = this.types;
    const vt = t.typeOf(expr, ctx);
    if (vt.k === 'named' && typeKey(vt) === recv)
      return this.funcTargets(expr, ctx, local, depth, new Set());
    if (depth > MAX_DEPTH || seen.has(expr) || !t.isInterface(vt)) return [];
    seen.add(expr);
    const out: FuncTarget[] = [];
    // The first value of each source (`a, err := New()`: a).
    const from = (sources: readonly SourceRef[], needs: Needs = ALWAYS) => {
      for (const s of sources.slice(0, MAX_SOURCES)) {
        if ((s.index ?? 0) !== 0) continue;
        const stay = local && s.ctx.file === ctx.file && sameChain(ctx, s.ctx) && !s.needs;
        for (const r of this.receiverTargets(s.expr, s.ctx, recv, stay, depth + 1, seen)) {
          const own = stay ? r.needs : step(r.needs, s.ctx, ctx);
          const all = needs === ALWAYS ? own : both(own, needs);
          out.push({ ...r, needs: s.needs ? both(all, s.needs) : all });
        }
      }
    };
    if (expr[0] === 'c') {
      // `Authorizer(f)`: a conversion to the interface holds what it converts.
      if (expr[2].length === 1 && t.asType(expr[1], ctx))
        return this.receiverTargets(expr[2][0]!, ctx, recv, local, depth + 1, seen);
      // `NewPrivilegedGroups(groups)`: what the functions called return.
      for (const { fn, needs } of this.calledFunctions(expr[1], ctx)) {
        const returns = fn.file.facts.returns.filter((r) => r.fn === fn.index && r.values[0]);
        from(
          returns.map((r) => ({
            expr: r.values[0]!,
            ctx: { file: fn.file, fn: r.fn, line: r.line },
          })),
          needs,
        );
      }
      return mergeTargets(out);
    }
    from(this.sourcesOf(expr, ctx));
    return mergeTargets(out);
  }

  /**
   * What a call passes to a variadic parameter's elements, as slot bindings: each argument in the
   * variadic position, or the elements of a spread argument (`opts...`), which may be the
   * caller's own element slot.
   */
  elementTargets(arg: Expr, ctx: Ctx): FuncTarget[] {
    const spread = spreadOf(arg);
    if (!spread) return this.funcTargets(arg, ctx);
    const slot = this.elementSlot(spread, ctx);
    const out: FuncTarget[] = [];
    if (slot) {
      // The caller's own elements, and what it appended to them before passing them on
      // (`opts = append(opts, WithEventRecorder(recorder))`, the scheduler's newProfile).
      out.push({ k: 'slot', slot, needs: ALWAYS });
      for (const s of this.appendedToItself(spread, ctx, 0))
        for (const r of this.funcTargets(s.expr, s.ctx, false))
          out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
      return mergeTargets(out);
    }
    for (const s of this.elementSources(spread, ctx).slice(0, MAX_SOURCES)) {
      for (const r of this.funcTargets(s.expr, s.ctx, false))
        out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
    }
    return mergeTargets(out);
  }

  // ---------------------------------------------------------------- literals and stored types

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
  ): ReachingLiteral[] {
    if (depth > 10 || seen.has(expr)) return [];
    seen.add(expr);
    const t = this.types;
    const out: ReachingLiteral[] = [];
    switch (expr[0]) {
      case 'l': {
        if (expr[1] !== null && typeKey(deref(t.parse(expr[1], t.scopeFor(ctx)))) === target)
          return [{ lit: expr, ctx, needs: ALWAYS }];
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
        const call = t.callFactAt(expr, ctx);
        const callees: { fn: FuncRef; needs: Needs }[] = t
          .directCallees(expr[1], ctx)
          .map((fn) => ({ fn, needs: ALWAYS }));
        // A function value called in place (`AddEventHandler(buildHandlers(at))`, a closure in a
        // local): what the functions it holds return.
        if (callees.length === 0 && expr[1][0] === 'i') {
          for (const v of this.funcTargets(expr[1], ctx, false))
            if (v.k === 'fn') callees.push({ fn: v.fn, needs: v.needs });
        }
        for (const { fn: callee, needs } of callees) {
          const inner: ArgBinding | undefined =
            call && !callee.fact.variadic
              ? { file: callee.file, fn: callee.index, args: call.args, ctx }
              : undefined;
          for (const ret of callee.file.facts.returns) {
            if (ret.fn !== callee.index || !ret.values[0]) continue;
            const at: Ctx = { file: callee.file, fn: ret.fn, line: ret.line };
            for (const r of this.literalsReaching(
              ret.values[0],
              at,
              target,
              depth + 1,
              seen,
              inner,
            ))
              out.push(needs === ALWAYS ? r : { ...r, needs: both(r.needs, needs) });
          }
        }
        return out;
      }
      default: {
        if (expr[0] === 'i' && bound && bound.file === ctx.file && bound.fn === ctx.fn) {
          const b = t.resolveIdent(expr[1], ctx);
          const arg = b?.k === 'param' && b.index >= 0 ? bound.args[b.index] : undefined;
          if (arg) return this.literalsReaching(arg, bound.ctx, target, depth + 1, seen);
        }
        const follow = (s: SourceRef, keep?: ArgBinding) => {
          for (const r of this.literalsReaching(s.expr, s.ctx, target, depth + 1, seen, keep))
            out.push({ ...r, needs: step(r.needs, s.ctx, ctx) });
        };
        for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES)) {
          // A local of the bound function keeps the binding (`le := LeaderElector{config: lec}`).
          follow(
            s,
            bound && s.ctx.file === bound.file && s.ctx.fn === bound.fn ? bound : undefined,
          );
        }
        // Values collected into it (`root.AddCommand(sub)`; `m[k] = v`).
        for (const s of this.elementSources(expr, ctx).slice(0, MAX_SOURCES)) follow(s);
        // A struct value whose field of the target type was assigned later
        // (`cfg.Callbacks = LeaderCallbacks{...}`).
        const vt = deref(t.typeOf(expr, ctx));
        if (vt.k === 'named' && typeKey(vt) !== target) {
          const u = t.underlying(vt);
          if (u.k === 'struct') {
            for (const f of u.fields) {
              const ft = deref(f.type);
              if (ft.k !== 'named' || typeKey(ft) !== target) continue;
              // Only stores near this value can have filled its field: those in this very function,
              // else those in its package. A store in another component configures another object
              // of the same type (kube-controller-manager's callbacks are not the scheduler's).
              const all = this.fieldSources.get(`${typeKey(vt)}.${f.name ?? ft.name}`) ?? [];
              const inFunction = all.filter((s) => s.ctx.file === ctx.file && s.ctx.fn === ctx.fn);
              const near =
                inFunction.length > 0
                  ? inFunction
                  : all.filter((s) => s.ctx.file.pkg === ctx.file.pkg);
              for (const s of near.slice(0, MAX_SOURCES)) follow(s);
            }
          }
        }
        return out;
      }
    }
  }

  /** Concrete types that can be stored in an expression of interface type (flow-insensitive). */
  storedTypes(expr: Expr, ctx: Ctx, depth = 0, seen = new Set<object>()): StoredType[] {
    // Asked again while it is being answered, from a question that started afresh (the methods
    // an interface's implementations forward, what a call's interface method returns): a cycle,
    // cut as the path's own are.
    if (this.storedActive.has(expr)) {
      this.cut = true;
      return [];
    }
    // A cycle here is the path's own (another way to the same expression is none): the builder's
    // reassigned `visitors` met elsewhere must not cut `Result.visitor`'s answer short.
    return this.memoized(
      this.storedMemo,
      expr,
      depth,
      MAX_STORED_DEPTH,
      seen,
      () => {
        this.storedActive.add(expr);
        try {
          return this.storedTypesUncached(expr, ctx, depth, seen);
        } finally {
          this.storedActive.delete(expr);
        }
      },
      true,
    );
  }

  private storedTypesUncached(
    expr: Expr,
    ctx: Ctx,
    depth: number,
    seen: Set<object>,
  ): StoredType[] {
    const t = this.types;
    const vt = t.typeOf(expr, ctx);
    const base = deref(vt);
    if (base.k === 'named' && base.pkg !== '' && !t.isInterface(base))
      return [{ type: vt, needs: ALWAYS }];
    // `proxy.Provider(&metaProxier{...})`: a conversion to an interface holds what it converts.
    if (expr[0] === 'c' && expr[2].length === 1 && t.asType(expr[1], ctx))
      return this.storedTypes(expr[2][0]!, ctx, depth + 1, seen);
    if (expr[0] === 'c') {
      const callees = this.calledFunctions(expr[1], ctx, { depth: depth + 1, seen });
      if (callees.length > 0) return this.returnedTypes(expr, ctx, callees, depth, seen);
      // A function value (`p, err := factory(args, fh)`): what the functions it holds return, only
      // when that answer is whole. One cut short (a map of describers past the bound) would
      // read as the only types there, and hide the rest among the alternatives.
      const { result, cut } = this.cutApart(() => {
        const held = this.heldFunctions(expr[1], ctx);
        return held.length > 0 ? this.returnedTypes(expr, ctx, held, depth, seen) : [];
      });
      // Refused, the answer stays one cut short: memoized so, it is computed again when asked
      // nearer the start of a chain (a plugin's factory, met first deep in the reflection's list).
      if (cut) this.cut = true;
      return cut ? [] : result;
    }
    // Each type once (several ways in are one answer, their needs either's): the bound counts types.
    // The elements a range reads are one source each: a list gathered from thirty packages (the
    // volume plugins) is as many, up to elementSources' own bound.
    const byType = new Map<string, StoredType>();
    const sources = this.sourcesOf(expr, ctx);
    const ranged = expr[0] === 'i' && this.isRangeValue(expr[1], ctx);
    for (const s of sources.slice(0, ranged ? MAX_SOURCES * 4 : MAX_SOURCES)) {
      if (s.index !== undefined && s.index > 0) {
        // `_, handler := eviction.NewManager()`: what the callee returns in that place.
        if (s.expr[0] !== 'c') continue;
        const callees = this.calledFunctions(s.expr[1], s.ctx, { depth: depth + 1, seen });
        for (const r of this.returnedTypes(s.expr, s.ctx, callees, depth, seen, s.index))
          if (!s.holds || this.canHold(s.holds, r.type))
            addStored(byType, { type: r.type, needs: step(r.needs, s.ctx, ctx) });
        continue;
      }
      for (const r of this.storedTypes(s.expr, s.ctx, depth + 1, seen))
        if (!s.holds || this.canHold(s.holds, r.type))
          addStored(byType, { type: r.type, needs: step(r.needs, s.ctx, ctx) });
      if (byType.size > MAX_TARGETS) break;
    }
    return [...byType.values()];
  }

  /**
   * The stored types of what `callees` return at the call `expr` (the result at `index`), with
   * each callee's needs.
   */
  private returnedTypes(
    expr: Extract<Expr, { 0: 'c' }>,
    ctx: Ctx,
    callees: readonly { fn: FuncRef; needs: Needs }[],
    depth: number,
    seen: Set<object>,
    index = 0,
  ): StoredType[] {
    const out: StoredType[] = [];
    let args: readonly Expr[] | undefined;
    for (const { fn: callee, needs } of callees) {
      for (const ret of callee.file.facts.returns) {
        const value = ret.values[index];
        if (ret.fn !== callee.index || !value) continue;
        const at: Ctx = { file: callee.file, fn: ret.fn, line: ret.line };
        // `return delegate, err`: what this call passes, not what every caller passes.
        const passed = this.passedThrough(value, at, callee);
        let found: StoredType[];
        if (passed !== undefined) {
          args ??= this.types.callFactAt(expr, ctx)?.args ?? expr[2];
          const arg = args[passed];
          if (!arg) continue;
          found = this.storedTypes(arg, ctx, depth + 1, seen);
        } else found = this.storedTypes(value, at, depth + 1, seen);
        for (const r of found)
          out.push(needs === ALWAYS ? r : { ...r, needs: both(r.needs, needs) });
      }
    }
    return mergeStored(out);
  }

  /** Whether a name is the value variable of a `for _, v := range x` at ctx. */
  private isRangeValue(name: string, ctx: Ctx): boolean {
    const b = this.types.resolveIdent(name, ctx);
    return b?.k === 'local' && b.local.range === true && b.local.index === 1;
  }

  /** The index of the parameter of `fn` a returned value is, when it is one never assigned in fn. */
  private passedThrough(value: Expr, at: Ctx, fn: FuncRef): number | undefined {
    if (value[0] !== 'i') return undefined;
    const b = this.types.resolveIdent(value[1], at);
    if (b?.k !== 'param' || b.index < 0 || b.fn !== fn.index || b.file !== fn.file)
      return undefined;
    if (fn.fact.variadic && b.index === fn.fact.params.length - 1) return undefined;
    return this.localAssigns.get(b.file)?.get(localKey(b))?.length ? undefined : b.index;
  }

  /**
   * Implementations of an interface method call, ranked: the types stored into that field or
   * variable first (rank 0, with the needs of the store), then the rest as alternatives (rank 1, 2,
   * ...): real code before test doubles, nearest package first. With nothing stored, a single
   * implementation (or the only real one among test doubles) is the answer. An interface with more
   * implementations than alternatives are kept for (`runtime.Object`) lists none: `crowded` says
   * how many there are.
   */
  interfaceTargets(
    sel: Extract<Selection, { k: 'imethod' }>,
    operand: Expr,
    ctx: Ctx,
    /** storedTypes' depth and path, when it asks (for what a call returns). */
    depth = 0,
    seen = new Set<object>(),
  ): InterfaceTarget[] & { crowded?: number } {
    const methods = this.implementingMethods(sel.iface, sel.name);
    // Promoted through an embedded interface field: what is stored is what that field holds.
    const { result: stored, cut } = this.cutApart(() =>
      sel.embeddedIn
        ? (this.fieldSources.get(sel.embeddedIn) ?? []).flatMap((src) =>
            this.storedTypes(src.expr, src.ctx, depth, seen).map((s) => ({
              ...s,
              needs: step(s.needs, src.ctx, ctx),
            })),
          )
        : this.storedTypes(operand, ctx, depth, seen),
    );
    this.cut ||= cut;
    // Whether that answer is whole (nothing cut it short): see the wrappers below.
    const whole = !cut && this.storedActive.size === 0;
    const primary: InterfaceTarget[] = [];
    const byKey = new Map<string, StoredType>();
    for (const s of stored) {
      const key = typeKey(deref(s.type));
      const had = byKey.get(key);
      byKey.set(key, { type: s.type, needs: either(had?.needs ?? [], s.needs) });
    }
    for (const [key, { type, needs }] of byKey) {
      // A stored wrapper whose every method of the interface comes from an embedded interface
      // is no implementation to list (`implementations`), but what is stored is it: the call
      // goes to what it holds (kubelet's stats.Provider, forwarding ImageFsStats to the CRI or
      // cAdvisor provider it embeds). Only when the stored answer is whole: one cut short
      // (client-go's reflector, whose ListWatch is seven steps away) would let the wrapper's
      // answer read as the only one. And only for a call of its own: asked on the way to another
      // answer, the wrapper's fields would be asked in the middle of it.
      const held = methods.byType.get(key) ?? (whole ? this.forwardedOnly(type, sel.name) : []);
      for (const m of held) {
        const same = primary.find((p) => p.fn === m.fn);
        if (same) same.needs = either(same.needs, both(needs, m.needs));
        else primary.push({ fn: m.fn, rank: 0, needs: both(needs, m.needs) });
      }
    }
    if (methods.all.length > MAX_ALTERNATIVES) {
      const out: InterfaceTarget[] & { crowded?: number } = primary;
      out.crowded = methods.all.length;
      return out;
    }
    const taken = new Set(primary.map((p) => p.fn.id));
    const rest = this.rankedFrom(methods.all, ctx.file.pkg.path).filter((fn) => !taken.has(fn.id));
    if (primary.length === 0 && rest.length === 1)
      return [{ fn: rest[0]!, rank: 0, needs: ALWAYS }];
    if (primary.length === 0) {
      const real = rest.filter((fn) => !isTestDouble(fn.symbol, fn.pkg.path));
      if (real.length === 1) {
        rest.splice(rest.indexOf(real[0]!), 1);
        primary.push({ fn: real[0]!, rank: 0, needs: ALWAYS });
      }
    }
    return [...primary, ...rest.map((fn, i) => ({ fn, rank: i + 1, needs: ALWAYS }))];
  }

  private readonly methodsMemo = new Map<
    string,
    { all: FuncRef[]; byType: Map<string, ForwardedMethod[]> }
  >();
  private readonly rankMemo = new Map<string, FuncRef[]>();

  /**
   * The methods named `name` of the types implementing an interface, by type; each function once
   * in `all` (typed clients that embed one generic client all run its method).
   */
  private implementingMethods(
    iface: GoType,
    name: string,
  ): { all: FuncRef[]; byType: Map<string, ForwardedMethod[]> } {
    // An instantiation has its own implementations (`TypedReconciler[reconcile.Request]`).
    const key = `${instanceKey(iface)}\u0000${name}`;
    let hit = this.methodsMemo.get(key);
    if (hit) return hit;
    hit = { all: [], byType: new Map() };
    const seen = new Set<number>();
    for (const impl of this.types.implementations(iface)) {
      const found = this.methodsOf(impl, name);
      if (found.length === 0) continue;
      hit.byType.set(typeKey(impl), found);
      for (const m of found) {
        if (seen.has(m.fn.id)) continue;
        seen.add(m.fn.id);
        hit.all.push(m.fn);
      }
    }
    this.methodsMemo.set(key, hit);
    return hit;
  }

  /**
   * The method a type has for an interface call: its own or a promoted one, or — when the type only
   * forwards it to an interface value it embeds (client-go's `rateLimitingType[T]` embeds a
   * delaying queue, which embeds the queue) — the methods of the types stored in that field, with
   * the packages the stores are in as needs.
   */
  private methodsOf(type: GoType, name: string, depth = 0): ForwardedMethod[] {
    const m = this.types.select(type, name);
    if (m?.k === 'method') return [{ fn: m.fn, needs: ALWAYS }];
    if (m?.k !== 'imethod' || !m.embeddedIn || depth > 3) return [];
    const out: ForwardedMethod[] = [];
    for (const src of (this.fieldSources.get(m.embeddedIn) ?? []).slice(0, MAX_SOURCES)) {
      for (const s of this.storedTypes(src.expr, src.ctx)) {
        for (const f of this.methodsOf(s.type, name, depth + 1)) {
          const needs = through(both(s.needs, f.needs), src.ctx.file.pkg.path);
          const same = out.find((o) => o.fn === f.fn);
          if (same) same.needs = either(same.needs, needs);
          else out.push({ fn: f.fn, needs });
        }
      }
    }
    return out;
  }

  /**
   * What a wrapper forwards `name` to, when it has that method only from an embedded interface;
   * nothing when that answer was cut short.
   */
  private forwardedOnly(type: GoType, name: string): ForwardedMethod[] {
    if (this.types.select(type, name)?.k !== 'imethod') return [];
    const { result, cut } = this.cutApart(() => this.methodsOf(type, name));
    return cut ? [] : result;
  }

  /** Real code before test doubles, then nearest to the calling package; computed once per package. */
  private rankedFrom(methods: FuncRef[], from: string): FuncRef[] {
    if (methods.length < 2) return [...methods];
    const key = `${methods[0]!.id}:${methods.length}\u0000${from}`;
    let hit = this.rankMemo.get(key);
    if (!hit) {
      const b = from.split('/');
      const rank = (fn: FuncRef) => {
        const a = fn.pkg.path.split('/');
        let common = 0;
        while (common < a.length && common < b.length && a[common] === b[common]) common++;
        return (isTestDouble(fn.symbol, fn.pkg.path) ? 1000 : 0) - common;
      };
      hit = methods
        .map((fn) => ({ fn, r: rank(fn) }))
        .sort((x, y) => x.r - y.r)
        .map((x) => x.fn);
      this.rankMemo.set(key, hit);
    }
    return [...hit];
  }

  // ---------------------------------------------------------------- channels

  /**
   * The composite literals of `owner` that `x` can be, found without passing a call (what a call
   * returns, through an interface or past a depth, may be a literal the search did not see);
   * undefined when none are, or when the program writes one literal of it at most.
   */
  private literalsMade(x: Expr, ctx: Ctx, owner: string): ReadonlySet<Expr> | undefined {
    if ((this.literalSites.get(owner) ?? 0) < 2) return undefined;
    const made = new Set<Expr>();
    const visited = new Set<object>();
    for (const r of this.literalsReaching(x, ctx, owner, 0, visited))
      if (r.lit[0] === 'l') made.add(r.lit);
    if (made.size === 0 || [...visited].some((e) => (e as Expr)[0] === 'c')) return undefined;
    return made;
  }

  /**
   * Where the channel an expression holds comes from: the first field or package variable it was
   * stored in, else the local it was made in (`ch := make(chan T)`), following parameters to
   * the arguments callers pass and calls to what they return.
   */
  channelOrigins(expr: Expr, ctx: Ctx, depth = 0, seen = new Set<object>()): ChannelOrigin[] {
    const memo = this.originMemo.get(expr);
    if (memo) return memo;
    if (depth > 6 || seen.has(expr)) return [];
    seen.add(expr);
    const result = this.channelOriginsUncached(expr, ctx, depth, seen);
    this.originMemo.set(expr, result);
    return result;
  }

  private channelOriginsUncached(
    expr: Expr,
    ctx: Ctx,
    depth: number,
    seen: Set<object>,
  ): ChannelOrigin[] {
    const t = this.types;
    const out: ChannelOrigin[] = [];
    switch (expr[0]) {
      case 's': {
        const [, x, name] = expr;
        if (x[0] === 'i') {
          const b = t.resolveIdent(x[1], ctx);
          if (b?.k === 'import')
            return [{ key: `${b.path}.${name}`, label: `${x[1]}.${name}`, needs: ALWAYS }];
        }
        const sel = t.select(t.typeOf(x, ctx), name);
        if (sel?.k !== 'field') return [];
        const owner = sel.owner.slice(sel.owner.lastIndexOf('/') + 1);
        // Asked only where a hand-off hangs on it (a search per channel operation cost ~0.7 s
        // of v1.24's link), once.
        let made: ReadonlySet<Expr> | undefined | null = null;
        const literals = () =>
          made === null ? (made = this.literalsMade(x, ctx, sel.owner)) : made;
        return [
          {
            key: `${sel.owner}.${name}`,
            label: `${owner.slice(owner.indexOf('.') + 1)}.${name}`,
            needs: ALWAYS,
            made: literals,
          },
        ];
      }
      case 'i': {
        const b = t.resolveIdent(expr[1], ctx);
        if (b?.k === 'value') return [{ key: b.decl.symbol, label: expr[1], needs: ALWAYS }];
        if (b?.k === 'local' && b.local.value && isMake(b.local.value))
          return [
            {
              key: `${b.file.path}:${b.local.line}:${b.local.name}`,
              label: expr[1],
              needs: ALWAYS,
            },
          ];
        break;
      }
      case 'c': {
        // What the called function returns (`kl.pleg.Watch()`, through the interface too).
        for (const { fn: callee, needs } of this.calledFunctions(expr[1], ctx)) {
          for (const ret of callee.file.facts.returns) {
            if (ret.fn !== callee.index || !ret.values[0]) continue;
            const at: Ctx = { file: callee.file, fn: ret.fn, line: ret.line };
            for (const o of this.channelOrigins(ret.values[0], at, depth + 1, seen))
              out.push({ ...o, needs: both(o.needs, needs) });
          }
        }
        return out;
      }
      case 'u':
      case 'g':
        return this.channelOrigins(expr[0] === 'u' ? expr[2] : expr[1], ctx, depth + 1, seen);
      default:
        return [];
    }
    for (const s of this.sourcesOf(expr, ctx).slice(0, MAX_SOURCES)) {
      if (s.index !== undefined && s.expr[0] === 'c') continue;
      for (const o of this.channelOrigins(s.expr, s.ctx, depth + 1, seen))
        out.push({ ...o, needs: step(o.needs, s.ctx, ctx) });
    }
    return out;
  }
}

/** A method an implementation runs, and what it needs when reached through a stored value. */
interface ForwardedMethod {
  fn: FuncRef;
  needs: Needs;
}

/** A call's arguments bound to the parameters of the function it called (one call deep). */
interface ArgBinding {
  file: FileModel;
  fn: number;
  args: readonly Expr[];
  ctx: Ctx;
}

/** A step from `to` back to a source at `from`: the source's package joins the needs. */
function step(needs: Needs, from: Ctx, to: Ctx): Needs {
  return from.file.pkg === to.file.pkg ? needs : through(needs, from.file.pkg.path);
}

/** Whether `b` is the function at `a`, or a function enclosing it (its closures see its names). */
function sameChain(a: Ctx, b: Ctx): boolean {
  let fn = a.fn;
  while (fn >= 0) {
    if (fn === b.fn) return true;
    const f = a.file.facts.funcs[fn];
    fn = f?.kind === 'lit' ? (f.parent ?? -1) : -1;
  }
  return false;
}

/** A memoized answer; `depth` when it was cut short by the depth bound, asked at that depth. */
interface Memo<T> {
  result: T[];
  depth?: number;
}

/** One target per function (or slot), its needs the union of every way it was reached. */
export function mergeTargets(list: FuncTarget[]): FuncTarget[] {
  const byKey = new Map<string, FuncTarget>();
  for (const x of list) {
    const key = x.k === 'fn' ? `f${x.fn.id}` : `s${x.slot.fn.id}:${x.slot.index}:${x.slot.elem}`;
    const prev = byKey.get(key);
    byKey.set(key, prev ? { ...prev, needs: either(prev.needs, x.needs) } : x);
  }
  return [...byKey.values()];
}

function addStored(byType: Map<string, StoredType>, s: StoredType): void {
  const key = instanceKey(s.type);
  const prev = byType.get(key);
  byType.set(key, prev ? { type: prev.type, needs: either(prev.needs, s.needs) } : s);
}

function mergeStored(list: readonly StoredType[]): StoredType[] {
  const byType = new Map<string, StoredType>();
  for (const s of list) addStored(byType, s);
  return [...byType.values()];
}

/** The field an assignment's left side writes into, by name: `x.f`, `x.f[k]`, `*x.f`. */
function writtenField(lhs: Expr): string | undefined {
  let e = lhs;
  for (let i = 0; i < 8; i++) {
    if (e[0] === 's') return e[2];
    if (e[0] === 'x' || e[0] === 'g') e = e[1];
    else if (e[0] === 'u') e = e[2];
    else return undefined;
  }
  return undefined;
}

/** The field a literal's entry stores into: its key, or for `#i` (unkeyed), the struct's i-th field. */
export function fieldKey(t: TypeChecker, literal: GoType, entry: string): string | undefined {
  if (!entry.startsWith('#')) return entry;
  const u = t.underlying(literal);
  const field = u.k === 'struct' ? u.fields[Number(entry.slice(1))] : undefined;
  if (!field) return undefined;
  if (field.name !== null) return field.name;
  const embedded = deref(field.type);
  return embedded.k === 'named' ? embedded.name : undefined;
}

/** In an unkeyed literal `T{a, b}` (no keyed fields), the value given for field `name`. */
function positional(t: TypeChecker, literal: GoType, expr: Expr, name: string): Expr | undefined {
  if (expr[0] !== 'l' || expr[2].length > 0 || !expr[3]) return undefined;
  const u = t.underlying(literal);
  if (u.k !== 'struct') return undefined;
  const i = u.fields.findIndex((f, j) => fieldKey(t, literal, `#${j}`) === name);
  return i >= 0 ? expr[3][i] : undefined;
}

function spreadOf(e: Expr): Expr | undefined {
  return e[0] === 'u' && e[1] === '...' ? e[2] : undefined;
}

function isMake(e: Expr): boolean {
  return e[0] === 'c' && e[1][0] === 'i' && e[1][1] === 'make';
}

/**
 * The assignments to a local variable or parameter a use in the same function can see (from a
 * closure, every one: it may run at any time):
 * - one that always runs before the use overwrites what came before it (`x = wrap(x)` hands later
 *   uses only the wrapper): one at the depth of the declaration (gofmt indents each block one
 *   deeper), or one with the use below it in the innermost block or case clause around it;
 * - one that always runs after another and before the use hides that other: below it in the
 *   innermost block or case clause around both, with no break, continue or goto between
 *   (`handler = &completed{...}; handler = &priority{next: handler}` in a branch: what follows the
 *   `if` sees the second only); so does an if-else chain ending in a plain `else` whose every
 *   branch assigns on its way through;
 * - one below the use, in an `if` branch the use's `else` (or a later `else if`) follows, or in a
 *   case clause before the use's in the same switch (unless it falls through), reaches it only
 *   round a loop around both that does not hold the declaration (`control`'s `loops`, `blocks`,
 *   `clauses`, `switches`: first and last lines, in pairs);
 * - the right-hand side of `x = wrap(x)` sees the old `x`, and in such a loop also its own;
 *   but what a loop carries back passes again the assignment that hides those before the use,
 *   where every loop around both holds the block it runs in.
 * What may or may not run before the use stays. `initial` is false when an overwrite hides the
 * declaration's own value (or, for a parameter, what callers pass).
 */
function visibleAssigns(
  assigns: readonly SourceRef[],
  fn: number,
  indent: number | undefined,
  declLine: number,
  use: Ctx,
  control: Control,
): { assigns: readonly SourceRef[]; initial: boolean } {
  if (use.fn !== fn || assigns.length === 0) return { assigns, initial: true };
  const { loops, blocks } = control;
  const straight = (a: SourceRef) =>
    indent !== undefined && a.ctx.fn === fn && a.at?.indent === indent;
  let last: SourceRef | undefined;
  for (const a of assigns) {
    if (!straight(a) || a.ctx.line <= declLine || a.at!.endLine >= use.line) continue;
    if (!last || a.ctx.line > last.ctx.line) last = a;
  }
  // Nor any that runs whenever the read does, before it: the read is below it in the innermost
  // block or case clause around it (the apiserver's `handler = TrackCompleted(handler)` then
  // `handler = WithPriorityAndFairness(handler, ...)` in the same branch: the second reads only
  // the first). Not one in a loop's header, which may not run before what follows the loop.
  for (const a of assigns) {
    if (a.ctx.fn !== fn || !a.at || a.ctx.line <= declLine || a.at.endLine >= use.line) continue;
    if ((last && a.ctx.line <= last.ctx.line) || startsLoop(loops, a.ctx.line)) continue;
    const region = regionOf(a, blocks);
    if (region && region[0] <= use.line && use.line <= region[1]) last = a;
  }
  // Assignments that run before the read, each the last of its block on the way: one that a later
  // one in the innermost block around both replaces whenever it runs is not (control leaves the
  // block past the later one, unless a jump between takes it out first).
  const replaced = (a: SourceRef): boolean => {
    if (a.ctx.fn !== fn || !a.at || a.at.endLine >= use.line) return false;
    for (const b of assigns) {
      if (b === a || b.ctx.fn !== fn || !b.at || b.ctx.line <= a.at.endLine) continue;
      if (b.at.endLine >= use.line || startsLoop(loops, b.ctx.line)) continue;
      const region = regionOf(b, blocks);
      // Strictly inside: what a statement's header (`if x = f(); c {`) assigns runs whether the
      // block does or not.
      if (!region || a.ctx.line <= region[0] || region[1] < a.at.endLine) continue;
      if (!lineWithin(control.jumps, a.at.endLine, b.ctx.line)) return true;
    }
    // Or an if-else chain that ends in a plain `else`, each branch of which assigns on its way
    // through (the handler chain's `TrackStarted` before the flow-control `if`, whose two
    // branches each wrap it again).
    for (const chain of chainsOf(control)) {
      if (chain.first <= a.at.endLine || chain.last >= use.line || !chain.region) continue;
      const [r0, r1] = chain.region;
      if (a.ctx.line <= r0 || r1 < a.at.endLine) continue;
      if (lineWithin(control.jumps, a.at.endLine, chain.first)) continue;
      if (chain.branches.every((branch) => assignsThrough(branch))) return true;
    }
    return false;
  };
  // An assignment that runs whenever the branch does: the branch is the innermost block around
  // it, and no jump comes first. Or a chain of its own that always assigns
  // (`if a { if b { x = p } else { x = q } } else { x = r }`).
  const assignsThrough = ([first, last]: readonly [number, number], depth = 0): boolean =>
    assigns.some((b) => {
      // A clause's last line is its last statement's (a block's, its `}`).
      if (b.ctx.fn !== fn || !b.at || b.ctx.line <= first || b.at.endLine > last) return false;
      const region = regionOf(b, blocks);
      return (
        region?.[0] === first && region[1] === last && !lineWithin(control.jumps, first, b.ctx.line)
      );
    }) ||
    (depth < 8 &&
      chainsOf(control).some(
        (chain) =>
          chain.region?.[0] === first &&
          chain.region[1] === last &&
          chain.first > first &&
          !lineWithin(control.jumps, first, chain.first) &&
          chain.branches.every((branch) => assignsThrough(branch, depth + 1)),
      ));
  // The right-hand side of an assignment sees the value from before it, and in a loop also its
  // own from the round before (`printer = &Indenter{Inner: printer}` in a `for`).
  const own = (a: SourceRef) =>
    a.ctx.fn === fn &&
    a.at !== undefined &&
    a.ctx.line <= use.line &&
    use.line <= a.at.endLine &&
    !aroundBoth(loops, a.ctx.line, a.at.endLine, declLine);
  // One below the read, in the same function, reaches it only round a loop around both
  // (kubectl's `printer = &SortingPrinter{Delegate: printer}`, then `printer = &TablePrinter{...}`
  // in a later branch: the sorting printer never delegates to the table printer). A `goto` back is
  // not followed.
  const below = (a: SourceRef) =>
    a.ctx.fn === fn && a.ctx.line > use.line && !aroundBoth(loops, use.line, a.ctx.line, declLine);
  // Nor one in a branch the read's branch is an `else` of (`} else {`, `} else if c {`): control
  // leaves the first past the second (the apiserver's WithMaxInFlightLimit, in the else of the
  // branch that builds priority and fairness, wraps only what came before the `if`); nor one in
  // a case clause before the read's, of the same switch.
  const otherBranch = (a: SourceRef) =>
    a.ctx.fn === fn &&
    a.at !== undefined &&
    a.at.endLine < use.line &&
    (elseOf(blocks, a.ctx.line, a.at.endLine, use.line) ||
      otherClause(control, a.ctx.line, a.at.endLine, use.line)) &&
    !aroundBoth(loops, a.ctx.line, use.line, declLine);
  // What a loop carries back to the read (its own assignment, one below it) passes `last` again
  // on the way, when every loop around both holds the block `last` runs in (kubectl's printers
  // wrapped in a round: the second wrapper reads the first, not itself from the round before).
  const lastRegion = last ? regionOf(last, blocks) : undefined;
  const carriedPastLast = (a: SourceRef): boolean => {
    if (!lastRegion || a === last || a.ctx.fn !== fn) return false;
    // Only what reaches the read round a loop: below it, or the read's own assignment.
    const aEnd = a.at?.endLine ?? a.ctx.line;
    if (aEnd < use.line) return false;
    const first = Math.min(use.line, a.ctx.line);
    const end = Math.max(use.line, aEnd);
    for (let i = 0; i < loops.length; i += 2) {
      const start = loops[i]!;
      const stop = loops[i + 1]!;
      if (start > first || end > stop || (start <= declLine && declLine <= stop)) continue;
      if (start > lastRegion[0] || lastRegion[1] > stop) return false;
    }
    return true;
  };
  const kept = assigns.filter(
    (a) =>
      !own(a) &&
      !below(a) &&
      !otherBranch(a) &&
      !(straight(a) && a.at!.endLine >= use.line) &&
      !(last && a !== last && a.ctx.fn === fn && a.ctx.line < last.ctx.line) &&
      !replaced(a) &&
      !carriedPastLast(a),
  );
  return { assigns: kept, initial: !last };
}

/** The facts visibleAssigns reads of a function's control: lines of loops, blocks, jumps. */
type Control = Pick<
  FileFacts,
  'loops' | 'blocks' | 'clauses' | 'switches' | 'jumps' | 'falls' | 'elses' | 'defaults'
>;

/**
 * An if-else chain that ends in a plain `else`, or a switch or select with a `default` clause:
 * one of its branches always runs.
 */
interface Chain {
  first: number;
  last: number;
  branches: (readonly [number, number])[];
  /** The innermost block around the whole chain. */
  region: readonly [number, number] | undefined;
}

const chainMemo = new WeakMap<Control, Chain[]>();

/**
 * The file's if-else chains that end in a plain `else`, each followed back from it, and its
 * switches and selects with a `default` clause, each clause a branch.
 */
function chainsOf(control: Control): Chain[] {
  const known = chainMemo.get(control);
  if (known) return known;
  const found: Chain[] = [];
  const { blocks, elses, clauses, switches } = control;
  const chain = (first: number, last: number, branches: (readonly [number, number])[]) => {
    const around = innermostAround(blocks, first, last, (s, e) => s < first || e > last);
    found.push({
      first,
      last,
      branches,
      region: around < 0 ? undefined : [blocks[around]!, blocks[around + 1]!],
    });
  };
  // Each clause under the innermost switch around it.
  const bySwitch = new Map<
    number,
    { branches: (readonly [number, number])[]; otherwise: boolean }
  >();
  for (let j = 0; j < clauses.length; j += 2) {
    const start = clauses[j]!;
    const at = innermostAround(switches, start, clauses[j + 1]!);
    if (at < 0) continue;
    let entry = bySwitch.get(at);
    if (!entry) bySwitch.set(at, (entry = { branches: [], otherwise: false }));
    entry.branches.push([start, clauses[j + 1]!]);
    if (control.defaults.includes(start)) entry.otherwise = true;
  }
  for (const [at, { branches, otherwise }] of bySwitch)
    if (otherwise) chain(switches[at]!, switches[at + 1]!, branches);
  for (const start of elses) {
    const branches: (readonly [number, number])[] = [];
    let at = blockStarting(blocks, start, -1);
    // Back along `} else if c {` to the `if`: each branch opens on the line the one before closes.
    for (let hops = 0; at >= 0 && hops < 64; hops++) {
      const first = blocks[at]!;
      branches.unshift([first, blocks[at + 1]!]);
      at = blockEnding(blocks, first, at);
    }
    if (branches.length < 2) continue;
    chain(branches[0]![0], branches[branches.length - 1]![1], branches);
  }
  chainMemo.set(control, found);
  return found;
}

/** The index of the block (pairs) that opens on `line` and ends below it, other than `not`. */
function blockStarting(blocks: readonly number[], line: number, not: number): number {
  for (let i = 0; i < blocks.length; i += 2)
    if (i !== not && blocks[i] === line && blocks[i + 1]! > line) return i;
  return -1;
}

/** The index of the block (pairs) that closes on `line` and opens above it, other than `not`. */
function blockEnding(blocks: readonly number[], line: number, not: number): number {
  for (let i = 0; i < blocks.length; i += 2)
    if (i !== not && blocks[i + 1] === line && blocks[i]! < line) return i;
  return -1;
}

/**
 * Whether a block around the lines `first`..`last` ends on the line another block opens on (`}
 * else {`, `} else if c {`), and that block, or one chained to it so, holds `use` while the
 * first does not.
 */
function elseOf(blocks: readonly number[], first: number, last: number, use: number): boolean {
  for (let i = 0; i < blocks.length; i += 2) {
    const start = blocks[i]!;
    const end = blocks[i + 1]!;
    if (start > first || last > end || use <= end) continue;
    // Down the chain of branches, each opening on the line the one before closes on.
    for (let at = end, hops = 0; hops < 64; hops++) {
      const next = blockStarting(blocks, at, i);
      if (next < 0) break;
      if (use <= blocks[next + 1]!) return true;
      at = blocks[next + 1]!;
    }
  }
  return false;
}

/**
 * Whether the lines `first`..`last` sit in a case clause and `use` in a later clause of the same
 * switch or select, and the first clause does not fall through.
 */
function otherClause(control: Control, first: number, last: number, use: number): boolean {
  const { clauses, switches } = control;
  for (let i = 0; i < clauses.length; i += 2) {
    const start = clauses[i]!;
    const end = clauses[i + 1]!;
    if (start > first || last > end || use <= end) continue;
    if (lineWithin(control.falls, start, end)) continue;
    const around = innermostAround(switches, start, end);
    if (around < 0) continue;
    for (let j = 0; j < clauses.length; j += 2) {
      const s = clauses[j]!;
      const e = clauses[j + 1]!;
      if (s > end && s <= use && use <= e && innermostAround(switches, s, e) === around)
        return true;
    }
  }
  return false;
}

/**
 * The index of the smallest span (pairs) holding the lines `first`..`last` (and passing `keep`),
 * or -1.
 */
function innermostAround(
  spans: readonly number[],
  first: number,
  last: number,
  keep?: (start: number, end: number) => boolean,
): number {
  let best = -1;
  for (let i = 0; i < spans.length; i += 2) {
    if (spans[i]! > first || last > spans[i + 1]!) continue;
    if (keep && !keep(spans[i]!, spans[i + 1]!)) continue;
    if (best < 0 || spans[i + 1]! - spans[i]! < spans[best + 1]! - spans[best]!) best = i;
  }
  return best;
}

/** Whether one of the lines lies in `first`..`last`. */
function lineWithin(lines: readonly number[], first: number, last: number): boolean {
  for (const l of lines) if (first <= l && l <= last) return true;
  return false;
}

/** Whether a loop starts on the line (an assignment there may be its header's). */
function startsLoop(loops: readonly number[], line: number): boolean {
  for (let i = 0; i < loops.length; i += 2) if (loops[i] === line) return true;
  return false;
}

const regions = new WeakMap<SourceRef, readonly [number, number] | null>();

/**
 * The innermost block or case clause (first and last lines, in pairs) around an assignment.
 * None when a block starts on its first line and ends within it: a one-line `if c { x = y }`
 * and `x = func() {...}` are not told apart by lines.
 */
function regionOf(a: SourceRef, blocks: readonly number[]): readonly [number, number] | undefined {
  const hit = regions.get(a);
  if (hit !== undefined) return hit ?? undefined;
  const first = a.ctx.line;
  const last = a.at?.endLine ?? first;
  let oneLine = false;
  for (let i = 0; i < blocks.length && !oneLine; i += 2)
    oneLine = blocks[i] === first && blocks[i + 1]! <= last;
  const at = oneLine ? -1 : innermostAround(blocks, first, last);
  const best = at < 0 ? null : ([blocks[at]!, blocks[at + 1]!] as const);
  regions.set(a, best);
  return best ?? undefined;
}

/**
 * Whether one of the loops (first and last lines, in pairs) holds both lines and not the
 * variable's declaration: a variable declared in the loop's body is a new one each round, and
 * carries nothing from the round before (`allocator := byFamily[f]; allocator = allocator.DryRun()`).
 */
function aroundBoth(
  loops: readonly number[],
  first: number,
  last: number,
  declLine: number,
): boolean {
  for (let i = 0; i < loops.length; i += 2) {
    const start = loops[i]!;
    const end = loops[i + 1]!;
    if (start <= first && last <= end && !(start <= declLine && declLine <= end)) return true;
  }
  return false;
}

function pushIn(
  map: Map<FileModel, Map<string, SourceRef[]>>,
  file: FileModel,
  b: Binding,
  s: SourceRef,
): void {
  let byName = map.get(file);
  if (!byName) map.set(file, (byName = new Map()));
  push(byName, localKey(b), s);
}

/** Whether two bindings are one local or parameter. */
function sameBinding(a: Binding | undefined, b: Binding | undefined): boolean {
  if (!a || !b || a.k !== b.k) return false;
  if (a.k === 'local' && b.k === 'local') return a.local === b.local;
  if (a.k === 'param' && b.k === 'param')
    return a.file === b.file && a.fn === b.fn && a.index === b.index;
  if (a.k === 'value' && b.k === 'value') return a.decl === b.decl;
  return false;
}

/** Whether `&name` appears anywhere in the file's facts (memoized per file). */
function addressTaken(file: FileModel, name: string): boolean {
  let names = addressed.get(file);
  if (!names) {
    names = new Set<string>();
    const f = file.facts;
    const walk = (x: unknown): void => {
      if (!Array.isArray(x)) return;
      if (x[0] === 'u' && x[1] === '&' && Array.isArray(x[2]) && x[2][0] === 'i')
        names!.add(x[2][1] as string);
      for (const y of x) walk(y);
    };
    for (const c of f.calls) {
      walk(c.callee);
      walk(c.args);
    }
    for (const a of f.assigns) walk(a.rhs);
    for (const c of f.composites) walk(c.fields);
    for (const r of f.returns) walk(r.values);
    for (const l of f.locals) walk(l.value);
    for (const x of f.sends) walk(x.value);
    addressed.set(file, names);
  }
  return names.has(name);
}
const addressed = new WeakMap<FileModel, Set<string>>();

function localKey(b: Binding): string {
  if (b.k === 'local') return `${b.local.fn}:${b.local.name}:${b.local.line}`;
  if (b.k === 'param') return `${b.fn}:param:${b.index}`;
  return '';
}
