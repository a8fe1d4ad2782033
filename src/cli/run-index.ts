/**
 * Runs parse + link for a repository with progress on stderr (a live bar on a terminal, nothing
 * otherwise), the index lock, and Ctrl-C handling. Shared by `index` and by commands that need an
 * index and find none.
 *
 * Before trusting what it would skip, the run checks the database (SQLite's quick_check, and the
 * tree's row counts, unless the file is as the last finished run left it: the counts then only
 * when no finished run counted them in that state) and relinks a tree whose rows are incomplete.
 * Ctrl-C (or SIGTERM), however often it comes, stops the run at the next safe point: parsed files
 * are kept, the previous index stays as it was, and the command exits 130.
 */
import { existsSync } from 'node:fs';
import type { SingleBar } from 'cli-progress';
import type { DependencyReport } from '../index/dependencies.js';
import type { ImportPathSource } from '../index/modules.js';
import { DatabasePathError, IndexDamagedError, InterruptedError, UsageError } from '../errors.js';
import type { Store } from '../store/db.js';
import { findTree, openIndexStore, setMeta } from '../store/index-store.js';
import { acquireIndexLock } from '../store/lock.js';
import {
  checkTreeRows,
  invalidateTree,
  isK8sReadDatabase,
  openK8sReadDatabase,
  quickCheck,
  recordChecked,
  removeDatabaseFiles,
  removeOrphanRows,
  unchangedSinceChecked,
} from '../store/verify.js';
import { debugLogger, type CliContext } from './context.js';
import {
  keptChoices,
  settleChoices,
  type GivenChoices,
  type IndexChoices,
} from './index-choices.js';
import { readBuildId, readPackageVersion } from './package-info.js';
import type { RepoChoice } from './repo.js';

export interface RunIndexOptions {
  jobs?: number;
  /**
   * How to index, as the command line said it (`index-choices.ts`): what it leaves out is as the
   * tree's last index had it, else the default. The `--with` checkouts of the repo choice count as
   * said only when there are some.
   */
  given?: GivenChoices;
  /** Delete the database (a k8s-read one only) and index from scratch, as the tree was indexed. @default false */
  rebuild?: boolean;
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
  /**
   * Whether the calls were linked again or the last link's rows kept: `kept` when nothing the link
   * reads changed; `sameFacts` of those files changed, none in its facts (a comment edited in place).
   */
  link: { kept: boolean; sameFacts: number };
  /** How the tree was indexed: kept with its index for the next run. */
  choices: IndexChoices;
  timings: Record<string, number>;
  rebuiltFrom: string | null;
}

