/**
 * A tree's call graph as one compact record: what a trace reads of the symbols, edges, bindings,
 * constructed types and packages, as integer columns and one pool of strings.
 *
 * A trace walks the program breadth first, asking for each level's calls and the symbols they
 * reach. Asked of the tables, that is two or three queries a level (forty levels for
 * kube-apiserver), and each waits on the driver's thread: ~175 ms of a 500 ms trace, of which
 * SQLite's own work is about half. Read from one record, the same answers are array lookups.
 * The record is written with the tables, in the same transaction, so it never disagrees with them;
 * the tables stay what every other command reads.
 *
 * The answers are the tables' answers, row for row and in the same order: edges by caller, line,
 * column and rank (then as written); bindings by caller, callee (then as written); symbols by
 * id, without signature and doc (what a trace reads).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { mapFile } from '../shared/map-file.js';
import { push } from '../shared/multimap.js';
import type { Store } from './db.js';
import type { BindingRow, EdgeInsert, PackageRow, SymbolInsert } from './index-store.js';
import type { DefinitionRow, EdgeRow, SymbolKind } from './symbols.js';

/** Bumped when the layout changes: an older record is ignored (the tables answer instead). */
export const TRACE_PACK_VERSION = 2;
const MAGIC = 0x50543b4b; // 'K;TP'

/**
 * Where a tree's record lives: beside the database (`<db>.pack-<tree>`), mapped into memory (or
 * read whole, ~20 ms) where SQLite takes ~65 ms to hand back a 29 MB BLOB. The database says which
 * record belongs to the tree as it is (`meta` key `pack:<tree>`, written in the index's
 * transaction): a record left by an interrupted or older run never matches and is not read.
 */
export function tracePackPath(dbPath: string, treeId: number): string {
  return `${dbPath}.pack-${treeId}`;
}

const metaKey = (treeId: number) => `pack:${treeId}`;

/** A new record's token, to be stored in the index's transaction (`recordTracePack`). */
export function newTracePackToken(): string {
  return randomUUID();
}

export async function recordTracePack(store: Store, treeId: number, token: string): Promise<void> {
  await store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [
    metaKey(treeId),
    token,
  ]);
}

/** Where a record is written before the transaction that names it commits. */
export function partialTracePackPath(dbPath: string, treeId: number): string {
  return `${tracePackPath(dbPath, treeId)}.partial-${process.pid}`;
}

/** Puts a written record in place once the transaction that names it has committed. */
export async function placeTracePack(dbPath: string, treeId: number): Promise<void> {
  const partial = partialTracePackPath(dbPath, treeId);
  try {
    await rename(partial, tracePackPath(dbPath, treeId));
  } finally {
    await rm(partial, { force: true });
  }
}

/** The tree's record, when the one beside the database is the one the database names. */
export async function readTracePack(store: Store, treeId: number): Promise<TracePack | null> {
  if (store.path === ':memory:') return null;
  try {
    const row = await store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [
      metaKey(treeId),
    ]);
    if (!row) return null;
    const file = tracePackPath(store.path, treeId);
    const mapped = mapFile(file);
    const pack = TracePack.decode(mapped ? Buffer.from(mapped) : await readFile(file));
    return pack?.token === row.value ? pack : null;
  } catch {
    return null;
  }
}

/** The record's first ints: what it is, then how many of each. */
const HEAD_FIELDS = [
  'magic',
  'version',
  'maxId',
  'symbols',
  'edges',
  'bindings',
  'made',
  'packages',
  'imports',
  'strings',
  'poolBytes',
] as const;
const HEAD = HEAD_FIELDS.length;
type Head = Record<(typeof HEAD_FIELDS)[number], number>;

function readHead(ints: Int32Array): Head {
  return Object.fromEntries(HEAD_FIELDS.map((f, i) => [f, ints[i]!])) as Head;
}

/**
 * Integers appended in chunks of a fixed size: held through the link, they take 4 bytes each and
 * no slack beyond a chunk, and growing leaves nothing behind to collect.
 */
class IntList {
  private static readonly CHUNK = 1 << 16;
  private readonly chunks: Int32Array[] = [];
  private last = new Int32Array(0);
  private fill = 0;
  length = 0;

  push(value: number): void {
    if (this.fill === this.last.length) {
      this.last = new Int32Array(IntList.CHUNK);
      this.chunks.push(this.last);
      this.fill = 0;
    }
    this.last[this.fill++] = value;
    this.length++;
  }

  at(i: number): number {
    return this.chunks[i >>> 16]![i & 0xffff]!;
  }

