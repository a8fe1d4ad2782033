/**
 * Runs the built CLI (`dist/cli.js`) as a user would and captures exit code, stdout and stderr.
 * The database and cache go to a per-test temporary directory unless the caller passes its own env.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = path.join(projectRoot, 'dist', 'cli.js');
export const demoRoot = path.join(projectRoot, 'fixtures', 'kubernetes');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /**
   * Run as a user without special rights (uid/gid 65534 when the tests run as root), so that file
   * permissions mean what they mean for a user. The files involved must be reachable by that user.
   */
  unprivileged?: boolean;
  /** Another install's entry to run instead of ours (copyInstall). */
  cli?: string;
}

/**
 * An environment in which the CLI sees nothing of this machine's: caches and home under `dir`, and
 * no Go module cache unless a test names one.
 */
export function isolatedEnv(dir: string): Record<string, string | undefined> {
  return {
    XDG_CACHE_HOME: path.join(dir, 'cache'),
    HOME: dir,
    GOMODCACHE: undefined,
    GOPATH: undefined,
  };
}

/** True when `unprivileged` changes the user: the tests run as root. */
export const dropsPrivileges = process.getuid?.() === 0;

export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
    };
    delete env.KUBERNETES_SRC;
    delete env.K8S_READ_DEBUG;
    Object.assign(env, options.env);
    const child = spawn(process.execPath, [options.cli ?? cliPath, ...args], {
      cwd: options.cwd ?? projectRoot,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.unprivileged && dropsPrivileges ? { uid: 65534, gid: 65534 } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * A second install of this build in `dir`: `dist/`, `package.json` and `parts` (folders of the
 * package such as `rules`) copied, `node_modules` linked. Returns its entry, for RunCliOptions.cli.
 */
export function copyInstall(dir: string, parts: readonly string[] = ['rules']): string {
  mkdirSync(dir, { recursive: true });
  for (const part of ['dist', ...parts])
    cpSync(path.join(projectRoot, part), path.join(dir, part), { recursive: true });
  cpSync(path.join(projectRoot, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
  return path.join(dir, 'dist', 'cli.js');
}
