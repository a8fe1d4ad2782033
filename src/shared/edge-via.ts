/**
 * The `via` of an interface call that reaches the interface's method and nothing further, because
 * no type of the index implements the interface: written by the link, read by the default view
 * (such a method ends the story at the call's own text).
 */
export const NO_IMPLEMENTATION = 'no implementation indexed';

/**
 * The `via` of an unresolved call of a function-typed field that no code of the index stores a
 * value into (kubeadm's `Phase.RunIf`, a hook only tests set): views fold it as they fold calls
 * into unindexed packages, and say why where they list it.
 */
export const NEVER_STORED = 'never stored';

const EXTERNAL = 'external:';

/** The `via` of an unresolved call on a value of the unindexed package `pkg`. */
export function externalVia(pkg: string): string {
  return `${EXTERNAL}${pkg}`;
}

/** The unindexed package an unresolved call's value comes from (`via: external:<path>`). */
export function externalPackageOf(via: string | null | undefined): string | undefined {
  return via?.startsWith(EXTERNAL) ? via.slice(EXTERNAL.length) : undefined;
}

/** Why an unresolved call is not followed, in words, when the link knew: its `via`. */
export function unresolvedReason(via: string | null | undefined): string | undefined {
  const pkg = externalPackageOf(via);
  if (pkg) return `a value from ${pkg}, not indexed`;
  return via === NEVER_STORED ? 'a field no indexed code sets' : undefined;
}
