/**
 * Histories shaped like Kubernetes': pull requests merged with GitHub's merge button, squash
 * merges, direct commits on the main line, published-staging trailers. Built on createTempRepo, so
 * authors and dates are fixed and nothing passes through a shell.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTempRepo, type TempRepo } from './temp-repo.js';

export interface PullRequestSpec {
  number: number;
  title: string;
  /** The head branch, as in `Merge pull request #N from <owner>/<branch>`. */
  branch: string;
  owner?: string;
  /** One entry per commit on the branch: files to write (or a change to make once on the branch) and the message. */
  commits: CommitSpec[];
  /** Extra paragraphs after the title in the merge message (e.g. a Kubernetes-commit trailer). */
  trailer?: string;
}

export interface CommitSpec {
  message: string;
  files?: Record<string, string>;
  /** Runs on the checked-out branch, e.g. `() => setLine(repo, 'a.go', 3, 'x')`. */
  change?: () => void;
  author?: string;
}

export interface MergedPullRequest {
  merge: string;
  commits: string[];
}

/** A repository on branch `main` with one first commit, ready for pull requests. */
export function createHistoryRepo(
  initialFiles: Record<string, string>,
  message = 'Initial commit',
): TempRepo & { first: string } {
  const repo = createTempRepo();
  for (const [file, content] of Object.entries(initialFiles)) repo.write(file, content);
  const first = repo.commit(message);
  return Object.assign(repo, { first });
}

/**
 * The blame tests' history: `pkg/queue.go` (with `files` beside it) whose line 3 pull request #12
 * of https://github.com/kubernetes/demo made `func Add() { add() }`.
 */
export function createQueueHistory(files: Record<string, string> = {}): {
  repo: TempRepo & { first: string };
  merged: MergedPullRequest;
} {
  const repo = createHistoryRepo({ 'pkg/queue.go': 'package queue\n\nfunc Add() {}\n', ...files });
  repo.git('remote', 'add', 'origin', 'https://github.com/kubernetes/demo');
  const merged = mergePullRequest(repo, {
    number: 12,
    title: 'Add to the queue',
    branch: 'add',
    commits: [
      {
        message: 'Make Add add',
        change: () => setLine(repo, 'pkg/queue.go', 3, 'func Add() { add() }'),
      },
    ],
  });
  return { repo, merged };
}

/** Branches off the current branch, commits, and merges back with GitHub's merge-button message. */
export function mergePullRequest(repo: TempRepo, spec: PullRequestSpec): MergedPullRequest {
  const base = repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
  repo.git('checkout', '-q', '-b', spec.branch);
  const commits = spec.commits.map((c) => commitChange(repo, c));
  repo.git('checkout', '-q', base);
  const paragraphs = ['-m', spec.title, ...(spec.trailer ? ['-m', spec.trailer] : [])];
  repo.git(
    'merge',
    '-q',
    '--no-ff',
    '-m',
    `Merge pull request #${spec.number} from ${spec.owner ?? 'ada'}/${spec.branch}`,
    ...paragraphs,
    spec.branch,
  );
  return { merge: head(repo), commits };
}

/** Makes one commit on the current branch; returns its sha. */
export function commitChange(repo: TempRepo, spec: CommitSpec): string {
  for (const [file, content] of Object.entries(spec.files ?? {})) repo.write(file, content);
  spec.change?.();
  return repo.commit(spec.message, spec.author ? { author: spec.author } : {});
}

/** A squash merge: one commit on main whose subject is the PR title plus ` (#N)`. */
export function squashMerge(
  repo: TempRepo,
  number: number,
  title: string,
  change: Omit<CommitSpec, 'message'>,
): string {
  return commitChange(repo, { ...change, message: `${title} (#${number})` });
}

/** Replaces line `n` (1-based) of a file in the work tree. */
export function setLine(repo: TempRepo, file: string, n: number, text: string): void {
  const lines = readFileSync(path.join(repo.root, file), 'utf8').split('\n');
  lines[n - 1] = text;
  writeFileSync(path.join(repo.root, file), lines.join('\n'));
}

export function head(repo: TempRepo): string {
  return repo.git('rev-parse', 'HEAD').trim();
}

/** `git clone --depth <n> file://...` into a new temporary directory. */
export function shallowClone(repo: TempRepo, depth = 1): string {
  const target = path.join(mkdtempSync(path.join(os.tmpdir(), 'k8s-read-shallow-')), 'clone');
  execFileSync('git', ['clone', '-q', '--depth', String(depth), `file://${repo.root}`, target], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });
  return target;
}

/** Lines `1..n` as file text, each `prefix i`. */
export function numberedLines(n: number, prefix = 'line'): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
}
