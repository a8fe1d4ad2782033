/**
 * `k8s-read controllers` as text: one table, a controller's cells on consecutive lines —
 * `start`, each `informer`, `queue`, `worker` and `sync` — with what the cell holds and where it
 * is written (`file:line`), or why it is empty. The TUI's start screen shows the same lines.
 * With a width, no line is longer: `WHERE` gives up directories from the left, then `WHAT` its
 * middle, as the trace tree does.
 */
import { createColors } from 'picocolors';
import type {
  ControllerColumn,
  ControllerPlace,
  ControllerRow,
  ControllerTable,
} from '../trace/controllers.js';
import { columns } from './columns.js';
import { describeVersion } from './describe.js';
import { splitSymbol } from './symbols.js';
import { shortenMiddle } from './tree.js';

export type CellPart = 'start' | 'informer' | 'queue' | 'worker' | 'sync';

/** One line of a controller: a part, what it holds, and where that is written (null: nowhere). */
export interface CellLine {
  part: CellPart;
  what: string;
  where: string | null;
  /** The column is empty: `what` says why. */
  missing: boolean;
}

const COLUMN_OF: Record<Exclude<CellPart, 'start'>, ControllerColumn> = {
  informer: 'informers',
  queue: 'queues',
  worker: 'workers',
  sync: 'sync',
};

/** A controller's lines, in the order of the table: start, informers, queues, workers, sync. */
export function controllerLines(row: ControllerRow): CellLine[] {
  const lines: CellLine[] = [
    {
      part: 'start',
      what:
        row.aliases.length > 0
          ? `${member(row.start.symbol)} (also ${row.aliases.join(', ')})`
          : member(row.start.symbol),
      where: at(row.start),
      missing: false,
    },
  ];
  const missing = (part: Exclude<CellPart, 'start'>) => {
    const why = row.notFound[COLUMN_OF[part]];
    lines.push({
      part,
      what: `not found: ${why ?? 'nothing recorded'}`,
      where: null,
      missing: true,
    });
  };
  for (const informer of row.informers)
    lines.push({
      part: 'informer',
      what:
        informer.handlers.length > 0
          ? `${registration(informer.expr)} → ${informer.handlers.map((h) => member(h.symbol)).join(', ')}`
          : (informer.expr ?? 'a watch'),
      where: informer.site,
      missing: false,
    });
  if (row.informers.length === 0) missing('informer');
  for (const queue of row.queues)
    lines.push({
      part: 'queue',
      what: `${queue.expr} → ${member(queue.consumer.symbol)}`,
      where: queue.field ? `${queue.field.file}:${queue.field.line}` : (queue.producers[0] ?? null),
      missing: false,
    });
  if (row.queues.length === 0) missing('queue');
  for (const worker of row.workers)
    lines.push({
      part: 'worker',
      what: worker.via
        ? `${member(worker.worker.symbol)} ← ${worker.via}`
        : member(worker.worker.symbol),
      where: at(worker.worker),
      missing: false,
    });
  if (row.workers.length === 0) missing('worker');
  for (const sync of row.sync)
    lines.push({
      part: 'sync',
      what: syncWhat(sync),
      where: at(sync.handler),
      missing: false,
    });
  if (row.sync.length === 0) missing('sync');
  return lines;
}

/**
 * `syncReplicaSet ← rsc.syncHandler` (a function-valued field), `syncService (first call after
 * Get)` (the consumer's first call of its own type after the Get: a weaker sign, and it says so),
 * or `Reconcile`.
 */
function syncWhat(sync: ControllerRow['sync'][number]): string {
  const name = member(sync.handler.symbol);
  if (sync.how === 'field' && sync.expr) return `${name} ← ${sync.expr}`;
  if (sync.how === 'call') return `${name} (first call after Get)`;
  return name;
}

/** `informers 38/40 · queue 35/40 · workers 39/40 · sync 35/40`: how many rows fill each column. */
export function describeFilled(table: ControllerTable): string {
  const n = table.controllers.length;
  const count = (column: ControllerColumn) =>
    table.controllers.filter((c) => c[column].length > 0).length;
  return (['informers', 'queues', 'workers', 'sync'] as const)
    .map((column) => `${column} ${count(column)}/${n}`)
    .join(' · ');
}

export interface ControllerTextOptions {
  color: boolean;
  /** No line is longer; unset: never cut. */
  width?: number;
}

const HEADINGS = { name: 'CONTROLLER', part: 'PART', what: 'WHAT', where: 'WHERE' };
/** The name column never takes more; a longer name loses its middle. */
const MAX_NAME = 28;
/** WHAT keeps at least this much while WHERE can give way, and WHERE this much of its end;
 * a WHERE that would be cut shorter than MIN_CUT_WHERE is left out. */
const MIN_WHAT = 24;
const MIN_WHERE = 16;
const MIN_CUT_WHERE = 8;

