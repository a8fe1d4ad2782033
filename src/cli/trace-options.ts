/**
 * The flags that shape a trace, declared once for `trace`, `export trace` and `tui`: the three
 * draw one trace, so a reader who adds `--focus` to any of them sees the same functions.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { LoadTraceOptions } from './load-trace.js';

/** What commander hands an action for the flags below. */
export interface TraceViewFlags {
  depth?: number;
  focus?: string;
  in?: string;
  all?: boolean;
  includeNoise?: boolean;
  includeStd?: boolean;
  maxChildren?: number;
  github?: string;
}

export function addTraceViewOptions(cmd: Command): Command {
  return cmd
    .option(
      '--depth <n>',
      'how many calls deep to follow (default: 40, or 12 with --all/--focus)',
      parsePositive('--depth'),
    )
    .option('--focus <symbol>', 'keep only the paths that reach this symbol')
    .option(
      '--in <component>',
      "trace a library symbol inside this component's program (its import closure and the function values its callers pass)",
    )
    .option('--all', 'expand every function, not only the component’s own spine')
    .option('--include-noise', 'show calls into logging, metrics, errors (rules/noise.yaml)')
    .option('--include-std', 'show calls into the Go standard library')
    .option(
      '--max-children <n>',
      'callees shown under one function before the rest fold (spine view)',
      parsePositive('--max-children'),
    )
    .option(
      '--github <owner/repo>',
      'GitHub repository for permalinks (default: from the origin remote)',
    );
}

/** The flags as the tracer's options, leaving out what was not given. */
export function traceViewOptions(
  flags: TraceViewFlags,
): Omit<LoadTraceOptions, 'target' | 'repo' | 'db'> {
  return {
    ...(flags.depth === undefined ? {} : { depth: flags.depth }),
    ...(flags.focus === undefined ? {} : { focus: flags.focus }),
    ...(flags.in === undefined ? {} : { in: flags.in }),
    ...(flags.maxChildren === undefined ? {} : { maxChildren: flags.maxChildren }),
    ...(flags.github === undefined ? {} : { github: flags.github }),
    all: Boolean(flags.all),
    includeNoise: Boolean(flags.includeNoise),
    includeStd: Boolean(flags.includeStd),
  };
}

/** A commander parser for a count of 1 or more; a bad value exits 2 with the flag's name. */
export function parsePositive(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(
        `${flag} takes a whole number of 1 or more, not ${JSON.stringify(value)}.`,
      );
    return n;
  };
}
