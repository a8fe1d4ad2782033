/**
 * One git repository: every call is an argument array (no shell ever sees user input), a failed
 * call becomes a GitError that says what to do, and the expensive facts (the commit graph of
 * HEAD, commit messages, the origin remote) are read once per process.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { GitError } from '../errors.js';
import { Mainline } from './mainline.js';
import { parseGithubRemote } from './pr-reference.js';
import { readRepoFromFiles } from './read-head.js';
import { GitCommandFailure, runGit } from './run-git.js';

export { GitCommandFailure };

export interface CommitInfo {
  sha: string;
  parents: string[];
  author: string;
  authorTime: string;
  subject: string;
  /** The message after the subject paragraph. */
  body: string;
}

const FIELD = '\x00';
const RECORD = '\x1e';
/** `git log` format that `parseCommitRecords` reads: sha, parents, author, date, subject, body. */
export const COMMIT_FORMAT = '--format=%x1e%H%x00%P%x00%an%x00%aI%x00%s%x00%b';

export class GitRepository {
  private readonly mainlines = new Map<string, Promise<Mainline>>();
  private readonly commitInfo = new Map<string, CommitInfo>();
  private remote: Promise<string | null> | undefined;
  private headCommit: Promise<string> | undefined;

  private constructor(
    /** The directory paths are relative to (the chosen repository root; may sit below the top level). */
    readonly root: string,
    /** The work tree's top level (the root or an ancestor of it). */
    readonly toplevel: string,
    /** Whether history stops early (`git clone --depth`). */
    readonly shallow: boolean,
    /** The commits whose parents a shallow clone did not fetch. */
    readonly shallowCommits: ReadonlySet<string>,
  ) {}

