import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { blameFile } from '../../src/git/blame.js';
import { GitRepository } from '../../src/git/repository.js';
import type { BlamedLine } from '../../src/git/types.js';
import { Store } from '../../src/store/db.js';
import { openGitCache } from '../../src/store/git-cache.js';
import {
  commitChange,
  createHistoryRepo,
  mergePullRequest,
  numberedLines,
  setLine,
  shallowClone,
  squashMerge,
} from '../helpers/git-history.js';

const FILE = 'pkg/informer.go';
const short = (sha: string) => sha.slice(0, 8);
const line = (lines: readonly BlamedLine[], n: number) =>
  lines.find((l) => l.line === n) as BlamedLine;

/**
 * One history with every way a line reaches the main line:
 *   1 cherry-pick PR #78      2 PR #12 (merged after main moved on)   3 squash #34
 *   4 direct commit           5, 6 PR #56, whose branch merged a sub-branch
 *   7 PR #90 with a Kubernetes-commit trailer                           8, 9 a merge naming no PR
 *   10 the initial commit
 */
const repo = createHistoryRepo({ [FILE]: numberedLines(10) });
repo.git('remote', 'add', 'origin', 'git@github.com:kubernetes/demo.git');
const edit = (n: number, text: string) => () => setLine(repo, FILE, n, text);

repo.git('checkout', '-q', '-b', 'watch-cache');
const watchCache = commitChange(repo, {
  message: 'Add the watch cache',
  change: edit(2, 'watch cache'),
});
repo.git('checkout', '-q', 'main');
const direct = commitChange(repo, { message: 'Fix a typo', change: edit(4, 'typo fixed') });
repo.git(
  'merge',
  '-q',
  '--no-ff',
  '-m',
  'Merge pull request #12 from ada/watch-cache',
  '-m',
  'Add the watch cache',
  'watch-cache',
);
const merge12 = repo.git('rev-parse', 'HEAD').trim();

const squash34 = squashMerge(repo, 34, 'Speed up the lister', { change: edit(3, 'faster lister') });

repo.git('checkout', '-q', '-b', 'topic');
const topic = commitChange(repo, { message: 'Start the topic', change: edit(5, 'topic') });
repo.git('checkout', '-q', '-b', 'sub');
const sub = commitChange(repo, { message: 'Sub-branch work', change: edit(6, 'sub') });
repo.git('checkout', '-q', 'topic');
repo.git('merge', '-q', '--no-ff', '-m', "Merge branch 'sub' into topic", 'sub');
repo.git('checkout', '-q', 'main');
repo.git(
  'merge',
  '-q',
  '--no-ff',
  '-m',
  'Merge pull request #56 from grace/topic',
  '-m',
  'Topic work',
  'topic',
);
const merge56 = repo.git('rev-parse', 'HEAD').trim();

const UPSTREAM = 'c0ffee'.padEnd(40, '1');
const staged = mergePullRequest(repo, {
  number: 90,
  title: 'Promote the feature to beta',
  branch: 'beta',
  commits: [
    { message: `Promote to beta\n\nKubernetes-commit: ${UPSTREAM}`, change: edit(7, 'beta') },
  ],
  trailer: `Kubernetes-commit: ${'d'.repeat(40)}`,
});

repo.git('checkout', '-q', '-b', 'dev');
const tidy = commitChange(repo, { message: 'Tidy the queue (#99)', change: edit(8, 'tidy') });
const tweak = commitChange(repo, { message: 'Local tweak', change: edit(9, 'tweak') });
repo.git('checkout', '-q', 'main');
repo.git('merge', '-q', '--no-ff', '-m', "Merge branch 'dev'", 'dev');
const devMerge = repo.git('rev-parse', 'HEAD').trim();

const pick = mergePullRequest(repo, {
  number: 78,
  title: 'Automated cherry pick of #70: Fix the lister',
  branch: 'automated-cherry-pick-of-#70',
  commits: [{ message: 'Fix the lister', change: edit(1, 'picked') }],
});

