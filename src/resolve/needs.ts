/**
 * What an edge needs of the program it is traced in. The index holds every program of a
 * repository at once; a value that reaches a call through code of other packages (a function
 * stored into a field by kube-controller-manager, a closure passed to a shared helper by kubeadm)
 * only reaches it in a program that contains that code. Value flow records the packages each step
 * went through; an edge is kept by a trace only when one of its alternatives lies wholly inside the
 * program's import closure.
 *
 * `Needs` is a disjunction of package sets: `[[]]` needs nothing, `[['a'], ['b', 'c']]` needs `a`,
 * or both `b` and `c`.
 */

export type Needs = readonly (readonly string[])[];

/** Needs nothing: the value is where the call is. */
export const ALWAYS: Needs = [[]];

/** At most this many alternatives are kept; the smallest win (they are the likeliest to hold). */
const MAX_ALTERNATIVES = 4;

/** The needs of a value reached through a step in `pkg`. */
export function through(needs: Needs, pkg: string): Needs {
  return needs.map((alt) => (alt.includes(pkg) ? alt : [...alt, pkg].sort()));
}

/** Either set of needs suffices. */
export function either(a: Needs, b: Needs): Needs {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const all = [...a, ...b].sort((x, y) => x.length - y.length);
  const kept: (readonly string[])[] = [];
  for (const alt of all) {
    // An alternative that contains a kept one adds nothing.
    if (kept.some((k) => k.every((p) => alt.includes(p)))) continue;
    kept.push(alt);
    if (kept.length === MAX_ALTERNATIVES) break;
  }
  return kept;
}

/** Both sets of needs must hold. */
export function both(a: Needs, b: Needs): Needs {
  if (b.length === 1 && b[0]!.length === 0) return a;
  if (a.length === 1 && a[0]!.length === 0) return b;
  return either(
    [],
    a.flatMap((x) => b.map((y) => [...new Set([...x, ...y])].sort())),
  );
}

/**
 * The needs that remain once a caller in `callerPkg` is known to be in the program: the caller's
 * own import closure is in every program that holds it. Null when nothing remains to check.
 */
export function remaining(
  needs: Needs,
  implied: (pkg: string) => boolean,
): (readonly string[])[] | null {
  const left = needs.map((alt) => alt.filter((p) => !implied(p)));
  if (left.some((alt) => alt.length === 0)) return null;
  return left;
}
