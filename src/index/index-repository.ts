/**
 * The parse half of `index`: discover the tree's Go files, parse the blobs this database has not
 * seen (in a pool of worker threads), and store their facts. Facts land in batches that commit on
 * their own, so an interrupted run keeps what it parsed and the next run resumes; the tree's
 * derived tables are replaced only by the link phase, in one transaction.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { K8sReadError } from '../errors.js';
import type { Store } from '../store/db.js';
import {
  insertBlobs,
  loadBlobs,
  loadParsedBlobs,
  loadParsedBlobsOfTree,
  type BlobRow,
} from '../store/index-store.js';
import { readDiscoveryStamp, writeDiscoveryStamp } from '../store/discovery-stamps.js';
import { discoverTree, sourcePath, type TreeInfo } from './discover.js';
import { makeStamp, serializeTree, treeFromStamp, type StampContext } from './discovery-stamp.js';
import { decodeFacts } from './facts-codec.js';
import { FACTS_VERSION, type FileFacts } from './facts.js';
import { gitBlobId } from '../shared/git-blob.js';
import type { ParseResult, ParseTask } from './parse-file.js';

export interface IndexProgress {
  /**
   * `load`: facts decoded, of `total` files; `link`: calls done by one of the link's two passes
   * over every file's calls (`total` is the calls); `write`: the rows after the link.
   */
  phase: 'discover' | 'parse' | 'load' | 'link' | 'write';
  /** What the phase does now, as a progress bar says it (`loading facts`, `checking types`). */
  step?: string;
  done: number;
  total: number;
  bytes: number;
}

export interface IndexRepositoryOptions {
  root: string;
  store: Store;
  /** Worker threads for parsing. @default the number of CPUs */
  jobs?: number;
  /** @default false */
  includeVendor?: boolean;
  /** @default false */
  includeTests?: boolean;
  /** Checkouts of modules the tree imports (`--with`), absolute paths. @default [] */
  with?: readonly string[];
  /** The Go module cache to take dependencies from, or null. @default null */
  moduleCache?: string | null;
  /** Files larger than this are skipped (generated tables, mostly). @default 2 MiB */
  maxFileBytes?: number;
  onProgress?: (progress: IndexProgress) => void;
  signal?: AbortSignal;
  /**
   * Settles when the store may be used (a check of it running meanwhile): discovery, which does
   * not touch it, runs beside. A rejection fails the run before the store is read.
   */
  storeReady?: Promise<unknown>;
  /**
   * Keep and use a discovery stamp (discovery-stamp.ts): what the CLI knows of the environment and
   * the build. Without it discovery always asks git.
   */
  stamp?: Pick<StampContext, 'env' | 'build'>;
}

export interface IndexedFile {
  path: string;
  blob: string;
  status: ParseResult['status'];
  message: string | null;
  bytes: number;
}

export interface ParsedTree {
  tree: TreeInfo;
  files: IndexedFile[];
  parsed: number;
  reused: number;
  bytesParsed: number;
  /**
   * Encoded facts of the blobs parsed by this run, and of the tree's other files when this run
   * parsed any (read back from the store meanwhile), so the link phase need not read them.
   */
  facts: Map<string, Uint8Array>;
  /**
   * The same facts decoded, each blob's once, as the parse went: the main thread is idle while
   * the workers parse, and the link would otherwise decode them all after (for v1.24 a 3 s phase
   * on one core, ~60% of it collecting what the decoding built). A link takes each at most once.
   */
  decoded: Map<string, FileFacts>;
  /** Whether discovery took its stamp's answer (nothing it watches changed) instead of asking git. */
  stamped: boolean;
  timings: { discoverMs: number; parseMs: number };
}

export class IndexInterruptedError extends K8sReadError {
  constructor(parsed: number) {
    super(
      `interrupted; ${parsed === 1 ? '1 parsed file was' : `${parsed} parsed files were`} saved and the previous index is unchanged (run \`k8s-read index\` again to resume)`,
      {
        code: 'E_INTERRUPTED',
        exitCode: 130,
      },
    );
  }
}

