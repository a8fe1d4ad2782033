import { describe, expect, it } from 'vitest';
import {
  findPullRequestDetails,
  parseNameStatus,
  parseNewSideHunks,
  symbolsTouched,
} from '../../src/git/pr-lookup.js';
import { GitRepository } from '../../src/git/repository.js';
import {
  commitChange,
  createHistoryRepo,
  mergePullRequest,
  setLine,
  squashMerge,
} from '../helpers/git-history.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `// ${i + 1}`).join('\n') + '\n';
const repo = createHistoryRepo({
  'pkg/queue.go': lines(20),
  'README.md': 'queue\n',
  'old name.go': lines(3),
});
repo.git('remote', 'add', 'origin', 'https://github.com/kubernetes/demo.git');
const merged = mergePullRequest(repo, {
  number: 41,
  title: 'Make the queue fair',
  branch: 'fair',
  commits: [
    {
      message: 'Make the queue fair',
      change: () => {
        setLine(repo, 'pkg/queue.go', 5, '// fair');
        setLine(repo, 'pkg/queue.go', 15, '// fairer');
        repo.git('mv', 'old name.go', 'new name.go');
        repo.write('docs/fair.md', 'fair\n');
      },
    },
  ],
});
const squashed = squashMerge(repo, 42, 'Document the queue', {
  files: { 'README.md': 'queue\nfair\n' },
});
commitChange(repo, { message: 'Unrelated work on #41 follow-ups', files: { 'notes.txt': 'x\n' } });
mergePullRequest(repo, {
  number: 43,
  title: 'Automated cherry pick of #40: Fix the queue',
  branch: 'pick',
  commits: [
    { message: 'Fix the queue', change: () => setLine(repo, 'pkg/queue.go', 10, '// fixed') },
  ],
});

describe('findPullRequestDetails', () => {
  const open = () => GitRepository.open(repo.root);

  it('finds the merge commit of a PR with its title, link and the files it changed', async () => {
    const details = await findPullRequestDetails(await open(), 41);
    expect(details).toMatchObject({
      number: 41,
      title: 'Make the queue fair',
      url: 'https://github.com/kubernetes/demo/pull/41',
      mergeCommit: merged.merge,
      kind: 'merge',
      author: 'Ada Reader',
      description: null,
    });
    expect(details.files).toEqual([
      { status: 'A', path: 'docs/fair.md', hunks: [] },
      { status: 'R', path: 'new name.go', oldPath: 'old name.go', hunks: [] },
      {
        status: 'M',
        path: 'pkg/queue.go',
        hunks: [
          { start: 5, end: 5 },
          { start: 15, end: 15 },
        ],
      },
    ]);
  });

  it('finds a squash merge by its (#N) subject', async () => {
    const details = await findPullRequestDetails(await open(), 42, { github: 'ada/fork' });
    expect(details).toMatchObject({
      number: 42,
      title: 'Document the queue',
      url: 'https://github.com/ada/fork/pull/42',
      mergeCommit: squashed,
      kind: 'squash',
    });
    expect(details.files.map((f) => f.path)).toEqual(['README.md']);
  });

  it('names the original PR of a cherry pick', async () => {
    const details = await findPullRequestDetails(await open(), 43);
    expect(details.cherryPickOf).toEqual([
      { number: 40, url: 'https://github.com/kubernetes/demo/pull/40' },
    ]);
  });

  it('says where a PR that was only cherry-picked here went', async () => {
    await expect(findPullRequestDetails(await open(), 40)).rejects.toThrow(
      `no merge of pull request #40 on the main line of HEAD in ${repo.root}; it was cherry-picked here by #43 (`,
    );
  });

  it('says what to check when no commit merged the PR', async () => {
    await expect(findPullRequestDetails(await open(), 4)).rejects.toThrow(
      `no merge of pull request #4 on the main line of HEAD in ${repo.root}; check the number, the checked-out branch (release branches carry cherry picks), or fetch more history`,
    );
  });
});

describe('symbolsTouched', () => {
  it('keeps the definitions whose lines meet a changed range of their file', () => {
    const definitions = [
      { symbol: 'q.Add', file: 'pkg/queue.go', line: 1, endLine: 4 },
      { symbol: 'q.Get', file: 'pkg/queue.go', line: 4, endLine: 8 },
      { symbol: 'q.Len', file: 'pkg/queue.go', line: 9, endLine: 12 },
      { symbol: 'other.Run', file: 'pkg/other.go', line: 1, endLine: 99 },
    ];
    const files = [{ status: 'M', path: 'pkg/queue.go', hunks: [{ start: 5, end: 5 }] }];
    expect(symbolsTouched(definitions, files).map((d) => d.symbol)).toEqual(['q.Get']);
  });
});

describe('diff parsing', () => {
  it('reads renames and plain changes from --name-status -z', () => {
    expect(parseNameStatus('M\0a.go\0R087\0old.go\0new.go\0D\0gone.go\0')).toEqual([
      { status: 'M', path: 'a.go', hunks: [] },
      { status: 'R', path: 'new.go', oldPath: 'old.go', hunks: [] },
      { status: 'D', path: 'gone.go', hunks: [] },
    ]);
  });

  it('reads new-side ranges, a pure deletion as the line it follows', () => {
    const diff = [
      'diff --git a/x.go b/x.go',
      '--- a/x.go',
      '+++ b/x.go',
      '@@ -3,0 +4,2 @@',
      '+a',
      '+b',
      '@@ -9 +11,0 @@',
      '-c',
      '@@ -20 +21 @@ f',
      '',
    ].join('\n');
    expect(parseNewSideHunks(diff).get('x.go')).toEqual([
      { start: 4, end: 5 },
      { start: 11, end: 11 },
      { start: 21, end: 21 },
    ]);
  });
});
