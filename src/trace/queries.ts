/**
 * The reader's questions answered from the index: callers and callees, implementations of an
 * interface, a struct with its embedded structs expanded, who fills a field, and what the
 * identifier at `file:line[:col]` resolves to.
 */
import { AmbiguousSymbolError, SymbolNotFoundError } from '../errors.js';
import type { Store } from '../store/db.js';
import {
  findBindingsOf,
  findDefinitions,
  findDetail,
  findDetailsLike,
  findEdgesFrom,
  findEdgesTo,
  findEnclosingDefinition,
  findSymbolsByIds,
  type DefinitionRow,
  type EdgeRow,
} from '../store/symbols.js';

export interface IndexRef {
  store: Store;
  treeId: number;
}

export interface NeighbourHop {
  depth: number;
  from: string;
  to: string | null;
  expr: string | null;
  kind: string;
  via: string | null;
  rank: number;
  site: string;
  file: string | null;
  line: number | null;
  /** A call through a parameter (`to` is the slot): what callers pass into it, and where. */
  values?: { symbol: string; from: string; site: string }[];
}

export interface Neighbours {
  symbol: string;
  direction: 'callers' | 'callees';
  file: string;
  line: number;
  hops: NeighbourHop[];
}

/** One symbol for a query that must name one callable: the candidates when it names several. */
export async function resolveOne(
  index: IndexRef,
  query: string,
  kinds?: readonly string[],
): Promise<DefinitionRow> {
  let rows = await findDefinitions(index.store, index.treeId, query);
  if (kinds) rows = rows.filter((r) => kinds.includes(r.kind));
  if (rows.length === 0) throw new SymbolNotFoundError(query);
  const exact = rows.filter((r) => r.symbol === query);
  if (exact.length === 1) return exact[0]!;
  const declared = rows.filter((r) => r.kind !== 'external' && r.kind !== 'closure');
  const pool = declared.length > 0 ? declared : rows;
  if (pool.length > 1)
    throw new AmbiguousSymbolError(
      query,
      pool.map((r) => r.symbol),
    );
  return pool[0]!;
}

export async function neighbours(
  index: IndexRef,
  query: string,
  direction: 'callers' | 'callees',
  depth: number,
): Promise<Neighbours> {
  const start = await resolveOne(index, query, ['func', 'method', 'closure', 'external']);
  const symbols = new Map<number, DefinitionRow>([[start.id, start]]);
  const hops: NeighbourHop[] = [];
  let frontier = [start.id];
  const seen = new Set(frontier);
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const rows: EdgeRow[] =
      direction === 'callees'
        ? await findEdgesFrom(index.store, index.treeId, frontier)
        : await findEdgesTo(index.store, index.treeId, frontier);
    const ids = [
      ...new Set(
        rows
          .flatMap((r) => [r.caller, ...(r.callee === null ? [] : [r.callee])])
          .filter((id) => !symbols.has(id)),
      ),
    ];
    for (const s of await findSymbolsByIds(index.store, index.treeId, ids)) symbols.set(s.id, s);
    const next: number[] = [];
    for (const r of rows) {
      const caller = symbols.get(r.caller);
      const callee = r.callee === null ? undefined : symbols.get(r.callee);
      const other = direction === 'callees' ? callee : caller;
      hops.push({
        depth: d,
        from: caller?.symbol ?? '?',
        to: callee?.symbol ?? null,
        expr: r.expr,
        kind: r.kind,
        via: r.via,
        rank: r.rank,
        site: `${r.file}:${r.line}`,
        file: other?.file || null,
        line: other?.line || null,
      });
      if (other && !seen.has(other.id)) {
        seen.add(other.id);
        next.push(other.id);
      }
    }
    frontier = next;
  }
  if (direction === 'callers') await addPassedAs(index, start, symbols, hops);
  else await addSlotValues(index, symbols, hops);
  return { symbol: start.symbol, direction, file: start.file, line: start.line, hops };
}

/**
 * `callers` of a function passed as a value: where it is passed into a parameter, and the function
 * that receives it (which calls it through that parameter, on that path).
 */
async function addPassedAs(
  index: IndexRef,
  start: DefinitionRow,
  symbols: Map<number, DefinitionRow>,
  hops: NeighbourHop[],
): Promise<void> {
  const rows = await findBindingsOf(index.store, index.treeId, [start.id], 'value');
  const ids = [...new Set(rows.flatMap((r) => [r.caller, r.callee, r.slot]))].filter(
    (id) => !symbols.has(id),
  );
  for (const s of await findSymbolsByIds(index.store, index.treeId, ids)) symbols.set(s.id, s);
  for (const r of rows) {
    const caller = symbols.get(r.caller);
    const callee = symbols.get(r.callee);
    const slot = symbols.get(r.slot);
    if (!caller || !callee || !slot) continue;
    hops.push({
      depth: 1,
      from: callee.symbol,
      to: start.symbol,
      expr: null,
      kind: 'funcvalue',
      via: `passed as ${slot.name} by ${caller.symbol}`,
      rank: 0,
      site: `${caller.file}:${r.line}`,
      file: callee.file,
      line: callee.line,
    });
  }
}

