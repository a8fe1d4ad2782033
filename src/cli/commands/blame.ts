/**
 * `blame`, `history` and `pr`: who changed a line and in which pull request, how a function came
 * to be, and what a pull request touched — answered from the local git history. The specs are
 * here; the git work is lazy-loaded from src/git, so `--help` stays instant.
 */
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  AmbiguousSymbolError,
  DatabasePathError,
  IndexMissingError,
  SymbolNotFoundError,
  UsageError,
} from '../../errors.js';
import type { FileTarget } from '../../git/paths.js';
import type { PullRequestOptions } from '../../git/pull-requests.js';
import type { GitRepository } from '../../git/repository.js';
import type { Store } from '../../store/db.js';
import type { DefinitionRow } from '../../store/symbols.js';
import { debugLogger, useColor, type CliContext } from '../context.js';
import { outputOption, writeJson } from '../output.js';
import {
  addRepoOptions,
  announceRepo,
  chooseRepo,
  type RepoChoice,
  type RepoOptions,
} from '../repo.js';

interface GitCommandOptions extends RepoOptions {
  output: 'text' | 'json';
  github?: string;
}

interface BlameCommandOptions extends GitCommandOptions {
  w?: boolean;
  M?: boolean;
  C?: boolean;
  ignoreRev: string[];
  ignoreRevsFile?: string;
}

interface HistoryCommandOptions extends GitCommandOptions {
  limit: number;
}

const GITHUB_HELP =
  'owner/repo that pull request links point at (default: the origin remote; kubernetes/kubernetes for a published staging repository such as client-go)';

export function registerBlameCommands(program: Command, ctx: CliContext): void {
  addRepoOptions(
    program
      .command('blame')
      .description(
        'who last changed each line, in which commit, and the pull request that brought it into the main line',
      )
      .argument(
        '<target>',
        'FILE, FILE:LINE, FILE:START-END (relative to here or to the repository root), or a symbol: its declaration (indexes the repository first if needed)',
      )
      .option('-w', 'ignore whitespace changes')
      .option('-M', 'follow lines moved within the file')
      .option('-C', 'follow lines moved or copied from other files changed in the same commit')
      .addOption(
        new Option(
          '--ignore-rev <rev>',
          'look through this commit, e.g. a reformatting (repeatable)',
        )
          .argParser(collect)
          .default([], 'none'),
      )
      .option(
        '--ignore-revs-file <file>',
        'look through the commits listed in this file (default: .git-blame-ignore-revs when present)',
      )
      .option('--github <owner/repo>', GITHUB_HELP)
      .addOption(outputOption(['text', 'json'], 'text')),
  )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  k8s-read blame pkg/scheduler/schedule_one.go:96\n' +
        '  k8s-read blame tools/cache/shared_informer.go:500-520 --repo ~/src/client-go -o json\n' +
        "  k8s-read blame '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne'\n",
    )
    .action((target: string, options: BlameCommandOptions) => runBlame(target, options, ctx));

  addRepoOptions(
    program
      .command('history')
      .description(
        "the commits and pull requests that changed a function's body or a line range, newest first (git log -L)",
      )
      .argument(
        '<target>',
        'a symbol (its declaration; indexes the repository first if needed), FILE:START-END, FILE:LINE or FILE',
      )
      .option('--limit <n>', 'at most this many commits; 0 for all', parseCount, 20)
      .option('--github <owner/repo>', GITHUB_HELP)
      .addOption(outputOption(['text', 'json'], 'text')),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  k8s-read history pkg/scheduler/schedule_one.go:60-120\n  k8s-read history scheduleOne --limit 5\n',
    )
    .action((target: string, options: HistoryCommandOptions) => runHistory(target, options, ctx));

  addRepoOptions(
    program
      .command('pr')
      .description(
        'a pull request from the local history: its merge commit, title, the files and the indexed symbols it touched',
      )
      .argument('<number>', 'the pull request number', parsePullRequestNumber)
      .option('--github <owner/repo>', GITHUB_HELP)
      .addOption(outputOption(['text', 'json'], 'text')),
  )
    .addHelpText('after', '\nExample:\n  k8s-read pr 134639 --repo ~/src/client-go\n')
    .action((number: number, options: GitCommandOptions) => runPullRequest(number, options, ctx));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('write a whole number (0 for all)');
  return Number(value);
}

