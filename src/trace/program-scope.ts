/**
 * A trace is one program: the packages in the transitive import closure of its main package (or,
 * for a library symbol, of the symbol's package or of a binary named with `--in`). Calls into
 * other indexed packages cannot happen in that program, and an edge that needs code of packages
 * outside it (a function stored into a field by another component) does not exist there.
 */

export interface PackageInfo {
  id: number;
  path: string;
  imports: readonly string[];
}

export interface ProgramScope {
  /** Import path of the package the closure starts from. */
  from: string;
  /** Indexed packages in the closure. */
  size: number;
  /** Whether an indexed package belongs to the program (unindexed packages are leaves: true). */
  has(pkg: string): boolean;
  /** Whether an edge's needs (`3,17|25`: package ids) hold in the program. */
  satisfies(needs: string | null | undefined): boolean;
}

export function programScope(
  packages: readonly PackageInfo[],
  from: readonly string[],
): ProgramScope {
  const byPath = new Map(packages.map((p) => [p.path, p]));
  const inside = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (inside.has(path)) continue;
    const pkg = byPath.get(path);
    if (!pkg) continue;
    inside.add(path);
    for (const imp of pkg.imports) if (!inside.has(imp)) stack.push(imp);
  }
  const ids = new Set<number>();
  for (const path of inside) ids.add(byPath.get(path)!.id);
  const memo = new Map<string, boolean>();
  return {
    from: from.join(' + '),
    size: inside.size,
    has: (pkg) => inside.has(pkg) || !byPath.has(pkg),
    satisfies(needs) {
      if (!needs) return true;
      let ok = memo.get(needs);
      if (ok === undefined) {
        ok = needs.split('|').some((alt) => alt.split(',').every((id) => ids.has(Number(id))));
        memo.set(needs, ok);
      }
      return ok;
    },
  };
}
