/**
 * Runs parse + link for a repository with progress on stderr (a live bar on a terminal, nothing
 * otherwise), the index lock, and Ctrl-C handling. Shared by `index` and by commands that need an
 * index and find none.
 */
import { SingleBar } from 'cli-progress';
import type { DependencyReport } from '../index/dependencies.js';
import type { ImportPathSource } from '../index/modules.js';
import type { Store } from '../store/db.js';
import { openIndexStore } from '../store/index-store.js';
import { acquireIndexLock } from '../store/lock.js';
import { debugLogger, type CliContext } from './context.js';
import { readPackageVersion } from './package-info.js';
import type { RepoChoice } from './repo.js';

export interface RunIndexOptions {
  jobs?: number;
  includeVendor?: boolean;
  includeTests?: boolean;
  maxFileBytes?: number;
  rules?: string[];
}

export interface IndexRunSummary {
  repo: string;
  db: string;
  commit: string | null;
  version: string | null;
  dirty: boolean;
  files: number;
  parsed: number;
  reused: number;
  megabytes: number;
  skipped: { vendor: number; tests: number; duplicates: number };
  /** Packages by how their import path was found. */
  importPaths: Partial<Record<ImportPathSource, number>>;
  /** Packages imported from outside the tree: found (module roots) and missing. */
  dependencies: DependencyReport;
  problems: { path: string; status: string; message: string | null }[];
  counts: Record<string, number>;
  timings: Record<string, number>;
  rebuiltFrom: string | null;
}

export async function runIndex(
  choice: RepoChoice,
  ctx: CliContext,
  options: RunIndexOptions,
): Promise<IndexRunSummary> {
  const [{ parseRepository }, { linkTree }] = await Promise.all([
    import('../index/index-repository.js'),
    import('../resolve/link-tree.js'),
  ]);
  const lock = acquireIndexLock(choice.dbPath, process.pid);
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    ctx.stderr.write('\ninterrupted; saving what was parsed (Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let store: Store | undefined;
  const bar = ctx.stderr.isTTY
    ? new SingleBar({
        format: ' {phase} |{bar}| {value}/{total} files | {mbps} MB/s | ETA {eta_formatted}',
        stream: ctx.stderr as NodeJS.WritableStream,
        hideCursor: true,
        clearOnComplete: true,
      })
    : undefined;
  try {
    const opened = await openIndexStore(choice.dbPath);
    store = opened.store;
    await store.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('tool_version', ?)", [
      readPackageVersion(),
    ]);
    if (opened.rebuiltFrom) {
      ctx.stderr.write(
        `note: the index at ${choice.dbPath} had schema version ${opened.rebuiltFrom}; rebuilding it\n`,
      );
    }
    const started = Date.now();
    let barStarted = false;
    const parsed = await parseRepository({
      root: choice.root,
      store,
      ...(options.jobs ? { jobs: options.jobs } : {}),
      includeVendor: options.includeVendor ?? false,
      includeTests: options.includeTests ?? false,
      with: choice.with,
      moduleCache: choice.moduleCache,
      ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}),
      signal: controller.signal,
      onProgress: (p) => {
        if (!bar || p.phase !== 'parse' || p.total === 0) return;
        const mbps = (p.bytes / 1e6 / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1);
        if (!barStarted) {
          bar.start(p.total, p.done, { phase: 'parsing', mbps });
          barStarted = true;
        } else bar.update(p.done, { mbps });
      },
    });
    bar?.stop();
    if (bar) ctx.stderr.write(' linking: resolving calls, types and framework hops...\n');
    const debug = debugLogger(ctx, 'index');
    debug(
      `discover ${Math.round(parsed.timings.discoverMs)} ms, parse ${Math.round(parsed.timings.parseMs)} ms: ${parsed.parsed} parsed, ${parsed.reused} unchanged`,
    );
    const link = await linkTree({
      store,
      parsed,
      ...(options.rules ? { rules: options.rules } : {}),
    });
    debug(
      link.unchanged
        ? 'link skipped: same files, facts and rules as the last run'
        : `load ${Math.round(link.timings.loadMs)} ms, link ${Math.round(link.timings.linkMs)} ms, write ${Math.round(link.timings.writeMs)} ms`,
    );
    const problems = parsed.files
      .filter((f) => f.status !== 'ok')
      .map((f) => ({ path: f.path, status: f.status, message: f.message }));
    return {
      repo: choice.root,
      db: choice.dbPath,
      commit: parsed.tree.commit,
      version: parsed.tree.version,
      dirty: parsed.tree.dirty,
      files: parsed.files.length,
      parsed: parsed.parsed,
      reused: parsed.reused,
      megabytes: Number((parsed.bytesParsed / 1e6).toFixed(1)),
      skipped: parsed.tree.skipped,
      importPaths: parsed.tree.importPaths,
      dependencies: parsed.tree.dependencies,
      problems,
      counts: link.counts,
      timings: {
        discoverMs: Math.round(parsed.timings.discoverMs),
        parseMs: Math.round(parsed.timings.parseMs),
        loadMs: Math.round(link.timings.loadMs),
        linkMs: Math.round(link.timings.linkMs),
        writeMs: Math.round(link.timings.writeMs),
        totalMs: Date.now() - started,
      },
      rebuiltFrom: opened.rebuiltFrom,
    };
  } finally {
    bar?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await store?.close();
    lock.release();
  }
}
