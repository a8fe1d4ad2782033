/**
 * Commit -> the pull request that brought it into HEAD's main line, for many commits at once.
 *
 * The main-line commit that brought a commit in (see mainline.ts) carries the PR: GitHub's
 * `Merge pull request #N from owner/branch` with the title in its body, or a squash subject
 * ending in `(#N)`. Published staging repositories (client-go, api, ...) add a
 * `Kubernetes-commit:` trailer naming the upstream commit, and their PR numbers are
 * kubernetes/kubernetes PRs. Answers are cached per commit: which main-line commit contains a
 * commit is fixed by that main-line commit's own ancestry, so an answer stays true as HEAD moves
 * on. Shallow clones are never cached: fetching more history can change the answer.
 */
import type { Store } from '../store/db.js';
import { readCachedPullRequests, writeCachedPullRequests } from '../store/git-cache.js';
import { openMainlineView, type MainlineView } from './mainline-view.js';
import {
  parseKubernetesCommit,
  pullRequestRepo,
  pullRequestUrl,
  readCherryPicks,
  readPullRequestReference,
  readUpstream,
} from './pr-reference.js';
import type { CommitInfo, GitRepository } from './repository.js';
import type { PullRequestAnswer } from './types.js';

export interface PullRequestOptions {
  /** `owner/repo` that PR links point at. @default the `origin` remote when it is on GitHub */
  github?: string | null;
  /** Where answers are cached (the index database). @default no cache */
  cache?: Store;
  /** Receives one line per cache failure or timing note. @default ignore */
  debug?: (message: string) => void;
}

/**
 * How far above a main-line commit to look for the publishing bot's flattened merge. The bot
 * writes a single-parent `Merge pull request #N` right above a PR's own commits; a PR rarely has
 * more commits than this.
 */
const FLATTENED_MERGE_WINDOW = 60;

export const UNCOMMITTED_REASON = 'not committed yet: a local edit in the work tree';

export function short(sha: string): string {
  return sha.slice(0, 8);
}

/** HEAD's main line per repository, opened once: prefetchMainline may have started it. */
const mainlines = new WeakMap<GitRepository, Map<string, Promise<MainlineView>>>();

function mainlineFor(
  repo: GitRepository,
  head: string,
  cache: Store | undefined,
  debug: ((message: string) => void) | undefined,
): Promise<MainlineView> {
  let byHead = mainlines.get(repo);
  if (!byHead) mainlines.set(repo, (byHead = new Map()));
  let view = byHead.get(head);
  if (!view) {
    view = openMainlineView(repo, head, cache, debug);
    // Asked ahead of need, it may fail before anyone waits for it: the one who does is told.
    view.catch(() => undefined);
    byHead.set(head, view);
  }
  return view;
}

/**
 * Starts reading HEAD's main line for the resolvePullRequests that follows: git's longest answer
 * in a cold blame (the commit graph, when the cache has no main line for HEAD) then runs beside
 * `git blame` instead of after it. With the main line stored, it is a read of the cache.
 */
export function prefetchMainline(
  repo: GitRepository,
  head: string,
  options: PullRequestOptions = {},
): void {
  void mainlineFor(repo, head, repo.shallow ? undefined : options.cache, options.debug);
}

/** The PR answer for each commit (all must be in HEAD's history), cached where allowed. */
export async function resolvePullRequests(
  repo: GitRepository,
  head: string,
  commits: Iterable<string>,
  options: PullRequestOptions = {},
): Promise<Map<string, PullRequestAnswer>> {
  const wanted = [...new Set(commits)];
  const answers = new Map<string, PullRequestAnswer>();
  if (wanted.length === 0) return answers;
  const links: LinkRepos = {
    override: options.github ?? null,
    origin: options.github ? null : await repo.githubRemote(),
  };
  const cacheKey = links.override ? `--github ${links.override}` : (links.origin ?? '');
  const cache = repo.shallow ? undefined : options.cache;
  if (cache) {
    const hits = await readCachedPullRequests<PullRequestAnswer>(cache, cacheKey, wanted).catch(
      (error: unknown) => {
        options.debug?.(`cache read failed: ${String(error)}`);
        return new Map<string, PullRequestAnswer>();
      },
    );
    for (const [sha, answer] of hits) answers.set(sha, answer);
  }
  const misses = wanted.filter((sha) => !answers.has(sha));
  if (misses.length === 0) return answers;

  const mainline = await mainlineFor(repo, head, cache, options.debug);
  const introducers = await mainline.introducers(misses);
  const infos = await repo.commits([...misses, ...introducers.values()]);
  const flattened = await findFlattenedMerges(repo, mainline, misses, introducers, infos);

  const fresh = new Map<string, PullRequestAnswer>();
  for (const sha of misses) {
    const introducer = introducers.get(sha);
    const answer = repo.shallowCommits.has(sha)
      ? shallowAnswer(sha)
      : answerFor(
          infos.get(sha),
          introducer === undefined ? undefined : infos.get(introducer),
          flattened.found.get(sha),
          links,
        );
    answers.set(sha, answer ?? notInHistory(sha, repo.shallow));
    if (!flattened.undecided.has(sha)) fresh.set(sha, answers.get(sha) as PullRequestAnswer);
  }
  if (cache) {
    await writeCachedPullRequests(cache, cacheKey, fresh).catch((error: unknown) => {
      options.debug?.(`cache write failed: ${String(error)}`);
    });
  }
  return answers;
}

/** Where links point: `--github` wins; else kubernetes/kubernetes for published commits, else origin. */
interface LinkRepos {
  override: string | null;
  origin: string | null;
}

function shallowAnswer(sha: string): PullRequestAnswer {
  return {
    pr: null,
    reason: `shallow clone: history stops at ${short(sha)}, so the line may be older than that commit; run \`git fetch --unshallow\` to find its pull request`,
  };
}