/** `callees` through a parameter: the values callers pass into it, labelled with who passes them. */
async function addSlotValues(
  index: IndexRef,
  symbols: Map<number, DefinitionRow>,
  hops: NeighbourHop[],
): Promise<void> {
  const slots = [...symbols.values()].filter(
    (s) => s.kind === 'param' && hops.some((h) => h.to === s.symbol),
  );
  if (slots.length === 0) return;
  const rows = await findBindingsOf(
    index.store,
    index.treeId,
    slots.map((s) => s.id),
    'slot',
  );
  const ids = [...new Set(rows.flatMap((r) => [r.caller, r.value]))].filter(
    (id) => !symbols.has(id),
  );
  for (const s of await findSymbolsByIds(index.store, index.treeId, ids)) symbols.set(s.id, s);
  const bySlot = new Map<number, { symbol: string; from: string; site: string }[]>();
  for (const r of rows) {
    const value = symbols.get(r.value);
    const caller = symbols.get(r.caller);
    if (!value || !caller) continue;
    const list = bySlot.get(r.slot) ?? [];
    list.push({ symbol: value.symbol, from: caller.symbol, site: `${caller.file}:${r.line}` });
    bySlot.set(r.slot, list);
  }
  for (const h of hops) {
    const slot = slots.find((s) => s.symbol === h.to);
    if (slot) h.values = bySlot.get(slot.id) ?? [];
  }
}

export interface Implementations {
  interface: string;
  file: string;
  line: number;
  methods: string[];
  implementations: { type: string; file: string | null; line: number | null }[];
  stores: {
    field: string;
    file: string;
    line: number;
    expr: string;
    in: string | null;
    type: string | null;
  }[];
}

export async function implementations(index: IndexRef, query: string): Promise<Implementations> {
  const iface = await resolveOne(index, query, ['interface']);
  const detail = await findDetail<{ methods: string[]; implementations: string[] }>(
    index.store,
    index.treeId,
    iface.symbol,
    'interface',
  );
  const impls: Implementations['implementations'] = [];
  for (const t of detail?.implementations ?? []) {
    const def = (await findDefinitions(index.store, index.treeId, t)).find((d) => d.symbol === t);
    impls.push({ type: t, file: def?.file ?? null, line: def?.line ?? null });
  }
  // Where values go into fields declared with this interface type, whatever the stored value's
  // own type (`klet.containerRuntime = runtime` stores an interface value too).
  const stores: Implementations['stores'] = [];
  const all = await findDetailsLike<AssignsDetail>(index.store, index.treeId, 'assigns', '');
  for (const { symbol, payload } of all) {
    if (payload.fieldType !== iface.symbol) continue;
    for (const s of payload.stores) stores.push({ field: symbol, ...s });
  }
  return {
    interface: iface.symbol,
    file: iface.file,
    line: iface.line,
    methods: detail?.methods ?? [],
    implementations: impls,
    stores: stores.slice(0, 200),
  };
}

export interface StructField {
  name: string;
  type: string;
  embedded: boolean;
  /** The struct this field is declared in (itself or an embedded one). */
  from: string;
  depth: number;
  line: number;
  file: string;
}

export interface StructView {
  type: string;
  file: string;
  line: number;
  fields: StructField[];
  methods: { symbol: string; from: string; depth: number }[];
}

interface StructDetail {
  fields: {
    name: string;
    type: string;
    embedded: boolean;
    typeSymbol: string | null;
    line: number;
  }[];
  methods: string[];
}

