/**
 * The main line of HEAD, from memory or from the cache database. Reading the commit graph of a
 * 100k-commit history costs about a second, so the assignment is stored once and then only
 * extended with the commits that arrived since (a pull, a checkout further along the same line);
 * any other HEAD (another branch, a rewritten history) reads the graph again and replaces it.
 */
import type { Store } from '../store/db.js';
import {
  readMainlineAbove,
  readMainlineHead,
  readMainlineRows,
  writeMainline,
} from '../store/git-cache.js';
import { Mainline, parseRevList } from './mainline.js';
import type { GitRepository } from './repository.js';

export interface MainlineView {
  /** The oldest main-line commit containing each commit; absent for commits HEAD does not contain. */
  introducers(commits: readonly string[]): Promise<Map<string, string>>;
  /** Up to `count` main-line commits newer than the main-line commit `sha`, nearest first. */
  above(sha: string, count: number): Promise<string[]>;
}

export async function openMainlineView(
  repo: GitRepository,
  head: string,
  cache: Store | undefined,
  debug: (message: string) => void = () => undefined,
): Promise<MainlineView> {
  if (!cache || repo.shallow) return memoryView(await repo.mainline(head));
  try {
    const stored = await storedView(repo, head, cache);
    if (stored) return stored;
  } catch (error) {
    debug(`stored main line unusable, reading the graph: ${String(error)}`);
    return memoryView(await repo.mainline(head));
  }
  const mainline = await repo.mainline(head);
  const base = await readMainlineHead(cache).catch(() => undefined);
  await writeMainline(cache, {
    base: base?.head ?? null,
    head,
    rows: mainline.rows(),
    replace: true,
  }).catch((error: unknown) => {
    debug(`could not store the main line: ${String(error)}`);
  });
  return memoryView(mainline);
}

function memoryView(mainline: Mainline): MainlineView {
  return {
    introducers: async (commits) => {
      const found = new Map<string, string>();
      for (const sha of commits) {
        const introducer = mainline.introducedBy(sha);
        if (introducer !== undefined) found.set(sha, introducer);
      }
      return found;
    },
    above: async (sha, count) => mainline.above(sha, count),
  };
}

/** The stored main line when it is HEAD's, or can be made HEAD's by extending it; else undefined. */
async function storedView(
  repo: GitRepository,
  head: string,
  cache: Store,
): Promise<MainlineView | undefined> {
  const recorded = await readMainlineHead(cache);
  if (!recorded) return undefined;
  if (recorded.head === head) return sqlView(repo, head, cache, recorded.depth);

  const newer = await repo.tryRun(['rev-list', '--parents', head, `^${recorded.head}`]);
  if (!newer.ok) return undefined; // the recorded HEAD is gone (a rewritten, collected history)
  if (newer.stdout.trim() === '') {
    // HEAD went back along the recorded line: the rows up to it still hold.
    const depth = (await readMainlineRows(cache, [head])).get(head)?.depth;
    return depth === null || depth === undefined ? undefined : sqlView(repo, head, cache, depth);
  }
  const added = Mainline.build(parseRevList(newer.stdout), head);
  if (added.joinsAt !== recorded.head) return undefined; // HEAD's main line does not pass through it
  const written = await writeMainline(cache, {
    base: recorded.head,
    head,
    rows: added.rows(recorded.depth + 1),
    replace: false,
  });
  return written ? sqlView(repo, head, cache, recorded.depth + added.chain.length) : undefined;
}

function sqlView(repo: GitRepository, head: string, cache: Store, headDepth: number): MainlineView {
  return {
    introducers: async (commits) => {
      const rows = await readMainlineRows(cache, commits);
      const found = new Map<string, string>();
      for (const [sha, row] of rows) found.set(sha, row.introducer);
      // Every commit of HEAD's history has a row; one without is a sign of a damaged cache, and the
      // graph itself then answers.
      const missing = commits.filter((sha) => !found.has(sha));
      if (missing.length > 0) {
        const mainline = await repo.mainline(head);
        for (const sha of missing) {
          const introducer = mainline.introducedBy(sha);
          if (introducer !== undefined) found.set(sha, introducer);
        }
      }
      return found;
    },
    above: async (sha, count) => {
      const depth = (await readMainlineRows(cache, [sha])).get(sha)?.depth;
      return depth === null || depth === undefined
        ? []
        : readMainlineAbove(cache, depth, headDepth, count);
    },
  };
}
