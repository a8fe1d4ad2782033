/**
 * The human default of `k8s-read trace`: the call tree depth-first from the root, one line per
 * call, `symbol  file:line  [how it was found]`. A function is expanded once; later calls to it
 * say `↩ (see above)`, calls back into the current path say `↻ cycle`, so recursion and shared
 * helpers cannot blow the tree up. Unresolved calls sit under their caller, marked `?`.
 * Symbols drop their package when it is the caller's, which keeps most lines short.
 */
import { createColors } from 'picocolors';
import type { Trace, TraceEdge } from '../trace/types.js';
import { describeEdge, describeSize, describeVersion } from './describe.js';
import { shortSymbol } from './symbols.js';
import type { TraceIndex } from './trace-graph.js';
import { indexTrace, packageOf } from './trace-graph.js';
import type { RenderOptions } from './types.js';

type Paint = (text: string) => string;

/** A line in pieces: the plain text is what is measured, the paint only what is shown. */
type Piece = [text: string, paint: Paint];

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
  const index = indexTrace(trace);
  const lines: string[] = [c.bold(`${trace.component}  ${describeVersion(trace)}`)];
  const expanded = new Set<string>();
  const emit = (
    guide: string,
    symbolPiece: Piece,
    location: Piece | undefined,
    ...tags: (Piece | undefined)[]
  ) => {
    const pieces = [symbolPiece, location, ...tags].filter((p): p is Piece => p !== undefined);
    const room = options.width === undefined ? undefined : options.width - [...guide].length;
    lines.push((guide && c.dim(guide)) + joinPieces(pieces, room, location !== undefined));
  };

  const visit = (
    symbol: string,
    parentPackage: string | undefined,
    edge: TraceEdge | undefined,
    guide: string,
    childGuide: string,
    path: Set<string>,
  ): void => {
    const name: Piece = [shortSymbol(symbol, parentPackage), edge ? plain : c.bold];
    const how = edge ? describeEdge(edge) : '';
    const tag: Piece | undefined = edge && how ? [`[${how}]`, kindPaint[edge.kind]] : undefined;
    if (path.has(symbol)) return emit(guide, name, undefined, ['↻ cycle', c.dim], tag);
    if (expanded.has(symbol)) return emit(guide, name, undefined, ['↩ (see above)', c.dim], tag);
    expanded.add(symbol);
    const node = index.nodes.get(symbol);
    emit(guide, name, node ? [`${node.file}:${node.line}`, c.dim] : undefined, tag);

    const pkg = packageOf(index, symbol);
    const children = childrenOf(index, symbol);
    path.add(symbol);
    children.forEach((child, i) => {
      const last = i === children.length - 1;
      const branch = childGuide + (last ? '└─ ' : '├─ ');
      const below = childGuide + (last ? '   ' : '│  ');
      if (child.type === 'call') visit(child.edge.callee, pkg, child.edge, branch, below, path);
      else emit(branch, [`? ${child.expr}`, c.red], [child.site, c.dim]);
    });
    path.delete(symbol);
  };
  visit(trace.root, undefined, undefined, '', '', new Set());

  lines.push('', c.dim(describeSize(trace)));
  return `${lines.join('\n')}\n`;
}

type Child = { type: 'call'; edge: TraceEdge } | { type: 'unresolved'; expr: string; site: string };

/** Resolved calls in trace order, then the unresolved ones: what is known first. */
function childrenOf(index: TraceIndex, symbol: string): Child[] {
  const calls: Child[] = (index.calls.get(symbol) ?? []).map((edge) => ({ type: 'call', edge }));
  const unresolved: Child[] = (index.unresolved.get(symbol) ?? []).map(({ expr, site }) => ({
    type: 'unresolved',
    expr,
    site,
  }));
  return [...calls, ...unresolved];
}

/**
 * Joins pieces with two spaces. When `room` is too small, the location (the second piece) gives
 * way from the left, a directory at a time, down to its file name and line: the symbol and how it was reached are what
 * the tree is for, and `…/schedule_one.go:364` still finds the line.
 */
function joinPieces(pieces: Piece[], room: number | undefined, cutLocation: boolean): string {
  const texts = pieces.map(([text]) => text);
  const location = texts[1];
  if (room !== undefined && cutLocation && location !== undefined) {
    const over = texts.reduce((n, text) => n + [...text].length, 2 * (texts.length - 1)) - room;
    const dirs = location.split('/');
    for (let drop = 1; over > 0 && drop < dirs.length; drop++) {
      texts[1] = `…/${dirs.slice(drop).join('/')}`;
      if (location.length - texts[1].length >= over) break;
    }
  }
  return pieces.map(([, paint], i) => paint(texts[i]!)).join('  ');
}
