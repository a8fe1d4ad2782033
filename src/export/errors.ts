/**
 * What can go wrong in an export that the user can fix. Both are K8sReadErrors, so
 * src/cli/main.ts prints them as one line with the fix, never a stack.
 */
import { K8sReadError, UsageError } from '../errors.js';
import type { Trace } from '../trace/types.js';

export class OutputFileError extends UsageError {
  constructor(file: string, why: string, options: { cause?: unknown } = {}) {
    super(`cannot write ${file}: ${why}; choose a writable path for --out`, {
      code: 'E_OUTPUT',
      cause: options.cause,
    });
  }
}

/** A trace with nothing to draw: the root calls nothing that was resolved. */
export class EmptyTraceError extends K8sReadError {
  constructor(trace: Trace) {
    const unresolved = trace.unresolved.length
      ? ` (${trace.unresolved.length} of its calls could not be resolved; \`k8s-read trace ${trace.component}\` lists them)`
      : '';
    const what =
      trace.component === trace.root ? trace.root : `${trace.component} (from ${trace.root})`;
    super(
      `the trace of ${what} has no calls to draw${unresolved}; check the component or --focus symbol, and that the index is current (\`k8s-read index\`)`,
      { code: 'E_EMPTY_TRACE' },
    );
  }
}

/** Throws EmptyTraceError when the trace has no resolved call. */
export function assertDrawable(trace: Trace): void {
  if (trace.edges.length === 0) throw new EmptyTraceError(trace);
}