function parsePullRequestNumber(value: string): number {
  const match = /^#?(\d+)$/.exec(value.trim());
  if (!match || Number(match[1]) === 0)
    throw new InvalidArgumentError('write the pull request number, e.g. 123 or #123');
  // GitHub numbers issues and pull requests with 32-bit integers; beyond that a number is a typo
  // (and beyond 2^53 it would print as 1e+23).
  if (match[1]!.length > 10 || Number(match[1]) > 2 ** 31 - 1)
    throw new InvalidArgumentError(
      `no pull request has a number that large (${match[1]!.length} digits)`,
    );
  return Number(match[1]);
}

interface GitSession {
  choice: RepoChoice;
  repo: GitRepository;
  context: PullRequestOptions;
  close(): Promise<void>;
}

async function openGitSession(options: GitCommandOptions, ctx: CliContext): Promise<GitSession> {
  const [{ GitRepository }, { isGithubRepoName }, { openGitCache }] = await Promise.all([
    import('../../git/repository.js'),
    import('../../git/pr-reference.js'),
    import('../../store/git-cache.js'),
  ]);
  if (options.github !== undefined && !isGithubRepoName(options.github)) {
    throw new UsageError(
      `--github ${options.github}: write owner/repo, e.g. --github kubernetes/kubernetes`,
    );
  }
  const choice = chooseRepo(options, ctx);
  ctx.replay?.watch(choice, options);
  announceRepo(choice, ctx);
  const repo = await GitRepository.open(choice.root, ctx.env);
  const debug = debugLogger(ctx, 'git');
  // The cache only makes answers faster: without it (read-only disk, a locked database) they are the same.
  let cache: Store | undefined;
  try {
    cache = await openGitCache(choice.dbPath);
  } catch (error) {
    // A --db that is not k8s-read's is worth a line: the user named it, and it is left alone.
    if (error instanceof DatabasePathError)
      ctx.stderr.write(`warning: ${error.message}; answers are not cached\n`);
    else debug(`no cache at ${choice.dbPath}: ${String(error)}`);
  }
  return {
    choice,
    repo,
    context: { github: options.github ?? null, cache, debug },
    close: async () => {
      await cache?.close().catch(() => undefined);
    },
  };
}