describe('blameFile', () => {
  let lines: BlamedLine[];
  const open = async () => GitRepository.open(repo.root);

  it('blames every line of the file', async () => {
    lines = await blameFile(await open(), { file: FILE });
    expect(lines.map((l) => l.content)).toEqual([
      'picked',
      'watch cache',
      'faster lister',
      'typo fixed',
      'topic',
      'sub',
      'beta',
      'tidy',
      'tweak',
      'line 10',
    ]);
  });

  it("names the PR of a branch commit from the merge that brought it in, title from the merge's body", () => {
    expect(line(lines, 2)).toMatchObject({
      commit: watchCache,
      author: 'Ada Reader',
      summary: 'Add the watch cache',
      pr: {
        number: 12,
        title: 'Add the watch cache',
        url: 'https://github.com/kubernetes/demo/pull/12',
        mergeCommit: merge12,
      },
      reason: `merged by ${short(merge12)} "Merge pull request #12 from ada/watch-cache"`,
    });
  });

  it('reads a squash merge from a (#N) subject on the main line', () => {
    expect(line(lines, 3)).toMatchObject({
      commit: squash34,
      pr: {
        number: 34,
        title: 'Speed up the lister',
        url: 'https://github.com/kubernetes/demo/pull/34',
        mergeCommit: squash34,
      },
      reason: `squash merge: the subject of ${short(squash34)} ends with (#34)`,
    });
  });

  it('says a direct commit on the main line names no PR', () => {
    expect(line(lines, 4)).toMatchObject({
      commit: direct,
      pr: null,
      reason: 'direct commit on the main line with no pull request reference',
    });
    expect(line(lines, 10)).toMatchObject({
      commit: repo.first,
      pr: null,
      summary: 'Initial commit',
    });
  });

  it('gives commits of a sub-branch the PR of the main-line merge, not the inner merge', () => {
    for (const [n, commit] of [
      [5, topic],
      [6, sub],
    ] as const) {
      expect(line(lines, n)).toMatchObject({
        commit,
        pr: { number: 56, title: 'Topic work', mergeCommit: merge56 },
        reason: `merged by ${short(merge56)} "Merge pull request #56 from grace/topic"`,
      });
    }
  });

  it('reports the upstream commit of a published staging commit and links the PR in kubernetes/kubernetes', () => {
    expect(line(lines, 7)).toEqual({
      file: FILE,
      line: 7,
      commit: staged.commits[0],
      author: 'Ada Reader',
      authorTime: expect.stringMatching(/^2022-01-\d\dT\d\d:00:00\+00:00$/),
      summary: 'Promote to beta',
      pr: {
        number: 90,
        title: 'Promote the feature to beta',
        url: 'https://github.com/kubernetes/kubernetes/pull/90',
        mergeCommit: staged.merge,
      },
      reason: `merged by ${short(staged.merge)} "Merge pull request #90 from ada/beta"; published from kubernetes/kubernetes commit ${short(UPSTREAM)} (Kubernetes-commit trailer)`,
      content: 'beta',
      upstream: {
        repo: 'kubernetes/kubernetes',
        commit: UPSTREAM,
        url: `https://github.com/kubernetes/kubernetes/commit/${UPSTREAM}`,
      },
    });
  });

  it("falls back to a commit's own (#N) when the merge that brought it in names no PR", () => {
    expect(line(lines, 8)).toMatchObject({
      commit: tidy,
      pr: { number: 99, title: 'Tidy the queue', mergeCommit: tidy },
      reason: `the subject of ${short(tidy)} ends with (#99); ${short(devMerge)} "Merge branch 'dev'" brought it into the main line`,
    });
    expect(line(lines, 9)).toMatchObject({
      commit: tweak,
      pr: null,
      reason: `brought in by merge ${short(devMerge)} "Merge branch 'dev'", which names no pull request`,
    });
  });

  it('names the original PR of an automated cherry pick as well', () => {
    expect(line(lines, 1)).toMatchObject({
      commit: pick.commits[0],
      pr: {
        number: 78,
        title: 'Automated cherry pick of #70: Fix the lister',
        mergeCommit: pick.merge,
      },
      cherryPickOf: [{ number: 70, url: 'https://github.com/kubernetes/demo/pull/70' }],
      reason: `merged by ${short(pick.merge)} "Merge pull request #78 from ada/automated-cherry-pick-of-#70"; a cherry pick of #70`,
    });
  });

  it('starts reading the main line before it asks git anything about the file, once', async () => {
    const repository = await open();
    const mainline = vi.spyOn(repository, 'mainline');
    const tryRun = vi.spyOn(repository, 'tryRun');
    const again = await blameFile(repository, { file: FILE });
    expect(again).toEqual(lines);
    const revParse = tryRun.mock.calls.findIndex(([args]) => args[0] === 'rev-parse');
    expect(mainline).toHaveBeenCalledTimes(1);
    // The commit graph is read beside `git blame`, not after it.
    expect(mainline.mock.invocationCallOrder[0]).toBeLessThan(
      tryRun.mock.invocationCallOrder[revParse]!,
    );
  });

  it('blames only the asked range, and points links where --github says', async () => {
    const range = await blameFile(
      await open(),
      { file: FILE, start: 2, end: 3 },
      {},
      { github: 'ada/fork' },
    );
    expect(range.map((l) => [l.line, l.pr?.url])).toEqual([
      [2, 'https://github.com/ada/fork/pull/12'],
      [3, 'https://github.com/ada/fork/pull/34'],
    ]);
  });
});

