/**
 * The discovery stamp: what a re-index that finds nothing changed needs instead of git. Discovery
 * asks git for the tree's files (`ls-files`, `diff` against the index, the walk for untracked
 * files), ~300 ms of v1.24's 0.8 s no-op, most of it git walking 5,000 directories. After it has,
 * the stamp keeps what it found (the TreeInfo) with a digest of the stat of everything that could
 * change that answer:
 *
 * - every directory of the work tree (a file added, removed or renamed changes its directory's
 *   modification time), every `.gitignore` and `.gitattributes` in them;
 * - the files the index reads (the Go files it keeps, go.mod, go.work, Godeps.json,
 *   vendor/modules.txt): an edit in place changes only the file's own times;
 * - what dependency resolution looked at in the module cache and in the checkouts a go.work or
 *   `replace` names: each module's directory, there or not (a `go mod download` makes it appear),
 *   its go.mod (and the go.mod at the top of a checkout, which names its permalinks), the
 *   directories of its packages;
 * - git's own files: `.git`, HEAD, the index, refs (every directory under `refs/`, `packed-refs`),
 *   `shallow`, the configs git reads and the ignore and attribute files they name.
 *
 * The next run stats the same paths in one native call (~50 ms for v1.24's ~13,000) and, when the
 * digest is the same, takes the kept TreeInfo as discovery's answer. Stat data changes with any
 * write: a file's change time cannot be set back, so an edit that keeps the modification time
 * (`touch -r`, `cp -p`) still shows.
 *
 * A root below the top of its checkout (a module in a monorepo, a GOPATH tree inside a larger
 * repository) also watches the directories above it up to the top, and their ignore and attribute
 * files; modules its go.work or go.mod `replace` takes from elsewhere in the same checkout
 * (Kubernetes' staging modules) are watched as those of the module cache are.
 *
 * Modules taken from another checkout (`--with`, a go.work or replace into another work tree)
 * are watched the same way, with that checkout's git files (its HEAD names their permalinks).
 *
 * Where the stamp could be wrong it is not used, and git is asked: outside git; with GIT_DIR,
 * GIT_INDEX_FILE and the like set; a config that includes another (what it says cannot be
 * followed here); a tree that takes dependencies from a directory outside git; and, as git
 * itself guards its index, when any watched path changed less than RACY_MS before discovery began
 * (a second write within the same clock tick could leave the same stat): then no stamp is
 * written, and the next run asks git again.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  locateCheckout,
  commonDirOf,
  GIT_LOCATION_VARIABLES,
  otherConfigs,
  readIfFile,
} from '../shared/git-dir.js';
import { loadNativeBinding } from '../shared/native-binding.js';
import type { StampRow } from '../store/discovery-stamps.js';
import type { TreeInfo } from './discover.js';
import { layoutFromInputs, type LayoutInputs } from './modules.js';

/** How a stamp is asked for: by the CLI, which alone reads the environment. */
export interface StampContext {
  env: NodeJS.ProcessEnv;
  /** The digest of k8s-read's built code: a stamp is read only by the build that wrote it. */
  build: string;
  /** The discovery options: a stamp stands only for the same ones. */
  options: {
    includeVendor: boolean;
    includeTests: boolean;
    with: readonly string[];
    moduleCache: string | null;
  };
}

/** A path changed this recently (ms) before discovery began leaves no stamp. */
export const RACY_MS = 2000;

/** Variables besides GIT_LOCATION_VARIABLES that change what git lists or which commit it sees. */
const GIT_LISTING_VARIABLES = [
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
];

interface GitFiles {
  /** The checkout's top level (the root or an ancestor of it). */
  top: string;
  /** Absolute paths of git's files and of the configs, ignore and attribute files it reads. */
  watched: string[];
  /** Directories under the common directory's `refs/` (absolute). */
  refDirs: string[];
  /** The configs read, as part of the key: another environment reads others. */
  configs: string[];
}

/**
 * Git's files for the checkout `root` is in (at its top level or below it), or undefined where a
 * stamp must not be used (the environment redirects git, a config includes another, sets the work
 * tree elsewhere, or names a file in a way not read here: quoted, escaped, `~user/`).
 */
