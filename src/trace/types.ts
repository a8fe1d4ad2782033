/**
 * The trace contract of DESIGN.md ("Output formats"). `trace -o json` prints exactly a `Trace`;
 * renderers, the TUI and tests consume it. Change it only together with DESIGN.md.
 */

export type EdgeKind = 'static' | 'interface' | 'funcvalue' | 'closure' | 'framework' | 'goroutine';

export type NodeKind = 'func' | 'method' | 'closure';

export interface TraceRepo {
  path: string;
  commit: string | null;
  version: string | null;
}

export interface TraceNode {
  /** go/ssa-style symbol, e.g. `(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne`. */
  symbol: string;
  /** Path relative to the repository root, `/`-separated. */
  file: string;
  line: number;
  kind: NodeKind;
  package: string;
  /** GitHub permalink at the indexed commit, or null when the remote or commit is unknown. */
  url: string | null;
}

export interface TraceEdge {
  caller: string;
  callee: string;
  /** `file:line` of the call (or of the construct a framework rule fired on). */
  site: string;
  kind: EdgeKind;
  /** The framework rule that fired (`cobra-run`, `wait-until`, ...), or the wrapper called
   * (`wait.UntilWithContext`) — null for plain calls. */
  via: string | null;
  /** Lower-ranked implementations for interface calls, best first. */
  alternatives: string[];
}

export interface TraceUnresolved {
  caller: string;
  /** The callee expression as written, e.g. `fwk.RunPostFilterPlugins`. */
  expr: string;
  site: string;
}

export interface Trace {
  component: string;
  root: string;
  repo: TraceRepo;
  nodes: TraceNode[];
  edges: TraceEdge[];
  unresolved: TraceUnresolved[];
}