async function withGitSession<T>(
  options: GitCommandOptions,
  ctx: CliContext,
  work: (session: GitSession) => Promise<T>,
): Promise<T> {
  const session = await openGitSession(options, ctx);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

interface ResolvedTarget {
  target: FileTarget;
  /** Set when the argument named a symbol: its declaration's lines. */
  symbol?: string;
}

/** Source files a symbol argument never looks like; a missing one is a mistyped path. */
const FILE_EXTENSION = /\.(go|mod|sum|md|ya?ml|json|txt|sh|proto|py|ts|js|toml|c|h|s)$/;

/**
 * An existing path (or `path:line`) is a file; anything else is a symbol, looked up in the index:
 * a few matches (<= 3) are all used, more is ambiguous.
 */
async function resolveTargets(
  input: string,
  options: GitCommandOptions,
  session: GitSession,
  ctx: CliContext,
): Promise<ResolvedTarget[]> {
  const { findRepoPath, resolveFileTarget, splitLineSuffix } = await import('../../git/paths.js');
  const root = session.choice.root;
  if (
    findRepoPath(root, ctx.cwd, input) ||
    splitLineSuffix(input).start !== undefined ||
    FILE_EXTENSION.test(input)
  ) {
    return [{ target: resolveFileTarget(root, ctx.cwd, input) }];
  }
  const definitions = await findSymbolDefinitions(input, options, session, ctx);
  if (definitions.length === 0) throw new SymbolNotFoundError(input);
  if (definitions.length > 3)
    throw new AmbiguousSymbolError(
      input,
      definitions.map((d) => d.symbol),
    );
  return definitions.map((d) => ({
    target: { file: d.file, start: d.line, end: d.endLine },
    symbol: d.symbol,
  }));
}

/**
 * The declarations a symbol argument names. With no index yet the index is built first, as every
 * symbol command does; the demo note was printed already, so the index stays quiet about it.
 */
async function findSymbolDefinitions(
  input: string,
  options: RepoOptions,
  session: GitSession,
  ctx: CliContext,
): Promise<DefinitionRow[]> {
  const [{ openIndex }, { findDefinitions }] = await Promise.all([
    import('../open-index.js'),
    import('../../store/symbols.js'),
  ]);
  const index = await openIndex(ctx, options, { quiet: session.choice.source === 'demo' });
  try {
    // An external row is a reference to code outside the tree: nothing here to blame.
    return (await findDefinitions(index.store, index.treeId, input)).filter(
      (d) => d.kind !== 'external',
    );
  } finally {
    await index.close();
  }
}

async function runBlame(
  input: string,
  options: BlameCommandOptions,
  ctx: CliContext,
): Promise<void> {
  await withGitSession(options, ctx, async (session) => {
    const [{ blameFile, DEFAULT_IGNORE_REVS_FILE }, { renderBlameText }, { default: picocolors }] =
      await Promise.all([
        import('../../git/blame.js'),
        import('../../git/render-text.js'),
        import('picocolors'),
      ]);
    const targets = await resolveTargets(input, options, session, ctx);
    // What the answer reads besides git and the cache: the files blamed, the commits to look
    // through (src/git/blame.ts looks for the default file at the root and at the top level).
    if (ctx.replay) {
      const root = session.choice.root;
      for (const t of targets) ctx.replay.depend(path.join(root, t.target.file));
      for (const dir of [root, session.repo.toplevel])
        ctx.replay.depend(path.join(dir, DEFAULT_IGNORE_REVS_FILE));
      if (options.ignoreRevsFile !== undefined)
        ctx.replay.depend(path.resolve(ctx.cwd, options.ignoreRevsFile));
    }
    const blameOptions = {
      ignoreWhitespace: options.w ?? false,
      detectMoves: options.M ?? false,
      detectCopies: options.C ?? false,
      ignoreRevs: options.ignoreRev,
      ...(options.ignoreRevsFile === undefined
        ? {}
        : { ignoreRevsFile: path.resolve(ctx.cwd, options.ignoreRevsFile) }),
    };
    const results = [];
    for (const t of targets)
      results.push({
        ...t,
        lines: await blameFile(session.repo, t.target, blameOptions, session.context),
      });

    if (options.output === 'json') {
      const single =
        targets.length === 1 &&
        !targets[0]?.symbol &&
        targets[0]?.target.start !== undefined &&
        targets[0].target.start === targets[0].target.end;
      const lines = results.flatMap((r) =>
        r.symbol ? r.lines.map((l) => ({ symbol: r.symbol, ...l })) : r.lines,
      );
      writeJson(ctx.stdout, single ? lines[0] : lines);
      await keepIfFromCache(ctx);
      return;
    }
    const colors = picocolors.createColors(useColor(ctx));
    ctx.stdout.write(
      results
        .map((r) =>
          renderBlameText(
            r.lines,
            colors,
            r.symbol
              ? `${r.symbol}  ${r.target.file}:${r.target.start}-${r.target.end}`
              : undefined,
          ),
        )
        .join('\n'),
    );
    await keepIfFromCache(ctx);
  });
}

/**
 * An answer given without starting git came from the cache and the files the command named: its
 * printed form may be kept (src/cli/replay.ts). Every git of the blame path goes through runGit;
 * the two that do not (an index built for a symbol, `rev-parse HEAD` in openIndex when the git
 * files cannot tell) come with a written database or an unknown HEAD, and nothing is kept then.
 */
async function keepIfFromCache(ctx: CliContext): Promise<void> {
  if (!ctx.replay) return;
  const { gitProcessesStarted } = await import('../../git/run-git.js');
  if (gitProcessesStarted() === 0) ctx.replay.keep();
}

async function runHistory(
  input: string,
  options: HistoryCommandOptions,
  ctx: CliContext,
): Promise<void> {
  await withGitSession(options, ctx, async (session) => {
    const [{ readHistory }, { renderHistoryText }, { default: picocolors }] = await Promise.all([
      import('../../git/history.js'),
      import('../../git/render-text.js'),
      import('picocolors'),
    ]);
    const targets = await resolveTargets(input, options, session, ctx);
    const results = [];
    for (const t of targets)
      results.push({
        ...t,
        history: await readHistory(
          session.repo,
          t.target,
          { limit: options.limit },
          session.context,
        ),
      });

    if (options.output === 'json') {
      writeJson(
        ctx.stdout,
        results.flatMap((r) =>
          r.symbol ? r.history.entries.map((e) => ({ symbol: r.symbol, ...e })) : r.history.entries,
        ),
      );
      return;
    }
    const colors = picocolors.createColors(useColor(ctx));
    for (const r of results) {
      const range = r.target.start === undefined ? '' : `:${r.target.start}-${r.target.end}`;
      ctx.stdout.write(
        `${colors.bold(`${r.symbol ? `${r.symbol}  ` : ''}${r.target.file}${range}`)}\n`,
      );
      ctx.stdout.write(renderHistoryText(r.history.entries, r.history.more, colors));
    }
  });
}

async function runPullRequest(
  number: number,
  options: GitCommandOptions,
  ctx: CliContext,
): Promise<void> {
  await withGitSession(options, ctx, async (session) => {
    const [
      { findPullRequestDetails },
      { findSymbolsAtMerge },
      { renderPullRequestText },
      { default: picocolors },
    ] = await Promise.all([
      import('../../git/pr-lookup.js'),
      import('../pr-symbols.js'),
      import('../../git/render-text.js'),
      import('picocolors'),
    ]);
    const details = await findPullRequestDetails(session.repo, number, {
      github: options.github ?? null,
    });
    const touched = await findSymbolsAtMerge(session.repo, details, () =>
      indexedPackages(options, ctx),
    );
    if (touched.unplaced.length > 0)
      ctx.stderr.write(
        `note: no package path for ${touched.unplaced.length} changed Go file${touched.unplaced.length === 1 ? '' : 's'} (no go.mod at ${touched.at.slice(0, 8)} and none in the index); their symbols are not listed\n`,
      );

    if (options.output === 'json') {
      writeJson(ctx.stdout, { ...details, symbolsAt: touched.at, symbols: touched.symbols });
      return;
    }
    ctx.stdout.write(
      renderPullRequestText(details, touched, picocolors.createColors(useColor(ctx))),
    );
  });
}

/** Package paths by directory from the index, when there is one (none is built for this). */
async function indexedPackages(
  options: RepoOptions,
  ctx: CliContext,
): Promise<Map<string, string>> {
  const [{ openIndex }, { findPackagesByDirectory }] = await Promise.all([
    import('../open-index.js'),
    import('../../store/symbols.js'),
  ]);
  let index: Awaited<ReturnType<typeof openIndex>>;
  try {
    index = await openIndex(ctx, options, { autoIndex: false, quiet: true });
  } catch (error) {
    if (error instanceof IndexMissingError) return new Map();
    throw error;
  }
  try {
    return await findPackagesByDirectory(index.store, index.treeId);
  } finally {
    await index.close();
  }
}
