import type { Writable } from 'node:stream';

/** Everything a command may know of the outside world; only src/cli builds one. */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(ctx: CliContext, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  if (ctx.env.FORCE_COLOR !== undefined && ctx.env.FORCE_COLOR !== '0') return true;
  return Boolean(ctx[stream].isTTY);
}

/** `K8S_READ_DEBUG=index,trace` turns on namespaced debug lines on stderr. */
export function debugLogger(ctx: CliContext, namespace: string): (message: string) => void {
  const enabled = (ctx.env.K8S_READ_DEBUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .some((s) => s === namespace || s === '*' || s === 'all');
  return enabled ? (message) => ctx.stderr.write(`[${namespace}] ${message}\n`) : () => undefined;
}