describe('blameFile in a published staging repository', () => {
  const upstream = (n: number) => String(n).repeat(40);
  const dir = createHistoryRepo(
    { 'types.go': numberedLines(3) },
    `Initial sync\n\nKubernetes-commit: ${upstream(1)}`,
  );
  dir.git('remote', 'add', 'origin', 'https://github.com/kubernetes/client-go.git');
  const codegen = commitChange(dir, {
    message: `Run codegen\n\nKubernetes-commit: ${upstream(2)}`,
    change: () => setLine(dir, 'types.go', 2, 'generated'),
  });
  // The publishing bot's flattened merge: one parent, the merge's message, no change of its own.
  const flat = commitChange(dir, {
    message: `Merge pull request #140029 from gauravkghildiyal/derived\n\nDerive attributes\n\nKubernetes-commit: ${upstream(3)}`,
  });
  const direct = commitChange(dir, {
    message: `Direct sync fix\n\nKubernetes-commit: ${upstream(4)}`,
    change: () => setLine(dir, 'types.go', 3, 'fixed'),
  });
  const stores: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => Promise.all(stores.map((s) => s.close())));

  it.each([
    ['from the graph in memory', false],
    ['from the main line stored in the cache', true],
  ])('names the PR of a flattened merge above a main-line commit (%s)', async (_how, cached) => {
    const cache = cached ? await openGitCache(':memory:') : undefined;
    if (cache) stores.push(cache);
    if (cache)
      await blameFile(
        await GitRepository.open(dir.root),
        { file: 'types.go', start: 1, end: 1 },
        {},
        { cache },
      );
    const lines = await blameFile(
      await GitRepository.open(dir.root),
      { file: 'types.go' },
      {},
      { cache },
    );
    expect(line(lines, 2)).toMatchObject({
      commit: codegen,
      pr: {
        number: 140029,
        title: 'Derive attributes',
        url: 'https://github.com/kubernetes/kubernetes/pull/140029',
        mergeCommit: flat,
      },
      reason: `published staging repository: ${short(flat)} "Merge pull request #140029 from gauravkghildiyal/derived" above it on the main line is the publishing bot's flattened merge; published from kubernetes/kubernetes commit ${short(upstream(2))} (Kubernetes-commit trailer)`,
      upstream: {
        repo: 'kubernetes/kubernetes',
        commit: upstream(2),
        url: `https://github.com/kubernetes/kubernetes/commit/${upstream(2)}`,
      },
    });
    expect(line(lines, 3)).toMatchObject({
      commit: direct,
      pr: null,
      reason: `direct commit on the main line with no pull request reference; published from kubernetes/kubernetes commit ${short(upstream(4))} (Kubernetes-commit trailer)`,
    });
  });
  it('does not keep the answer for a commit at HEAD whose flattened merge has not arrived yet', async () => {
    const early = createHistoryRepo(
      { 'types.go': numberedLines(2) },
      `Initial sync\n\nKubernetes-commit: ${upstream(5)}`,
    );
    const change = commitChange(early, {
      message: `Add a field\n\nKubernetes-commit: ${upstream(6)}`,
      change: () => setLine(early, 'types.go', 2, 'field'),
    });
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    const before = await blameFile(
      await GitRepository.open(early.root),
      { file: 'types.go', start: 2, end: 2 },
      {},
      { cache },
    );
    const merge = commitChange(early, {
      message: `Merge pull request #7 from ada/field\n\nAdd a field\n\nKubernetes-commit: ${upstream(7)}`,
    });
    const after = await blameFile(
      await GitRepository.open(early.root),
      { file: 'types.go', start: 2, end: 2 },
      {},
      { cache },
    );
    expect(before[0]).toMatchObject({ commit: change, pr: null });
    expect(after[0]).toMatchObject({
      commit: change,
      pr: { number: 7, title: 'Add a field', mergeCommit: merge },
    });
  });
});

