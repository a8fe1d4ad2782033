/**
 * `pr <number>`: the main-line commit that merged a pull request (GitHub's merge commit, or a
 * squash commit whose subject ends in `(#N)`), its title and description, and what it changed:
 * files, and the new-side line ranges of each Go file, so the caller can name the symbols touched.
 */
import { K8sReadError } from '../errors.js';
import { unquoteC } from './blame-porcelain.js';
import {
  firstParagraph,
  mergeDescription,
  parseCherryPickTitle,
  pullRequestRepo,
  pullRequestUrl,
  readCherryPicks,
  readPullRequestReference,
  readUpstream,
} from './pr-reference.js';
import { short, type PullRequestOptions } from './pull-requests.js';
import {
  COMMIT_FORMAT,
  parseCommitRecords,
  type CommitInfo,
  type GitRepository,
} from './repository.js';
import type { ChangedFile, PullRequestDetails } from './types.js';

export class PullRequestNotFoundError extends K8sReadError {
  constructor(number: number, root: string, cherryPicks: readonly string[]) {
    const picks = cherryPicks.length
      ? `; it was cherry-picked here by ${cherryPicks.join(', ')}: run \`k8s-read pr\` with one of those numbers`
      : '; check the number, the checked-out branch (release branches carry cherry picks), or fetch more history';
    super(`no merge of pull request #${number} on the main line of HEAD in ${root}${picks}`, {
      code: 'E_NO_PR',
    });
  }
}

export async function findPullRequestDetails(
  repo: GitRepository,
  number: number,
  options: Pick<PullRequestOptions, 'github'> = {},
): Promise<PullRequestDetails> {
  const head = await repo.head();
  const out = await repo.run([
    'log',
    '--first-parent',
    '--extended-regexp',
    `--grep=#${number}([^0-9]|$)`,
    COMMIT_FORMAT,
    head,
  ]);
  const candidates = parseCommitRecords(out);
  const merged = candidates.find((c) => readPullRequestReference(c)?.number === number);
  const reference = merged ? readPullRequestReference(merged) : null;
  if (!merged || !reference) {
    const picks = candidates
      .filter((c) =>
        parseCherryPickTitle(readPullRequestReference(c)?.title ?? c.subject).includes(number),
      )
      .map((c) => {
        const pr = readPullRequestReference(c)?.number;
        return pr === undefined ? short(c.sha) : `#${pr} (${short(c.sha)})`;
      });
    throw new PullRequestNotFoundError(number, repo.root, picks);
  }

  const upstream = readUpstream(merged.body);
  const prRepo = pullRequestRepo(
    options.github,
    upstream !== undefined,
    options.github ? null : await repo.githubRemote(),
  );
  const details: PullRequestDetails = {
    number,
    title: reference.title,
    url: pullRequestUrl(prRepo, number),
    mergeCommit: merged.sha,
    kind: reference.kind,
    author: merged.author,
    authorTime: merged.authorTime,
    // A merge's body opens with the title; a squash's body is the description itself.
    description: firstParagraph(
      reference.kind === 'merge' ? mergeDescription(merged.body) : merged.body,
    ),
    files: await changedFiles(repo, merged),
  };
  if (upstream) details.upstream = upstream;
  const picks = readCherryPicks(reference.title, prRepo);
  if (picks) details.cherryPickOf = picks;
  return details;
}

/** What the PR changed: the merge against its first parent (the main line before it). */
async function changedFiles(repo: GitRepository, merged: CommitInfo): Promise<ChangedFile[]> {
  const base = merged.parents[0];
  const range = base ? [base, merged.sha] : ['--root', merged.sha];
  const command = base ? 'diff' : 'diff-tree';
  const status = await repo.run([
    command,
    ...(base ? [] : ['-r']),
    '--name-status',
    '-z',
    '-M',
    ...range,
  ]);
  const files = parseNameStatus(status);
  // Hunks only for Go files: symbols live there, and vendor bumps would make the diff huge.
  const diff = await repo.run([
    command,
    ...(base ? [] : ['-r', '-p']),
    '-U0',
    '--no-color',
    '--no-ext-diff',
    '-M',
    ...range,
    '--',
    '*.go',
  ]);
  const hunks = parseNewSideHunks(diff);
  for (const file of files) file.hunks = hunks.get(file.path) ?? [];
  return files;
}

/** `git diff --name-status -z`: `S\0path\0`, or `R100\0old\0new\0` for renames and copies. */
export function parseNameStatus(out: string): ChangedFile[] {
  const parts = out.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length;) {
    const status = parts[i++] ?? '';
    if (!status) continue;
    const letter = status[0] as string;
    if (letter === 'R' || letter === 'C') {
      const oldPath = parts[i++] ?? '';
      const newPath = parts[i++] ?? '';
      files.push({ status: letter, path: newPath, oldPath, hunks: [] });
    } else {
      files.push({ status: letter, path: parts[i++] ?? '', hunks: [] });
    }
  }
  return files;
}

/** New-side line ranges per file from a `-U0` diff; a pure deletion touches the line it follows. */
export function parseNewSideHunks(
  diff: string,
): Map<string, Array<{ start: number; end: number }>> {
  const hunks = new Map<string, Array<{ start: number; end: number }>>();
  let current: Array<{ start: number; end: number }> | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const name = line.slice(4).replace(/\t$/, '');
      if (name === '/dev/null') {
        current = undefined;
        continue;
      }
      const unquoted = unquoteC(name);
      const file = unquoted.startsWith('b/') ? unquoted.slice(2) : unquoted;
      current = [];
      hunks.set(file, current);
      continue;
    }
    const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (match && current) {
      const start = Number(match[1]);
      const count = match[2] === undefined ? 1 : Number(match[2]);
      current.push(
        count === 0
          ? { start: Math.max(start, 1), end: Math.max(start, 1) }
          : { start, end: start + count - 1 },
      );
    }
  }
  return hunks;
}

/** The definitions whose line span meets a changed range of their file. */
export function symbolsTouched<T extends { file: string; line: number; endLine: number }>(
  definitions: readonly T[],
  files: readonly ChangedFile[],
): T[] {
  const byFile = new Map(files.map((f) => [f.path, f.hunks]));
  return definitions.filter((d) =>
    (byFile.get(d.file) ?? []).some((h) => h.start <= d.endLine && h.end >= d.line),
  );
}
