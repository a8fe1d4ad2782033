/**
 * The left pane's rows: the steps of a tour resolved against the tree, or a trace as a tree
 * (depth-first from the root, each function expanded once, the rows `trace` prints).
 */
import { describeEdge, describeFold } from '../export/describe.js';
import { shortSymbol } from '../export/symbols.js';
import { treeRows } from '../export/tree-rows.js';
import type { TourView } from '../tour/tour-view.js';
import type { Trace } from '../trace/types.js';
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

/**
 * The trace as `trace` prints it (the rows of src/export/tree-rows.ts): a function met again is
 * listed (marked ↩) but not expanded again; an unresolved call is a row at its call site (marked
 * ?); calls the view folded are counted in a mark after the name of their caller.
 */
export function traceItems(trace: Trace): NavItem[] {
  return treeRows(trace).map((row, i): NavItem => {
    const base = {
      key: `${i}:${row.type === 'function' ? row.symbol : row.caller}`,
      depth: row.depth,
      guide: null,
    };
    if (row.type === 'unresolved') {
      const line = Number(row.site.slice(row.site.lastIndexOf(':') + 1));
      const file = row.site.slice(0, row.site.lastIndexOf(':'));
      return {
        ...base,
        label: row.expr,
        location: { symbol: row.caller, file, line, endLine: line, focusLine: line },
        mark: '?',
        how: row.why ?? 'unresolved',
      };
    }
    const { node, symbol } = row;
    return {
      ...base,
      label: shortSymbol(symbol, row.parentPackage),
      location: node
        ? { symbol, file: node.file, line: node.line, endLine: node.line, focusLine: null }
        : null,
      mark: row.repeat
        ? row.repeat === 'cycle'
          ? '↻'
          : '↩'
        : row.fold
          ? describeFold(row.fold)
          : node
            ? null
            : '?',
      how: row.edge ? describeEdge(row.edge) || null : null,
    };
  });
}
