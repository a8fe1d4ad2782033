/**
 * HEAD's commit read from the files of a checkout's git directory, without starting git: every
 * `trace` asks for it (to say when the index is older than HEAD), and starting `git rev-parse`
 * took ~10 ms of a trace answered from the kept answers. Only the plain layouts are read: `.git`
 * as a directory or as a `gitdir:` file (a worktree, a submodule), HEAD naming a commit or a
 * branch, the branch as a loose ref or in packed-refs. Anything else (a root below the top of its
 * checkout, reftable, a HEAD that names nothing yet) is undefined, and the caller asks git.
 *
 * `blame` asks the same files for what it used to start two gits for (`rev-parse` and `remote
 * get-url origin`, ~35 ms of a ~310 ms answer given from its cache): readRepoFromFiles.
 */
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export function readHeadFromFiles(root: string): string | undefined {
  try {
    const gitDir = gitDirOf(root);
    return gitDir ? headOf(gitDir) : undefined;
  } catch {
    return undefined;
  }
}

/** What GitRepository.open asks git at a checkout's top level, read from its git directory. */
export interface RepoFromFiles {
  head: string;
  /** The file a shallow clone lists its cut-off commits in (`git rev-parse --git-path shallow`). */
  shallowFile: string;
  /**
   * The URL `git remote get-url origin` gives, when the files can tell: the repository's config
   * names it plainly and no config git reads could rewrite it. Undefined: git must be asked.
   */
  originUrl: string | undefined;
}

/**
 * The facts of a checkout whose root is its top level, or undefined (a root below the top, a
 * layout readHeadFromFiles does not read, GIT_DIR and the like in the environment): then the
 * caller asks git.
 */
export function readRepoFromFiles(root: string, env: NodeJS.ProcessEnv): RepoFromFiles | undefined {
  if (GIT_LOCATION_VARIABLES.some((name) => env[name] !== undefined)) return undefined;
  try {
    const gitDir = gitDirOf(root);
    const head = gitDir ? headOf(gitDir) : undefined;
    if (!gitDir || !head) return undefined;
    const common = commonDirOf(gitDir);
    const config = readIfFile(path.join(common, 'config')) ?? '';
    const rewritten = [config, ...otherConfigs(gitDir, env).map((f) => readIfFile(f) ?? '')].some(
      (text) => REWRITES.test(text),
    );
    return {
      head,
      shallowFile: path.join(common, 'shallow'),
      originUrl: rewritten ? undefined : originUrlOf(config),
    };
  } catch {
    return undefined;
  }
}

/**
 * Variables that point git somewhere other than the `.git` of the directory it runs in, or give it
 * configuration of their own.
 */
const GIT_LOCATION_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_PARAMETERS',
];

/** What could make git's answer differ from a config's text: a URL rewrite, an included file. */
const REWRITES = /insteadof|^\s*\[\s*include/im;

/**
 * The other config files git reads besides the repository's own: the worktree's, the user's
 * (`GIT_CONFIG_GLOBAL`, or the XDG one and `~/.gitconfig`) and the system's (`GIT_CONFIG_SYSTEM`,
 * or where Debian's and a source build's git keep it), unless `GIT_CONFIG_NOSYSTEM` says not to.
 */
function otherConfigs(gitDir: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? os.homedir();
  const global = env.GIT_CONFIG_GLOBAL
    ? [env.GIT_CONFIG_GLOBAL]
    : [
        path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'),
        path.join(home, '.gitconfig'),
      ];
  const system = env.GIT_CONFIG_NOSYSTEM
    ? []
    : env.GIT_CONFIG_SYSTEM
      ? [env.GIT_CONFIG_SYSTEM]
      : ['/etc/gitconfig', '/usr/local/etc/gitconfig'];
  return [path.join(gitDir, 'config.worktree'), ...global, ...system];
}

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

function gitDirOf(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return dotGit;
  const target = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return target ? path.resolve(root, target) : undefined;
}

function commonDirOf(gitDir: string): string {
  const common = readIfFile(path.join(gitDir, 'commondir'))?.trim();
  return common ? path.resolve(gitDir, common) : gitDir;
}

function readIfFile(file: string): string | undefined {
  return statSync(file, { throwIfNoEntry: false })?.isFile()
    ? readFileSync(file, 'utf8')
    : undefined;
}
