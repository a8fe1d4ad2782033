import type { Writable } from 'node:stream';
import type { RepoChoice, RepoOptions } from './repo.js';

/** Everything a command may know of the outside world; only src/cli builds one. */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Present when the command's printed answer may be kept and printed again (src/cli/replay.ts). */
  replay?: ReplayRecorder;
}

/** What a replayable command tells about its answer. */
export interface ReplayRecorder {
  /** The repository and index the command opens, before it opens them. */
  watch(choice: RepoChoice, options: RepoOptions): void;
  /** Another file the answer is read from (absolute), named before the command reads it. */
  depend(file: string): void;
  /** The answer was read from what is kept beside the index, and nothing else was asked of git. */
  keep(): void;
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(ctx: CliContext, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  if (ctx.env.FORCE_COLOR !== undefined && ctx.env.FORCE_COLOR !== '0') return true;
  return Boolean(ctx[stream].isTTY);
}

/** The namespaces `K8S_READ_DEBUG=index,trace` names. */
export function debugNamespaces(ctx: CliContext): string[] {
  return (ctx.env.K8S_READ_DEBUG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `K8S_READ_DEBUG=index,trace` turns on namespaced debug lines on stderr. */
export function debugLogger(ctx: CliContext, namespace: string): (message: string) => void {
  const enabled = debugNamespaces(ctx).some((s) => s === namespace || s === '*' || s === 'all');
  return enabled ? (message) => ctx.stderr.write(`[${namespace}] ${message}\n`) : () => undefined;
}

/** Piped output is read in editors, CI logs and review tools about this wide. */
const PIPED_WIDTH = 100;

/**
 * The columns text output must fit: `COLUMNS` when set (as `ls` honours it), else the terminal's
 * width, else 100 when piped.
 */
export function outputWidth(ctx: CliContext): number {
  const fromEnv = Number(ctx.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  if (ctx.stdout.isTTY && ctx.stdout.columns) return ctx.stdout.columns;
  return PIPED_WIDTH;
}