export async function runIndex(
  choice: RepoChoice,
  ctx: CliContext,
  options: RunIndexOptions,
): Promise<IndexRunSummary> {
  const [{ IndexInterruptedError, parseRepository }, { linkTree }] = await Promise.all([
    import('../index/index-repository.js'),
    import('../resolve/link-tree.js'),
  ]);
  const lock = acquireIndexLock(choice.dbPath, process.pid);
  const interrupts = watchInterrupts(ctx);
  const { signal } = interrupts;
  let store: Store | undefined;
  let created = false;
  /** The index is written and the database closed: nothing may be removed any more. */
  let saved = false;
  /** Files this run parsed and saved whose link has not finished (what a Ctrl-C leaves to resume). */
  let parsedUnlinked = 0;
  // The bar's module loads only for a terminal that shows it.
  const Bar =
    ctx.stderr.isTTY && !runsInCi(ctx.env) ? (await import('cli-progress')).SingleBar : undefined;
  const barOptions = {
    stream: ctx.stderr as NodeJS.WritableStream,
    hideCursor: true,
    clearOnComplete: true,
  };
  const bar: SingleBar | undefined = Bar
    ? new Bar({
        ...barOptions,
        format: ' {phase} |{bar}| {value}/{total} files | {mbps} MB/s | ETA {eta_formatted}',
      })
    : undefined;
  // The link's stages (loading the facts, checking types, its two passes over the calls, the
  // write): 10-15 s of a Kubernetes tree that a bar shows moving.
  const linkBar: SingleBar | undefined = Bar
    ? new Bar({
        ...barOptions,
        format: ' {phase} |{bar}| {percentage}% | ETA {eta_formatted}',
        // Files differ a hundredfold in their calls: the estimate is taken over many of them.
        etaBuffer: 200,
      })
    : undefined;
  try {
    // Read before a rebuild deletes them, or the check below clears an incomplete tree's row.
    let kept = options.rebuild ? await removeForRebuild(choice, ctx) : undefined;
    created = !existsSync(choice.dbPath);
    // Asked before the database is opened: whether the file is exactly as the last finished run
    // left it (then SQLite's quick_check of every page is not needed again).
    const untouched = created ? undefined : unchangedSinceChecked(choice.dbPath);
    const opened = await openIndexStore(choice.dbPath);
    store = opened.store;
    await setMeta(store, 'tool_version', readPackageVersion());
    if (opened.rebuiltFrom) {
      ctx.stderr.write(
        `note: the index at ${choice.dbPath} had schema version ${opened.rebuiltFrom}; rebuilding it\n`,
      );
    }
    if (!created && !opened.rebuiltFrom)
      kept = keptChoices((await findTree(store, choice.root).catch(() => undefined))?.summary);
    else if (opened.rebuiltFrom && !kept)
      kept = keptChoices(opened.droppedSummaries.get(choice.root));
    const given: GivenChoices = {
      ...options.given,
      ...(choice.with.length > 0 ? { with: choice.with } : {}),
    };
    const settled = settleChoices(given, kept, choice.root);
    const { choices } = settled;
    sayChoices(settled, ctx);
    // The check reads the database on SQLite's thread while discovery runs git beside it.
    const debug = debugLogger(ctx, 'index');
    const checked =
      !created && !opened.rebuiltFrom
        ? checkBeforeReuse(store, choice, ctx, {
            pages: !untouched,
            // Counted already in this very state of the file (by a run that finished).
            rows: !untouched?.roots.includes(choice.root),
            debug,
          })
        : undefined;
    checked?.catch(() => undefined); // parseRepository awaits it and fails with its error
    const started = Date.now();
    const buildId = readBuildId();
    let barStarted = false;
    let parseAnnounced = false;
    const parsed = await parseRepository({
      root: choice.root,
      store,
      ...(options.jobs ? { jobs: options.jobs } : {}),
      includeVendor: choices.includeVendor,
      includeTests: choices.includeTests,
      with: choices.with,
      moduleCache: choice.moduleCache,
      maxFileBytes: choices.maxFileBytes,
      ...(checked ? { storeReady: checked } : {}),
      ...(buildId ? { stamp: { env: ctx.env, build: buildId } } : {}),
      signal,
      onProgress: (p) => {
        if (p.phase === 'parse' && !parseAnnounced) {
          parseAnnounced = true;
          debug(`parsing ${p.total} files`);
        }
        if (!bar || p.phase !== 'parse' || p.total === 0) return;
        const mbps = (p.bytes / 1e6 / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1);
        if (!barStarted) {
          bar.start(p.total, p.done, { phase: 'parsing', mbps });
          barStarted = true;
        } else bar.update(p.done, { mbps });
      },
    });
    bar?.stop();
    if (parsed.files.length === 0) {
      throw new UsageError(
        `no Go files found in ${choice.root} (vendor/ and _test.go are skipped unless --include-vendor/--include-tests)`,
      );
    }
    debug(
      `discover ${Math.round(parsed.timings.discoverMs)} ms${parsed.stamped ? ' (from the stamp: nothing it watches changed)' : ''}, parse ${Math.round(parsed.timings.parseMs)} ms: ${parsed.parsed} parsed, ${parsed.reused} unchanged`,
    );
    // From here on a Ctrl-C fails the next statement (or interrupts the running one), and the
    // link's write transaction rolls back; the facts of the files parsed are saved already.
    parsedUnlinked = parsed.parsed;
    store.stopOn(signal);
    // A stage is a phase and its step; a pass of the link starts a bar (and an estimate) of its
    // own, the type check only relabels the load's.
    let linkStage: string | undefined;
    const link = await linkTree({
      store,
      parsed,
      onWarning: (message) => ctx.stderr.write(`warning: ${message}\n`),
      rules: choices.rules,
      choices,
      onProgress: (p) => {
        // Nothing to count (a tree without calls): the bar of the stage before stays.
        if (!linkBar || (p.total === 0 && p.phase !== 'write')) return;
        const label = p.step ?? p.phase;
        const stage = p.phase === 'link' ? `link ${label}` : p.phase;
        if (stage === linkStage) {
          linkBar.update(p.done, { phase: label });
          return;
        }
        if (linkStage) linkBar.stop();
        linkStage = stage;
        if (p.phase === 'write') ctx.stderr.write(' writing the index...\n');
        else linkBar.start(p.total, p.done, { phase: label });
      },
    });
    parsedUnlinked = 0;
    if (linkStage !== 'write') linkBar?.stop();
    // A Ctrl-C that came during the (synchronous) link is seen only now: the link finished, so
    // its index stands, but the run still ends as interrupted.
    if (signal.aborted)
      throw new InterruptedError('interrupted; the index was already complete and is saved');
    if (parsed.tree.unpublished && parsed.tree.commit) {
      ctx.stderr.write(
        `note: ${parsed.tree.commit.slice(0, 12)} is on no branch or tag of the origin remote, so answers carry no GitHub permalinks; push it and index again to get them\n`,
      );
    }
    debug(
      link.unchanged
        ? 'link skipped: same files, facts and rules as the last run'
        : `load ${Math.round(link.timings.loadMs)} ms, link ${Math.round(link.timings.linkMs)} ms, write ${Math.round(link.timings.writeMs)} ms`,
    );
    const problems = [
      ...parsed.tree.unreadable.map((u) => ({
        path: u.path,
        status: 'unreadable',
        message: u.why,
      })),
      ...parsed.files
        .filter((f) => f.status !== 'ok')
        .map((f) => ({ path: f.path, status: f.status, message: f.message })),
    ];
    const totalMs = Date.now() - started;
    // Closed here (not in `finally`) so that the file's state is final before it is recorded.
    await store.close();
    store = undefined;
    saved = true;
    recordChecked(choice.dbPath, choice.root);
    // A Ctrl-C during the close (a checkpoint of the whole write, after a full index): the index
    // is whole and saved, and the run still ends as interrupted, as during the link.
    if (signal.aborted)
      throw new InterruptedError('interrupted; the index was already complete and is saved');
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
      link: { kept: link.unchanged, sameFacts: link.sameFacts },
      choices,
      timings: {
        discoverMs: Math.round(parsed.timings.discoverMs),
        parseMs: Math.round(parsed.timings.parseMs),
        loadMs: Math.round(link.timings.loadMs),
        linkMs: Math.round(link.timings.linkMs),
        writeMs: Math.round(link.timings.writeMs),
        totalMs,
      },
      rebuiltFrom: opened.rebuiltFrom,
    };
  } catch (error) {
    // A first run that failed leaves no empty database behind (one with parsed files is kept:
    // the next run resumes from it). Asked of a store a Ctrl-C stopped too: one during the link
    // of a first run had dropped every file parsed before it.
    store?.resume();
    if (created && !saved && !(await holdsParsedFiles(store))) {
      await store?.close().catch(() => undefined);
      store = undefined;
      removeDatabaseFiles(choice.dbPath);
    }
    if (error instanceof InterruptedError && parsedUnlinked > 0)
      throw new IndexInterruptedError(parsedUnlinked);
    throw error;
  } finally {
    bar?.stop();
    linkBar?.stop();
    interrupts.dispose();
    await store?.close().catch(() => undefined);
    lock.release();
  }
}

