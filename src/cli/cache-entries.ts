/**
 * Files kept in a directory of the cache (`rules/`, `answers/`): each written whole or not at all,
 * the directory kept to its most recent entries. A reader never sees half a file, and a cache
 * shared by several installs and trees stays small.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface KeptLimits {
  /** At most this many entries... */
  count: number;
  /** ...taking at most this many bytes together (the newest is kept whatever its size). */
  bytes?: number;
}

/**
 * Writes `text` to `file` (through a rename), then removes the least recently written `.json`
 * entries of its directory past `limits`; the one just written always stays. Throws what the file
 * system throws: the caller decides what a failed write costs.
 */
export function writeCacheEntry(file: string, text: string, limits: KeptLimits): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
  keepMostRecent(dir, limits, path.basename(file));
}

/**
 * Removes the `.json` entries of `dir` past `limits`, newest first by modification time; `newest`
 * (the entry just written) comes first among equal times, as a coarse clock gives them, and the
 * others by name (not in the directory's order, which differs between file systems).
 */
export function keepMostRecent(dir: string, limits: KeptLimits, newest?: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const s = statSync(path.join(dir, name), { throwIfNoEntry: false });
      return s ? [{ name, at: s.mtimeMs, size: s.size }] : [];
    })
    .sort(
      (a, b) =>
        b.at - a.at || (a.name === newest ? -1 : b.name === newest ? 1 : a.name < b.name ? 1 : -1),
    );
  let bytes = 0;
  entries.forEach((entry, i) => {
    bytes += entry.size;
    if (i > 0 && (i >= limits.count || (limits.bytes !== undefined && bytes > limits.bytes)))
      rmSync(path.join(dir, entry.name), { force: true });
  });
}
