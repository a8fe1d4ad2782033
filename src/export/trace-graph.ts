/**
 * The trace as a graph that renderers walk: calls grouped by caller in trace order, and the
 * folded view that keeps diagrams readable. Shared so that the tree, the Mermaid and the DOT of
 * one trace never disagree on which calls exist or which nodes were folded.
 */
import { push } from '../shared/multimap.js';
import type { Trace, TraceEdge, TraceNode, TraceUnresolved } from '../trace/types.js';
import { splitSymbol } from './symbols.js';

export interface TraceIndex {
  nodes: Map<string, TraceNode>;
  /** Outgoing calls per caller, in trace order, one per callee (the first call site wins: a
   * diagram or tree shows that A calls B, not every line it does so on). */
  calls: Map<string, TraceEdge[]>;
  unresolved: Map<string, TraceUnresolved[]>;
}

export function indexTrace(trace: Trace): TraceIndex {
  const nodes = new Map(trace.nodes.map((node) => [node.symbol, node]));
  const calls = new Map<string, TraceEdge[]>();
  const seen = new Set<string>();
  for (const edge of trace.edges) {
    const key = `${edge.caller}\n${edge.callee}`;
    if (seen.has(key)) continue;
    seen.add(key);
    push(calls, edge.caller, edge);
  }
  const unresolved = new Map<string, TraceUnresolved[]>();
  for (const call of trace.unresolved) push(unresolved, call.caller, call);
  return { nodes, calls, unresolved };
}

/** The package a symbol lives in, from its node when the trace has one. */
export function packageOf(index: TraceIndex, symbol: string): string {
  return index.nodes.get(symbol)?.package ?? splitSymbol(symbol).package;
}

export interface SymbolVertex {
  type: 'symbol';
  id: string;
  symbol: string;
  node: TraceNode | undefined;
  isRoot: boolean;
}

/** Stands for the nodes hidden below `owner` once the diagram reached its node limit. */
export interface FoldVertex {
  type: 'fold';
  id: string;
  hidden: number;
  /** The kept vertex whose subtree this folds; undefined for parts of the trace not reachable
   * from the root. */
  owner: string | undefined;
}

/** Stands for the calls the trace itself folded under a kept symbol (`TraceNode.folded`): the
 * view's choice, drawn so a diagram says what it leaves out as the tree does. */
export interface MoreCallsVertex {
  type: 'more';
  id: string;
  /** The kept vertex whose calls these are. */
  owner: string;
  calls: number;
  /** The flag that shows them. */
  flag: string;
}

export type Vertex = SymbolVertex | FoldVertex | MoreCallsVertex;

export interface Link {
  from: string;
  to: string;
  /** The call drawn; undefined for the link from a vertex to its fold or its more-calls marker. */
  edge: TraceEdge | undefined;
}

export interface FoldedGraph {
  /** Kept symbols in breadth-first order from the root, then the folds, then the markers of
   * calls the trace folded. */
  vertices: Vertex[];
  links: Link[];
  /** How many symbols the folds hide in all. */
  hidden: number;
}

/**
 * Keeps the first `maxNodes` symbols breadth-first from the root (following calls in trace
 * order, so the result is deterministic) and folds every hidden symbol into one vertex per kept
 * ancestor: the nearest one on its breadth-first path. A call between two kept symbols stays; a
 * call into a hidden one is represented by the fold. Without `maxNodes` every symbol is kept: the
 * diagram shows the trace as the tracer chose it. Kept symbols whose calls the trace folded get a
 * marker vertex each.
 */
export function foldTrace(trace: Trace, maxNodes?: number, index = indexTrace(trace)): FoldedGraph {
  const limit = maxNodes === undefined ? Infinity : Math.max(1, Math.floor(maxNodes));
  const order: string[] = [];
  const parent = new Map<string, string | undefined>();
  const visit = (start: string) => {
    if (parent.has(start)) return;
    parent.set(start, undefined);
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      const symbol = queue[head]!;
      order.push(symbol);
      for (const edge of index.calls.get(symbol) ?? []) {
        if (parent.has(edge.callee)) continue;
        parent.set(edge.callee, symbol);
        queue.push(edge.callee);
      }
    }
  };
  visit(trace.root);
  // A trace should be reachable from its root; if a builder ever hands over more, show it rather
  // than drop it silently.
  for (const node of trace.nodes) visit(node.symbol);

  const ids = new Map<string, string>();
  const vertices: Vertex[] = [];
  order.slice(0, limit).forEach((symbol, i) => {
    const id = `n${i}`;
    ids.set(symbol, id);
    vertices.push({
      type: 'symbol',
      id,
      symbol,
      node: index.nodes.get(symbol),
      isRoot: symbol === trace.root,
    });
  });

  const owner = new Map<string, string | undefined>();
  const hiddenBy = new Map<string | undefined, number>();
  for (const symbol of order.slice(limit)) {
    const up = parent.get(symbol);
    const keptOwner = up === undefined ? undefined : ids.has(up) ? up : owner.get(up);
    owner.set(symbol, keptOwner);
    hiddenBy.set(keptOwner, (hiddenBy.get(keptOwner) ?? 0) + 1);
  }

  const links: Link[] = [];
  for (const symbol of order.slice(0, limit)) {
    for (const edge of index.calls.get(symbol) ?? []) {
      const to = ids.get(edge.callee);
      if (to !== undefined) links.push({ from: ids.get(symbol)!, to, edge });
    }
  }
  // Folds follow their owners' order, so `f0` hangs off the earliest kept vertex.
  const owners = [...hiddenBy.keys()].sort((a, b) => rank(a) - rank(b));
  function rank(symbol: string | undefined): number {
    return symbol === undefined ? Infinity : Number(ids.get(symbol)!.slice(1));
  }
  owners.forEach((symbol, i) => {
    const id = `f${i}`;
    const hidden = hiddenBy.get(symbol)!;
    const from = symbol === undefined ? undefined : ids.get(symbol);
    vertices.push({ type: 'fold', id, hidden, owner: from });
    if (from !== undefined) links.push({ from, to: id, edge: undefined });
  });
  let markers = 0;
  for (const symbol of order.slice(0, limit)) {
    const folded = index.nodes.get(symbol)?.folded;
    if (!folded || folded.calls <= 0) continue;
    const id = `m${markers++}`;
    const owner = ids.get(symbol)!;
    vertices.push({ type: 'more', id, owner, calls: folded.calls, flag: folded.flag });
    links.push({ from: owner, to: id, edge: undefined });
  }
  return { vertices, links, hidden: order.length - Math.min(limit, order.length) };
}

/** Vertices grouped for drawing: one group per package or file, in order of first appearance;
 * folds, markers and (with `none`) everything else go in the group keyed `''`. */
export function clusterVertices(
  vertices: readonly Vertex[],
  mode: 'package' | 'file' | 'none',
): Map<string, Vertex[]> {
  const groups = new Map<string, Vertex[]>();
  for (const vertex of vertices) {
    const key = mode === 'none' || vertex.type !== 'symbol' ? '' : clusterKey(vertex, mode);
    push(groups, key, vertex);
  }
  return groups;
}

function clusterKey(vertex: SymbolVertex, mode: 'package' | 'file'): string {
  if (mode === 'file') return vertex.node?.file ?? '';
  return vertex.node?.package ?? splitSymbol(vertex.symbol).package;
}
