/**
 * Runs git: an argument array, never a shell, in a given directory, at most a few at a time.
 *
 * Plain child processes rather than simple-git: loading simple-git took 40-50 ms and collecting a
 * large output through it (the commit graph of a repository) ~40 ms of CPU, together a third of
 * what `blame FILE:LINE` may take on a cached answer. Nothing here needs what simple-git adds.
 */
import { spawn } from 'node:child_process';

/** A git process that exited non-zero; `exitCode` tells `merge-base --is-ancestor`'s "no" apart. */
export class GitCommandFailure extends Error {
  constructor(
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(stderr.trim() || `git exited with code ${exitCode}`);
    this.name = 'GitCommandFailure';
  }
}

/** Paths with spaces or non-ASCII characters come back verbatim rather than C-quoted. */
const CONFIG = ['-c', 'core.quotePath=false'];
const MAX_PROCESSES = 4;

let running = 0;
let started = 0;
const waiting: (() => void)[] = [];

/**
 * How many git processes this process has started: none means an answer came from the files and
 * the cache alone (what `blame` needs to know before its printed answer may be kept).
 */
export function gitProcessesStarted(): number {
  return started;
}

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function runGit(
  cwd: string,
  args: readonly string[],
  options: { input?: string; binary: true },
): Promise<Buffer>;
export function runGit(
  cwd: string,
  args: readonly string[],
  options?: { input?: string; binary?: false },
): Promise<string>;
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { input?: string; binary?: boolean } = {},
): Promise<string | Buffer> {
  return slot(
    () =>
      new Promise((resolve, reject) => {
        started++;
        const child = spawn('git', [...CONFIG, ...args], {
          cwd,
          stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout!.on('data', (d: Buffer) => out.push(d));
        child.stderr!.on('data', (d: Buffer) => err.push(d));
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0)
            return reject(new GitCommandFailure(code ?? -1, Buffer.concat(err).toString('utf8')));
          const stdout = Buffer.concat(out);
          resolve(options.binary ? stdout : stdout.toString('utf8'));
        });
        if (options.input !== undefined) child.stdin?.end(options.input);
      }),
  );
}
