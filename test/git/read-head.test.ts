/**
 * HEAD read from the git directory's files is the commit `git rev-parse HEAD` names, in every
 * layout it reads; in the others it says nothing, and the caller asks git. The same for what
 * blame asks (the shallow file, origin's URL) and for GitRepository.open, which reads them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { originUrlOf, readHeadFromFiles, readRepoFromFiles } from '../../src/git/read-head.js';
import { GitRepository } from '../../src/git/repository.js';
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

  it('is read below the top given the environment, as git finds the checkout', () => {
    const sub = path.join(repo.root, 'sub', 'deeper');
    mkdirSync(sub, { recursive: true });
    mkdirSync(path.join(worktree, 'sub'), { recursive: true });
    expect(readHeadFromFiles(sub, {})).toBe(revParse(sub));
    expect(readHeadFromFiles(path.join(worktree, 'sub'), {})).toBe(revParse(worktree));
    // Where git would stop looking, or look elsewhere, git is asked.
    expect(readHeadFromFiles(sub, { GIT_CEILING_DIRECTORIES: repo.root })).toBeUndefined();
    expect(readHeadFromFiles(sub, { GIT_DIR: path.join(repo.root, '.git') })).toBeUndefined();
    // A `.git` that is no git directory: git would look further up; so is git asked.
    const bogus = path.join(repo.root, 'sub');
    writeFileSync(path.join(bogus, '.git'), 'not a gitdir line\n');
    try {
      expect(readHeadFromFiles(sub, {})).toBeUndefined();
    } finally {
      rmSync(path.join(bogus, '.git'));
    }
  });

  it('says nothing where it cannot tell: no .git, a branch with no commit yet', () => {
    const sub = path.join(repo.root, 'sub');
    mkdirSync(sub, { recursive: true });
    expect(readHeadFromFiles(sub)).toBeUndefined();
    expect(readHeadFromFiles(os.tmpdir(), {})).toBeUndefined();
    const unborn = createTempRepo('k8s-read-head-unborn-');
    try {
      writeFileSync(path.join(unborn.root, 'x'), '');
      expect(readHeadFromFiles(unborn.root)).toBeUndefined();
    } finally {
      rmSync(unborn.root, { recursive: true, force: true });
    }
  });
});

describe("a repository's facts read from its git directory", () => {
  // No config but the repository's: the machine's own ~/.gitconfig stays out of it.
  const home = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-home-'));
  const quiet = { HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const gitPath = (root: string, name: string) =>
    path.resolve(root, repo.git('-C', root, 'rev-parse', '--git-path', name).trim());

  it('are what git says: HEAD, the top, the shallow file, the origin URL, in a clone and a worktree, at the top and below', () => {
    repo.git('remote', 'add', 'origin', 'https://github.com/kubernetes/client-go.git');
    mkdirSync(path.join(repo.root, 'sub'), { recursive: true });
    mkdirSync(path.join(worktree, 'sub'), { recursive: true });
    for (const root of [
      repo.root,
      worktree,
      path.join(repo.root, 'sub'),
      path.join(worktree, 'sub'),
    ]) {
      const files = readRepoFromFiles(root, quiet);
      expect(files?.head).toBe(revParse(root));
      expect(files?.toplevel).toBe(repo.git('-C', root, 'rev-parse', '--show-toplevel').trim());
      expect(files?.shallowFile).toBe(gitPath(root, 'shallow'));
      expect(files?.originUrl).toBe(repo.git('-C', root, 'remote', 'get-url', 'origin').trim());
    }
  });

  it('leave git to answer where a plain reading could differ', () => {
    expect(readRepoFromFiles(repo.root, { GIT_DIR: path.join(repo.root, '.git') })).toBeUndefined();
    expect(readRepoFromFiles(os.tmpdir(), quiet)).toBeUndefined();
    // A rewrite in the user's config, or an include there, leaves the URL to git.
    for (const text of [
      '[url "https://github.com/"]\n\tinsteadOf = gh:\n',
      '[include]\n\tpath = x\n',
    ]) {
      writeFileSync(path.join(home, '.gitconfig'), text);
      expect(readRepoFromFiles(repo.root, quiet)?.originUrl).toBeUndefined();
      expect(readRepoFromFiles(repo.root, quiet)?.head).toBe(revParse(repo.root));
    }
    rmSync(path.join(home, '.gitconfig'));
    expect(originUrlOf('[remote "origin"]\n\turl = git@github.com:a/b.git\n')).toBe(
      'git@github.com:a/b.git',
    );
    expect(originUrlOf('[remote "upstream"]\n\turl = https://github.com/a/b\n')).toBeUndefined();
    expect(originUrlOf('[include]\n\tpath = more\n[remote "origin"]\n\turl = x\n')).toBeUndefined();
    expect(originUrlOf('[remote "origin"]\n\turl = "https://github.com/a/b"\n')).toBeUndefined();
    expect(originUrlOf('[remote "origin"]\n\tpushurl = p\n\turl = u ; note\n')).toBeUndefined();
  });

  it('open a repository as git describes it, shallow clones included', async () => {
    const shallow = `${repo.root}-shallow`;
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.root}`, shallow]);
      const opened = await GitRepository.open(shallow, process.env);
      expect(opened.shallow).toBe(true);
      expect([...opened.shallowCommits]).toEqual([revParse(shallow)]);
      expect(await opened.head()).toBe(revParse(shallow));
      // origin is the local path here, not GitHub: git is asked, and says so.
      expect(await opened.githubRemote()).toBeNull();
      execFileSync('git', [
        '-C',
        shallow,
        'remote',
        'set-url',
        'origin',
        'git@github.com:kubernetes/kubernetes.git',
      ]);
      expect(await (await GitRepository.open(shallow, process.env)).githubRemote()).toBe(
        'kubernetes/kubernetes',
      );
      // A URL git rewrites (`gh:` for GitHub) is git's to give.
      const global = path.join(home, 'rewrites');
      writeFileSync(global, '[url "https://github.com/"]\n\tinsteadOf = gh:\n');
      execFileSync('git', ['-C', shallow, 'remote', 'set-url', 'origin', 'gh:kubernetes/kubectl']);
      process.env.GIT_CONFIG_GLOBAL = global;
      try {
        expect(await (await GitRepository.open(shallow, process.env)).githubRemote()).toBe(
          'kubernetes/kubectl',
        );
      } finally {
        delete process.env.GIT_CONFIG_GLOBAL;
      }
      const full = await GitRepository.open(repo.root, process.env);
      expect(full.shallow).toBe(false);
      expect(await full.githubRemote()).toBe('kubernetes/client-go');
    } finally {
      rmSync(shallow, { recursive: true, force: true });
    }
  });
});