export async function describeStruct(index: IndexRef, query: string): Promise<StructView> {
  const root = await resolveOne(index, query, ['struct', 'type']);
  const fields: StructField[] = [];
  const methods: StructView['methods'] = [];
  const seenNames = new Set<string>();
  const seenTypes = new Set<string>();
  // Breadth-first, as Go promotes: a shallower name hides a deeper one.
  let level: { symbol: string; depth: number; file: string }[] = [
    { symbol: root.symbol, depth: 0, file: root.file },
  ];
  while (level.length > 0) {
    const next: typeof level = [];
    for (const t of level) {
      if (seenTypes.has(t.symbol)) continue;
      seenTypes.add(t.symbol);
      const detail = await findDetail<StructDetail>(index.store, index.treeId, t.symbol, 'struct');
      const typeDetail = detail
        ? undefined
        : await findDetail<{ methods: string[] }>(index.store, index.treeId, t.symbol, 'type');
      for (const m of detail?.methods ?? typeDetail?.methods ?? []) {
        const name = m.slice(m.lastIndexOf('.') + 1);
        if (seenNames.has(`m:${name}`)) continue;
        seenNames.add(`m:${name}`);
        methods.push({ symbol: m, from: t.symbol, depth: t.depth });
      }
      let file = t.file;
      if (!file) {
        const def = (await findDefinitions(index.store, index.treeId, t.symbol)).find(
          (d) => d.symbol === t.symbol,
        );
        file = def?.file ?? '';
      }
      for (const f of detail?.fields ?? []) {
        if (!seenNames.has(`f:${f.name}`)) {
          seenNames.add(`f:${f.name}`);
          fields.push({
            name: f.name,
            type: f.type,
            embedded: f.embedded,
            from: t.symbol,
            depth: t.depth,
            line: f.line,
            file,
          });
        }
        if (f.embedded && f.typeSymbol)
          next.push({ symbol: f.typeSymbol, depth: t.depth + 1, file: '' });
      }
    }
    level = next;
  }
  return { type: root.symbol, file: root.file, line: root.line, fields, methods };
}

/** The `assigns` detail of a field: its declared type and what is stored into it. */
interface AssignsDetail {
  fieldType: string | null;
  stores: FieldAssignments['stores'];
}

export interface FieldAssignments {
  field: string;
  /** The field's declared type. */
  type: string | null;
  stores: { file: string; line: number; expr: string; in: string | null; type: string | null }[];
}

export async function fieldAssignments(
  index: IndexRef,
  query: string,
): Promise<FieldAssignments[]> {
  const q = query.trim();
  const dot = q.lastIndexOf('.');
  if (dot <= 0)
    throw new SymbolNotFoundError(q, ['name a field as Type.field, e.g. Scheduler.SchedulePod']);
  const rows = await findDetailsLike<AssignsDetail>(index.store, index.treeId, 'assigns', q);
  const matches = rows.filter(({ symbol }) => {
    const before = symbol[symbol.length - q.length - 1];
    return symbol === q || before === '/' || before === '.';
  });
  if (matches.length === 0)
    throw new SymbolNotFoundError(q, [
      'no assignment stores into a field by that name; check `k8s-read struct <Type>`',
    ]);
  return matches.map(({ symbol, payload }) => ({
    field: symbol,
    type: payload.fieldType,
    stores: payload.stores,
  }));
}

export interface PositionAnswer {
  file: string;
  line: number;
  col: number | null;
  /** The declaration that holds this position. */
  enclosing: DefinitionRow | null;
  /** What the calls on this line (or at this column) resolve to. */
  calls: {
    expr: string | null;
    col: number;
    kind: string;
    via: string | null;
    rank: number;
    target: DefinitionRow | null;
  }[];
  /** A declaration starting on this line, if any. */
  declared: DefinitionRow | null;
}

/** What the identifier at `file:line[:col]` resolves to: the calls there, or the declaration. */
export async function resolvePosition(
  index: IndexRef,
  file: string,
  line: number,
  col: number | null,
): Promise<PositionAnswer> {
  const enclosing = (await findEnclosingDefinition(index.store, index.treeId, file, line)) ?? null;
  const declared = enclosing && enclosing.line === line ? enclosing : null;
  const calls: PositionAnswer['calls'] = [];
  if (enclosing) {
    // With a column: the call whose name starts at or before it (within a name's length), nearest.
    const rows = (await findEdgesFrom(index.store, index.treeId, [enclosing.id])).filter(
      (r) => r.line === line && (col === null || (r.col <= col && col <= r.col + 40)),
    );
    const best =
      col === null ? rows : rows.filter((r) => r.col === Math.max(...rows.map((x) => x.col)));
    const targets = await findSymbolsByIds(
      index.store,
      index.treeId,
      best.flatMap((r) => (r.callee === null ? [] : [r.callee])),
    );
    const byId = new Map(targets.map((t) => [t.id, t]));
    for (const r of best) {
      calls.push({
        expr: r.expr,
        col: r.col,
        kind: r.kind,
        via: r.via,
        rank: r.rank,
        target: r.callee === null ? null : (byId.get(r.callee) ?? null),
      });
    }
  }
  return { file, line, col, enclosing, calls, declared };
}
