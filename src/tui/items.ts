/**
 * The left pane's rows: the steps of a tour resolved against the tree, or a trace as a tree
 * (depth-first from the root, each function expanded once, as `trace` prints it).
 */
import { describeEdge } from '../export/describe.js';
import { shortSymbol } from '../export/symbols.js';
import { indexTrace, packageOf } from '../export/trace-graph.js';
import type { TourView } from '../tour/tour-view.js';
import type { Trace, TraceEdge } from '../trace/types.js';
import type { NavItem } from './types.js';

export function tourItems(view: TourView): NavItem[] {
  return view.steps.map(({ number, step, anchor }) => {
    const location =
      anchor.status === 'resolved'
        ? {
            symbol: anchor.symbol,
            file: anchor.file,
            line: anchor.line,
            endLine: anchor.endLine,
            focusLine: anchor.focusLine,
          }
        : null;
    const note =
      anchor.status === 'missing'
        ? `Not in this tree: ${[step.symbol, ...step.alternatives].join(' or ')}.${anchor.suggestions.length > 0 ? ` Similar here: ${anchor.suggestions.join(', ')}.` : ''}`
        : anchor.status === 'skipped'
          ? `${step.symbol}: ${anchor.reason}.`
          : anchor.focusMissing
            ? 'The focus of this step is not in this version of the symbol.'
            : anchor.viaAlternative
              ? `This version's name for ${step.symbol}.`
              : null;
    return {
      key: `step-${number}`,
      label: `${number}. ${step.title}`,
      depth: 0,
      location,
      mark: anchor.status === 'resolved' ? null : anchor.status === 'missing' ? '✗' : '–',
      how: null,
      guide: {
        number,
        title: step.title,
        symbol: step.symbol,
        prose: step.prose,
        twin: step.twin ? { name: step.twin.name ?? null, simplifies: step.twin.simplifies } : null,
        sources: step.cite.map((c) => `${c.repo} ${c.version} ${c.path}`),
        note,
      },
    };
  });
}

/** A node met again is listed (marked ↩) but not expanded again, so shared helpers and cycles stay finite. */
export function traceItems(trace: Trace): NavItem[] {
  const index = indexTrace(trace);
  const items: NavItem[] = [];
  const expanded = new Set<string>();
  const visit = (
    symbol: string,
    depth: number,
    edge: TraceEdge | null,
    parentPackage: string | undefined,
  ) => {
    const node = index.nodes.get(symbol);
    const again = expanded.has(symbol);
    items.push({
      key: `${items.length}:${symbol}`,
      label: shortSymbol(symbol, parentPackage),
      depth,
      location: node
        ? { symbol, file: node.file, line: node.line, endLine: node.line, focusLine: null }
        : null,
      mark: again ? '↩' : node ? null : '?',
      guide: null,
      how: edge ? describeEdge(edge) || null : null,
    });
    if (again) return;
    expanded.add(symbol);
    for (const call of index.calls.get(symbol) ?? [])
      visit(call.callee, depth + 1, call, packageOf(index, symbol));
  };
  visit(trace.root, 0, null, undefined);
  return items;
}
