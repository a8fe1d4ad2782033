/**
 * HEAD read from the git directory's files is the commit `git rev-parse HEAD` names, in every
 * layout it reads; in the others it says nothing, and the caller asks git.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHeadFromFiles } from '../../src/git/read-head.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const repo = createTempRepo('k8s-read-head-');
const worktree = `${repo.root}-worktree`;
afterAll(() => {
  rmSync(repo.root, { recursive: true, force: true });
  rmSync(worktree, { recursive: true, force: true });
});
const revParse = (root: string) => repo.git('-C', root, 'rev-parse', 'HEAD').trim();

describe('HEAD read from the git directory', () => {
  it('is the commit of the branch HEAD names, loose or packed', () => {
    repo.write('a.txt', 'one\n');
    const first = repo.commit('one');
    expect(readHeadFromFiles(repo.root)).toBe(first);
    repo.git('pack-refs', '--all');
    expect(readHeadFromFiles(repo.root)).toBe(first);
    // A newer loose ref wins over the packed one, as in git.
    repo.write('a.txt', 'two\n');
    const second = repo.commit('two');
    expect(readHeadFromFiles(repo.root)).toBe(second);
    expect(second).toBe(revParse(repo.root));
  });

  it('is the commit a detached HEAD names', () => {
    const sha = revParse(repo.root);
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    expect(readHeadFromFiles(repo.root)).toBe(revParse(repo.root));
    expect(readHeadFromFiles(repo.root)).not.toBe(sha);
    repo.git('checkout', '-q', 'main');
  });

  it("is a worktree's own HEAD, through its .git file", () => {
    repo.git('worktree', 'add', '-q', '-b', 'side', worktree, 'HEAD~1');
    expect(readHeadFromFiles(worktree)).toBe(revParse(worktree));
    expect(readHeadFromFiles(worktree)).not.toBe(revParse(repo.root));
  });

  it('says nothing where it cannot tell: no .git, a branch with no commit yet', () => {
    const sub = path.join(repo.root, 'sub');
    mkdirSync(sub, { recursive: true });
    expect(readHeadFromFiles(sub)).toBeUndefined();
    const unborn = createTempRepo('k8s-read-head-unborn-');
    try {
      writeFileSync(path.join(unborn.root, 'x'), '');
      expect(readHeadFromFiles(unborn.root)).toBeUndefined();
    } finally {
      rmSync(unborn.root, { recursive: true, force: true });
    }
  });
});
