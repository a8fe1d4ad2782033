/**
 * What the link phase writes, built as store rows straight away (a link of Kubernetes makes
 * ~330k edges): call edges with how each was found, the bindings of function values to the
 * parameter slots of the functions called, and the symbols of callees that are not functions of
 * the index (functions of unindexed packages, interface methods, parameter slots). Needs are
 * written as package ids, minus what the caller's own import closure implies.
 */
import type { EdgeInsert, EdgeSink, SymbolInsert } from '../store/index-store.js';
import type { FuncRef, ProgramModel } from './model.js';
import { remaining, type Needs } from './needs.js';
import { RECEIVER, type FieldSlot, type Slot } from './value-flow.js';

/** A slot bound per call path: a function-typed parameter, or a function-typed field of a receiver. */
export type AnySlot = Slot | FieldSlot;

/** How an edge was found. `unresolved` edges have no callee; their text is kept. */
export type EdgeKind =
  | 'static'
  | 'interface'
  | 'funcvalue'
  | 'closure'
  | 'framework'
  | 'goroutine'
  | 'channel'
  | 'unresolved';

/** An interface's method as the callee of a dispatch no stored value decides. */
export interface AbstractMethod {
  abstract: true;
  symbol: string;
  name: string;
  pkg: string;
  file: string;
  line: number;
  col: number;
  detail: string;
}

/** What an edge calls: a function of the index, a slot, an interface's method, an external symbol. */
export type Callee = FuncRef | { slot: AnySlot } | AbstractMethod | string | null;

export interface EdgeOptions {
  via?: string | null;
  rank?: number;
  line: number;
  col: number;
  expr?: string | null;
  needs?: Needs;
}

export interface BindingInsert {
  caller: number;
  line: number;
  col: number;
  callee: number;
  /** Symbol id of the slot bound. */
  slot: number;
  /** Symbol id of the value: a function, or a slot of the caller (forwarded). */
  value: number;
  needs: string | null;
}

export interface PackageInsert {
  id: number;
  path: string;
  name: string;
  dir: string;
  imports: string[];
}

interface PendingEdge {
  row: EdgeInsert;
  callee: AbstractMethod | { slot: AnySlot };
  needs: Needs | undefined;
}

/** What LinkOutput needs to write an edge's row in full: ids of packages, import closures. */
export interface EdgeRowContext {
  /** Id of the first symbol after the declarations (external functions are numbered from it). */
  nextId: number;
  packageId: ReadonlyMap<string, number>;
  /** Whether package `pkg` is in `callerPkg`'s import closure. */
  implied: (callerPkg: string, pkg: string) => boolean;
}

export class LinkOutput {
  /** Every edge's row, in the order added. */
  private readonly rows: EdgeInsert[] = [];
  /**
   * The edges whose callee gets its symbol id in `finish` (an interface's method, a slot). The
   * others (functions of the index and outside it, unresolved calls) are final when added: the
   * sink has them at once.
   */
  private readonly pending: PendingEdge[] = [];
  /** Symbol ids of external functions, the first after the declarations, in the order called. */
  private readonly externalIds = new Map<string, number>();
  private readonly bindingRows: {
    caller: FuncRef;
    line: number;
    col: number;
    callee: FuncRef;
    slot: AnySlot;
    value: FuncRef | AnySlot;
    needs: Needs;
  }[] = [];
  private readonly bindingSeen = new Set<string>();
  framework = 0;

  constructor(
    readonly model: ProgramModel,
    private readonly context: EdgeRowContext,
    /** Given each edge final when added (its callee a function in or outside the index, or none). */
    private readonly sink?: EdgeSink,
  ) {}

  add(caller: FuncRef, callee: Callee, kind: EdgeKind, o: EdgeOptions): void {
    if (kind === 'framework') this.framework++;
    const row: EdgeInsert = {
      caller: caller.id,
      callee: null,
      kind,
      via: o.via ?? null,
      rank: o.rank ?? 0,
      file: caller.file.path,
      line: o.line,
      col: o.col,
      expr: o.expr ?? null,
    };
    const seq = this.rows.length;
    this.rows.push(row);
    if (!numberedLate(callee)) {
      row.callee = callee === null ? null : this.calleeId(callee);
      row.needs = this.needsText(o.needs, caller);
      this.sink?.add(row, seq);
    } else this.pending.push({ row, callee, needs: o.needs });
  }

  private calleeId(callee: FuncRef | string): number {
    if (typeof callee !== 'string') return callee.id;
    let id = this.externalIds.get(callee);
    if (id === undefined)
      this.externalIds.set(callee, (id = this.context.nextId + this.externalIds.size));
    return id;
  }

  /** Needs as package ids, minus what the caller's own import closure implies. */
  private needsText(needs: Needs | undefined, caller: FuncRef): string | null {
    if (!needs) return null;
    const { packageId, implied } = this.context;
    const left = remaining(needs, (p) => p === caller.pkg.path || implied(caller.pkg.path, p));
    if (!left) return null;
    return left.map((alt) => alt.map((p) => packageId.get(p) ?? -1).join(',')).join('|');
  }