const BATCH_FILES = 64;
const COMMIT_EVERY = 512;

export async function parseRepository(options: IndexRepositoryOptions): Promise<ParsedTree> {
  const { root, store } = options;
  const maxBytes = options.maxFileBytes ?? 2 * 1024 * 1024;
  const progress = options.onProgress ?? (() => undefined);
  const t0 = performance.now();
  progress({ phase: 'discover', done: 0, total: 0, bytes: 0 });
  const discoverOptions = {
    includeVendor: options.includeVendor ?? false,
    includeTests: options.includeTests ?? false,
    with: options.with ?? [],
    moduleCache: options.moduleCache ?? null,
  };
  const stampContext = options.stamp && { ...options.stamp, options: discoverOptions };
  // When nothing the stamp watches changed, git is not asked. Asked of the store first, beside its
  // check (a stamp is no part of the index that check is about): its stat is the next work.
  const stampRead = stampContext ? readDiscoveryStamp(store, root) : undefined;
  // Asked of the store while git lists the tree or the stamp is checked (once the store may be
  // read, and after the stamp: SQLite runs one statement at a time, and this one is the longer):
  // the blobs of this root's last index, nearly all of a re-index's files.
  const previous = Promise.all([options.storeReady, stampRead]).then(() =>
    loadParsedBlobsOfTree(store, root, FACTS_VERSION),
  );
  previous.catch(() => undefined); // awaited below, after storeReady's own failure
  const stamp = await stampRead;
  const startedAt = Date.now();
  const stamped = stampContext ? treeFromStamp(root, stampContext, stamp) : undefined;
  const tree =
    stamped ??
    (await discoverTree(root, discoverOptions).catch((error: unknown) => {
      // Ctrl-C reaches the git processes too: what they did not answer is the interrupt's doing.
      if (options.signal?.aborted) throw new IndexInterruptedError(0);
      throw error;
    }));
  // Taken before blobs are filled in below: the stamp keeps what git said.
  const discovered = stampContext && !stamped ? serializeTree(tree) : undefined;
  // Files git has no blob id for (edited, untracked, or no git at all) are hashed like git does,
  // so unchanged content is never parsed twice whatever its source.
  for (const f of tree.files) {
    if (f.blob) continue;
    try {
      f.blob = gitBlobId(readFileSync(sourcePath(root, f)));
    } catch {
      // Unreadable: parseFile reports it.
    }
  }
  await options.storeReady;
  const stored = await previous;
  const unseen = [
    ...new Set(tree.files.flatMap((f) => (f.blob && !stored.has(f.blob) ? [f.blob] : []))),
  ];
  if (unseen.length > 0)
    for (const [blob, row] of await loadParsedBlobs(store, unseen, FACTS_VERSION))
      stored.set(blob, row);
  // Whether a file is too large depends on this run's limit: one skipped under a lower limit is
  // parsed now, one parsed under a higher limit is skipped now.
  const known = new Set<string>();
  for (const [blob, row] of stored)
    if ((row.status === 'too-large') === row.bytes > maxBytes) known.add(blob);
  const tasks: (ParseTask & { path: string })[] = [];
  const files: IndexedFile[] = [];
  for (const f of tree.files) {
    if (f.blob && known.has(f.blob)) continue;
    tasks.push({ abs: sourcePath(root, f), path: f.path, ...(f.blob ? { blob: f.blob } : {}) });
  }
  const discoverMs = performance.now() - t0;

  const t1 = performance.now();
  const results = new Map<string, ParseResult>();
  const facts = new Map<string, Uint8Array>();
  const decoded = new Map<string, FileFacts>();
  let bytes = 0;
  let pending: BlobRow[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    await insertBlobs(store, rows, FACTS_VERSION);
  };
  const accept = async (batch: ParseResult[]) => {
    for (const r of batch) {
      const { facts: encoded, ...slim } = r;
      results.set(r.abs, slim);
      bytes += r.bytes;
      if (r.blob && encoded) {
        facts.set(r.blob, encoded);
        decoded.set(r.blob, decodeFacts(encoded));
      }
      if (r.blob) {
        pending.push({
          blob: r.blob,
          status: r.status,
          message: r.message ?? null,
          bytes: r.bytes,
          lines: r.lines ?? null,
          facts: r.facts ? Buffer.from(r.facts) : null,
        });
      }
    }
    if (pending.length >= COMMIT_EVERY) await flush();
    progress({ phase: 'parse', done: results.size, total: tasks.length, bytes });
  };
  // The facts of the files not parsed again, read and decoded while the workers parse (the link
  // would read them after, on one core). Not for a run that parses nothing: its link is skipped
  // when nothing else changed either. The decoding stops when the parse ends: a parse of a few
  // files has nothing to hide it behind, and its link may be skipped (facts that did not change).
  const reused =
    tasks.length === 0
      ? []
      : [...new Set(tree.files.flatMap((f) => (f.blob && known.has(f.blob) ? [f.blob] : [])))];
  const preloading = { stop: false, parsed: false };
  const preload = preloadFacts(store, reused, facts, decoded, preloading);
  progress({ phase: 'parse', done: 0, total: tasks.length, bytes: 0 });
  let finished = false;
  try {
    await runParse(tasks, maxBytes, options, accept);
    finished = true;
  } finally {
    // An interrupted or failed parse links nothing: what is read ahead is no longer wanted.
    preloading.stop = !finished || options.signal?.aborted === true;
    preloading.parsed = true;
    // Whatever was parsed is kept, even when interrupted: the next run resumes from it.
    await flush();
  }
  await preload;
  if (options.signal?.aborted) throw new IndexInterruptedError(results.size);

  // Files parsed earlier: their status comes from the stored blob rows.
  for (const f of tree.files) {
    const fresh = results.size > 0 ? results.get(sourcePath(root, f)) : undefined;
    if (fresh) {
      files.push({
        path: f.path,
        blob: fresh.blob,
        status: fresh.status,
        message: fresh.message ?? null,
        bytes: fresh.bytes,
      });
    } else if (f.blob) {
      const row = stored.get(f.blob);
      files.push({
        path: f.path,
        blob: f.blob,
        status: (row?.status ?? 'ok') as ParseResult['status'],
        // The limit in the message is this run's, not the one the file was first skipped under.
        message:
          row?.status === 'too-large' ? `${row.bytes} bytes > ${maxBytes}` : (row?.message ?? null),
        bytes: row?.bytes ?? 0,
      });
    }
  }
  if (stampContext && discovered !== undefined && !options.signal?.aborted) {
    const made = makeStamp(tree, discovered, stampContext, startedAt);
    // Only a shortcut: a stamp that cannot be written costs the next run its git calls.
    if (made || stamp) await writeDiscoveryStamp(store, root, made).catch(() => undefined);
  }
  return {
    tree,
    files,
    parsed: tasks.length,
    reused: tree.files.length - tasks.length,
    bytesParsed: bytes,
    facts,
    decoded,
    stamped: stamped !== undefined,
    timings: { discoverMs, parseMs: performance.now() - t1 },
  };
}

