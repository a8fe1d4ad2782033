/**
 * HEAD's commit read from the files of a checkout's git directory, without starting git: every
 * `trace` asks for it (to say when the index is older than HEAD), and starting `git rev-parse`
 * took ~10 ms of a trace answered from the kept answers. Only the plain layouts are read: `.git`
 * as a directory or as a `gitdir:` file (a worktree, a submodule), HEAD naming a commit or a
 * branch, the branch as a loose ref or in packed-refs. A root below the top of its checkout is
 * read from the top's git directory when the caller gives the environment (locateCheckout).
 * Anything else (reftable, a HEAD that names nothing yet, GIT_DIR and the like set) is undefined,
 * and the caller asks git.
 *
 * `blame` asks the same files for what it used to start two gits for (`rev-parse` and `remote
 * get-url origin`, ~35 ms of a ~310 ms answer given from its cache): readRepoFromFiles.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  locateCheckout,
  commonDirOf,
  GIT_LOCATION_VARIABLES,
  otherConfigs,
  readIfFile,
} from '../shared/git-dir.js';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * HEAD's commit, or undefined. With `env` (the environment git would run in), a root below the top
 * of its checkout is read too.
 */
export function readHeadFromFiles(root: string, env?: NodeJS.ProcessEnv): string | undefined {
  if (env && GIT_LOCATION_VARIABLES.some((name) => env[name] !== undefined)) return undefined;
  try {
    const gitDir = locateCheckout(root, env)?.gitDir;
    return gitDir ? headOf(gitDir) : undefined;
  } catch {
    return undefined;
  }
}

/** What GitRepository.open asks git at a checkout's top level, read from its git directory. */
export interface RepoFromFiles {
  head: string;
  /** The work tree's top level: the root, or the ancestor of it with the `.git`. */
  toplevel: string;
  /** The file a shallow clone lists its cut-off commits in (`git rev-parse --git-path shallow`). */
  shallowFile: string;
  /**
   * The URL `git remote get-url origin` gives, when the files can tell: the repository's config
   * names it plainly and no config git reads could rewrite it. Undefined: git must be asked.
   */
  originUrl: string | undefined;
}

/**
 * The facts of the checkout `root` is in (at its top or below it), or undefined (a layout
 * readHeadFromFiles does not read, GIT_DIR and the like in the environment): then the caller asks
 * git.
 */
export function readRepoFromFiles(root: string, env: NodeJS.ProcessEnv): RepoFromFiles | undefined {
  if (GIT_LOCATION_VARIABLES.some((name) => env[name] !== undefined)) return undefined;
  try {
    const checkout = locateCheckout(root, env);
    const head = checkout && headOf(checkout.gitDir);
    if (!checkout || !head) return undefined;
    const { gitDir } = checkout;
    const common = commonDirOf(gitDir);
    const config = readIfFile(path.join(common, 'config')) ?? '';
    const rewritten = [config, ...otherConfigs(gitDir, env).map((f) => readIfFile(f) ?? '')].some(
      (text) => REWRITES.test(text),
    );
    return {
      head,
      toplevel: checkout.top,
      shallowFile: path.join(common, 'shallow'),
      originUrl: rewritten ? undefined : originUrlOf(config),
    };
  } catch {
    return undefined;
  }
}

/** What could make git's answer differ from a config's text: a URL rewrite, an included file. */
const REWRITES = /insteadof|^\s*\[\s*include/im;

/**
 * The first `url` of `[remote "origin"]` in a repository's config. Undefined where a plain reading
 * could differ from git's: an include (the remote may be there), a value quoted, escaped or
 * followed by a comment.
 */
export function originUrlOf(config: string): string | undefined {
  let inOrigin = false;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      if (/^\[\s*include(If)?\b/i.test(line)) return undefined;
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/i.test(line);
      continue;
    }
    if (!inOrigin) continue;
    const match = /^url\s*=\s*(.*)$/i.exec(line);
    if (!match) continue;
    const value = match[1]!;
    return /["\\;#]/.test(value) || value === '' ? undefined : value;
  }
  return undefined;
}

function headOf(gitDir: string): string | undefined {
  const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (!ref) return undefined;
  // A worktree keeps HEAD in its own directory and the branches in the common one.
  const common = commonDirOf(gitDir);
  for (const dir of [gitDir, common]) {
    const loose = readIfFile(path.join(dir, ref))?.trim();
    if (loose !== undefined) return COMMIT.test(loose) ? loose : undefined;
  }
  const packed = readIfFile(path.join(common, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && sha && COMMIT.test(sha)) return sha;
  }
  return undefined;
}
