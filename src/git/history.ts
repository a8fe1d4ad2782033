/**
 * The commits that changed a line range (`git log -L`, which follows the range through every
 * edit) or a whole file (`git log --follow`), newest first, each with its pull request.
 */
import { checkLineRange, readRepoFile, type FileTarget } from './paths.js';
import { resolvePullRequests, type PullRequestOptions } from './pull-requests.js';
import { COMMIT_FORMAT, parseCommitRecords, type GitRepository } from './repository.js';
import type { HistoryEntry } from './types.js';

export interface HistoryOptions {
  /** At most this many commits; 0 for all. @default 20 */
  limit?: number;
}

export interface History {
  entries: HistoryEntry[];
  /** True when `limit` cut the list short. */
  more: boolean;
}

export async function readHistory(
  repo: GitRepository,
  target: FileTarget,
  options: HistoryOptions = {},
  context: PullRequestOptions = {},
): Promise<History> {
  const limit = options.limit ?? 20;
  checkLineRange(target.file, readRepoFile(repo.root, target.file), target.start, target.end);
  const head = await repo.head();
  // One more than asked, to know whether there are more.
  const count = limit > 0 ? ['-n', String(limit + 1)] : [];
  const args =
    target.start !== undefined && target.end !== undefined
      ? [
          'log',
          '-L',
          `${target.start},${target.end}:${target.file}`,
          '--no-patch',
          COMMIT_FORMAT,
          ...count,
          head,
        ]
      : ['log', '--follow', COMMIT_FORMAT, ...count, head, '--', target.file];
  const commits = parseCommitRecords(await repo.run(args));
  const more = limit > 0 && commits.length > limit;
  const shown = more ? commits.slice(0, limit) : commits;
  const answers = await resolvePullRequests(
    repo,
    head,
    shown.map((c) => c.sha),
    context,
  );
  const entries = shown.map((c): HistoryEntry => {
    const answer = answers.get(c.sha) ?? { pr: null, reason: '' };
    return {
      commit: c.sha,
      author: c.author,
      authorTime: c.authorTime,
      summary: c.subject,
      ...answer,
    };
  });
  return { entries, more };
}
