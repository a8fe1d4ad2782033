/**
 * Answers of `trace` and `export trace`, kept beside the index (src/store/trace-answers.ts): a
 * trace asked again with the same options, on the same index, with the same trace rules and the
 * same build of k8s-read, reads its answer instead of tracing again (400-600 ms for a daemon of
 * v1.24). The key covers everything the answer is computed from, so it is never read for anything
 * else: an index run that writes the tree, an edited rules file, other flags or another build
 * each make another key. `K8S_READ_TRACE_CACHE=off` traces afresh (and stores nothing).
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/db.js';
import type { TreeRow } from '../store/index-store.js';
import { indexGeneration, readTraceAnswer, writeTraceAnswer } from '../store/trace-answers.js';
import type { Trace } from '../trace/types.js';
import type { CliContext } from './context.js';
import type { LoadTraceOptions } from './load-trace.js';
import { readBuildId } from './package-info.js';
import { traceRulesDigest } from './trace-rules.js';

/** Bump when what is stored changes shape (the `Trace` contract does not change with it). */
const FORMAT = 1;

export interface TraceAnswerKey {
  key: string;
  tree: number;
  generation: string;
}

/**
 * The key of a trace's answer, or undefined when it cannot be told (running from source, with no
 * build id; an unreadable rules file) or caching is off: the trace is then traced afresh.
 */
export async function traceAnswerKey(
  ctx: CliContext,
  index: { store: Store; tree: TreeRow },
  options: Omit<LoadTraceOptions, 'repo' | 'db'>,
): Promise<TraceAnswerKey | undefined> {
  if (ctx.env.K8S_READ_TRACE_CACHE === 'off') return undefined;
  const build = readBuildId();
  const rules = traceRulesDigest();
  if (!build || !rules) return undefined;
  const generation = await indexGeneration(index.store, index.tree);
  // Every option by name, absent ones as null: `--depth 25` and no --depth are two keys (the
  // default may depend on other flags), never one key for two different questions.
  const asked = {
    target: options.target,
    depth: options.depth ?? null,
    focus: options.focus ?? null,
    in: options.in ?? null,
    all: options.all ?? false,
    includeStd: options.includeStd ?? false,
    includeNoise: options.includeNoise ?? false,
    github: options.github ?? null,
    maxChildren: options.maxChildren ?? null,
  };
  const key = createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, build, rules, generation, asked }))
    .digest('hex');
  return { key, tree: index.tree.id, generation };
}

export async function readCachedTrace(
  store: Store,
  key: TraceAnswerKey,
): Promise<Trace | undefined> {
  const text = await readTraceAnswer(store, key.key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Trace;
  } catch {
    return undefined;
  }
}

/** Stores the answer when the database takes it now; a busy or read-only one only costs the cache. */
export async function cacheTrace(
  store: Store,
  key: TraceAnswerKey,
  trace: Trace,
  debug: (message: string) => void,
): Promise<void> {
  try {
    await writeTraceAnswer(store, { ...key, answer: JSON.stringify(trace) });
  } catch (error) {
    debug(`answer not cached: ${error instanceof Error ? error.message : String(error)}`);
  }
}
