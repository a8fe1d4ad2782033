/**
 * Which repository a command works on and where its index lives. Order: --repo, KUBERNETES_SRC,
 * the Go checkout (a git work tree with a go.mod or Godeps/ at its top, else the module or GOPATH
 * project inside it) around the current directory, then the bundled demo tree — announced in one
 * line on stderr so nobody mistakes it for their checkout. Also where the packages it imports
 * from outside itself may be.
 */
import type * as Crypto from 'node:crypto';
import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { RepoNotFoundError, UsageError } from '../errors.js';
import type { CliContext } from './context.js';
import { demoRepoRoot } from './package-info.js';

export interface RepoOptions {
  repo?: string;
  db?: string;
  /** `--with PATH`, repeatable: checkouts of modules the repository imports. */
  with?: string[];
}

export interface RepoChoice {
  root: string;
  source: 'flag' | 'env' | 'cwd' | 'demo';
  dbPath: string;
  /** Where the packages it imports from outside itself may be: `--with` checkouts (absolute)... */
  with: string[];
  /** ...then the Go module cache: $GOMODCACHE, else $GOPATH/pkg/mod, else ~/go/pkg/mod. */
  moduleCache: string;
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
    )
    .option(
      '--with <path>',
      'when indexing: a checkout of a module the repository imports (repeatable); looked in after vendor/ and go.work, before the Go module cache',
      // After `index --no-with` the previous value is `false`.
      (value: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), value],
    );
}

export function chooseRepo(options: RepoOptions, ctx: CliContext): RepoChoice {
  const choice = chooseRoot(options, ctx);
  const dbPath = options.db ? path.resolve(ctx.cwd, options.db) : defaultDbPath(choice.root, ctx);
  return { ...choice, dbPath, with: checkWith(options, ctx), moduleCache: moduleCacheDir(ctx) };
}

/** The repository the options choose, without the rest of the choice. */
export function chooseRoot(
  options: RepoOptions,
  ctx: CliContext,
): Pick<RepoChoice, 'root' | 'source'> {
  if (options.repo)
    return { root: checkDirectory(path.resolve(ctx.cwd, options.repo)), source: 'flag' };
  const fromEnv = ctx.env.KUBERNETES_SRC;
  if (fromEnv) return { root: checkDirectory(path.resolve(ctx.cwd, fromEnv)), source: 'env' };
  const around = findGoCheckout(ctx.cwd);
  if (around) return { root: around, source: 'cwd' };
  return { root: realpathSync(demoRepoRoot), source: 'demo' };
}

/** The `--with` checkouts, absolute; a usage error for one that is not a directory. */
export function checkWith(options: RepoOptions, ctx: CliContext): string[] {
  return (options.with ?? []).map((p) => {
    const dir = path.resolve(ctx.cwd, p);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new UsageError(`--with ${p}: no such directory; give the path of a module's checkout`);
    return realpathSync(dir);
  });
}

/** Where the go command keeps downloaded modules. */
function moduleCacheDir(ctx: CliContext): string {
  if (ctx.env.GOMODCACHE) return path.resolve(ctx.cwd, ctx.env.GOMODCACHE);
  const gopath = ctx.env.GOPATH?.split(path.delimiter).find((p) => p.length > 0);
  if (gopath) return path.join(path.resolve(ctx.cwd, gopath), 'pkg', 'mod');
  return path.join(ctx.env.HOME || os.homedir(), 'go', 'pkg', 'mod');
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

/**
 * The nearest ancestor that has a .git and a go.mod, or a Godeps/Godeps.json for a tree from
 * before go.mod (a Go checkout), if any. When the top of the checkout is no Go tree itself (a
 * monorepo), the Go tree the directory is in: the nearest module between the directory and the
 * top, or a project kept in a GOPATH layout (`src/k8s.io/kubernetes`, its Godeps/ gone, as forks
 * of old releases keep it), whichever holds the other. At the top of such a fork, its one project
 * (with several, a usage error that names them).
 */
function findGoCheckout(start: string): string | undefined {
  const goTree = (dir: string) =>
    existsSync(path.join(dir, 'go.mod')) || existsSync(path.join(dir, 'Godeps', 'Godeps.json'));
  let nearest: string | undefined;
  const from = path.resolve(start);
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) {
      if (goTree(dir)) return realpathSync(dir);
      const gopath =
        gopathProject(from, dir) ?? (dir === from ? soleGopathProjectBelow(dir) : undefined);
      const chosen =
        gopath && (!nearest || isWithin(nearest, gopath)) ? gopath : (nearest ?? gopath);
      return chosen && realpathSync(chosen);
    }
    if (!nearest && goTree(dir)) nearest = dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Hosts whose import paths name an owner before the repository (`github.com/owner/repo`); under
 * any other host whose name has a dot the repository is the next element (`k8s.io/kubernetes`).
 */
const OWNER_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'golang.org']);