  /** The values, chunk by chunk (the last one cut to what it holds). */
  *parts(): Generator<Int32Array> {
    for (const chunk of this.chunks)
      yield chunk === this.last ? chunk.subarray(0, this.fill) : chunk;
  }
}

/** Collects rows as the index writes them (symbols are dropped once written), then encodes. */
export class TracePackBuilder {
  /**
   * The strings, as UTF-8 bytes as they come, in chunks: the builder holds no string of the rows.
   * A name cut from a file's text keeps the whole text alive in V8 (a sliced string), and the
   * index's early rows are held through the link.
   */
  private readonly chunks: Buffer[] = [];
  private chunk = Buffer.alloc(0);
  private chunkUsed = 0;
  /** Bytes in the chunks before the current one. */
  private before = 0;
  private readonly starts = new IntList();
  /** Strings stored once (kinds, files, packages, expressions), keyed by a copy of their own. */
  private readonly strings = new Map<string, number>();
  private readonly symbolColumns = Array.from({ length: 9 }, () => new IntList());
  private readonly packagePaths = new Map<number, number>();
  private readonly packageRows: {
    id: number;
    path: number;
    name: number;
    dir: number;
    imports: number[];
  }[] = [];

  /** `token` names this record (`recordTracePack`); it is the pool's first string. */
  constructor(readonly token: string) {
    this.append(token);
  }

  /** Bytes of all strings so far. */
  private get used(): number {
    return this.before + this.chunkUsed;
  }

  private append(s: string): number {
    const most = s.length * 3;
    if (this.chunkUsed + most > this.chunk.length) {
      if (this.chunkUsed > 0) this.chunks.push(this.chunk.subarray(0, this.chunkUsed));
      this.before += this.chunkUsed;
      this.chunk = Buffer.allocUnsafe(Math.max(1 << 20, most));
      this.chunkUsed = 0;
    }
    this.starts.push(this.used);
    this.chunkUsed += this.chunk.write(s, this.chunkUsed, 'utf8');
    return this.starts.length - 1;
  }

