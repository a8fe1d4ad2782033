/**
 * Reading pull request numbers out of commit messages, the way Kubernetes' history writes them.
 * Pure functions over strings: no git here, so every message form is tested on its own.
 */
import type { PullRequestRef, UpstreamCommit } from './types.js';

/** Where the Kubernetes publishing bot says a staging repository's commit came from. */
export const KUBERNETES_REPO = 'kubernetes/kubernetes';

/** GitHub's merge button: `Merge pull request #123 from owner/branch`, the PR title in the body. */
export function parseMergeSubject(subject: string): { number: number; from: string } | null {
  const match = /^Merge pull request #(\d+) from (\S+)/.exec(subject);
  return match ? { number: Number(match[1]), from: match[2] ?? '' } : null;
}

/** A squash merge keeps the PR title as the subject and appends ` (#123)`. */
export function parseSquashSubject(subject: string): { number: number; title: string } | null {
  const match = /^(.*?)\s*\(#(\d+)\)\s*$/.exec(subject);
  if (!match) return null;
  return { number: Number(match[2]), title: match[1] ?? '' };
}

/**
 * The PRs a cherry pick names: `Automated cherry pick of #123: ...` (k8s.io/kubernetes'
 * hack/cherry_pick_pull.sh), also `#1 #2: ...`, `#123 - ...`, `[1.24] Cherry Pick of #123: ...`
 * and `Manual cherry pick of ...`. Only the leading list counts: a later `#N` is part of the title.
 */
export function parseCherryPickTitle(title: string): number[] {
  const match =
    /^(?:\[[^\]]*\]\s*)?(?:automated\s+|manual\s+)?cherry[- ]?pick(?:ed)?\s+of\s+((?:#\d+(?:\s*(?:,|and|&)?\s*))+)/i.exec(
      title.trim(),
    );
  if (!match) return [];
  return [...(match[1] ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
}

/**
 * `Kubernetes-commit: <sha>`: the trailer the publishing bot writes on every commit of a
 * published staging repository (client-go, api, apimachinery, ...), naming the commit in
 * kubernetes/kubernetes that it was cut from.
 */
export function parseKubernetesCommit(message: string): string | null {
  const match = /^Kubernetes-commit:\s*([0-9a-f]{40})\s*$/im.exec(message);
  return match ? (match[1] ?? '').toLowerCase() : null;
}

/**
 * The PR title GitHub writes into a merge commit: the body's first paragraph, unless that
 * paragraph is only trailers (`Kubernetes-commit: ...`, `Signed-off-by: ...`).
 */
export function firstParagraph(body: string): string | null {
  const paragraph = body.trim().split(/\n\s*\n/)[0] ?? '';
  const lines = paragraph
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0 || lines.every((line) => /^[A-Za-z][A-Za-z0-9-]*:\s/.test(line)))
    return null;
  return lines.join(' ');
}

/**
 * What Kubernetes' merge bots wrote before the PR title: the submit-queue's `Automatic merge from
 * submit-queue[ (batch tested with PRs ...)][. If you want to cherry-pick ...]`, then the title
 * on its own line; the older PR queue bot's `Auto commit by PR queue bot`, with no title at all.
 */
const SUBMIT_QUEUE = /^Automatic merge from submit-queue\b/;
const PR_QUEUE_BOT = /^Auto commit by PR queue bot\b/;

/**
 * The PR title in a merge commit's body: the first paragraph, or for the merge bots the line
 * after their own paragraph (null when they wrote none).
 */
export function mergeTitle(body: string): string | null {
  const paragraphs = body.trim().split(/\n\s*\n/);
  const first = paragraphs[0]?.trim() ?? '';
  if (PR_QUEUE_BOT.test(first)) return null;
  if (SUBMIT_QUEUE.test(first)) return paragraphs[1]?.trim().split('\n')[0]?.trim() || null;
  return firstParagraph(body);
}

/** A merge commit's body after the PR title (and after the merge bot's paragraph). */
export function mergeDescription(body: string): string {
  const paragraphs = body.trim().split(/\n\s*\n/);
  const first = paragraphs[0]?.trim() ?? '';
  if (PR_QUEUE_BOT.test(first)) return paragraphs.slice(1).join('\n\n');
  if (SUBMIT_QUEUE.test(first)) {
    // The title is the first line of the next paragraph; the description may follow it directly.
    const [, ...rest] = (paragraphs[1] ?? '').split('\n');
    return [rest.join('\n'), ...paragraphs.slice(2)].filter((p) => p.trim()).join('\n\n');
  }
  return paragraphs.slice(1).join('\n\n');
}

/**
 * `owner/repo` from any form of a GitHub remote URL: https (with or without a user, `.git` or a
 * trailing slash), `git@github.com:owner/repo.git`, `ssh://git@github.com[:port]/owner/repo`,
 * `git://github.com/owner/repo`. Anything else (another host, a local path) is null.
 */
export function parseGithubRemote(url: string): string | null {
  const trimmed = url.trim();
  const scp =
    /^(?:[^@/\s]+@)?(?:www\.|ssh\.)?github\.com:(?!\d+\/)\/?([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/i.exec(
      trimmed,
    );
  const full =
    /^(?:https?|ssh|git|git\+ssh|ssh\+git):\/\/(?:[^@/\s]+@)?(?:www\.|ssh\.)?github\.com(?::\d+)?\/([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/i.exec(
      trimmed,
    );
  const match = scp ?? full;
  return match ? `${match[1]}/${match[2]}` : null;
}

/** Validates `--github owner/repo`. */
export function isGithubRepoName(value: string): boolean {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(value);
}

export function pullRequestUrl(repo: string | null, number: number): string | null {
  return repo ? `https://github.com/${repo}/pull/${number}` : null;
}

export function commitUrl(repo: string, sha: string): string {
  return `https://github.com/${repo}/commit/${sha}`;
}

/** The PR a commit's own message names: GitHub's merge subject (title in the body), or a squash subject. */
export function readPullRequestReference(message: {
  subject: string;
  body: string;
}): { number: number; title: string | null; kind: 'merge' | 'squash' } | null {
  const merge = parseMergeSubject(message.subject);
  if (merge) return { number: merge.number, title: mergeTitle(message.body), kind: 'merge' };
  const squash = parseSquashSubject(message.subject);
  if (squash) return { number: squash.number, title: squash.title || null, kind: 'squash' };
  return null;
}

/** The kubernetes/kubernetes commit a published staging repository's commit was cut from. */
export function readUpstream(message: string): UpstreamCommit | undefined {
  const sha = parseKubernetesCommit(message);
  return sha
    ? { repo: KUBERNETES_REPO, commit: sha, url: commitUrl(KUBERNETES_REPO, sha) }
    : undefined;
}

/** Where PR links point: `--github`, else kubernetes/kubernetes for published commits, else origin. */
export function pullRequestRepo(
  override: string | null | undefined,
  published: boolean,
  origin: string | null,
): string | null {
  return override ?? (published ? KUBERNETES_REPO : origin);
}

/** The original PRs of a cherry-pick title, linked; undefined when the title is no cherry pick. */
export function readCherryPicks(
  title: string | null,
  repo: string | null,
): PullRequestRef[] | undefined {
  const numbers = parseCherryPickTitle(title ?? '');
  return numbers.length > 0
    ? numbers.map((number) => ({ number, url: pullRequestUrl(repo, number) }))
    : undefined;
}
