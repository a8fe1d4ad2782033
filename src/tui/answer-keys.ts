/** Keys of the answer cache that callers outside the screen fill in (no React here: src/cli imports it). */

/** The key of a file's text, for a caller that fills the cache before the first frame. */
export function sourceKey(file: string): string {
  return `source:${file}`;
}