/**
 * Checks a database before its rows are trusted: a damaged file is refused (with the fix), rows
 * of no tree are dropped, and a tree whose row counts do not match what was written is relinked.
 *
 * SQLite's quick_check reads every page (~0.25 s of CPU for v1.24's 160 MB, most of a re-index
 * that finds nothing to do), so it runs only when the file may hold something no finished run of
 * k8s-read wrote or checked: `pages` is false when the file is exactly as the last finished run
 * left it (same inode, size, modification and change times, no pending WAL). Whatever else touched
 * it since (a crash mid-write, another program, a copy over it, a read command's own write) shows
 * in those, and the whole check runs. The row counts, which catch rows deleted through SQLite
 * itself, are cheap and always checked.
 */
async function checkBeforeReuse(
  store: Store,
  choice: RepoChoice,
  ctx: CliContext,
  options: { pages: boolean; rows: boolean; debug: (message: string) => void },
): Promise<void> {
  options.debug(
    options.pages
      ? 'checking the database: quick_check and row counts'
      : options.rows
        ? 'checking the database: row counts (the file is as the last finished index left it)'
        : 'not checking the database: the file is as the last finished index left it, with these rows counted',
  );
  if (options.pages) {
    const problem = await quickCheck(store);
    if (problem) throw new IndexDamagedError(choice.dbPath, problem);
  }
  if (!options.rows) return;
  const orphans = await removeOrphanRows(store);
  if (orphans > 0)
    ctx.stderr.write(`note: removed ${orphans} rows of no indexed tree from ${choice.dbPath}\n`);
  const tree = await findTree(store, choice.root);
  if (!tree) return;
  const rows = await checkTreeRows(store, tree, { exact: true });
  if (rows) {
    ctx.stderr.write(
      `note: the index of ${choice.root} in ${choice.dbPath} is incomplete (${rows}); rebuilding it\n`,
    );
    await invalidateTree(store, tree.id);
  }
}