  /** A function value passed at a call site into a slot of the function called. */
  bind(
    caller: FuncRef,
    line: number,
    col: number,
    callee: FuncRef,
    slot: AnySlot,
    value: FuncRef | AnySlot,
    needs: Needs,
  ): void {
    const key = `${caller.id}:${line}:${col}:${callee.id}:${slotKey(slot)}:${isSlot(value) ? `s${slotKey(value)}` : value.id}`;
    if (this.bindingSeen.has(key)) return;
    this.bindingSeen.add(key);
    this.bindingRows.push({ caller, line, col, callee, slot, value, needs });
  }

  /**
   * The rows: edges in the order added. Symbols of external callees, interface methods and slots
   * get ids after the functions, types and values (`context.nextId`), in that order of kind, each
   * in the order added.
   */
  finish(): {
    edges: EdgeInsert[];
    bindings: BindingInsert[];
    symbols: SymbolInsert[];
  } {
    const symbols: SymbolInsert[] = [];
    for (const [sym, id] of this.externalIds) symbols.push({ id, ...externalSymbol(sym) });
    let nextId = this.context.nextId + this.externalIds.size;
    const ids = new Map<string, number>();
    const idOf = (key: string, make: () => Omit<SymbolInsert, 'id'>): number => {
      let id = ids.get(key);
      if (id === undefined) {
        id = nextId++;
        ids.set(key, id);
        symbols.push({ id, ...make() });
      }
      return id;
    };
    const slotId = (slot: AnySlot) => idOf(`slot:${slotKey(slot)}`, () => slotSymbol(slot));
    // Interface methods, then slots: a partition, not a sort.
    const abstract: PendingEdge[] = [];
    const slots: PendingEdge[] = [];
    for (const p of this.pending) ('abstract' in p.callee ? abstract : slots).push(p);
    for (const p of [...abstract, ...slots]) {
      const c = p.callee;
      p.row.callee =
        'abstract' in c ? idOf(`abs:${c.symbol}`, () => abstractSymbol(c)) : slotId(c.slot);
      p.row.needs = this.needsText(p.needs, this.model.funcs[p.row.caller]!);
    }
    const bindings: BindingInsert[] = this.bindingRows.map((b) => ({
      caller: b.caller.id,
      line: b.line,
      col: b.col,
      callee: b.callee.id,
      slot: slotId(b.slot),
      value: isSlot(b.value) ? slotId(b.value) : b.value.id,
      needs: this.needsText(b.needs, b.caller),
    }));
    return { edges: this.rows, bindings, symbols };
  }
}

/** An interface's method, or a slot: a callee numbered at the link's end, once all are known. */
function numberedLate(c: Callee): c is AbstractMethod | { slot: AnySlot } {
  return c !== null && typeof c === 'object' && ('abstract' in c || 'slot' in c);
}

export function isSlot(v: FuncRef | AnySlot): v is AnySlot {
  return 'elem' in v;
}

export function slotKey(s: AnySlot): string {
  return 'field' in s ? `${s.owner.symbol}#${s.name}` : `${s.fn.id}:${s.index}:${s.elem ? 1 : 0}`;
}

/**
 * `k8s.io/apimachinery/pkg/util/wait.BackoffUntil#f`; the elements of `opts ...Option`: `#opts[]`;
 * a receiver of function type by its name (`(….RequestFunc).AuthenticateRequest#f`).
 */
export function slotSymbolName(s: Slot): string {
  const name =
    (s.index === RECEIVER ? s.fn.fact.recv?.name : s.fn.fact.params[s.index]?.[0]) ??
    String(s.index);
  return `${s.fn.symbol}#${name === '_' ? String(s.index) : name}${s.elem ? '[]' : ''}`;
}

function slotSymbol(s: AnySlot): Omit<SymbolInsert, 'id'> {
  if ('field' in s) return fieldSymbol(s);
  const param: readonly (string | null)[] | undefined =
    s.index === RECEIVER
      ? s.fn.fact.recv && [s.fn.fact.recv.name, s.fn.fact.recv.type]
      : s.fn.fact.params[s.index];
  const symbol = slotSymbolName(s);
  return {
    symbol,
    name: symbol.slice(symbol.lastIndexOf('#') + 1).replace(/\[\]$/, ''),
    kind: 'param',
    package: s.fn.pkg.path,
    file: s.fn.file.path,
    line: s.fn.fact.line,
    endLine: s.fn.fact.line,
    col: s.fn.fact.col,
    detail: param ? `${param[0] ?? '_'} ${param[1]}` : null,
    doc: null,
  };
}

/** `k8s.io/kubernetes/pkg/util/async.BoundedFrequencyRunner#fn`, at the struct's declaration. */
function fieldSymbol(s: FieldSlot): Omit<SymbolInsert, 'id'> {
  const field = s.owner.fact.fields?.find((f) => f.name === s.name);
  return {
    symbol: `${s.owner.symbol}#${s.name}`,
    name: s.name,
    kind: 'field',
    package: s.owner.pkg.path,
    file: s.owner.file.path,
    line: field?.line ?? s.owner.fact.line,
    endLine: field?.line ?? s.owner.fact.line,
    col: s.owner.fact.col,
    detail: field ? `${s.name} ${field.type}` : null,
    doc: null,
  };
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