  /**
   * `env`, the environment git runs in, when the caller knows it: then what git would say of a
   * plain checkout is read from its files (readRepoFromFiles) instead of asked of two gits.
   */
  static async open(root: string, env?: NodeJS.ProcessEnv): Promise<GitRepository> {
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new GitError(`${root} is not a directory; pass --repo PATH to a git checkout`);
    }
    // A root in a plain checkout: its git directory's files say what git would.
    const files = env && readRepoFromFiles(root, env);
    if (files) {
      const repo = GitRepository.withShallowFile(root, files.toplevel, files.shallowFile);
      repo.headCommit = Promise.resolve(files.head);
      if (files.originUrl !== undefined)
        repo.remote = Promise.resolve(parseGithubRemote(files.originUrl));
      return repo;
    }
    // Asked now, answered by the time anyone needs it (blame's PR links): a process, not a wait.
    const remote = runGit(root, ['remote', 'get-url', 'origin']).then(
      parseGithubRemote,
      () => null,
    );
    // Shallow or not is whether the shallow file exists (withShallowFile), as git decides it.
    const facts = ['rev-parse', '--show-toplevel', '--git-path', 'shallow'];
    let out: string;
    let head: string | undefined;
    try {
      // HEAD in the same process; a repository without commits fails that, and is asked again.
      const lines = (await runGit(root, [...facts, 'HEAD^{commit}']).catch(() => undefined))?.split(
        '\n',
      );
      head = lines?.[2];
      out = lines ? lines.join('\n') : await runGit(root, facts);
    } catch (error) {
      if (/not a git repository/i.test(String((error as Error).message))) {
        throw new GitError(
          `${root} is not a git repository; blame, history and pr read git history: pass --repo PATH to a git clone (not an unpacked archive)`,
          { cause: error },
        );
      }
      throw wrapFailure(error, 'rev-parse');
    }
    const [toplevel = root, shallowPath] = out.split('\n');
    const repo = GitRepository.withShallowFile(
      root,
      toplevel,
      path.resolve(root, shallowPath ?? ''),
    );
    repo.remote = remote;
    if (head) repo.headCommit = Promise.resolve(head);
    return repo;
  }

  /** A shallow clone is one with a shallow file (`git rev-parse --is-shallow-repository`). */
  private static withShallowFile(
    root: string,
    toplevel: string,
    shallowFile: string,
  ): GitRepository {
    const shallowCommits = existsSync(shallowFile)
      ? new Set(readFileSync(shallowFile, 'utf8').split('\n').filter(Boolean))
      : undefined;
    return new GitRepository(
      root,
      toplevel,
      shallowCommits !== undefined,
      shallowCommits ?? new Set(),
    );
  }

  /** Runs `git <args>` in the root and returns stdout; a failure becomes a GitError. */
  async run(args: readonly string[]): Promise<string> {
    try {
      return await runGit(this.root, args);
    } catch (error) {
      throw wrapFailure(error, args[0] ?? '');
    }
  }

  /** Like `run`, but hands back the exit code of a failed call instead of throwing. */
  async tryRun(
    args: readonly string[],
  ): Promise<{ ok: true; stdout: string } | { ok: false; failure: GitCommandFailure }> {
    try {
      return { ok: true, stdout: await runGit(this.root, args) };
    } catch (error) {
      if (error instanceof GitCommandFailure) return { ok: false, failure: error };
      throw wrapFailure(error, args[0] ?? '');
    }
  }

  /** HEAD's commit, read once: HEAD does not move while a command runs. */
  head(): Promise<string> {
    this.headCommit ??= this.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).then(
      (result) => {
        if (!result.ok)
          throw new GitError(`${this.root} has no commits yet; commit something first`);
        return result.stdout.trim();
      },
    );
    return this.headCommit;
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const result = await this.tryRun(['merge-base', '--is-ancestor', ancestor, descendant]);
    if (result.ok) return true;
    if (result.failure.exitCode === 1) return false;
    throw wrapFailure(result.failure, 'merge-base');
  }

  /** HEAD's commit graph and first-parent chain, read once per HEAD. */
  mainline(head: string): Promise<Mainline> {
    let found = this.mainlines.get(head);
    if (!found) {
      found = this.run(['rev-list', '--parents', head]).then((out) =>
        Mainline.fromRevList(out, head),
      );
      this.mainlines.set(head, found);
    }
    return found;
  }

  /** `owner/repo` of the `origin` remote when it is on GitHub, else null. */
  githubRemote(): Promise<string | null> {
    this.remote ??= this.tryRun(['remote', 'get-url', 'origin']).then((r) =>
      r.ok ? parseGithubRemote(r.stdout) : null,
    );
    return this.remote;
  }

  /** Paths of the files in `commit`'s tree (all of them, or those `keep` accepts). */
  async listFiles(commit: string, keep: (path: string) => boolean = () => true): Promise<string[]> {
    const out = await this.run(['ls-tree', '-r', '-z', '--name-only', commit]);
    return out.split('\0').filter((p) => p !== '' && keep(p));
  }

  /**
   * The contents of files as they were at `commit` (paths as git diff prints them: relative to
   * the top level), in one
   * `git cat-file --batch` process: a pull request touches dozens of files, and a process per
   * file would cost more than the parse. A path missing at that commit is absent from the map.
   */
  async readFiles(commit: string, paths: readonly string[]): Promise<Map<string, Buffer>> {
    const wanted = paths.filter((p) => !/[\n\r]/.test(p));
    if (wanted.length === 0) return new Map();
    try {
      const out = await runGit(this.root, ['cat-file', '--batch'], {
        input: wanted.map((p) => `${commit}:${p}\n`).join(''),
        binary: true,
      });
      return parseBatch(out, wanted);
    } catch (error) {
      throw wrapFailure(error, 'cat-file');
    }
  }

  /** Messages and authors of many commits in one `git log --no-walk` call, remembered. */
  async commits(shas: Iterable<string>): Promise<Map<string, CommitInfo>> {
    const wanted = [...new Set(shas)];
    const missing = wanted.filter((sha) => !this.commitInfo.has(sha));
    // A few thousand 41-byte arguments stay far below any command-line limit.
    for (let i = 0; i < missing.length; i += 2000) {
      const out = await this.run([
        'log',
        '--no-walk=unsorted',
        COMMIT_FORMAT,
        ...missing.slice(i, i + 2000),
      ]);
      for (const info of parseCommitRecords(out)) this.commitInfo.set(info.sha, info);
    }
    const found = new Map<string, CommitInfo>();
    for (const sha of wanted) {
      const info = this.commitInfo.get(sha);
      if (info) found.set(sha, info);
    }
    return found;
  }
}

/** `git cat-file --batch` output: `<sha> <type> <size>\n<bytes>\n` per object, `<name> missing\n` for none. */
function parseBatch(out: Buffer, paths: readonly string[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let at = 0;
  for (const file of paths) {
    const end = out.indexOf(10, at);
    if (end === -1) break;
    const header = out.subarray(at, end).toString('utf8');
    at = end + 1;
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!match) continue; // "<name> missing"
    const size = Number(match[2]);
    if (match[1] === 'blob') files.set(file, out.subarray(at, at + size));
    at += size + 1;
  }
  return files;
}

export function parseCommitRecords(out: string): CommitInfo[] {
  const infos: CommitInfo[] = [];
  for (const record of out.split(RECORD)) {
    if (!record.trim()) continue;
    const [sha = '', parents = '', author = '', authorTime = '', subject = '', ...body] =
      record.split(FIELD);
    infos.push({
      sha: sha.trim(),
      parents: parents.split(' ').filter(Boolean),
      author,
      authorTime,
      subject,
      body: body.join(FIELD).replace(/\n+$/, ''),
    });
  }
  return infos;
}

function wrapFailure(error: unknown, command: string): GitError {
  if (error instanceof GitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/ENOENT|spawn git/.test(message)) {
    return new GitError('git is not installed or not on PATH; install git', { cause: error });
  }
  return new GitError(`git ${command} failed: ${message.trim().replace(/^fatal:\s*/, '')}`, {
    cause: error,
  });
}
