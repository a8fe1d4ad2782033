/**
 * Which repository a command works on and where its index lives. Order: --repo, KUBERNETES_SRC,
 * the Go checkout (a git work tree with a go.mod at its top) around the current directory, then the
 * bundled demo tree — announced in one line on stderr so nobody mistakes it for their checkout.
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { RepoNotFoundError } from '../errors.js';
import type { CliContext } from './context.js';
import { demoRepoRoot } from './package-info.js';

export interface RepoOptions {
  repo?: string;
  db?: string;
}

export interface RepoChoice {
  root: string;
  source: 'flag' | 'env' | 'cwd' | 'demo';
  dbPath: string;
}

export function addRepoOptions(cmd: Command): Command {
  return cmd
    .option(
      '--repo <path>',
      'the Go checkout to read (default: $KUBERNETES_SRC, the checkout around you, else the demo tree)',
    )
    .option(
      '--db <path>',
      'the index database (default: one per repository under $XDG_CACHE_HOME/k8s-read/)',
    );
}

export function chooseRepo(options: RepoOptions, ctx: CliContext): RepoChoice {
  const pick = (): Omit<RepoChoice, 'dbPath'> => {
    if (options.repo)
      return { root: checkDirectory(path.resolve(ctx.cwd, options.repo)), source: 'flag' };
    const fromEnv = ctx.env.KUBERNETES_SRC;
    if (fromEnv) return { root: checkDirectory(path.resolve(ctx.cwd, fromEnv)), source: 'env' };
    const around = findGoCheckout(ctx.cwd);
    if (around) return { root: around, source: 'cwd' };
    return { root: realpathSync(demoRepoRoot), source: 'demo' };
  };
  const choice = pick();
  const dbPath = options.db ? path.resolve(ctx.cwd, options.db) : defaultDbPath(choice.root, ctx);
  return { ...choice, dbPath };
}

/** Prints the one line that says the demo tree is in use. */
export function announceRepo(choice: RepoChoice, ctx: CliContext): void {
  if (choice.source === 'demo') {
    ctx.stderr.write(
      'note: no --repo, KUBERNETES_SRC or Go checkout here; using the bundled demo tree (fixtures/kubernetes)\n',
    );
  }
}

function checkDirectory(dir: string): string {
  if (!existsSync(dir)) throw new RepoNotFoundError(dir, 'no such directory');
  if (!statSync(dir).isDirectory()) throw new RepoNotFoundError(dir, 'not a directory');
  return realpathSync(dir);
}

/** The nearest ancestor that has a go.mod and a .git (a Go checkout), if any. */
function findGoCheckout(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) {
      return existsSync(path.join(dir, 'go.mod')) ? realpathSync(dir) : undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function cacheDir(ctx: CliContext): string {
  const base = ctx.env.XDG_CACHE_HOME || path.join(ctx.env.HOME || os.homedir(), '.cache');
  return path.join(base, 'k8s-read');
}

function defaultDbPath(root: string, ctx: CliContext): string {
  const digest = createHash('sha1').update(root).digest('hex').slice(0, 10);
  return path.join(cacheDir(ctx), `${path.basename(root)}-${digest}.sqlite`);
}
