/**
 * git for discovery, as plain child processes: a handful of calls whose output is read whole. (The
 * git library the blame side uses costs ~50 ms to load, more than these calls take.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** What one command of a batch printed, or undefined when it failed. */
export type GitOutput = Buffer | undefined;

/**
 * Several git commands in `cwd` at once, each one's output or undefined when it failed. Where
 * there is a POSIX shell, one `sh` starts them all and each writes a file of its own: starting a
 * process costs Node's main thread 10-20 ms at the size `index` has by then (a no-op re-index of
 * v1.24 spent 148 ms in eight spawns); the shell is one spawn. Elsewhere (no shell, no writable
 * temporary directory), one process each.
 */
export async function gitBatch(
  cwd: string,
  commands: readonly (readonly string[])[],
): Promise<GitOutput[]> {
  const each = () => Promise.all(commands.map((c) => gitBytes(cwd, c).catch(() => undefined)));
  if (process.platform === 'win32') return each();
  let dir: string;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-git-'));
  } catch {
    return each(); // no temporary directory to write to
  }
  try {
    // Each output goes to <dir>/<i> and its exit status to <dir>/<i>.rc; every argument and
    // path is quoted for the shell.
    const script = commands
      .map((args, i) => {
        const out = shellQuote(path.join(dir, String(i)));
        const rc = shellQuote(path.join(dir, `${i}.rc`));
        return `{ git ${args.map(shellQuote).join(' ')} >${out} 2>/dev/null; echo $? >${rc}; } &`;
      })
      .concat('wait')
      .join('\n');
    const started = await new Promise<boolean>((resolve) =>
      execFile('/bin/sh', ['-c', script], { cwd }, (error) =>
        // No shell to start: one process each, below. A shell stopped (an interrupt) leaves the
        // answers it has; the rest are undefined.
        resolve((error as NodeJS.ErrnoException | null)?.code !== 'ENOENT'),
      ),
    );
    if (!started) return await each();
    return commands.map((_, i) => {
      try {
        if (readFileSync(path.join(dir, `${i}.rc`), 'utf8').trim() !== '0') return undefined;
        return readFileSync(path.join(dir, String(i)));
      } catch {
        return undefined;
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
