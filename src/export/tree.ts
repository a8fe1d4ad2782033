/**
 * The human default of `k8s-read trace`: the call tree of tree-rows.ts, one line per row,
 * `symbol  file:line  [how it was found]`, under a header that names the version and, when the
 * view left functions out, how large the full trace is. Symbols drop their package when it is the
 * caller's, which keeps most lines short; with a width, every line fits it (see `fitLine`).
 */
import { createColors } from 'picocolors';
import type { Trace, TraceEdge } from '../trace/types.js';
import { columns } from './columns.js';
import {
  describeEdge,
  describeFold,
  describeFoldCount,
  describeLocation,
  describeDeeper,
  describeSize,
  describeTotal,
  describeVersion,
  formatCount,
} from './describe.js';
import { shortSymbol, splitSymbol } from './symbols.js';
import { treeRows, type Fold, type TreeRow } from './tree-rows.js';
import type { RenderOptions } from './types.js';

type Paint = (text: string) => string;

/**
 * A line in pieces, joined by two spaces: the plain text is what is measured, the paint only what
 * is shown. `role` says what may give way when the line is too long; a tag may carry a `short`
 * form that says the same in fewer words (`[framework]` for `[framework via wait.Until]`).
 */
interface Piece {
  text: string;
  paint: Paint;
  /** A fold (`… 4 more calls (--all)`) gives way last, and never below its count. */
  role: 'symbol' | 'location' | 'tag' | 'fold';
  short?: string;
  /** A fold's narrowest form: one count for all it hides. */
  least?: string;
  /** Joined to the piece before it by one space instead of two: the same phrase. */
  tight?: boolean;
}

const plain: Paint = (text) => text;

export function renderTree(trace: Trace, options: RenderOptions): string {
  const c = createColors(options.color);
  const kindPaint: Record<TraceEdge['kind'], Paint> = {
    static: plain,
    closure: c.gray,
    funcvalue: c.blue,
    interface: c.yellow,
    framework: c.magenta,
    goroutine: c.cyan,
    channel: c.cyan,
  };
  const width = options.width;
  // The flag that shows what the view left out, said once: a narrow row gives up its own.
  const flags = [...new Set(trace.nodes.flatMap((n) => (n.folded?.calls ? [n.folded.flag] : [])))];
  const total =
    describeTotal(trace) &&
    `${describeTotal(trace)}${flags.length ? ` (${flags.join(', ')})` : ''}`;
  const header: Piece[] = [
    { text: trace.component, paint: c.bold, role: 'symbol' },
    { text: describeVersion(trace), paint: c.bold, role: 'tag' },
    ...(total
      ? [{ text: total, paint: c.dim, role: 'tag', short: describeTotal(trace, true) } as const]
      : []),
  ];
  const lines = [fitLine('', c.dim, header, width)];
  const rows = treeRows(trace);
  const guideOf = guideStyle(rows, width);

  const line = (row: TreeRow): string => {
    const draw = (...pieces: Piece[]) => fitLine(guideOf(row.lasts), c.dim, pieces, width);
    if (row.type === 'unresolved')
      return draw(
        { text: `? ${row.expr}`, paint: c.red, role: 'symbol' },
        { text: row.site, paint: c.dim, role: 'location' },
        ...(row.why ? [{ text: `[${row.why}]`, paint: c.dim, role: 'tag' } as const] : []),
      );
    const name: Piece = {
      text: shortSymbol(row.symbol, row.parentPackage),
      paint: row.edge ? plain : c.bold,
      role: 'symbol',
    };
    const edge = row.edge;
    const how = edge ? describeEdge(edge) : '';
    const tags: Piece[] =
      edge && how
        ? [
            {
              text: `[${how}]`,
              paint: kindPaint[edge.kind],
              role: 'tag',
              // The caller that passed the value stays: it says which path the row belongs to.
              short: `[${edge.kind}${edge.boundBy ? ` from ${splitSymbol(edge.boundBy).member}` : ''}${edge.of ? ` 1/${edge.of}` : ''}${edge.alternatives.length > 0 ? ` +${edge.alternatives.length}` : ''}]`,
            },
          ]
        : [];
    const fold = row.fold ? [foldPiece(row.fold, c.dim)] : [];
    if (row.repeat === 'cycle')
      return draw(name, { text: '↻ cycle', paint: c.dim, role: 'tag', short: '↻' }, ...tags);
    if (row.repeat === 'seen')
      return draw(name, { text: '↩ (see above)', paint: c.dim, role: 'tag', short: '↩' }, ...tags);
    return row.node
      ? draw(
          name,
          { text: describeLocation(row.node), paint: c.dim, role: 'location' },
          ...tags,
          ...fold,
        )
      : draw(name, ...tags, ...fold);
  };
  for (const row of rows) lines.push(line(row));

  lines.push('', c.dim(describeSize(trace)));
  // A line of its own: beside the counts it would not fit a narrow terminal.
  const deeper = describeDeeper(trace);
  if (deeper) lines.push(c.dim(deeper));
  return `${lines.join('\n')}\n`;
}

/**
 * What a view folded, as the last piece of a row: `… 4 more calls (--all), 2 helper calls
 * (--include-noise)`; shorter without the flags, and at the narrowest one count of everything it
 * hides (`… 6 more calls`): a fold always says how much it hides.
 */
