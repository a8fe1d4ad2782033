/**
 * The trace as the rows of a tree, depth-first from the root in call order: what `trace` prints
 * and what the TUI lists, from one walk, so the two never disagree. A function is expanded once;
 * a later call to it is a row marked `seen`, a call back into the current path one marked `cycle`,
 * so recursion and shared helpers cannot blow the tree up. Under an expanded function come its
 * calls, then its unresolved calls. A function whose calls the view folded, some or all, says how
 * many and which flag shows them at the end of its own row (`fold`): no row of its own, so a path
 * through ten functions takes ten rows.
 */
import type { Trace, TraceEdge, TraceNode } from '../trace/types.js';
import { indexTrace, packageOf } from './trace-graph.js';

interface RowPlace {
  /** 0 for the root. */
  depth: number;
  /** For each level below the root down to this row: whether that row is its parent's last
   * child (what a tree guide needs to draw `├─`, `└─` and `│`). */
  lasts: boolean[];
}

export interface FunctionRow extends RowPlace {
  type: 'function';
  symbol: string;
  /** The package of the calling function, which the symbol is named relative to. */
  parentPackage: string | undefined;
  /** The call that reached it; undefined for the root. */
  edge: TraceEdge | undefined;
  node: TraceNode | undefined;
  /** Met before: on the current path (`cycle`) or anywhere above (`seen`); not expanded again. */
  repeat: 'cycle' | 'seen' | null;
  /** What the view folded of this function's calls, said at the end of its row. */
  fold?: Fold;
}

export interface Fold {
  calls: number;
  /** The flag that shows them (`--all`). */
  flag: string;
  /** Helper calls (rules/noise.yaml) left out too, shown with --include-noise. */
  helpers?: number;
}

export interface UnresolvedRow extends RowPlace {
  type: 'unresolved';
  caller: string;
  /** The callee expression as written. */
  expr: string;
  /** `file:line` of the call. */
  site: string;
  /** Why it is not followed, when the index knows (TraceUnresolved.why). */
  why?: string;
}

export type TreeRow = FunctionRow | UnresolvedRow;

export function treeRows(trace: Trace): TreeRow[] {
  const index = indexTrace(trace);
  const rows: TreeRow[] = [];
  const expanded = new Set<string>();
  const path = new Set<string>();
  const visit = (
    symbol: string,
    edge: TraceEdge | undefined,
    parentPackage: string | undefined,
    lasts: boolean[],
  ): void => {
    const node = index.nodes.get(symbol);
    const place = { depth: lasts.length, lasts };
    const repeat = path.has(symbol) ? 'cycle' : expanded.has(symbol) ? 'seen' : null;
    const row: FunctionRow = {
      type: 'function',
      symbol,
      parentPackage,
      edge,
      node,
      repeat,
      ...place,
    };
    rows.push(row);
    if (repeat) return;
    expanded.add(symbol);
    const pkg = packageOf(index, symbol);
    const calls = index.calls.get(symbol) ?? [];
    const unresolved = index.unresolved.get(symbol) ?? [];
    if (node?.folded && (node.folded.calls > 0 || (node.folded.helpers ?? 0) > 0))
      row.fold = node.folded;
    const children = calls.length + unresolved.length;
    const child = (i: number) => [...lasts, i === children - 1];
    path.add(symbol);
    calls.forEach((call, i) => visit(call.callee, call, pkg, child(i)));
    unresolved.forEach(({ expr, site, why }, i) => {
      const lastsHere = child(calls.length + i);
      rows.push({
        type: 'unresolved',
        caller: symbol,
        expr,
        site,
        ...(why ? { why } : {}),
        depth: lastsHere.length,
        lasts: lastsHere,
      });
    });
    path.delete(symbol);
  };
  visit(trace.root, undefined, undefined, []);
  return rows;
}
