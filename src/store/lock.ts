/**
 * One writer per database: `index` takes `<db>.lock` (created exclusively, holding its pid). A
 * second run finds it and refuses with a clear message; a lock left by a dead process is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { DatabasePathError, IndexBusyError } from '../errors.js';
import { checkDatabasePath, pathError, prepareDirectory } from './verify.js';

export interface IndexLock {
  release(): void;
}

export function acquireIndexLock(dbPath: string, pid: number): IndexLock {
  const lockPath = `${dbPath}.lock`;
  prepareDirectory(dbPath);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      try {
        writeSync(fd, String(pid));
      } finally {
        closeSync(fd);
      }
      return { release: () => rmSync(lockPath, { force: true }) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The database's own name is what the user chose; the lock file is only where it failed.
      if (code === 'EISDIR') throw checkDatabasePathOrFail(dbPath);
      if (code !== 'EEXIST') throw pathError(dbPath, error as NodeJS.ErrnoException);
      const holder = Number(readFileSafe(lockPath));
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder))
        throw new IndexBusyError(dbPath);
      rmSync(lockPath, { force: true });
    }
  }
  throw new IndexBusyError(dbPath);
}

function readFileSafe(p: string): string {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock path that is a directory: whatever is wrong with the database path says more. */
function checkDatabasePathOrFail(dbPath: string): Error {
  try {
    checkDatabasePath(dbPath);
  } catch (found) {
    return found as Error;
  }
  return new DatabasePathError(
    `${dbPath}.lock`,
    'a directory where the lock file goes',
    `remove it (k8s-read creates ${dbPath}.lock while it indexes)`,
  );
}