/**
 * What a run follows that the command line did not say: said once on stderr, so that a re-index
 * never reads other files than the user expects without saying why.
 */
function sayChoices(settled: ReturnType<typeof settleChoices>, ctx: CliContext): void {
  if (settled.vendorByDefault)
    ctx.stderr.write('note: indexing vendor/ too: this module keeps its libraries there\n');
  for (const gone of settled.gone)
    ctx.stderr.write(`note: ${gone}, which the last index read, is gone; indexing without it\n`);
  if (settled.kept.length > 0) {
    const undo = [...new Set(settled.kept.map((k) => k.undo))];
    ctx.stderr.write(
      `note: indexing as this tree was indexed before: ${settled.kept.map((k) => k.flag).join(' ')} (${undo.join(', ')} to change it)\n`,
    );
  }
}

/**
 * `index --rebuild`: deletes the database, only when it is one that k8s-read made. Hands back how
 * the tree was indexed, read first (a database too damaged to read it from: nothing).
 */
async function removeForRebuild(
  choice: RepoChoice,
  ctx: CliContext,
): Promise<Partial<IndexChoices> | undefined> {
  const { dbPath } = choice;
  if (!existsSync(dbPath)) return undefined;
  if (!(await isK8sReadDatabase(dbPath))) {
    throw new DatabasePathError(
      dbPath,
      'not a database that k8s-read made (or too damaged to tell)',
      '--rebuild deletes only its own databases: delete it yourself if it is an index, or pass --db with a new path',
    );
  }
  const kept = await readKeptChoices(dbPath, choice.root);
  removeDatabaseFiles(dbPath);
  ctx.stderr.write(`note: deleted ${dbPath}; indexing from scratch\n`);
  return kept;
}

async function readKeptChoices(
  dbPath: string,
  root: string,
): Promise<Partial<IndexChoices> | undefined> {
  try {
    const opened = await openK8sReadDatabase(dbPath, 'read');
    if (!opened) return undefined;
    try {
      return keptChoices((await findTree(opened.store, root))?.summary);
    } finally {
      await opened.store.close();
    }
  } catch {
    return undefined;
  }
}

async function holdsParsedFiles(store: Store | undefined): Promise<boolean> {
  if (!store) return false;
  const row = await store
    .get<{ n: number }>('SELECT EXISTS (SELECT 1 FROM blobs) AS n')
    .catch(() => undefined);
  return Boolean(row?.n);
}

/**
 * The first Ctrl-C (or SIGTERM) asks the run to stop; later ones only say it is stopping. Exiting
 * at once would tear down parser threads inside native code (which aborts the process), and the
 * stop itself takes at most the file each thread is on.
 */
function watchInterrupts(ctx: CliContext): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let repeated = false;
  const onSignal = () => {
    if (!controller.signal.aborted) {
      ctx.stderr.write('\ninterrupted; saving what was parsed and stopping\n');
      controller.abort();
    } else if (!repeated) {
      repeated = true;
      ctx.stderr.write('still stopping: the previous index is kept\n');
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      // Interrupted: the process is on its way out with 130; one more Ctrl-C must not kill it
      // before it says what happened (Node's default for SIGINT ends the process at once). The
      // quiet listeners come first: removing a signal's last listener gives the signal back its
      // default action at once, and a Ctrl-C landing before the next `on` would end the process
      // without a word.
      if (controller.signal.aborted) {
        process.on('SIGINT', () => undefined);
        process.on('SIGTERM', () => undefined);
      }
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** CI systems set CI; a progress bar redrawn on every file only fills their logs. */
function runsInCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
