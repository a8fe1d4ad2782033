/**
 * What a file's metadata says about its content, for the caches that trust it as `make` and git's
 * index do: any write or replacement changes the device, inode, size, modification or change time
 * (the change time cannot be set back). Shared by the index's `<db>.checked` (src/store/verify.ts)
 * and the kept outputs of a command (src/cli/replay.ts); without sqlite3, so a command that only
 * needs these loads nothing heavy.
 */
import { statSync } from 'node:fs';

/** The file's identity and last change, or undefined when there is no file. */
export function fileIdentity(file: string): string | undefined {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : undefined;
}

/**
 * True when the file was modified (or its inode changed) within the last `ms`: a write in the
 * same clock tick as a look at it may not show in its times yet. False when there is no file.
 */
export function changedWithin(file: string, ms: number): boolean {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!s) return false;
  const since = BigInt(Date.now() - ms) * 1_000_000n;
  return s.mtimeNs > since || s.ctimeNs > since;
}

/**
 * A SQLite database file's identity and last change, or undefined when that does not say what it
 * holds: no file, or a WAL with content (transactions not yet in the file itself).
 */
export function databaseFileState(file: string): string | undefined {
  try {
    return hasPendingWal(file) ? undefined : fileIdentity(file);
  } catch {
    return undefined;
  }
}

/** A WAL file with content: what the main file alone does not hold yet. */
export function hasPendingWal(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}
