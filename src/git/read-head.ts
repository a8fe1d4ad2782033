/**
 * HEAD's commit read from the files of a checkout's git directory, without starting git: every
 * `trace` asks for it (to say when the index is older than HEAD), and starting `git rev-parse`
 * took ~10 ms of a trace answered from the kept answers. Only the plain layouts are read: `.git`
 * as a directory or as a `gitdir:` file (a worktree, a submodule), HEAD naming a commit or a
 * branch, the branch as a loose ref or in packed-refs. Anything else (a root below the top of its
 * checkout, reftable, a HEAD that names nothing yet) is undefined, and the caller asks git.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export function readHeadFromFiles(root: string): string | undefined {
  try {
    const gitDir = gitDirOf(root);
    if (!gitDir) return undefined;
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
  } catch {
    return undefined;
  }
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
