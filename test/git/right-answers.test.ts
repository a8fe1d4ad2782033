/**
 * Issue 14, "Right answers from git": the symbols a pull request touched as they were at its
 * merge, the real title of a submit-queue merge, the version label from release tags on the main
 * line, and no permalink to a commit GitHub cannot have.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTree } from '../../src/index/discover.js';
import {
  commitChange,
  createHistoryRepo,
  head,
  mergePullRequest,
  setLine,
} from '../helpers/git-history.js';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const scratch = useTempDir('k8s-read-git-answers-');
const env = { XDG_CACHE_HOME: path.join(scratch, 'cache') };

interface PrJson {
  title: string | null;
  description: string | null;
  symbolsAt: string;
  symbols: { symbol: string; kind: string; file: string; line: number; endLine: number }[];
}

describe('pr <n> lists the symbols it touched as they were at its merge', () => {
  const FILE = 'pkg/cache/cache.go';
  const before = [
    'package cache',
    '',
    '// One is first.',
    'func One() {}',
    '',
    'func Two() {',
    '\tprintln("two")',
    '}',
    '',
  ].join('\n');
  const repo = createHistoryRepo({ 'go.mod': 'module example.com/m\n\ngo 1.22\n', [FILE]: before });
  const first = mergePullRequest(repo, {
    number: 1,
    title: 'Make Two louder',
    branch: 'louder',
    commits: [{ message: 'louder', change: () => setLine(repo, FILE, 7, '\tprintln("TWO")') }],
  });
  // A later PR puts Warmup where Two's body was: today's line 7 is Warmup's.
  mergePullRequest(repo, {
    number: 2,
    title: 'Add Warmup',
    branch: 'warmup',
    commits: [
      {
        message: 'warmup',
        change: () => setLine(repo, FILE, 5, '\nfunc Warmup() {\n\tprintln("warm")\n}\n'),
      },
    ],
  });
  const db = path.join(scratch, 'pr-symbols.sqlite');
  const pr = async (args: string[] = []) => {
    const r = await runCli(['pr', '1', '-o', 'json', '--repo', repo.root, '--db', db, ...args], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as PrJson;
  };

  it('names Two, at its lines in the merge commit, with or without an index of today', async () => {
    const expected = {
      symbolsAt: first.merge,
      symbols: [
        { symbol: 'example.com/m/pkg/cache.Two', kind: 'func', file: FILE, line: 6, endLine: 8 },
      ],
    };
    expect(await pr()).toMatchObject(expected);
    const index = await runCli(['index', '--repo', repo.root, '--db', db], { env });
    expect(index.code, index.stderr).toBe(0);
    const def = await runCli(['def', 'Warmup', '--repo', repo.root, '--db', db], { env });
    expect(def.stdout).toContain(`${FILE}:6`);
    expect(await pr()).toMatchObject(expected);
  });

  it('prints the commit the lines refer to', async () => {
    const r = await runCli(['pr', '1', '--repo', repo.root, '--db', db], { env });
    expect(r.stdout).toContain(
      `Symbols touched (1), lines as of ${first.merge.slice(0, 8)}:\n  example.com/m/pkg/cache.Two  ${FILE}:6\n`,
    );
  });
});

describe('pr <n> in a tree from before go.mod', () => {
  it('takes the package paths from Godeps.json, and staging/src/<path> as <path>', async () => {
    const STAGED = 'staging/src/k8s.io/client-go/tools/cache/store.go';
    const repo = createHistoryRepo({
      'Godeps/Godeps.json': '{\n  "ImportPath": "k8s.io/kubernetes",\n  "Deps": []\n}\n',
      'pkg/kubelet/kubelet.go': 'package kubelet\n\nfunc Run() {\n}\n',
      [STAGED]: 'package cache\n\nfunc Add() {\n}\n',
    });
    mergePullRequest(repo, {
      number: 7,
      title: 'Touch both',
      branch: 'both',
      commits: [
        {
          message: 'both',
          change: () => {
            setLine(repo, 'pkg/kubelet/kubelet.go', 4, '\tprintln()\n}');
            setLine(repo, STAGED, 4, '\tprintln()\n}');
          },
        },
      ],
    });
    const r = await runCli(['pr', '7', '-o', 'json', '--repo', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as PrJson).symbols.map((s) => s.symbol)).toEqual([
      'k8s.io/kubernetes/pkg/kubelet.Run',
      'k8s.io/client-go/tools/cache.Add',
    ]);
  });
});

describe('merges by the Kubernetes merge bots', () => {
  const repo = createHistoryRepo({ 'a.txt': 'a\n' });
  const queue = mergePullRequest(repo, {
    number: 60055,
    title:
      'Automatic merge from submit-queue (batch tested with PRs 60158, 60055). If you want to cherry-pick this change to another branch, please follow the instructions here.',
    trailer:
      'Fix typos in configmaplock\n\n**What this PR does / why we need it**:\nFixes some typos.',
    branch: 'typos',
    commits: [{ message: 'typos', files: { 'a.txt': 'b\n' } }],
  });
  const bot = mergePullRequest(repo, {
    number: 23067,
    title: 'Auto commit by PR queue bot',
    branch: 'enablement',
    commits: [{ message: 'fix group enablement', files: { 'b.txt': 'b\n' } }],
  });
  const json = async (args: string[]) => {
    const r = await runCli([...args, '-o', 'json', '--repo', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('show the PR title the submit-queue wrote after its own paragraph', async () => {
    const details = (await json(['pr', '60055'])) as PrJson;
    expect(details.title).toBe('Fix typos in configmaplock');
    expect(details.description).toBe('**What this PR does / why we need it**: Fixes some typos.');
    const blamed = await json(['blame', 'a.txt:1']);
    expect(blamed.pr).toMatchObject({ number: 60055, title: 'Fix typos in configmaplock' });
    expect(blamed.pr.mergeCommit).toBe(queue.merge);
  });

  it('show no title where the PR queue bot wrote none, rather than its own words', async () => {
    const details = (await json(['pr', '23067'])) as PrJson;
    expect(details.title).toBeNull();
    const blamed = await json(['blame', 'b.txt:1']);
    expect(blamed.pr).toMatchObject({ number: 23067, title: null, mergeCommit: bot.merge });
  });
});

describe('the version label', () => {
  it('comes from the release tags on the main line, not from any tag git describe finds', async () => {
    const repo = createHistoryRepo({ 'go.mod': 'module example.com/lib\n', 'a.go': 'package a\n' });
    repo.git('tag', 'v1.2.0');
    // A branch carries a newer tag, then merges: reachable from HEAD, but not on its main line.
    repo.git('checkout', '-q', '-b', 'side');
    commitChange(repo, { message: 'side work', files: { 'b.go': 'package a\n' } });
    repo.git('tag', 'v9.9.9');
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    // The publishing bot's marker, newest of all and on the main line: not a release of this module.
    commitChange(repo, { message: 'more', files: { 'c.go': 'package a\n' } });
    repo.git('tag', 'kubernetes-1.14.0-alpha.1');
    const at = head(repo).slice(0, 7);
    const tree = await discoverTree(repo.root);
    expect(tree.version).toMatch(new RegExp(`^v1\\.2\\.0-2-g${at}`));

    repo.git('tag', 'v1.3.0');
    expect((await discoverTree(repo.root)).version).toBe('v1.3.0');
  });

  it('is absent when the main line has no release tag (a published staging repository)', async () => {
    const repo = createHistoryRepo({
      'go.mod': 'module k8s.io/client-go\n',
      'a.go': 'package a\n',
    });
    repo.git('tag', 'kubernetes-1.14.0-alpha.1');
    commitChange(repo, { message: 'later', files: { 'b.go': 'package a\n' } });
    const db = path.join(scratch, 'label.sqlite');
    const r = await runCli(['index', '-o', 'json', '--repo', repo.root, '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).version).toBeNull();
  });
});

describe('permalinks', () => {
  it('are given for a commit on a remote branch, and not for one that is only local, said once', async () => {
    const repo = createHistoryRepo({
      'go.mod': 'module example.com/links\n',
      'a.go': 'package links\n\nfunc Linked() {}\n',
    });
    repo.git('remote', 'add', 'origin', 'https://github.com/example/links.git');
    // What a fetch leaves: a remote-tracking branch at the pushed commit.
    repo.git('update-ref', 'refs/remotes/origin/main', head(repo));
    const db = path.join(scratch, 'links.sqlite');
    const args = ['--repo', repo.root, '--db', db];
    const def = async () => {
      const r = await runCli(['def', 'Linked', '-o', 'json', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { url: string | null }[])[0]?.url;
    };
    const pushed = await runCli(['index', ...args], { env });
    expect(pushed.stderr).toBe('');
    expect(await def()).toBe(`https://github.com/example/links/blob/${head(repo)}/a.go#L3`);

    const local = commitChange(repo, {
      message: 'not pushed',
      files: { 'b.go': 'package links\n' },
    });
    const unpushed = await runCli(['index', ...args], { env });
    expect(unpushed.code, unpushed.stderr).toBe(0);
    expect(unpushed.stderr).toBe(
      `note: ${local.slice(0, 12)} is on no branch or tag of the origin remote, so answers carry no GitHub permalinks; push it and index again to get them\n`,
    );
    expect(await def()).toBeNull();
  });
});
