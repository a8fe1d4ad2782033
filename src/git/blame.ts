/**
 * `git blame --porcelain` for a file or a line range, each line with the pull request that brought
 * its commit into the main line. A clean file's blame is cached by the file's blob id at HEAD and
 * the blame options; a file with local edits is blamed from the work tree every time (its edited
 * lines are "not committed yet"), so a cached blame never hides an edit.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { gitBlobId } from '../shared/git-blob.js';
import {
  readCachedBlame,
  touchCachedBlame,
  writeCachedBlame,
  type BlameCacheKey,
} from '../store/git-cache.js';
import { parseBlamePorcelain } from './blame-porcelain.js';
import { checkLineRange, readRepoFile, type FileTarget } from './paths.js';
import {
  UNCOMMITTED_REASON,
  prefetchMainline,
  resolvePullRequests,
  type PullRequestOptions,
} from './pull-requests.js';
import type { GitRepository } from './repository.js';
import type { BlameLine, BlamedLine, PullRequestAnswer } from './types.js';

export interface BlameOptions {
  /** Ignore whitespace-only changes (`-w`). @default false */
  ignoreWhitespace?: boolean;
  /** Follow lines moved within the file (`-M`). @default false */
  detectMoves?: boolean;
  /** Follow lines moved or copied from other files changed in the same commit (`-C`). @default false */
  detectCopies?: boolean;
  /** Commits blame looks through, e.g. a reformatting (`--ignore-rev`). @default [] */
  ignoreRevs?: readonly string[];
  /**
   * A file listing such commits (`--ignore-revs-file`), absolute or relative to the root.
   * @default `.git-blame-ignore-revs` at the repository root (or the git top level) when present
   */
  ignoreRevsFile?: string;
}

/** The file honoured without being asked, as GitHub's blame view does. */
export const DEFAULT_IGNORE_REVS_FILE = '.git-blame-ignore-revs';

/** Blames `target.file` (relative to the root), all of it or `start..end`. */
export async function blameFile(
  repo: GitRepository,
  target: FileTarget,
  options: BlameOptions = {},
  context: PullRequestOptions = {},
): Promise<BlamedLine[]> {
  const { file } = target;
  const text = readRepoFile(repo.root, file);
  const lineCount = checkLineRange(file, text, target.start, target.end);
  if (lineCount === 0) return [];
  const range =
    target.start !== undefined && target.end !== undefined
      ? { start: target.start, end: target.end }
      : undefined;
  // Move and copy detection only see blocks inside the blamed lines (20 letters at least), so
  // `-L 96,96 -M` would miss a moved function that a whole-file blame finds: blame it all, then cut.
  const blameRange = options.detectMoves || options.detectCopies ? undefined : range;

  const [head, flags] = await Promise.all([repo.head(), blameFlags(repo, options)]);
  // The whole file's blame, and the range's when only the range is blamed.
  const keysOf = (blob: string): BlameCacheKey[] => {
    const whole = { path: file, blob, options: flags.key };
    return blameRange
      ? [whole, { ...whole, options: `${flags.key} -L ${blameRange.start},${blameRange.end}` }]
      : [whole];
  };
  const workBlob = gitBlobId(text);
  // An answer cached at this very HEAD for the blob the work tree holds: that blob is HEAD's (it
  // was when the row was written), so the file is clean and git need not be asked anything.
  if (context.cache && !repo.shallow) {
    for (const key of keysOf(workBlob)) {
      const hit = await readCachedBlame<BlameLine[]>(context.cache, key).catch(() => undefined);
      if (hit?.head === head) return finishBlame(repo, file, hit.lines, range, head, context);
    }
  }
  // Not cached: its lines' pull requests will need HEAD's main line, read meanwhile.
  prefetchMainline(repo, head, context);
  // The file's blob at HEAD; the work tree's is hashed here (git's own hash-object is asked only
  // when they differ: a clean or smudge filter may explain it).
  const both = await repo.tryRun(['rev-parse', `HEAD:./${file}`]);
  if (!both.ok) {
    await repo.head(); // says so when there is no commit at all
    // A tree in a directory its work tree ignores (the demo tree of a package installed under a
    // project's node_modules/) has no history at all: committing is not the way.
    if ((await repo.tryRun(['check-ignore', '-q', '--', file])).ok)
      throw new UsageError(
        `${file} has no git history: the git work tree at ${repo.toplevel} ignores it, so blame has nothing to read; blame a file of a checkout whose files are committed (--repo PATH)`,
      );
    throw new UsageError(
      `${file} is not in HEAD (untracked or only staged); commit it first: blame reads git history`,
    );
  }
  const blob = both.stdout.trim();
  const clean = blob === workBlob || blob === (await repo.run(['hash-object', '--', file])).trim();
  const cache = clean && !repo.shallow ? context.cache : undefined;
  const keys = keysOf(blob);
  let lines = cache ? await readValidBlame(repo, cache, head, keys, context) : undefined;
  if (!lines) {
    const args = ['blame', '--porcelain', '--root', ...flags.args];
    if (blameRange) args.push('-L', `${blameRange.start},${blameRange.end}`);
    // A clean file is blamed at HEAD (what the cache key means); an edited one from the work tree.
    if (clean) args.push(head);
    args.push('--', file);
    lines = parseBlamePorcelain(await repo.run(args), file);
    if (cache) {
      await writeCachedBlame(cache, keys[keys.length - 1]!, head, lines).catch((error: unknown) => {
        context.debug?.(`blame cache write failed: ${String(error)}`);
      });
    }
  }
  return finishBlame(repo, file, lines, range, head, context);
}