describe('blameFile with a cache', () => {
  const dir = createHistoryRepo({ 'a.go': numberedLines(3) });
  const merged = mergePullRequest(dir, {
    number: 7,
    title: 'Change line two',
    branch: 'two',
    commits: [{ message: 'Change line two', change: () => setLine(dir, 'a.go', 2, 'two') }],
  });
  const stores: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => Promise.all(stores.map((s) => s.close())));

  it('answers a second blame of the unchanged file from the cache, without running git blame or reading the graph', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    const first = await blameFile(
      await GitRepository.open(dir.root),
      { file: 'a.go' },
      {},
      { cache },
    );
    const again = await GitRepository.open(dir.root);
    const run = vi.spyOn(again, 'run');
    const second = await blameFile(again, { file: 'a.go' }, {}, { cache });
    expect(second).toEqual(first);
    expect(line(second, 2).pr?.mergeCommit).toBe(merged.merge);
    const commands = run.mock.calls.map(([args]) => args[0]);
    expect(commands).not.toContain('blame');
    expect(commands).not.toContain('rev-list');
  });

  it('serves a line range from the cached whole-file blame', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    await blameFile(await GitRepository.open(dir.root), { file: 'a.go' }, {}, { cache });
    const again = await GitRepository.open(dir.root);
    const run = vi.spyOn(again, 'run');
    const range = await blameFile(again, { file: 'a.go', start: 2, end: 2 }, {}, { cache });
    expect(range.map((l) => [l.line, l.commit])).toEqual([[2, merged.commits[0]]]);
    expect(run.mock.calls.map(([args]) => args[0])).not.toContain('blame');
  });

  it('never serves the cached blame for a file with local edits: the edited line is not committed yet', async () => {
    const cache = await openGitCache(':memory:');
    stores.push(cache);
    await blameFile(await GitRepository.open(dir.root), { file: 'a.go' }, {}, { cache });
    writeFileSync(path.join(dir.root, 'a.go'), 'line 1\nedited\nline 3\n');
    try {
      const lines = await blameFile(
        await GitRepository.open(dir.root),
        { file: 'a.go' },
        {},
        { cache },
      );
      expect(line(lines, 2)).toEqual({
        file: 'a.go',
        line: 2,
        commit: null,
        author: null,
        authorTime: null,
        summary: null,
        pr: null,
        reason: 'not committed yet: a local edit in the work tree',
        content: 'edited',
      });
      expect(line(lines, 1).commit).toBe(dir.first);
    } finally {
      dir.git('checkout', '--', 'a.go');
    }
  });
});

describe('blameFile while another process writes the database', () => {
  it('answers without waiting out the lock: the cache is skipped, the answer is the same', async () => {
    const dir = createHistoryRepo({ 'a.go': numberedLines(2) });
    const dbPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'k8s-read-busy-')), 'index.sqlite');
    const cache = await openGitCache(dbPath);
    const indexRun = await Store.open(dbPath);
    await indexRun.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const lines = await blameFile(
        await GitRepository.open(dir.root),
        { file: 'a.go' },
        {},
        { cache },
      );
      // The driver's default wait is 5 s for each of the three cache writes.
      expect(Date.now() - started).toBeLessThan(4000);
      expect(lines.map((l) => [l.commit, l.reason])).toEqual([
        [dir.first, 'direct commit on the main line with no pull request reference'],
        [dir.first, 'direct commit on the main line with no pull request reference'],
      ]);
    } finally {
      await indexRun.exec('ROLLBACK');
      await indexRun.close();
      await cache.close();
    }
  });
});

describe('blameFile in a shallow clone', () => {
  it('says the history stops at the boundary instead of naming the PR of the newest merge', async () => {
    const origin = createHistoryRepo({ 'a.go': numberedLines(2) });
    const merged = mergePullRequest(origin, {
      number: 5,
      title: 'Change line one',
      branch: 'one',
      commits: [{ message: 'Change line one', change: () => setLine(origin, 'a.go', 1, 'one') }],
    });
    const clone = await GitRepository.open(shallowClone(origin));
    expect(clone.shallow).toBe(true);
    const lines = await blameFile(clone, { file: 'a.go' });
    expect(lines.map((l) => ({ commit: l.commit, pr: l.pr, reason: l.reason }))).toEqual([
      {
        commit: merged.merge,
        pr: null,
        reason: `shallow clone: history stops at ${short(merged.merge)}, so the line may be older than that commit; run \`git fetch --unshallow\` to find its pull request`,
      },
      {
        commit: merged.merge,
        pr: null,
        reason: `shallow clone: history stops at ${short(merged.merge)}, so the line may be older than that commit; run \`git fetch --unshallow\` to find its pull request`,
      },
    ]);
  });
});

