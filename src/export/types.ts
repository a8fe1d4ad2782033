/**
 * What every renderer takes and returns. A renderer is a pure function of a `Trace` (the contract
 * of src/trace/types.ts) and these options; it never reads the terminal, the environment or the
 * file system, so the CLI decides colour and width and the tests pin them.
 */
import type { Trace } from '../trace/types.js';

export interface RenderOptions {
  /** ANSI colour; only the `tree` renderer uses it. The CLI sets it from the TTY and NO_COLOR.
   * @default false */
  color: boolean;
  /** Mermaid only: a flowchart of the call graph, or a sequenceDiagram of the spine.
   * @default 'flow' */
  style: 'flow' | 'sequence';
  /** How diagrams group nodes: one box per Go package, per file, or none.
   * @default 'package' */
  cluster: 'package' | 'file' | 'none';
  /** Diagrams keep this many functions, breadth-first from the root, and fold each hidden subtree
   * into one `… N more` node, so an `--all` trace stays readable. The tree and JSON never fold.
   * @default unset: every function of the trace, as the tracer chose them (`trace` shows the same) */
  maxNodes?: number;
  /** Terminal columns for the tree: no line is longer. A long line gives up its `file:line`
   * directories first, then the middle of its symbol (`…`); nothing wraps. Unset: never cut. */
  width?: number;
}

export type Renderer = (trace: Trace, options: RenderOptions) => string | Promise<string>;

export const defaultRenderOptions: RenderOptions = {
  color: false,
  style: 'flow',
  cluster: 'package',
};

export const styleChoices = [
  'flow',
  'sequence',
] as const satisfies readonly RenderOptions['style'][];
export const clusterChoices = [
  'package',
  'file',
  'none',
] as const satisfies readonly RenderOptions['cluster'][];
