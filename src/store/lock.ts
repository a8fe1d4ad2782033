/**
 * One writer per database: `index` takes `<db>.lock` (created exclusively, holding its pid). A
 * second run finds it and refuses with a clear message; a lock left by a dead process is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { IndexBusyError } from '../errors.js';

export interface IndexLock {
  release(): void;
}

export function acquireIndexLock(dbPath: string, pid: number): IndexLock {
  const lockPath = `${dbPath}.lock`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(pid));
      closeSync(fd);
      return { release: () => rmSync(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
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
