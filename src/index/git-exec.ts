/**
 * git for discovery, as plain child processes: a handful of calls whose output is read whole. (The
 * git library the blame side uses costs ~50 ms to load, more than these calls take.)
 */
import { execFile } from 'node:child_process';

/** `git <args>` in `cwd` as raw bytes (names that are not UTF-8 survive); rejects on a failure. */
export function gitBytes(cwd: string, args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 1 << 30 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** `git <args>` in `cwd` as text; rejects on a failure. */
export async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  return (await gitBytes(cwd, args)).toString('utf8');
}
