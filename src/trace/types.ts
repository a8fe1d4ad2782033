/**
 * The trace contract of DESIGN.md ("Output formats"). `trace -o json` prints exactly a `Trace`;
 * renderers, the TUI and tests consume it. Change it only together with DESIGN.md.
 */

export type EdgeKind =
  'static' | 'interface' | 'funcvalue' | 'closure' | 'framework' | 'goroutine' | 'channel';

/** `param`: a call through a function-typed parameter that nothing on the path bound (a trace
 * rooted in a helper); its edge lists what callers pass as alternatives. */
export type NodeKind = 'func' | 'method' | 'closure' | 'param';

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
  /** This node's calls the view folded, and the flag that shows them: `{ calls: 7, flag:
   * '--all' }` is drawn as `… 7 more calls (--all)`. Absent when the view shows every call.
   * `helpers`: calls to helpers (rules/noise.yaml: status checks, logging, deep copies) left out,
   * which `--include-noise` shows. */
  folded?: { calls: number; flag: string; helpers?: number };
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
  /** Lower-ranked implementations for interface calls (in the program only), best first. */
  alternatives: string[];
  /**
   * How many functions this call reaches in the program (an interface's implementations, a
   * function value's targets), where the view shows fewer of them: `1 of 6`. Absent where every
   * one is shown.
   */
  of?: number;
  /**
   * For a call through a parameter that runs different functions for different callers: the
   * function that passed this one. A function is drawn once, under one of its callers, with the
   * calls of every path through it; this says which path each of those values belongs to.
   * Absent when every caller passes the same, or one caller passes them all.
   */
  boundBy?: string;
}

export interface TraceUnresolved {
  caller: string;
  /** The callee expression as written, e.g. `fwk.RunPostFilterPlugins`. */
  expr: string;
  site: string;
  /**
   * Why it is not followed, when the index knows: `a value from <package>, not indexed` (the
   * callee is a method or function value of a package the index does not hold), `a field no
   * indexed code sets` (a hook only tests set).
   */
  why?: string;
}

export interface Trace {
  component: string;
  root: string;
  repo: TraceRepo;
  /** The program traced: the import closure of `from` (the main package, or the symbol's, or
   * `--in`'s), its size in indexed packages, and how many calls were cut as outside it. */
  scope?: { from: string; packages: number; cut: number };
  /** The size of the full trace (every function and call the expansion reached within the
   * depth, before the view chose what to show: without --all, the component's own code and the
   * first call into each library; --all follows libraries too), of which the view shows `nodes`:
   * "showing 140 of 4,806 functions". Absent when unknown. */
  total?: { functions: number; edges: number };
  /**
   * Where the depth stopped the trace: the depth, and how many functions at it call further (their
   * calls not followed; `--depth` goes on). Absent when the depth left nothing out.
   */
  deeper?: { depth: number; functions: number };
  nodes: TraceNode[];
  edges: TraceEdge[];
  unresolved: TraceUnresolved[];
}
