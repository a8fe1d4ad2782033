import { describe, expect, it } from 'vitest';
import { readHistory } from '../../src/git/history.js';
import { GitRepository } from '../../src/git/repository.js';
import {
  commitChange,
  createHistoryRepo,
  mergePullRequest,
  setLine,
  squashMerge,
} from '../helpers/git-history.js';

const FILE = 'worker.go';
const text = [
  'package worker',
  '',
  'func Run() {',
  '\tstart()',
  '}',
  '',
  'func other() {}',
  '',
].join('\n');
const repo = createHistoryRepo({ [FILE]: text }, 'Add the worker');
const outside = commitChange(repo, {
  message: 'Touch only other()',
  change: () => setLine(repo, FILE, 7, 'func other() { return }'),
});
const pr = mergePullRequest(repo, {
  number: 21,
  title: 'Start twice',
  branch: 'twice',
  commits: [
    { message: 'Call start twice', change: () => setLine(repo, FILE, 4, '\tstart(); start()') },
  ],
});
const squash = squashMerge(repo, 22, 'Rename start to begin', {
  change: () => setLine(repo, FILE, 4, '\tbegin(); begin()'),
});

describe('readHistory', () => {
  const open = () => GitRepository.open(repo.root);

  it("lists the commits that changed a function's lines, newest first, each with its PR", async () => {
    const history = await readHistory(await open(), { file: FILE, start: 3, end: 5 });
    expect(history.more).toBe(false);
    expect(
      history.entries.map((e) => [e.commit, e.summary, e.pr?.number ?? null, e.reason]),
    ).toEqual([
      [
        squash,
        'Rename start to begin (#22)',
        22,
        `squash merge: the subject of ${squash.slice(0, 8)} ends with (#22)`,
      ],
      [
        pr.commits[0],
        'Call start twice',
        21,
        `merged by ${pr.merge.slice(0, 8)} "Merge pull request #21 from ada/twice"`,
      ],
      [
        repo.first,
        'Add the worker',
        null,
        'direct commit on the main line with no pull request reference',
      ],
    ]);
    expect(history.entries.map((e) => e.commit)).not.toContain(outside);
  });

  it('stops at --limit and says there is more', async () => {
    const history = await readHistory(await open(), { file: FILE, start: 3, end: 5 }, { limit: 1 });
    expect(history.entries.map((e) => e.pr?.title)).toEqual(['Rename start to begin']);
    expect(history.more).toBe(true);
  });

  it('lists every commit of a whole file', async () => {
    const history = await readHistory(await open(), { file: FILE }, { limit: 0 });
    expect(history.entries.map((e) => e.commit)).toEqual([
      squash,
      pr.commits[0],
      outside,
      repo.first,
    ]);
  });

  it('follows a whole file through a rename', async () => {
    const moving = createHistoryRepo({ 'old.go': text }, 'Add old.go');
    moving.git('mv', 'old.go', 'new.go');
    const renamed = moving.commit('Rename old.go to new.go');
    const history = await readHistory(await GitRepository.open(moving.root), { file: 'new.go' });
    expect(history.entries.map((e) => e.commit)).toEqual([renamed, moving.first]);
  });

  it('rejects a range beyond the end of the file', async () => {
    await expect(readHistory(await open(), { file: FILE, start: 3, end: 40 })).rejects.toThrow(
      `line 40 is out of range: ${FILE} has 7 lines`,
    );
  });
});
