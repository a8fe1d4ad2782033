/**
 * Words shared by every renderer, so a hop reads the same in the tree, a diagram and the report.
 */
import type { Trace, TraceEdge } from '../trace/types.js';
import { shortSymbol, splitSymbol } from './symbols.js';

/** `framework via wait.UntilWithContext`, `interface +2 alternatives`; `''` for a plain call. */
export function describeEdge(edge: TraceEdge): string {
  if (edge.kind === 'static' && edge.via === null && edge.alternatives.length === 0) return '';
  const parts: string[] = [edge.kind];
  if (edge.via) parts.push(`via ${edge.via}`);
  // Which caller passed it, where the function is drawn once for several (PassedBy).
  if (edge.boundBy)
    parts.push(`from ${shortSymbol(edge.boundBy, splitSymbol(edge.caller).package)}`);
  // One of the several functions the call reaches, the rest folded: `interface, one of 6`.
  const head = edge.of ? `${parts.join(' ')}, one of ${edge.of}` : parts.join(' ');
  const others = edge.alternatives.length;
  return others > 0 ? `${head} +${others} ${others === 1 ? 'alternative' : 'alternatives'}` : head;
}

/** `v1.24.0 (941a0be80ab3)`, `941a0be80ab3`, or `commit unknown`. */
export function describeVersion(trace: Pick<Trace, 'repo'>): string {
  const commit = trace.repo.commit?.slice(0, 12) ?? null;
  if (trace.repo.version && commit) return `${trace.repo.version} (${commit})`;
  return trace.repo.version ?? commit ?? 'commit unknown';
}

/** `42 functions, 57 calls, 3 unresolved` — counts of the whole trace, before any folding. */
export function describeSize(trace: Trace): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    plural(trace.nodes.length, 'function', 'functions'),
    plural(trace.edges.length, 'call', 'calls'),
    `${trace.unresolved.length} unresolved`,
  ].join(', ');
}

/**
 * `37 functions at depth 12 call further (--depth 24)` when the depth stopped the trace; `''` when
 * it left nothing out.
 */
export function describeDeeper(trace: Trace): string {
  if (!trace.deeper) return '';
  const { depth, functions } = trace.deeper;
  return `${formatCount(functions)} ${functions === 1 ? 'function' : 'functions'} at depth ${depth} ${functions === 1 ? 'calls' : 'call'} further (--depth ${depth * 2})`;
}

/**
 * `showing 140 of 4,806 functions` (short: `140 of 4,806`) when the trace says how large the full
 * trace is; `''` when it does not, or when nothing was left out.
 */
export function describeTotal(trace: Trace, short = false): string {
  const total = trace.total?.functions;
  if (total === undefined || total <= trace.nodes.length) return '';
  const counts = `${formatCount(trace.nodes.length)} of ${formatCount(total)}`;
  return short ? counts : `showing ${counts} functions`;
}

/**
 * `… 7 more calls (--all)`: what a folded node hides, and the flag that shows it; helper calls
 * (status checks, logging, deep copies: rules/noise.yaml) are counted apart, with their flag.
 */
export function describeFold(folded: { calls: number; flag: string; helpers?: number }): string {
  const helpers = folded.helpers
    ? `${folded.calls > 0 ? ', ' : '… '}${formatCount(folded.helpers)} helper ${folded.helpers === 1 ? 'call' : 'calls'} (--include-noise)`
    : '';
  return folded.calls > 0 ? `${describeFoldCount(folded)} (${folded.flag})${helpers}` : helpers;
}

/** `… 7 more calls`: the part of `describeFold` a narrow line keeps. */
export function describeFoldCount(folded: { calls: number }): string {
  return `… ${formatCount(folded.calls)} more ${folded.calls === 1 ? 'call' : 'calls'}`;
}

/**
 * Where a function is: `pkg/scheduler/schedule_one.go:66`, or `not indexed` for a function of a
 * package the index does not hold (no file to point at; `--include-vendor` or `--with` indexes it).
 */
export function describeLocation(node: { file: string; line: number }): string {
  return node.file ? `${node.file}:${node.line}` : 'not indexed';
}

/** `4,806`: thousands grouped the same way on every machine, whatever its locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The permalink of a `file:line` in the traced repository. Node URLs are the only place a trace
 * names its remote, so the base comes from the first node that has one; null when none does.
 */
export function permalink(trace: Trace, fileLine: string): string | null {
  const base = permalinkBase(trace);
  const colon = fileLine.lastIndexOf(':');
  if (base === null || colon === -1) return null;
  return `${base}/${fileLine.slice(0, colon)}#L${fileLine.slice(colon + 1)}`;
}

/** `https://github.com/<owner>/<repo>/blob/<sha>` as seen in the trace's node URLs. */
export function permalinkBase(trace: Trace): string | null {
  for (const node of trace.nodes) {
    const suffix = `/${node.file}#L${node.line}`;
    if (node.url?.endsWith(suffix)) return node.url.slice(0, -suffix.length);
  }
  return null;
}