/** Files decoded between two turns of the event loop by preloadFacts. */
const PRELOAD_TURN = 32;

/**
 * Reads the stored facts of `blobs` into `facts` and decodes them into `decoded`, a few files a
 * turn, so the parse's batches are taken as they come, until the parse ends (`parsed`): the link
 * decodes the rest from `facts`. Never fails: what it did not load (a failed read, a stop) the
 * link reads itself.
 */
async function preloadFacts(
  store: Store,
  blobs: readonly string[],
  facts: Map<string, Uint8Array>,
  decoded: Map<string, FileFacts>,
  state: { stop: boolean; parsed: boolean },
): Promise<void> {
  if (blobs.length === 0) return;
  try {
    const rows = await loadBlobs(store, blobs);
    if (state.stop) return;
    for (const [blob, row] of rows) if (row.facts) facts.set(blob, row.facts);
    let n = 0;
    for (const [blob, row] of rows) {
      if (state.stop || state.parsed) return;
      if (!row.facts) continue;
      decoded.set(blob, decodeFacts(row.facts));
      if (++n % PRELOAD_TURN === 0) await nextTurn();
    }
  } catch {
    // Read again by the link.
  }
}

/** Parses in-process for small work (workers cost more to start than they save), else in a pool. */
async function runParse(
  tasks: ParseTask[],
  maxBytes: number,
  options: IndexRepositoryOptions,
  accept: (batch: ParseResult[]) => Promise<void>,
): Promise<void> {
  if (tasks.length === 0) return;
  // The parser and the pool load only when there is something to parse: a run with nothing new
  // (the common re-index) is done before they would have finished loading.
  const { parseFile } = await import('./parse-file.js');
  const jobs = Math.max(1, options.jobs ?? os.availableParallelism());
  const workerFile = fileURLToPath(new URL('./parse-worker.js', import.meta.url));
  if (jobs === 1 || tasks.length < 200 || !existsSync(workerFile)) {
    for (let i = 0; i < tasks.length; i += BATCH_FILES) {
      if (options.signal?.aborted) return;
      await accept(
        tasks
          .slice(i, i + BATCH_FILES)
          .map((t) => parseFile({ abs: t.abs, ...(t.blob ? { blob: t.blob } : {}) }, maxBytes)),
      );
    }
    return;
  }
  // Workers stop between two files once this flag is set: terminating a worker inside
  // tree-sitter's native code aborts the whole process, so the pool is destroyed only when idle.
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const onAbort = () => Atomics.store(stop, 0, 1);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // A worker's heap holds one batch's facts at a time; the limit keeps four of them small.
  const { Piscina } = await import('piscina');
  const pool = new Piscina({
    filename: workerFile,
    minThreads: jobs,
    maxThreads: jobs,
    idleTimeout: 1000,
    resourceLimits: { maxOldGenerationSizeMb: 384 },
  });
  try {
    // Bigger files first keeps the workers evenly loaded at the end.
    const batches: ParseTask[][] = [];
    for (let i = 0; i < tasks.length; i += BATCH_FILES) {
      batches.push(
        tasks
          .slice(i, i + BATCH_FILES)
          .map((t) => ({ abs: t.abs, ...(t.blob ? { blob: t.blob } : {}) })),
      );
    }
    let chain = Promise.resolve();
    // A few batches in flight per worker: enough to keep them busy, few enough that parsed facts
    // do not pile up in memory while the store catches up.
    let next = 0;
    const runOne = async (): Promise<void> => {
      while (next < batches.length && !Atomics.load(stop, 0)) {
        const batch = batches[next++]!;
        const result = (await pool.run({ tasks: batch, maxBytes, stop })) as ParseResult[];
        // Serialise the store writes; parsing goes on in the workers meanwhile.
        chain = chain.then(() => accept(result));
        await chain;
      }
    };
    // On a failure (a full disk, say) the other batches still finish before the pool goes.
    const runs = await Promise.allSettled(
      Array.from({ length: jobs * 2 }, () =>
        runOne().catch((error: unknown) => {
          onAbort();
          throw error;
        }),
      ),
    );
    const failed = runs.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await chain;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await pool.destroy();
    // What the parser threads' malloc arenas hold free would otherwise stay resident through the
    // link, the index's peak (~100 MB for v1.24).
    const { trimNativeMemory } = await import('./native.js');
    trimNativeMemory();
  }
}
