/**
 * What blame, history and PR lookup answer. The JSON contract of `blame -o json` (DESIGN.md) is
 * `BlamedLine`: a line, who last changed it, and the pull request that brought that change into
 * the main line — or why no pull request can be named.
 */

export interface PullRequest {
  number: number;
  /** The PR title from the merge commit's body or the squash subject; null when none was written. */
  title: string | null;
  /** null when the repository is not on GitHub and no `--github owner/repo` was given. */
  url: string | null;
  /** The commit on HEAD's first-parent chain that brought the change in (merge or squash commit). */
  mergeCommit: string;
}

export interface PullRequestRef {
  number: number;
  url: string | null;
}

/** The commit in kubernetes/kubernetes that a published staging repository's commit was cut from. */
export interface UpstreamCommit {
  repo: string;
  commit: string;
  url: string;
}

export interface PullRequestAnswer {
  pr: PullRequest | null;
  /** How the PR was found, or why it could not be: one sentence a reader can act on. */
  reason: string;
  upstream?: UpstreamCommit;
  /** The original PRs when this one is a cherry pick onto a release branch. */
  cherryPickOf?: PullRequestRef[];
}

/** One line as `git blame` attributes it, before any PR lookup. */
export interface BlameLine {
  line: number;
  content: string;
  /** null for a line that is not committed yet (a local edit). */
  commit: string | null;
  author: string | null;
  /** ISO 8601 in the author's own time zone, as git records it. */
  authorTime: string | null;
  summary: string | null;
  /** The path the line had in `commit`, when it differs (a rename or, with -C, a copy). */
  originalFile?: string;
  originalLine: number;
}

export interface BlamedLine extends PullRequestAnswer {
  file: string;
  line: number;
  commit: string | null;
  author: string | null;
  authorTime: string | null;
  summary: string | null;
  content: string;
  originalFile?: string;
}

/** One commit in the history of a line range or a file, newest first. */
export interface HistoryEntry extends PullRequestAnswer {
  commit: string;
  author: string;
  authorTime: string;
  summary: string;
}

export interface ChangedFile {
  /** `A`, `M`, `D`, `R`, `C`, `T` as in `git diff --name-status`. */
  status: string;
  path: string;
  /** For renames and copies: where the file came from. */
  oldPath?: string;
  /** Line ranges the change touched on the new side (1-based, inclusive). */
  hunks: Array<{ start: number; end: number }>;
}

export interface PullRequestDetails {
  number: number;
  title: string | null;
  url: string | null;
  mergeCommit: string;
  /** `merge`: GitHub's merge commit; `squash`: a `(#N)` subject on the main line. */
  kind: 'merge' | 'squash';
  author: string;
  authorTime: string;
  /** The first paragraph of the message body after the title, when there is one. */
  description: string | null;
  files: ChangedFile[];
  upstream?: UpstreamCommit;
  cherryPickOf?: PullRequestRef[];
}
