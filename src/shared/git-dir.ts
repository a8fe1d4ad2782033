/**
 * Where a checkout's git files are, read from the files themselves without starting git: the
 * plain layouts only (`.git` as a directory, or a `gitdir:` file for a worktree or a submodule;
 * a `commondir` file for a worktree's shared part). Callers fall back to asking git where these
 * answer undefined. Shared by the blame side (src/git/read-head.ts) and the index's discovery
 * stamp (src/index/discovery-stamp.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The git directory of a checkout whose top level is `root`, or undefined. */
export function gitDirOf(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return dotGit;
  const target = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return target ? path.resolve(root, target) : undefined;
}

/**
 * The top level and git directory of the checkout `root` is in, found as git finds them: the
 * nearest directory at or above `root` that has a `.git`, not crossing into another file system.
 * Undefined where git could answer otherwise: a `.git` that is no git directory (git would look
 * further up), or none found. Without `env`, or with a variable in it that moves where git stops
 * looking, only `root` itself is looked at.
 */
export function locateCheckout(
  root: string,
  env?: NodeJS.ProcessEnv,
): { top: string; gitDir: string } | undefined {
  const upward = env !== undefined && STOP_VARIABLES.every((name) => env[name] === undefined);
  const device = statSync(root).dev;
  for (let dir = root; ;) {
    if (statSync(path.join(dir, '.git'), { throwIfNoEntry: false })) {
      const gitDir = gitDirOf(dir);
      return gitDir && isGitDirectory(gitDir) ? { top: dir, gitDir } : undefined;
    }
    const parent = path.dirname(dir);
    if (!upward || parent === dir || statSync(parent).dev !== device) return undefined;
    dir = parent;
  }
}

/** Variables that change where git stops looking for a `.git` above the directory it runs in. */
const STOP_VARIABLES = ['GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

/** What git requires of a git directory: a HEAD, and objects (in the common directory). */
function isGitDirectory(gitDir: string): boolean {
  return Boolean(
    statSync(path.join(gitDir, 'HEAD'), { throwIfNoEntry: false })?.isFile() &&
    statSync(path.join(commonDirOf(gitDir), 'objects'), { throwIfNoEntry: false })?.isDirectory(),
  );
}

/** The directory a worktree shares with its main checkout (refs, config); `gitDir` itself else. */
export function commonDirOf(gitDir: string): string {
  const common = readIfFile(path.join(gitDir, 'commondir'))?.trim();
  return common ? path.resolve(gitDir, common) : gitDir;
}

/**
 * Variables that point git somewhere other than the `.git` of the directory it runs in, or give it
 * configuration of their own.
 */
export const GIT_LOCATION_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_PARAMETERS',
];

/**
 * The other config files git reads besides the repository's own: the worktree's, the user's
 * (`GIT_CONFIG_GLOBAL`, or the XDG one and `~/.gitconfig`) and the system's (`GIT_CONFIG_SYSTEM`,
 * or where Debian's and a source build's git keep it), unless `GIT_CONFIG_NOSYSTEM` says not to.
 */
export function otherConfigs(gitDir: string, env: NodeJS.ProcessEnv): string[] {
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

/** A regular file's text, or undefined when there is none. */
export function readIfFile(file: string): string | undefined {
  return statSync(file, { throwIfNoEntry: false })?.isFile()
    ? readFileSync(file, 'utf8')
    : undefined;
}