function notInHistory(sha: string, shallow: boolean): PullRequestAnswer {
  const fix = shallow ? '; the clone is shallow: run `git fetch --unshallow`' : '';
  return { pr: null, reason: `${short(sha)} is not in HEAD's history${fix}` };
}

/** The answer for one commit, given the main-line commit that brought it in. */
export function answerFor(
  commit: CommitInfo | undefined,
  merge: CommitInfo | undefined,
  flattened: CommitInfo | undefined,
  links: LinkRepos,
): PullRequestAnswer | undefined {
  if (!commit || !merge) return undefined;
  const upstream = readUpstream(commit.body);
  const found = findPullRequest(commit, merge, flattened);
  const published =
    upstream !== undefined || (found !== null && readUpstream(found.carrier.body) !== undefined);
  const prRepo = pullRequestRepo(links.override, published, links.origin);
  const answer: PullRequestAnswer = { pr: null, reason: '' };
  if (found) {
    answer.pr = {
      number: found.number,
      title: found.title,
      url: pullRequestUrl(prRepo, found.number),
      mergeCommit: found.carrier.sha,
    };
    answer.reason = found.reason;
  } else if (merge.sha !== commit.sha) {
    answer.reason = `brought in by merge ${short(merge.sha)} "${merge.subject}", which names no pull request`;
  } else {
    answer.reason = 'direct commit on the main line with no pull request reference';
  }
  if (upstream) {
    answer.upstream = upstream;
    answer.reason += `; published from ${upstream.repo} commit ${short(upstream.commit)} (Kubernetes-commit trailer)`;
  }
  const picks = readCherryPicks(found?.title ?? null, prRepo);
  if (picks) {
    answer.cherryPickOf = picks;
    answer.reason += `; a cherry pick of ${picks.map((p) => `#${p.number}`).join(', ')}`;
  }
  return answer;
}

interface FoundPullRequest {
  number: number;
  title: string | null;
  /** The commit whose message names the PR. */
  carrier: CommitInfo;
  reason: string;
}

/** Which message names the PR: the introducing merge, the commit itself, or a flattened merge. */
function findPullRequest(
  commit: CommitInfo,
  merge: CommitInfo,
  flattened: CommitInfo | undefined,
): FoundPullRequest | null {
  const viaMerge = readPullRequestReference(merge);
  if (viaMerge) {
    const reason =
      viaMerge.kind === 'merge'
        ? `merged by ${short(merge.sha)} "${merge.subject}"`
        : `squash merge: the subject of ${short(merge.sha)} ends with (#${viaMerge.number})`;
    return { number: viaMerge.number, title: viaMerge.title, carrier: merge, reason };
  }
  const own = commit.sha === merge.sha ? null : readPullRequestReference(commit);
  if (own) {
    const names = own.kind === 'merge' ? `"${commit.subject}"` : `ends with (#${own.number})`;
    return {
      number: own.number,
      title: own.title,
      carrier: commit,
      reason: `the subject of ${short(commit.sha)} ${names}; ${short(merge.sha)} "${merge.subject}" brought it into the main line`,
    };
  }
  const flat = flattened ? readPullRequestReference(flattened) : null;
  if (flattened && flat?.kind === 'merge') {
    return {
      number: flat.number,
      title: flat.title,
      carrier: flattened,
      reason: `published staging repository: ${short(flattened.sha)} "${flattened.subject}" above it on the main line is the publishing bot's flattened merge`,
    };
  }
  return null;
}

/**
 * In a published staging repository the bot flattens a PR whose main-line side did not touch the
 * repository: the PR's commits land on the main line, followed by a single-parent commit with the
 * merge's message. For each such main-line commit without a reference of its own, find that
 * commit: the first newer main-line commit that names a PR, if it is such a flattened merge.
 */
async function findFlattenedMerges(
  repo: GitRepository,
  mainline: MainlineView,
  misses: readonly string[],
  introducers: ReadonlyMap<string, string>,
  infos: ReadonlyMap<string, CommitInfo>,
): Promise<{ found: Map<string, CommitInfo>; undecided: Set<string> }> {
  const candidates = misses.filter((sha) => {
    const info = infos.get(sha);
    return (
      introducers.get(sha) === sha &&
      info !== undefined &&
      parseKubernetesCommit(info.body) !== null &&
      !readPullRequestReference(info)
    );
  });
  const found = new Map<string, CommitInfo>();
  const undecided = new Set<string>();
  if (candidates.length === 0) return { found, undecided };
  const windows = new Map<string, string[]>();
  for (const sha of candidates) windows.set(sha, await mainline.above(sha, FLATTENED_MERGE_WINDOW));
  const aboveInfos = await repo.commits([...windows.values()].flat());
  for (const [sha, window] of windows) {
    let ended = false;
    for (const newer of window) {
      const info = aboveInfos.get(newer);
      const reference = info ? readPullRequestReference(info) : null;
      // The run of a PR's commits is unbroken: a commit the bot did not cut from kubernetes (no
      // trailer), a real merge or another PR's squash ends it; the flattened merge closes it.
      ended =
        !info ||
        parseKubernetesCommit(info.body) === null ||
        info.parents.length > 1 ||
        reference !== null;
      if (!ended) continue;
      if (
        info &&
        reference?.kind === 'merge' &&
        info.parents.length === 1 &&
        parseKubernetesCommit(info.body)
      ) {
        found.set(sha, info);
      }
      break;
    }
    // HEAD stops inside the run: its flattened merge may not have arrived yet.
    if (!ended && window.length < FLATTENED_MERGE_WINDOW) undecided.add(sha);
  }
  return { found, undecided };
}