function foldPiece(fold: Fold, paint: Paint): Piece {
  const helpers = fold.helpers ?? 0;
  const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;
  const short =
    fold.calls > 0
      ? `${describeFoldCount(fold)}${helpers > 0 ? `, ${plural(helpers, 'helper call')}` : ''}`
      : `… ${plural(helpers, 'helper call')}`;
  return {
    text: describeFold(fold),
    paint,
    role: 'fold',
    short,
    least:
      fold.calls > 0 && helpers > 0 ? describeFoldCount({ calls: fold.calls + helpers }) : short,
  };
}

/**
 * The tree's guides: `│  ├─ `, three columns per level below the root. A tree whose deepest row
 * would spend more than half the width on its guide is drawn with two columns per level (`│ ├ `),
 * all of it, so levels still line up; a row deeper than even that allows keeps its innermost
 * levels behind `…`.
 */
function guideStyle(
  rows: readonly TreeRow[],
  width: number | undefined,
): (lasts: boolean[]) => string {
  const deepest = Math.max(0, ...rows.map((row) => row.depth));
  const share = width === undefined ? Infinity : Math.floor(width * GUIDE_SHARE);
  const units =
    deepest * 3 <= share
      ? { branch: '├─ ', last: '└─ ', through: '│  ', blank: '   ' }
      : { branch: '├ ', last: '└ ', through: '│ ', blank: '  ' };
  const unit = units.branch.length;
  return (lasts) => {
    let guide = lasts
      .map((last, i) =>
        i === lasts.length - 1
          ? last
            ? units.last
            : units.branch
          : last
            ? units.blank
            : units.through,
      )
      .join('');
    if (guide.length > share) {
      const kept = Math.max(1, Math.floor((share - 1) / unit));
      guide = `…${guide.slice(-unit * kept)}`;
    }
    return guide;
  };
}

/** A guide keeps at most this share of the line. */
const GUIDE_SHARE = 0.5;
/** A symbol keeps at least this much while its fold can still give way. */
const MIN_SYMBOL = 12;

/**
 * One line that fits `width` columns; nothing wraps. While the line is too long, in this order:
 * a fold drops its flags, keeping its count; the location drops
 * directories from the left down to its file name and line; tags take their short form
 * (`[framework]`); a fold says one count for all it hides; the symbol drops its
 * package (`(*…Scheduler).scheduleOne`); the location goes; the symbol loses its middle
 * (`(*Schedul…).scheduleOne`) down to MIN_SYMBOL; then the tags go; last the symbol is cut to
 * the room left. A fold never goes: it says how much the view hides. A tag outlasts the
 * location: without it a hop found through a framework, an interface or a function value
 * reads as a direct call, where a missing location only sends the reader to `-o json`.
 */
function fitLine(
  guide: string,
  guidePaint: Paint,
  pieces: Piece[],
  width: number | undefined,
): string {
  const texts = pieces.map((piece) => piece.text);
  const gap = (piece: Piece) => (piece.tight ? ' ' : '  ');
  const join = () => {
    const shown = pieces.flatMap((piece, i) => (texts[i] === '' ? [] : [{ piece, i }]));
    return (
      (guide && guidePaint(guide)) +
      shown.map(({ piece, i }, k) => (k === 0 ? '' : gap(piece)) + piece.paint(texts[i]!)).join('')
    );
  };
  if (width === undefined) return join();

  const room = width - columns(guide);
  const over = () =>
    pieces.reduce(
      (n, piece, i) => (texts[i] === '' ? n : n + columns(texts[i]!) + gap(piece).length),
      0,
    ) -
    // The first piece shown has no gap before it.
    gap(pieces.find((_, i) => texts[i] !== '') ?? pieces[0]!).length -
    room;
  // What is over changes only when a text does: measured again then, not before every piece.
  const each = (role: Piece['role'], change: (text: string, piece: Piece) => string) => {
    let excess = over();
    for (let i = pieces.length - 1; i >= 0 && excess > 0; i--) {
      if (pieces[i]!.role === role && texts[i] !== '') {
        texts[i] = change(texts[i]!, pieces[i]!);
        excess = over();
      }
    }
  };

  each('fold', (text, piece) => piece.short ?? text);
  each('location', (text) => {
    const dirs = text.split('/');
    for (let drop = 1; drop < dirs.length; drop++) {
      const cut = drop === dirs.length - 1 ? dirs.at(-1)! : `…/${dirs.slice(drop).join('/')}`;
      if (over() - (columns(text) - columns(cut)) <= 0 || drop === dirs.length - 1) return cut;
    }
    return text;
  });
  each('tag', (text, piece) => piece.short ?? text);
  each('fold', (text, piece) => piece.least ?? text);
  each('symbol', (text) => withoutPackage(text));
  each('location', () => '');
  each('symbol', (text) => shortenMiddle(text, Math.max(MIN_SYMBOL, columns(text) - over())));
  each('tag', () => '');
  each('symbol', (text) => shortenMiddle(text, Math.max(1, columns(text) - over())));
  return join();
}

/**
 * A symbol without the package before its type or function, where it has one:
 * `(*interpodaffinity.InterPodAffinity).Filter` -> `(*…InterPodAffinity).Filter`,
 * `profile.NewMap` -> `…NewMap`.
 */
function withoutPackage(text: string): string {
  const method = /^(\(\*?)[^()]*\.([^.()]+\)\..*)$/.exec(text);
  if (method) return `${method[1]}…${method[2]}`;
  const fn = /^[^()]*\.([^.()]+)$/.exec(text);
  return fn ? `…${fn[1]}` : text;
}

/**
 * The text in `max` columns with its middle replaced by `…`, keeping more of the end: the end of
 * a symbol is its method or function name, the part a reader scans for.
 */
export function shortenMiddle(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  const keep = max - 1;
  const head = Math.floor(keep * 0.4);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}