  private str(s: string | null | undefined): number {
    if (s === null || s === undefined) return -1;
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.append(s);
      // `append` may have started a new chunk: the string is at the end of the current one.
      const at = this.starts.at(i) - this.before;
      this.strings.set(this.chunk.toString('utf8', at, this.chunkUsed), i);
    }
    return i;
  }

  addSymbols(rows: readonly SymbolInsert[]): void {
    const [id, symbol, name, kind, file, line, endLine, col, pkg] = this.symbolColumns as [
      IntList,
      IntList,
      IntList,
      IntList,
      IntList,
      IntList,
      IntList,
      IntList,
      IntList,
    ];
    for (const s of rows) {
      id.push(s.id);
      // A symbol is unique, a name nearly so: straight into the pool, no lookup.
      symbol.push(this.append(s.symbol));
      name.push(this.append(s.name));
      kind.push(this.str(s.kind));
      file.push(this.str(s.file));
      line.push(s.line);
      endLine.push(s.endLine);
      col.push(s.col);
      pkg.push(this.str(s.package));
    }
  }

  addPackages(rows: readonly PackageRow[]): void {
    for (const p of rows) {
      const path = this.str(p.path);
      this.packagePaths.set(p.id, path);
      this.packageRows.push({
        id: p.id,
        path,
        name: this.str(p.name),
        dir: this.str(p.dir),
        imports: p.imports.map((i) => this.str(i)),
      });
    }
  }

  /**
   * Writes the record to `file`, a section at a time as it is made: nothing the size of the
   * whole record is held (the index is at its largest here, with the link's rows in memory).
   */
  writeTo(
    file: string,
    edges: readonly EdgeInsert[],
    bindings: readonly BindingRow[],
    made: readonly { type: string; package: number }[],
  ): void {
    const fd = openSync(file, 'w');
    try {
      this.writeSections(fd, edges, bindings, made);
    } finally {
      closeSync(fd);
    }
  }

  private writeSections(
    fd: number,
    edges: readonly EdgeInsert[],
    bindings: readonly BindingRow[],
    made: readonly { type: string; package: number }[],
  ): void {
    let position = HEAD * 4;
    const write = (ints: Int32Array | Buffer) => {
      const bytes =
        ints instanceof Buffer
          ? ints
          : new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength);
      for (let done = 0; done < bytes.byteLength;)
        done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
      position += bytes.byteLength;
    };
    const ids = this.symbolColumns[0]!;
    let maxId = -1;
    for (const part of ids.parts()) for (const id of part) if (id > maxId) maxId = id;
    for (const r of edges) if (r.caller > maxId) maxId = r.caller;
    for (const r of bindings) if (r.caller > maxId) maxId = r.caller;
    // Symbols: row by id, then their columns.
    const rowOfId = new Int32Array(maxId + 1).fill(-1);
    let row = 0;
    for (const part of ids.parts()) for (const id of part) rowOfId[id] = row++;
    write(rowOfId);
    for (const column of this.symbolColumns) for (const part of column.parts()) write(part);
    // Edges: by caller, line, column, rank, then as written.
    const edgeOrder = byCaller(edges, maxId, (a, b) => {
      const x = edges[a]!;
      const y = edges[b]!;
      return x.line - y.line || x.col - y.col || x.rank - y.rank || a - b;
    });
    // One column at a time, in one array: written before the next fills it.
    const column = new Int32Array(edges.length);
    const edgeColumn = (value: (e: EdgeInsert) => number) => {
      for (let r = 0; r < edgeOrder.length; r++) column[r] = value(edges[edgeOrder[r]!]!);
      return column;
    };
    const callers = edgeColumn((e) => e.caller).slice();
    write(callers);
    write(edgeColumn((e) => e.callee ?? -1));
    write(edgeColumn((e) => this.str(e.kind)));
    write(edgeColumn((e) => this.str(e.via)));
    write(edgeColumn((e) => e.rank));
    write(edgeColumn((e) => this.str(e.file)));
    write(edgeColumn((e) => e.line));
    write(edgeColumn((e) => e.col));
    write(edgeColumn((e) => this.str(e.expr)));
    write(edgeColumn((e) => this.str(e.needs ?? null)));
    write(startsByCaller(callers, maxId));
    // Bindings: by caller, callee, then as written.
    const bindingOrder = byCaller(
      bindings,
      maxId,
      (a, b) => bindings[a]!.callee - bindings[b]!.callee || a - b,
    );
    const bindingValues = new Int32Array(bindings.length);
    const bindingColumn = (value: (b: BindingRow) => number) => {
      for (let r = 0; r < bindingOrder.length; r++)
        bindingValues[r] = value(bindings[bindingOrder[r]!]!);
      return bindingValues;
    };
    const bindingCallers = bindingColumn((b) => b.caller).slice();
    write(bindingCallers);
    write(bindingColumn((b) => b.line));
    write(bindingColumn((b) => b.col));
    write(bindingColumn((b) => b.callee));
    write(bindingColumn((b) => b.slot));
    write(bindingColumn((b) => b.value));
    write(bindingColumn((b) => this.str(b.needs)));
    write(startsByCaller(bindingCallers, maxId));
    // Constructed types: by type (as strings compare), then as written, for a binary search.
    const madeOrder = Array.from(made.keys()).sort((a, b) => {
      const x = made[a]!.type;
      const y = made[b]!.type;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    write(Int32Array.from(madeOrder, (m) => this.str(made[m]!.type)));
    write(Int32Array.from(madeOrder, (m) => this.packagePaths.get(made[m]!.package) ?? -1));
    // Packages by id (as the table keeps them), each with its imports.
    const packages = [...this.packageRows].sort((a, b) => a.id - b.id);
    const imports: number[] = [];
    const firstImport = packages.map((p) => {
      const first = imports.length;
      imports.push(...p.imports);
      return first;
    });
    write(Int32Array.from(packages, (p) => p.id));
    write(Int32Array.from(packages, (p) => p.path));
    write(Int32Array.from(packages, (p) => p.name));
    write(Int32Array.from(packages, (p) => p.dir));
    write(Int32Array.from(firstImport));
    write(Int32Array.from([...imports, imports.length]));
    // The strings: where each starts, then their bytes.
    for (const part of this.starts.parts()) write(part);
    write(Int32Array.of(this.used));
    for (const chunk of this.chunks) write(chunk);
    write(this.chunk.subarray(0, this.chunkUsed));
    const head: Head = {
      magic: MAGIC,
      version: TRACE_PACK_VERSION,
      maxId,
      symbols: ids.length,
      edges: edges.length,
      bindings: bindings.length,
      made: made.length,
      packages: packages.length,
      imports: imports.length,
      strings: this.starts.length,
      poolBytes: this.used,
    };
    position = 0;
    write(Int32Array.from(HEAD_FIELDS, (f) => head[f]));
  }
}

/**
 * Row indexes ordered by caller (a counting sort: callers are symbol ids up to `maxId`), then
 * within one caller by `within` (a few rows each).
 */