/**
 * The project a directory is in when it lies under `…/src/<host>/…` (a GOPATH), at or below the
 * top of its checkout: the outermost such `src`, so `staging/src/k8s.io/client-go` inside
 * `src/k8s.io/kubernetes` is Kubernetes, as a checkout's top wins over its nested modules.
 */
function gopathProject(dir: string, top: string): string | undefined {
  const parts = dir.split(path.sep);
  for (let i = 0; i < parts.length - 2; i++) {
    if (parts[i] !== 'src' || !parts[i + 1]!.includes('.')) continue;
    const depth = OWNER_HOSTS.has(parts[i + 1]!) ? 3 : 2;
    if (i + depth >= parts.length) continue;
    const project = parts.slice(0, i + 1 + depth).join(path.sep) || path.sep;
    if (isWithin(project, top) && holdsGo(project)) return project;
  }
  return undefined;
}

/**
 * Whether a directory is a Go project: Go files at its top or in a command under `cmd/`. A
 * checkout kept under `~/src/github.com/owner/` by habit (ghq's layout) is no Go tree for that.
 */
function holdsGo(dir: string): boolean {
  const goFiles = (d: string) => entries(d).some((e) => e.isFile() && e.name.endsWith('.go'));
  return goFiles(dir) || subdirs(path.join(dir, 'cmd')).some(goFiles);
}

/**
 * At the top of a checkout that keeps one project in a GOPATH layout (`src/k8s.io/kubernetes`,
 * as a fork of an old release does), that project; none when there are several (or none).
 */
function soleGopathProjectBelow(top: string): string | undefined {
  const projects = gopathProjectsBelow(top);
  if (projects.length > 1) throw new SeveralProjectsError(top, projects);
  return projects[0];
}

/** The Go projects a checkout keeps in a GOPATH layout (`src/<host>/[<owner>/]<repo>`). */
function gopathProjectsBelow(top: string): string[] {
  const found: string[] = [];
  for (const host of subdirs(path.join(top, 'src'))) {
    if (!path.basename(host).includes('.')) continue;
    const owners = OWNER_HOSTS.has(path.basename(host)) ? subdirs(host) : [host];
    for (const owner of owners) for (const project of subdirs(owner)) found.push(project);
  }
  return found.filter(holdsGo);
}

/**
 * At the top of a checkout holding several GOPATH projects, none is guessed, nor is the demo tree
 * read in their place: the user is in Go code, and an answer about other code would mislead.
 */
class SeveralProjectsError extends UsageError {
  constructor(top: string, projects: string[]) {
    const named = projects.map((p) => path.relative(top, p)).sort();
    super(
      `${top} holds ${named.length} Go projects under src/ (${named.slice(0, 4).join(', ')}${named.length > 4 ? `, and ${named.length - 4} more` : ''}); say which to read with --repo, or run k8s-read from inside it`,
    );
  }
}

/** A directory's entries; none when it cannot be read (or is not there). */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The directories in `dir`, as paths. */
function subdirs(dir: string): string[] {
  return entries(dir)
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name));
}

/** Whether `dir` is `base` or below it. */
function isWithin(dir: string, base: string): boolean {
  const rel = path.relative(base, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * `$XDG_CACHE_HOME/k8s-read`, else `~/.cache/k8s-read`. A relative XDG_CACHE_HOME is ignored, as
 * the XDG spec asks; one that is not a directory is a usage error rather than a failed mkdir.
 */
export function cacheDir(ctx: CliContext): string {
  const xdg = ctx.env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) {
    if (existsSync(xdg) && !statSync(xdg).isDirectory())
      throw new UsageError(
        `XDG_CACHE_HOME=${xdg} is not a directory; point it at a directory (or unset it), or pass --db PATH`,
      );
    return path.join(xdg, 'k8s-read');
  }
  return path.join(ctx.env.HOME || os.homedir(), '.cache', 'k8s-read');
}

/**
 * node:crypto loaded when first needed: a `trace` printed again from its kept output
 * (src/cli/replay.ts) chooses the root alone, and crypto costs ~7 ms of its ~40 over Node's start.
 */
const requireBuiltin = createRequire(import.meta.url);

function defaultDbPath(root: string, ctx: CliContext): string {
  const { createHash } = requireBuiltin('node:crypto') as typeof Crypto;
  const digest = createHash('sha1').update(root).digest('hex').slice(0, 10);
  return path.join(cacheDir(ctx), `${path.basename(root)}-${digest}.sqlite`);
}