describe('blameFile options', () => {
  // -M needs a moved block of at least 20 letters and digits; b is longer than a, so a is what moves.
  const a = ['func alpha() {', '\tfirst := compute(1)', '\treturn first', '}'];
  const b = ['func b() {', '\tx := 2', '\ty := x * 2', '\treturn y', '}'];
  const dir = createHistoryRepo({ 'old.go': `${[...a, '', ...b].join('\n')}\n` }, 'Write a and b');
  dir.git('mv', 'old.go', 'new.go');
  const renamed = dir.commit('Rename old.go to new.go');
  const movedText = `${[...b, '', ...a].join('\n')}\n`;
  const moved = commitChange(dir, { message: 'Move b above a', files: { 'new.go': movedText } });
  const reformat = commitChange(dir, {
    message: 'Indent with spaces',
    files: { 'new.go': movedText.replace(/\t/g, '    ') },
  });
  const open = () => GitRepository.open(dir.root);

  it('follows a rename and says where the line lived then', async () => {
    const lines = await blameFile(await open(), { file: 'new.go', start: 1, end: 1 });
    expect(renamed).not.toBe(dir.first);
    expect(lines[0]).toMatchObject({
      commit: dir.first,
      originalFile: 'old.go',
      content: 'func b() {',
    });
  });

  it('blames moved lines on the move without -M, and on their author with -M, even for one line', async () => {
    // -w looks through the later re-indent, which would otherwise split the moved block.
    const plain = await blameFile(
      await open(),
      { file: 'new.go', start: 7, end: 7 },
      { ignoreWhitespace: true },
    );
    const withMoves = await blameFile(
      await open(),
      { file: 'new.go', start: 7, end: 7 },
      { ignoreWhitespace: true, detectMoves: true },
    );
    expect(plain[0]).toMatchObject({ commit: moved, content: 'func alpha() {' });
    expect(withMoves[0]).toMatchObject({ commit: dir.first, content: 'func alpha() {' });
  });

  it('blames whitespace-only changes on their author with -w', async () => {
    const plain = await blameFile(await open(), { file: 'new.go', start: 2, end: 2 });
    const ignoring = await blameFile(
      await open(),
      { file: 'new.go', start: 2, end: 2 },
      { ignoreWhitespace: true },
    );
    expect(plain[0]?.commit).toBe(reformat);
    expect(ignoring[0]?.commit).toBe(dir.first);
  });

  it('looks through the commits of --ignore-rev and of an --ignore-revs-file', async () => {
    const byRev = await blameFile(
      await open(),
      { file: 'new.go', start: 2, end: 2 },
      { ignoreRevs: [reformat.slice(0, 10)] },
    );
    const list = path.join(dir.root, '.git', 'formatting-commits');
    writeFileSync(list, `${reformat}\n`);
    const byFile = await blameFile(
      await open(),
      { file: 'new.go', start: 2, end: 2 },
      { ignoreRevsFile: list },
    );
    expect(byRev[0]?.commit).toBe(dir.first);
    expect(byFile[0]?.commit).toBe(dir.first);
  });

  it('honours .git-blame-ignore-revs at the repository root without being asked', async () => {
    const before = await blameFile(await open(), { file: 'new.go', start: 2, end: 2 });
    writeFileSync(path.join(dir.root, '.git-blame-ignore-revs'), `# formatting\n${reformat}\n`);
    const after = await blameFile(await open(), { file: 'new.go', start: 2, end: 2 });
    expect(before[0]?.commit).toBe(reformat);
    expect(after[0]?.commit).toBe(dir.first);
  });

  it('rejects a file that is gone or a directory with a message, not a stack', async () => {
    await expect(blameFile(await open(), { file: 'gone.go' })).rejects.toThrow(
      `gone.go: no such file in ${dir.root}; check the path`,
    );
    await expect(blameFile(await open(), { file: '.git' })).rejects.toThrow(
      '.git is a directory; name a file inside it',
    );
  });

  it('rejects an --ignore-rev that is not a commit, and an option smuggled in as one', async () => {
    await expect(
      blameFile(await open(), { file: 'new.go' }, { ignoreRevs: ['nope'] }),
    ).rejects.toThrow(`--ignore-rev nope: no such commit in ${dir.root}; pass a commit id`);
    await expect(
      blameFile(await open(), { file: 'new.go' }, { ignoreRevs: ['--output=/tmp/x'] }),
    ).rejects.toThrow('--ignore-rev --output=/tmp/x: no such commit');
  });
});