export function renderControllers(table: ControllerTable, options: ControllerTextOptions): string {
  const c = createColors(options.color);
  const n = table.controllers.length;
  const rows = table.controllers.flatMap((row) =>
    controllerLines(row).map((line, i) => ({ name: i === 0 ? row.name : '', line })),
  );
  const width = options.width;
  const natural = {
    name: Math.max(HEADINGS.name.length, ...rows.map((r) => columns(r.name))),
    what: Math.max(HEADINGS.what.length, ...rows.map((r) => columns(r.line.what))),
  };
  // A narrow line gives the name column at most a quarter of itself. A name is what the reader
  // types next (`trace kube-controller-manager/<name>`), so it is never cut: names longer than
  // that column go on a line of their own, above their cells.
  const nameRoom = Math.min(
    MAX_NAME,
    width === undefined ? Infinity : Math.max(6, Math.floor(width / 4)),
  );
  const ownLine = natural.name > nameRoom;
  const nameWidth = ownLine ? 0 : natural.name;
  const partWidth = Math.max(HEADINGS.part.length, ...rows.map((r) => r.line.part.length));
  const room = width === undefined ? Infinity : Math.max(1, width - nameWidth - partWidth - 4);
  let wheres = fitWheres(
    rows.map((r) => r.line.where ?? ''),
    rows.map((r) => r.line.what),
    room,
  );
  // Still too narrow for WHAT beside the file names: WHERE loses its middle, or goes.
  const keepWhat = Math.min(natural.what, MIN_WHAT);
  if (room - Math.max(0, ...wheres.map(columns)) - 2 < keepWhat) {
    const max = room - keepWhat - 2;
    wheres = wheres.map((w) => (max < MIN_CUT_WHERE ? '' : shortenMiddle(w, max)));
  }
  const whereWidth = Math.max(0, ...wheres.map(columns));
  // WHAT gets what WHERE leaves; a row without a WHERE may use the whole rest of the line.
  const shownWhat = Math.max(
    1,
    Math.min(natural.what, whereWidth > 0 ? room - whereWidth - 2 : room),
  );
  const fit = (text: string, max: number) => shortenMiddle(text, Math.max(1, max));

  const lines: string[] = [];
  const count = `${n} ${n === 1 ? 'controller' : 'controllers'}`;
  lines.push(
    c.bold(
      fitPhrases(
        [table.component, describeVersion(table), count, `(${KIND_WORDS[table.kind]})`],
        width,
      ),
    ),
  );
  const line = (name: string, part: string, what: string, where: string, paint: PaintSet) => {
    if (ownLine && name) lines.push(paint.name(width === undefined ? name : fit(name, width)));
    const cells = [
      ownLine ? '' : paint.name(pad(name, nameWidth)),
      paint.part(pad(part, partWidth)),
    ];
    if (where) {
      cells.push(paint.what(pad(fit(what, shownWhat), shownWhat)), paint.where(where));
    } else {
      cells.push(paint.what(fit(what, room)));
    }
    return cells.join('  ').trimEnd();
  };
  lines.push(
    line(
      ownLine ? '' : HEADINGS.name,
      HEADINGS.part,
      HEADINGS.what,
      whereWidth > 0 ? HEADINGS.where : '',
      {
        name: c.dim,
        part: c.dim,
        what: c.dim,
        where: c.dim,
      },
    ),
  );
  rows.forEach((r, i) => {
    lines.push(
      line(r.name, r.line.part, r.line.what, wheres[i] ?? '', {
        name: c.bold,
        part: c.dim,
        what: r.line.missing ? c.yellow : plain,
        where: c.dim,
      }),
    );
  });
  lines.push(
    '',
    c.dim(fitPhrases([`filled: ${describeFilled(table)}`, `(depth ${table.depth})`], width)),
  );
  return `${lines.join('\n')}\n`;
}

const KIND_WORDS: Record<ControllerTable['kind'], string> = {
  registry: 'registered start functions',
  'controller-runtime': 'controller-runtime reconcilers',
  program: 'the program is one controller',
};

interface PaintSet {
  name: (s: string) => string;
  part: (s: string) => string;
  what: (s: string) => string;
  where: (s: string) => string;
}

const plain = (s: string) => s;

/**
 * The WHERE column in the room WHAT leaves: while the widest WHAT and WHERE do not fit, the
 * locations give up directories from the left (`…/replicaset/replica_set.go:93`), down to the
 * file name and line; WHAT gives way only after that.
 */
function fitWheres(wheres: string[], whats: string[], room: number): string[] {
  if (room === Infinity) return wheres;
  const widest = (list: string[]) => Math.max(0, ...list.map(columns));
  const max = Math.max(MIN_WHERE, room - Math.max(MIN_WHAT, widest(whats)) - 2);
  return wheres.map((where) => {
    if (columns(where) <= max) return where;
    const dirs = where.split('/');
    for (let drop = 1; drop < dirs.length; drop++) {
      const cut = drop === dirs.length - 1 ? dirs.at(-1)! : `…/${dirs.slice(drop).join('/')}`;
      if (columns(cut) <= max || drop === dirs.length - 1) return cut;
    }
    return where;
  });
}

/**
 * Phrases joined by two spaces, in `width` columns: the last phrases go first, then what is left
 * loses its middle.
 */
function fitPhrases(phrases: readonly string[], width: number | undefined): string {
  const kept = [...phrases];
  const text = () => kept.join('  ');
  while (width !== undefined && kept.length > 1 && columns(text()) > width) kept.pop();
  return width === undefined ? text() : shortenMiddle(text(), width);
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - columns(text)));
}

function at(p: ControllerPlace): string {
  return `${p.file}:${p.line}`;
}

/** `syncReplicaSet`: the function or method name alone (a handler list stays short). */
function member(symbol: string): string {
  return splitSymbol(symbol).member;
}

/** `rsInformer.Informer().AddEventHandler` -> `rsInformer.Informer()`: the informer registered on. */
function registration(expr: string | null): string {
  if (!expr) return 'a handler literal';
  const dot = expr.lastIndexOf('.');
  return dot > 0 ? expr.slice(0, dot) : expr;
}
