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