function byCaller(
  rows: readonly { caller: number }[],
  maxId: number,
  within: (a: number, b: number) => number,
): Int32Array {
  const start = new Int32Array(maxId + 2);
  for (const r of rows) start[r.caller + 1]!++;
  for (let id = 1; id <= maxId + 1; id++) start[id]! += start[id - 1]!;
  const next = start.slice(0, maxId + 1);
  const order = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) order[next[rows[i]!.caller]!++] = i;
  for (let id = 0; id <= maxId; id++) {
    const from = start[id]!;
    const to = start[id + 1]!;
    if (to - from > 1) order.subarray(from, to).sort(within);
  }
  return order;
}

/** For rows sorted by caller: where each caller's rows start (index `id`, end at `id + 1`). */
function startsByCaller(callers: Int32Array, maxId: number): Int32Array {
  const start = new Int32Array(maxId + 2);
  let r = 0;
  for (let id = 0; id <= maxId + 1; id++) {
    while (r < callers.length && callers[r]! < id) r++;
    start[id] = r;
  }
  return start;
}

/** A decoded record: the tracer's questions answered from arrays. */
export class TracePack {
  private readonly rowOfId: Int32Array;
  private readonly sym: Int32Array[];
  private readonly edge: Int32Array[];
  private readonly edgeStart: Int32Array;
  private readonly binding: Int32Array[];
  private readonly bindingStart: Int32Array;
  /** Binding rows by slot, made on the first `bindingsInto`. */
  private bySlot: Map<number, number[]> | undefined;
  private readonly made: Int32Array[];
  private readonly pkg: Int32Array[];
  /** Every package's imports, one after another; the last entry is their count. */
  private readonly imports: Int32Array;
  private readonly poolStart: Int32Array;
  private readonly pool: Buffer;
  private readonly decoded = new Map<number, string>();
  private readonly maxId: number;
  private readonly symbols = new Map<number, DefinitionRow>();
  /** Which record this is (see `recordTracePack`). */
  readonly token: string;

  /** Null when `data` is not a record of this version. */
  static decode(data: Buffer): TracePack | null {
    if (data.length < HEAD * 4) return null;
    // Int32 views need 4-byte alignment, which a buffer need not have.
    const bytes = data.byteOffset % 4 === 0 ? data : Buffer.from(new Uint8Array(data).buffer);
    const head = readHead(new Int32Array(bytes.buffer, bytes.byteOffset, HEAD));
    if (head.magic !== MAGIC || head.version !== TRACE_PACK_VERSION) return null;
    const { maxId, symbols, edges, bindings, made, packages, imports, strings } = head;
    const ints =
      HEAD +
      (maxId + 1) +
      9 * symbols +
      10 * edges +
      2 * (maxId + 2) +
      7 * bindings +
      2 * made +
      5 * packages +
      imports +
      1 +
      (strings + 1);
    // A record cut short (a full disk) is no record.
    if (ints * 4 + head.poolBytes !== bytes.length) return null;
    return new TracePack(bytes, head);
  }

  private constructor(bytes: Buffer, head: Head) {
    const { maxId, symbols, edges, bindings, made, packages, imports, strings } = head;
    this.maxId = maxId;
    let at = bytes.byteOffset + HEAD * 4;
    const take = (n: number) => {
      const view = new Int32Array(bytes.buffer, at, n);
      at += n * 4;
      return view;
    };
    this.rowOfId = take(maxId + 1);
    this.sym = Array.from({ length: 9 }, () => take(symbols));
    this.edge = Array.from({ length: 10 }, () => take(edges));
    this.edgeStart = take(maxId + 2);
    this.binding = Array.from({ length: 7 }, () => take(bindings));
    this.bindingStart = take(maxId + 2);
    this.made = [take(made), take(made)];
    this.pkg = Array.from({ length: 5 }, () => take(packages));
    this.imports = take(imports + 1);
    this.poolStart = take(strings + 1);
    this.pool = Buffer.from(bytes.buffer, at, head.poolBytes);
    this.token = this.str(0) ?? '';
  }

  /** As `listPackages`: by id, each with what it imports. */
  packages(): PackageRow[] {
    const [id, path, name, dir, first] = this.pkg as [
      Int32Array,
      Int32Array,
      Int32Array,
      Int32Array,
      Int32Array,
    ];
    const out: PackageRow[] = [];
    for (let r = 0; r < id.length; r++) {
      const end = r + 1 < id.length ? first[r + 1]! : this.imports[this.imports.length - 1]!;
      const imports: string[] = [];
      for (let i = first[r]!; i < end; i++) imports.push(this.str(this.imports[i]!)!);
      out.push({
        id: id[r]!,
        path: this.str(path[r]!)!,
        name: this.str(name[r]!)!,
        dir: this.str(dir[r]!)!,
        imports,
      });
    }
    return out;
  }