/** The lines of the range, each with the pull request of its commit. */
async function finishBlame(
  repo: GitRepository,
  file: string,
  blamed: BlameLine[],
  range: { start: number; end: number } | undefined,
  head: string,
  context: PullRequestOptions,
): Promise<BlamedLine[]> {
  const lines = range ? blamed.filter((l) => l.line >= range.start && l.line <= range.end) : blamed;
  const answers = await resolvePullRequests(
    repo,
    head,
    lines.flatMap((l) => (l.commit ? [l.commit] : [])),
    context,
  );
  return lines.map((l) => toBlamedLine(file, l, l.commit ? answers.get(l.commit) : undefined));
}

function toBlamedLine(
  file: string,
  line: BlameLine,
  answer: PullRequestAnswer | undefined,
): BlamedLine {
  const blamed: BlamedLine = {
    file,
    line: line.line,
    commit: line.commit,
    author: line.author,
    authorTime: line.authorTime,
    summary: line.summary,
    pr: answer?.pr ?? null,
    reason: line.commit ? (answer?.reason ?? '') : UNCOMMITTED_REASON,
    content: line.content,
  };
  if (answer?.upstream) blamed.upstream = answer.upstream;
  if (answer?.cherryPickOf) blamed.cherryPickOf = answer.cherryPickOf;
  if (line.originalFile !== undefined) blamed.originalFile = line.originalFile;
  return blamed;
}

/** The first cached blame whose HEAD is this HEAD or an ancestor of it (the blob is unchanged since). */
async function readValidBlame(
  repo: GitRepository,
  cache: NonNullable<PullRequestOptions['cache']>,
  head: string,
  keys: readonly BlameCacheKey[],
  context: PullRequestOptions,
): Promise<BlameLine[] | undefined> {
  for (const key of keys) {
    const hit = await readCachedBlame<BlameLine[]>(cache, key).catch((error: unknown) => {
      context.debug?.(`blame cache read failed: ${String(error)}`);
      return undefined;
    });
    if (!hit) continue;
    if (hit.head === head) return hit.lines;
    if (await repo.isAncestor(hit.head, head)) {
      await touchCachedBlame(cache, key, head).catch(() => undefined);
      return hit.lines;
    }
  }
  return undefined;
}

/** Blame's flags, and a cache key that changes with anything that changes the answer. */
async function blameFlags(
  repo: GitRepository,
  options: BlameOptions,
): Promise<{ args: string[]; key: string }> {
  const args: string[] = [];
  if (options.ignoreWhitespace) args.push('-w');
  if (options.detectMoves) args.push('-M');
  if (options.detectCopies) args.push('-C');
  const revs: string[] = [];
  for (const rev of options.ignoreRevs ?? []) {
    const resolved = rev.startsWith('-')
      ? undefined
      : await repo.tryRun(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
    if (!resolved?.ok)
      throw new UsageError(`--ignore-rev ${rev}: no such commit in ${repo.root}; pass a commit id`);
    revs.push(resolved.stdout.trim());
  }
  for (const rev of revs) args.push('--ignore-rev', rev);
  const ignoreFile = findIgnoreRevsFile(repo, options.ignoreRevsFile);
  let ignoreDigest = '';
  if (ignoreFile) {
    args.push('--ignore-revs-file', ignoreFile);
    ignoreDigest = createHash('sha1').update(readFileSync(ignoreFile)).digest('hex');
  }
  const key = JSON.stringify({
    flags: args.filter((a) => a.startsWith('-') && a.length === 2),
    revs: [...revs].sort(),
    ignoreDigest,
  });
  return { args, key };
}

function findIgnoreRevsFile(repo: GitRepository, given: string | undefined): string | undefined {
  if (given !== undefined) {
    const absolute = path.resolve(repo.root, given);
    if (!existsSync(absolute) || !statSync(absolute).isFile()) {
      throw new UsageError(
        `--ignore-revs-file ${given}: no such file; pass a file of commit ids, one a line`,
      );
    }
    return absolute;
  }
  for (const dir of new Set([repo.root, repo.toplevel])) {
    const candidate = path.join(dir, DEFAULT_IGNORE_REVS_FILE);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
