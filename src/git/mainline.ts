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
 */
export class Mainline {
  private constructor(
    /** HEAD's first-parent chain, newest (HEAD) first. */
    readonly chain: readonly string[],
    private readonly position: ReadonlyMap<string, number>,
    private readonly introducer: ReadonlyMap<string, string>,
    private readonly parentsOf: ReadonlyMap<string, readonly string[]>,
  ) {}

  /** Builds from `git rev-list --parents <head>` output (`sha parent...` per line). */
  static fromRevList(out: string, head: string): Mainline {
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

    const chain: string[] = [];
    const position = new Map<string, number>();
    for (let sha: string | undefined = head; sha !== undefined && parentsOf.has(sha); sha = parentsOf.get(sha)?.[0]) {
      position.set(sha, chain.length);
      chain.push(sha);
    }

    const introducer = new Map<string, string>();
    for (const sha of chain) introducer.set(sha, sha);
    const stack: string[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      const merge = chain[i] as string;
      const sideParents = parentsOf.get(merge)?.slice(1) ?? [];
      stack.push(...sideParents);
      while (stack.length > 0) {
        const sha = stack.pop() as string;
        if (introducer.has(sha) || !parentsOf.has(sha)) continue;
        introducer.set(sha, merge);
        for (const parent of parentsOf.get(sha) ?? []) if (!introducer.has(parent)) stack.push(parent);
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

  parents(sha: string): readonly string[] {
    return this.parentsOf.get(sha) ?? [];
  }

  get size(): number {
    return this.parentsOf.size;
  }
}
