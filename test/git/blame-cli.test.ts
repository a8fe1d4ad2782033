import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import {
  createHistoryRepo,
  createQueueHistory,
  mergePullRequest,
  setLine,
} from '../helpers/git-history.js';

const { repo, merged } = createQueueHistory({ 'dir with space/naïve file.go': 'package x\n' });
repo.write('logo.png', '\x89PNG\r\n\x1a\n\0\0\0binary');
repo.commit('Add a logo');
const short = (sha: string) => sha.slice(0, 8);
const day = (sha: string) => repo.git('show', '-s', '--format=%ad', '--date=short', sha).trim();

const scratch = useTempDir('k8s-read-blame-cli-');
const cli = (args: string[], cwd?: string) =>
  runCli(
    [...args, '--repo', repo.root, '--db', path.join(scratch, 'cache.sqlite')],
    cwd ? { cwd } : {},
  );

describe('k8s-read blame', () => {
  beforeAll(() => {
    mkdirSync(path.join(scratch, 'elsewhere'), { recursive: true });
    writeFileSync(path.join(scratch, 'elsewhere', 'x.go'), 'package x\n');
  });

  it('prints a line like git blame with a PR column, then the PR title, link and how it was found', async () => {
    const result = await cli(['blame', 'pkg/queue.go:3']);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        `${short(merged.commits[0] as string)} (Ada Reader ${day(merged.merge)} #12) 3 | func Add() { add() }`,
        '',
        '#12  Add to the queue  https://github.com/kubernetes/demo/pull/12',
        `    merged by ${short(merged.merge)} "Merge pull request #12 from ada/add"`,
        '',
      ].join('\n'),
    });
  });

  it('prints one JSON object for a line and an array for a range', async () => {
    const one = await cli(['blame', 'pkg/queue.go:3', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual({
      file: 'pkg/queue.go',
      line: 3,
      commit: merged.commits[0],
      author: 'Ada Reader',
      authorTime: expect.stringMatching(new RegExp(`^${day(merged.commits[0] as string)}T`)),
      summary: 'Make Add add',
      pr: {
        number: 12,
        title: 'Add to the queue',
        url: 'https://github.com/kubernetes/demo/pull/12',
        mergeCommit: merged.merge,
      },
      reason: `merged by ${short(merged.merge)} "Merge pull request #12 from ada/add"`,
      content: 'func Add() { add() }',
    });
    const range = await cli(['blame', 'pkg/queue.go:1-2', '-o', 'json']);
    expect(
      JSON.parse(range.stdout).map((l: { line: number; commit: string; pr: unknown }) => [
        l.line,
        l.commit,
        l.pr,
      ]),
    ).toEqual([
      [1, repo.first, null],
      [2, repo.first, null],
    ]);
  });

  it('takes a path relative to the current directory as well as to the repository root', async () => {
    const result = await cli(['blame', 'queue.go:3', '-o', 'json'], path.join(repo.root, 'pkg'));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).pr.number).toBe(12);
  });

  it('blames files whose names have spaces and non-ASCII characters', async () => {
    const result = await cli(['blame', 'dir with space/naïve file.go', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([
      { file: 'dir with space/naïve file.go', line: 1, commit: repo.first, content: 'package x' },
    ]);
  });

  it.each([
    [['blame', 'pkg/queue.go:9'], 'error: line 9 is out of range: pkg/queue.go has 3 lines\n'],
    [
      ['blame', 'pkg/queue.go:3-2'],
      'error: 3-2 is not a line range; write pkg/queue.go:LINE or pkg/queue.go:START-END with 1 <= START <= END\n',
    ],
    [['blame', 'logo.png'], 'error: logo.png is a binary file; blame reads text files\n'],
    [['blame', 'pkg'], 'error: pkg is a directory; name a file inside it\n'],
    [
      ['blame', 'pkg/missing.go:3'],
      `error: pkg/missing.go: no such file in ${repo.root}; check the path (relative to here or to the repository root)\n`,
    ],
    [
      ['blame', 'pkg/queue.go', '--github', 'not a repo'],
      'error: --github not a repo: write owner/repo, e.g. --github kubernetes/kubernetes\n',
    ],
  ])('rejects %j with a message that says what to do', async (args, stderr) => {
    const result = await cli(args);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
  });

  it('rejects a path outside the repository', async () => {
    const result = await cli(['blame', path.join(scratch, 'elsewhere', 'x.go')]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${path.join(scratch, 'elsewhere', 'x.go')} is outside the repository ${repo.root}; pass a path inside it, or --repo PATH to the repository that holds it\n`,
    });
  });

  it('rejects a file that is not committed', async () => {
    repo.write('draft.go', 'package draft\n');
    const result = await cli(['blame', 'draft.go']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: draft.go is not in HEAD (untracked or only staged); commit it first: blame reads git history\n',
    });
  });

  it('says a file the work tree ignores has no history, rather than to commit it', async () => {
    repo.write('.gitignore', 'scratch/\n');
    repo.commit('ignore scratch/');
    repo.write('scratch/notes.go', 'package scratch\n');
    const result = await cli(['blame', 'scratch/notes.go']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: scratch/notes.go has no git history: the git work tree at ${repo.root} ignores it, so blame has nothing to read; blame a file of a checkout whose files are committed (--repo PATH)\n`,
    });
  });

  it('says a directory that is not a git repository cannot be blamed', async () => {
    const plain = path.join(scratch, 'elsewhere');
    const result = await runCli([
      'blame',
      'x.go',
      '--repo',
      plain,
      '--db',
      path.join(scratch, 'plain.sqlite'),
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${plain} is not a git repository; blame, history and pr read git history: pass --repo PATH to a git clone (not an unpacked archive)\n`,
    });
  });
});

describe('k8s-read blame and history of a symbol', () => {
  const QUEUE = 'pkg/queue/queue.go';
  const mod = createHistoryRepo({
    'go.mod': 'module example.com/demo\n\ngo 1.22\n',
    [QUEUE]: 'package queue\n\n// Add adds.\nfunc Add() {\n\tadd()\n}\n\nfunc add() {}\n',
  });
  const twice = mergePullRequest(mod, {
    number: 3,
    title: 'Add twice',
    branch: 'twice',
    commits: [{ message: 'Add twice', change: () => setLine(mod, QUEUE, 5, '\tadd(); add()') }],
  });
  const date = (sha: string) => mod.git('show', '-s', '--format=%ad', '--date=short', sha).trim();
  const symbolCli = (args: string[]) =>
    runCli([...args, '--repo', mod.root, '--db', path.join(scratch, 'symbols.sqlite')]);

  it("blames the lines of a symbol's declaration, indexing the repository first", async () => {
    const result = await symbolCli(['blame', 'queue.Add']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`no index for ${mod.root} yet; indexing it now (once)`);
    expect(result.stdout).toBe(
      [
        `example.com/demo/pkg/queue.Add  ${QUEUE}:4-6`,
        `${short(mod.first)} (Ada Reader ${date(mod.first)} - ) 4 | func Add() {`,
        `${short(twice.commits[0] as string)} (Ada Reader ${date(twice.commits[0] as string)} #3) 5 | \tadd(); add()`,
        `${short(mod.first)} (Ada Reader ${date(mod.first)} - ) 6 | }`,
        '',
        '#3  Add twice',
        `    merged by ${short(twice.merge)} "Merge pull request #3 from ada/twice"`,
        '-  direct commit on the main line with no pull request reference (2 lines)',
        '',
      ].join('\n'),
    );
  });

  it("lists the commits that changed a symbol's body, with the symbol in JSON", async () => {
    const result = await symbolCli(['history', 'example.com/demo/pkg/queue.Add', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(
      JSON.parse(result.stdout).map(
        (e: { symbol: string; commit: string; pr: { number: number } | null }) => [
          e.symbol,
          e.commit,
          e.pr?.number ?? null,
        ],
      ),
    ).toEqual([
      ['example.com/demo/pkg/queue.Add', twice.commits[0], 3],
      ['example.com/demo/pkg/queue.Add', mod.first, null],
    ]);
  });

  it('lists the indexed symbols whose lines a pull request changed', async () => {
    expect((await symbolCli(['index'])).code).toBe(0);
    const result = await symbolCli(['pr', '3', '-o', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const details = JSON.parse(result.stdout);
    expect(details).toMatchObject({
      number: 3,
      title: 'Add twice',
      mergeCommit: twice.merge,
      kind: 'merge',
      url: null,
    });
    expect(details.files).toEqual([{ status: 'M', path: QUEUE, hunks: [{ start: 5, end: 5 }] }]);
    expect(details.symbols.map((d: { symbol: string }) => d.symbol)).toEqual([
      'example.com/demo/pkg/queue.Add',
    ]);
  });

  it('says when neither a file nor a symbol matches', async () => {
    const result = await symbolCli(['blame', 'queue.Remove']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no symbol matches "queue.Remove"; try `k8s-read search <text>`\n',
    });
  });
});

describe('k8s-read history and pr', () => {
  it('lists the commits of a line range with their PRs', async () => {
    const result = await cli(['history', 'pkg/queue.go:3-3', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(
      JSON.parse(result.stdout).map((e: { commit: string; pr: { number: number } | null }) => [
        e.commit,
        e.pr?.number ?? null,
      ]),
    ).toEqual([
      [merged.commits[0], 12],
      [repo.first, null],
    ]);
  });

  it('shows a pull request: merge commit, title and files; says when no package path names its symbols', async () => {
    const result = await cli(['pr', '#12']);
    expect(result).toEqual({
      code: 0,
      stderr: `note: no package path for 1 changed Go file (no go.mod at ${short(merged.merge)} and none in the index); their symbols are not listed\n`,
      stdout: [
        '#12 Add to the queue',
        'https://github.com/kubernetes/demo/pull/12',
        `merge commit ${merged.merge}  Ada Reader  ${day(merged.merge)}`,
        '',
        'Files (1):',
        '  M pkg/queue.go',
        '',
        `Symbols touched (0), lines as of ${short(merged.merge)}:`,
        '',
      ].join('\n'),
    });
  });

  it('rejects a PR number that is not a number', async () => {
    const result = await cli(['pr', 'twelve']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "error: command-argument value 'twelve' is invalid for argument 'number'. write the pull request number, e.g. 123 or #123",
    );
  });
});
