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

/**
 * The `via` of an unresolved call of a local (or named result) that holds nil wherever the index
 * says where it comes from: `var cleanupAction func()`, given only nil by what returns it (the
 * kubelet's, guarded by `if cleanupAction != nil`). Views fold it as NEVER_STORED.
 */
export const NIL_ONLY = 'nil only';

/**
 * The `via` of an unresolved call of a value ranged over a package's list that no code of the
 * index fills (apimachinery's `serializerExtensions`, filled by files built in elsewhere): the
 * loop never runs. Views fold it as NEVER_STORED.
 */
export const NEVER_FILLED = 'never filled';

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
  if (via === NIL_ONLY) return 'nil wherever indexed code sets it';
  if (via === NEVER_FILLED) return 'from a list no indexed code fills';
  return via === NEVER_STORED ? 'a field no indexed code sets' : undefined;
}

/** Whether an unresolved call's `via` says nothing runs there, as far as the index tells. */
export function runsNothing(via: string | null | undefined): boolean {
  return via === NEVER_STORED || via === NIL_ONLY || via === NEVER_FILLED;
}