function gitFilesOf(root: string, env: NodeJS.ProcessEnv): GitFiles | undefined {
  if ([...GIT_LOCATION_VARIABLES, ...GIT_LISTING_VARIABLES].some((v) => env[v] !== undefined))
    return undefined;
  try {
    const checkout = locateCheckout(root, env);
    if (!checkout) return undefined;
    const { top, gitDir } = checkout;
    const common = commonDirOf(gitDir);
    const configs = [path.join(common, 'config'), ...otherConfigs(gitDir, env)];
    const home = env.HOME ?? os.homedir();
    const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
    const named: string[] = [path.join(xdg, 'git', 'ignore'), path.join(xdg, 'git', 'attributes')];
    for (const config of configs) {
      const text = readIfFile(config);
      if (text === undefined) continue;
      // An include, or a work tree set elsewhere (`core.worktree`): what git reads is not here.
      if (/^\s*\[\s*include|^\s*worktree\s*=/im.test(text)) return undefined;
      for (const m of text.matchAll(/^\s*(?:excludesfile|attributesfile)\s*=\s*(.*)$/gim)) {
        const value = m[1]!.trim();
        if (value === '' || /["\\;#]/.test(value) || /^~(?!\/)/.test(value)) return undefined;
        named.push(
          value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(root, value),
        );
      }
    }
    // `.git` itself only as a worktree's file: a directory's times change with every write git
    // makes in it (a lock file, FETCH_HEAD); the files that matter are watched each.
    const watched = [
      ...(gitDir === path.join(top, '.git') ? [] : [path.join(top, '.git')]),
      ...['HEAD', 'index', 'commondir', 'config.worktree'].map((f) => path.join(gitDir, f)),
      ...['packed-refs', 'shallow', 'info/exclude', 'info/attributes', 'reftable'].map((f) =>
        path.join(common, f),
      ),
      ...configs,
      ...named,
    ];
    // Below the top: the directories above the root, whose ignore and attribute files apply to it
    // too (one added or removed changes its directory's times; one edited, its own).
    for (let dir = root; dir !== top;) {
      dir = path.dirname(dir);
      watched.push(dir, path.join(dir, '.gitignore'), path.join(dir, '.gitattributes'));
    }
    const refDirs: string[] = [];
    walkDirectories(path.join(common, 'refs'), (dir) => refDirs.push(dir));
    return { top, watched, refDirs, configs };
  } catch {
    return undefined;
  }
}

/** A name that is not UTF-8: its path cannot be given back to the file system as a string. */
class UnnamedPath extends Error {}

/**
 * Calls `visit` with `dir` and every directory below it (symlinks are not followed). Throws
 * UnnamedPath at a name that is not UTF-8 (decoded, it would name a path that does not exist, and
 * what changes below it would go unseen).
 */
function walkDirectories(
  dir: string,
  visit: (dir: string, names: string[]) => void,
  skip: (dir: string, names: string[]) => boolean = () => false,
): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    visit(dir, []);
    return;
  }
  const names = entries.map((e) => e.name);
  if (names.some((n) => n.includes('\uFFFD'))) throw new UnnamedPath(dir);
  visit(dir, names);
  if (skip(dir, names)) return;
  for (const entry of entries)
    if (entry.isDirectory() && entry.name !== '.git')
      walkDirectories(path.join(dir, entry.name), visit, skip);
}

/** What the stamp for `root` under these options is stored under. */
function stampKey(context: StampContext, git: GitFiles): string {
  return createHash('sha256')
    .update(
      JSON.stringify({ build: context.build, options: context.options, configs: git.configs }),
    )
    .digest('hex');
}

interface StatResult {
  digest: string;
  newest: number;
}

type StatPaths = (base: string, list: Uint8Array) => Float64Array | null;

/** The digest of the stat of `paths` (and the newest change among them), or undefined. */
function statDigest(root: string, paths: Uint8Array): StatResult | undefined {
  try {
    const statPaths = loadNativeBinding<{ statPaths?: StatPaths }>()?.statPaths;
    const result = statPaths?.(root, paths);
    if (!result) return undefined;
    const hex = (n: number) => n.toString(16).padStart(8, '0');
    return { digest: hex(result[0]!) + hex(result[1]!), newest: result[2]! };
  } catch {
    return undefined;
  }
}

/**
 * The TreeInfo the stamp kept, when nothing it watches changed since; undefined otherwise (and
 * discovery asks git).
 */
export function treeFromStamp(
  root: string,
  context: StampContext,
  stored: StampRow | undefined,
): TreeInfo | undefined {
  if (!stored) return undefined;
  const git = gitFilesOf(root, context.env);
  if (!git || stored.key !== stampKey(context, git)) return undefined;
  const now = statDigest(root, stored.paths);
  if (!now || now.digest !== stored.digest) return undefined;
  try {
    const kept = JSON.parse(stored.tree) as Omit<TreeInfo, 'layout'> & { layout: LayoutInputs };
    return { ...kept, layout: layoutFromInputs(kept.layout) };
  } catch {
    return undefined;
  }
}

/** The tree as the stamp keeps it: taken right after discovery, before blobs are filled in. */
export function serializeTree(tree: TreeInfo): string {
  return JSON.stringify({ ...tree, layout: tree.layout.inputs });
}

/**
 * A stamp for `tree` (serialized by serializeTree before anything changed it), or undefined when
 * the tree cannot have one: see the module's comment. `startedAt` is when discovery began
 * (Date.now()).
 */
export function makeStamp(
  tree: TreeInfo,
  serialized: string,
  context: StampContext,
  startedAt: number,
): StampRow | undefined {
  const { root } = tree;
  // For every dependency, what its resolution read (`tree.read`: each go.mod, the directories
  // looked in) and each of its files are watched below. Those from the module cache are read-only,
  // and those of a go.work or replace into this same checkout (a monorepo's modules, Kubernetes'
  // staging) share its HEAD and git files. One from another checkout (`--with`, a go.work or
  // replace into another work tree) has a HEAD of its own, which its permalinks name: that
  // checkout's git files are watched too, as the tree's own. One from a directory outside git
  // leaves the tree to git (a `git init` there would give it permalinks unseen).
  if (!tree.isGit) return undefined;
  const git = gitFilesOf(root, context.env);
  if (!git) return undefined;
  const list: string[] = [...git.watched, ...git.refDirs];
  // Each checkout's git files once, however many of its modules the tree takes.
  const watchedTops = new Set([git.top]);
  for (const r of tree.dependencies.roots) {
    if (r.source === 'module cache') continue;
    const top = locateCheckout(r.dir, context.env)?.top;
    if (top !== undefined && watchedTops.has(top)) continue;
    const theirs = top === undefined ? undefined : gitFilesOf(r.dir, context.env);
    if (!theirs) return undefined;
    watchedTops.add(theirs.top);
    list.push(...theirs.watched, ...theirs.refDirs);
  }
  // Every directory of the work tree, and the ignore and attribute files in them; a nested
  // checkout (a directory with a `.git` of its own) is watched but not entered, as git lists
  // nothing inside it. A name that is not UTF-8 leaves the tree to git.
  try {
    walkDirectories(
      root,
      (dir, names) => {
        const rel = path.relative(root, dir).split(path.sep).join('/');
        list.push(rel === '' ? '.' : rel);
        for (const name of names)
          if (name === '.gitignore' || name === '.gitattributes')
            list.push(rel === '' ? name : `${rel}/${name}`);
      },
      (dir, names) => dir !== root && names.includes('.git'),
    );
  } catch (error) {
    if (error instanceof UnnamedPath) return undefined;
    throw error;
  }
  for (const f of tree.files) list.push(f.abs ?? f.path);
  list.push(...tree.read);
  const paths = Buffer.from(list.join('\0'), 'utf8');
  const stat = statDigest(root, paths);
  if (!stat || stat.newest > startedAt - RACY_MS) return undefined;
  return { key: stampKey(context, git), digest: stat.digest, paths, tree: serialized };
}
