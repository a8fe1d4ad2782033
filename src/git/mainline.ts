/**
 * Which commit on HEAD's first-parent chain (the "main line") brought a commit in.
 *
 * The answer for a commit C is the oldest main-line commit that has C as an ancestor — C itself
 * when C sits on the chain. That is `git rev-list --ancestry-path C..HEAD` intersected with the
 * chain, but running that per commit walks most of a 100k-commit history each time, and
 * `--first-parent` combined with `--ancestry-path` finds nothing for a commit off the chain. So the
 * graph is read once (`git rev-list --parents HEAD`, one line per commit) and every commit is
 * assigned in one pass: walking the chain from its oldest end, a merge claims whatever its side
 * parents reach that no older main-line commit already claimed. Everything an older chain commit
 * reaches is already claimed, so each commit is visited once: O(commits) for any number of
 * lookups.
 *
 * The same pass extends an earlier answer: given only the commits new since an old HEAD that
 * sits on the new HEAD's chain (`git rev-list --parents HEAD ^OLD`), everything the walk does not
 * reach was claimed before, and keeps its answer.
 */

/** `git rev-list --parents` output (`sha parent...` per line) as a map. */
export function parseRevList(out: string): Map<string, string[]> {
  const parentsOf = new Map<string, string[]>();
  let start = 0;
  while (start < out.length) {
    let end = out.indexOf('\n', start);
    if (end === -1) end = out.length;
    const line = out.slice(start, end);
    start = end + 1;
    if (line.length < 40) continue;
    const [sha, ...parents] = line.split(' ');
    if (sha) parentsOf.set(sha, parents);
  }
  return parentsOf;
}

/** A row of the stored main line: `depth` counts main-line commits from the oldest end (0). */
export interface MainlineRow {
  commit: string;
  introducer: string;
  depth: number | null;
}

export class Mainline {
  private constructor(
    /** HEAD's first-parent chain within the graph, newest (HEAD) first. */
    readonly chain: readonly string[],
    private readonly position: ReadonlyMap<string, number>,
    private readonly introducer: ReadonlyMap<string, string>,
    private readonly parentsOf: ReadonlyMap<string, readonly string[]>,
  ) {}

  static fromRevList(out: string, head: string): Mainline {
    return Mainline.build(parseRevList(out), head);
  }

  /**
   * Assigns every commit of `parentsOf` reachable from `head`. Parents outside the map count as
   * claimed already (an older HEAD's history) or absent (beyond a shallow clone's boundary).
   */
  static build(parentsOf: Map<string, string[]>, head: string): Mainline {
    const chain: string[] = [];
    const position = new Map<string, number>();
    for (
      let sha: string | undefined = head;
      sha !== undefined && parentsOf.has(sha);
      sha = parentsOf.get(sha)?.[0]
    ) {
      position.set(sha, chain.length);
      chain.push(sha);
    }

    const introducer = new Map<string, string>();
    for (const sha of chain) introducer.set(sha, sha);
    const stack: string[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      const merge = chain[i] as string;
      stack.push(...(parentsOf.get(merge)?.slice(1) ?? []));
      while (stack.length > 0) {
        const sha = stack.pop() as string;
        if (introducer.has(sha) || !parentsOf.has(sha)) continue;
        introducer.set(sha, merge);
        for (const parent of parentsOf.get(sha) ?? [])
          if (!introducer.has(parent)) stack.push(parent);
      }
    }
    return new Mainline(chain, position, introducer, parentsOf);
  }

  /** The oldest main-line commit that contains `sha`; undefined when HEAD does not contain it. */
  introducedBy(sha: string): string | undefined {
    return this.introducer.get(sha);
  }

  /** Index in `chain` (0 is HEAD), or undefined for a commit off the main line. */
  positionOf(sha: string): number | undefined {
    return this.position.get(sha);
  }

  /** Up to `count` main-line commits newer than the main-line commit `sha`, nearest first. */
  above(sha: string, count: number): string[] {
    const p = this.position.get(sha);
    if (p === undefined) return [];
    return this.chain.slice(Math.max(0, p - count), p).reverse();
  }

  /** The first parent of the chain's oldest commit: where an incremental graph joins the old one. */
  get joinsAt(): string | undefined {
    const oldest = this.chain[this.chain.length - 1];
    return oldest === undefined ? undefined : this.parentsOf.get(oldest)?.[0];
  }

  parents(sha: string): readonly string[] {
    return this.parentsOf.get(sha) ?? [];
  }

  get size(): number {
    return this.parentsOf.size;
  }

  /** Every assigned commit, main-line depths counted on from `baseDepth` (the oldest chain commit's). */
  rows(baseDepth = 0): MainlineRow[] {
    const rows: MainlineRow[] = [];
    const last = this.chain.length - 1;
    for (const [commit, introducer] of this.introducer) {
      const p = this.position.get(commit);
      rows.push({ commit, introducer, depth: p === undefined ? null : baseDepth + (last - p) });
    }
    return rows;
  }
}