  private str(i: number): string | null {
    if (i < 0) return null;
    let s = this.decoded.get(i);
    if (s === undefined) {
      s = this.pool.toString('utf8', this.poolStart[i]!, this.poolStart[i + 1]!);
      this.decoded.set(i, s);
    }
    return s;
  }

  private symbolAt(id: number): DefinitionRow | undefined {
    let s = this.symbols.get(id);
    if (s) return s;
    const r = id >= 0 && id <= this.maxId ? this.rowOfId[id]! : -1;
    if (r < 0) return undefined;
    const c = this.sym;
    s = {
      id,
      symbol: this.str(c[1]![r]!)!,
      name: this.str(c[2]![r]!)!,
      kind: this.str(c[3]![r]!) as SymbolKind,
      file: this.str(c[4]![r]!)!,
      line: c[5]![r]!,
      endLine: c[6]![r]!,
      col: c[7]![r]!,
      package: this.str(c[8]![r]!)!,
      detail: null,
      doc: null,
    };
    this.symbols.set(id, s);
    return s;
  }

  /** As `findSymbolsByIds(..., { text: false })`: by id, each once. */
  symbolsByIds(ids: readonly number[]): DefinitionRow[] {
    const out: DefinitionRow[] = [];
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      const s = this.symbolAt(id);
      if (s) out.push(s);
    }
    return out;
  }

  /** As `findEdgesFrom`: by caller, line, column, rank. */
  edgesFrom(ids: readonly number[]): EdgeRow[] {
    const out: EdgeRow[] = [];
    const c = this.edge;
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      if (id < 0 || id > this.maxId) continue;
      for (let r = this.edgeStart[id]!; r < this.edgeStart[id + 1]!; r++) {
        const callee = c[1]![r]!;
        out.push({
          caller: id,
          callee: callee < 0 ? null : callee,
          kind: this.str(c[2]![r]!)!,
          via: this.str(c[3]![r]!),
          rank: c[4]![r]!,
          file: this.str(c[5]![r]!)!,
          line: c[6]![r]!,
          col: c[7]![r]!,
          expr: this.str(c[8]![r]!),
          needs: this.str(c[9]![r]!),
        });
      }
    }
    return out;
  }

  /** As `loadBindingsByCaller`, for these callers in the order asked. */
  bindingsFrom(ids: readonly number[]): BindingRow[] {
    const out: BindingRow[] = [];
    const c = this.binding;
    for (const id of new Set(ids)) {
      if (id < 0 || id > this.maxId) continue;
      for (let r = this.bindingStart[id]!; r < this.bindingStart[id + 1]!; r++) {
        out.push({
          caller: id,
          line: c[1]![r]!,
          col: c[2]![r]!,
          callee: c[3]![r]!,
          slot: c[4]![r]!,
          value: c[5]![r]!,
          needs: this.str(c[6]![r]!),
        });
      }
    }
    return out;
  }

  /**
   * The bindings into these slots (what every call passes into a parameter), slot by slot in the
   * order asked, each slot's by caller, callee, then as written: as `bindingsFrom` lists them.
   */
  bindingsInto(slots: readonly number[]): BindingRow[] {
    const c = this.binding;
    if (!this.bySlot) {
      // Read once, on the first call: most traces never ask.
      this.bySlot = new Map();
      const slot = c[4]!;
      for (let r = 0; r < slot.length; r++) push(this.bySlot, slot[r]!, r);
    }
    const out: BindingRow[] = [];
    for (const s of new Set(slots)) {
      for (const r of this.bySlot.get(s) ?? []) {
        out.push({
          caller: c[0]![r]!,
          line: c[1]![r]!,
          col: c[2]![r]!,
          callee: c[3]![r]!,
          slot: s,
          value: c[5]![r]!,
          needs: this.str(c[6]![r]!),
        });
      }
    }
    return out;
  }

  /** As `findMadeBy`: the packages (by path) that construct these types. */
  madeBy(types: readonly string[]): { type: string; package: string }[] {
    const [type, pkg] = this.made as [Int32Array, Int32Array];
    const out: { type: string; package: string }[] = [];
    for (const t of new Set(types)) {
      // The first row of the type: rows are sorted by type.
      let lo = 0;
      let hi = type.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.str(type[mid]!)! < t) lo = mid + 1;
        else hi = mid;
      }
      for (let r = lo; r < type.length && this.str(type[r]!) === t; r++) {
        const p = this.str(pkg[r]!);
        if (p !== null) out.push({ type: t, package: p });
      }
    }
    return out;
  }
}
