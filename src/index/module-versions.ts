/**
 * Where a module version lives: its directory in the Go module cache (with the cache's case
 * encoding) and, when the module path says which GitHub repository holds it, the permalink base of
 * that version there.
 */
import path from 'node:path';

/**
 * The module cache's spelling of a module path or version: every capital letter becomes `!` and
 * the letter in lower case (`github.com/Azure/go-autorest` -> `github.com/!azure/go-autorest`), so
 * that paths differing only in case stay apart on case-insensitive file systems.
 */
export function escapeModulePath(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** `<cache>/<escaped module>@<escaped version>`. */
export function moduleCacheDir(cache: string, module: string, version: string): string {
  return path.join(cache, `${escapeModulePath(module)}@${escapeModulePath(version)}`);
}

/** GitHub repositories behind vanity import paths, by prefix. */
const VANITY: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^k8s\.io\/([^/]+)/, (m) => `kubernetes/${m[1]}`],
  [/^sigs\.k8s\.io\/([^/]+)/, (m) => `kubernetes-sigs/${m[1]}`],
  [/^golang\.org\/x\/([^/]+)/, (m) => `golang/${m[1]}`],
  [/^github\.com\/([^/]+\/[^/]+)/, (m) => m[1]!],
];

/**
 * `https://github.com/<owner>/<repo>/blob/<ref>[/<subdir>]` for a module at a version (a tag, or
 * the commit of a pseudo-version) or at a commit; `<base>/<path in module>#L<line>` is then a
 * permalink. Null when the module path does not say where it lives.
 */
export function modulePermalinkBase(
  module: string,
  at: { version: string } | { commit: string },
): string | null {
  for (const [pattern, slugOf] of VANITY) {
    const m = pattern.exec(module);
    if (!m) continue;
    const rest = module.slice(m[0].length).replace(/^\//, '');
    // A trailing /vN is the major version, not a directory (the major-branch convention).
    const subdir = rest.replace(/(^|\/)v\d+$/, '');
    const ref = 'commit' in at ? at.commit : versionRef(at.version, subdir);
    return `https://github.com/${slugOf(m)}/blob/${ref}${subdir ? `/${subdir}` : ''}`;
  }
  return null;
}

/** The git ref of a module version: the commit of a pseudo-version, else the (sub-module) tag. */
function versionRef(version: string, subdir: string): string {
  const pseudo = /[-.](?:0\.)?\d{14}-([0-9a-f]{12})(?:\+incompatible)?$/.exec(version);
  if (pseudo) return pseudo[1]!;
  const tag = version.replace(/\+incompatible$/, '');
  return subdir ? `${subdir}/${tag}` : tag;
}
