/**
 * The packages a tree imports from outside itself, and the packages those import, found where the
 * go command would find them: a `go.work` `use` or a go.mod `replace` pointing outside the tree,
 * checkouts named with `--with`, then the Go module cache at the versions go.mod requires (read
 * only, and only the packages imported, never the whole cache). A tree with `vendor/` takes its
 * dependencies from there (src/index/discover.ts). What cannot be found is reported, never fatal.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gitText } from './git-exec.js';
import { readGoHeader } from './go-header.js';
import {
  DEPS_PREFIX,
  godepsImportPath,
  parseGoMod,
  parseGoWork,
  type GoModFile,
} from './modules.js';
import { moduleCacheDir, modulePermalinkBase } from './module-versions.js';
import { gitBlobId } from '../shared/git-blob.js';

export type DependencySource = 'vendor' | 'go.work' | 'replace' | 'with' | 'module cache';

/** One module whose files the index holds, with what a permalink to them needs. */
export interface DependencyRoot {
  module: string;
  /**
   * The exact version (module cache, vendor/modules.txt), or the commit of a checkout (go.work,
   * replace, --with), or null for a directory outside git.
   */
  version: string | null;
  /** The version the tree's go.mod requires, when it requires the module. */
  required: string | null;
  source: DependencySource;
  /** Its files' paths in the index are `<prefix>/<path in the module>`. */
  prefix: string;
  /** Absolute directory of the module root on disk. */
  dir: string;
  /**
   * `https://github.com/<owner>/<repo>/blob/<ref>[/<subdir>]`, so that `<permalink>/<path in the
   * module>#L<line>` links to the line; null when the module path does not name a repository.
   */
  permalink: string | null;
  packages: number;
  files: number;
}

export type MissingReason =
  /** A package of the tree's own module that the tree does not hold (generated, not committed). */
  | 'not in the tree'
  /** No go.mod requires a module holding it (a tree from before go.mod has no versions at all). */
  | 'not required by go.mod'
  /** A go.work, replace or --with checkout of its module lacks it. */
  | 'no such package in the checkout'
  | 'no module cache'
  /** The module version go.mod requires is not downloaded. */
  | 'not in the module cache'
  | 'no such package in the module';

export interface MissingPackage {
  importPath: string;
  /** Module the package belongs to and the version required, when go.mod says. */
  module: string | null;
  version: string | null;
  /** The first package seen importing it. */
  importedBy: string;
  reason: MissingReason;
}

export interface DependencyReport {
  /** Whether the tree has a vendor/ directory and whether it was indexed. */
  vendor: 'none' | 'indexed' | 'not indexed';
  /** The module cache looked in (when the tree has no vendor/). */
  moduleCache: string | null;
  roots: DependencyRoot[];
  missing: MissingPackage[];
  /** Sources that could not be used (a `--with` path whose module path is unknown), as sentences. */
  warnings: string[];
}

/** A dependency file: `path` under DEPS_PREFIX, `abs` where it is read from. */
export interface DependencyFile {
  path: string;
  abs: string;
  blob: string;
}

export interface ResolveDependenciesOptions {
  /** Absolute root of the tree. */
  root: string;
  /** The tree's root go.mod, if any. */
  goMod: GoModFile | null;
  /** Content of the tree's go.work, if any. */
  goWork?: string;
  /** Checkouts given with `--with`, absolute. */
  with: readonly string[];
  /** The Go module cache directory, or null to not look there. */
  moduleCache: string | null;
  /** Import path -> the tree package that imports it, for every import of the tree's files. */
  imports: ReadonlyMap<string, string>;
  /** Whether the tree itself holds the package. */
  provides(importPath: string): boolean;
  /** Module paths of the tree's own modules: their packages are never looked for elsewhere. */
  ownModules: readonly string[];
  /**
   * Receives every path outside the tree the resolution looked at (a module's directory, whether
   * there or not, a package's directory, a go.mod): what a change of could change its answer.
   */
  looked?: string[];
}

interface Provider {
  module: string;
  dir: string;
  source: DependencySource;
  version: string | null;
  required: string | null;
  permalink: string | null;
  /** go.mod of the module: its requirements pick versions the tree's go.mod does not. */
  goMod: GoModFile | null;
}

interface Pending {
  importPath: string;
  importedBy: string;
  /** The module whose package imports it (null for the tree). */
  from: Provider | null;
}

export async function resolveDependencies(options: ResolveDependenciesOptions): Promise<{
  roots: DependencyRoot[];
  files: DependencyFile[];
  missing: MissingPackage[];
  warnings: string[];
}> {
  const warnings: string[] = [];
  const look = (p: string) => {
    options.looked?.push(p);
    return p;
  };
  const required = requirementsOf(options.goMod);
  const local = await localProviders(options, required, warnings, look);
  const cached = new Map<string, Provider>();
  const used = new Map<Provider, { packages: number; files: number }>();
  const files: DependencyFile[] = [];
  const missing: MissingPackage[] = [];
  const seen = new Set<string>();
  const queue: Pending[] = [];
  const enqueue = (importPath: string, importedBy: string, from: Provider | null) => {
    if (seen.has(importPath) || isStandard(importPath) || options.provides(importPath)) return;
    seen.add(importPath);
    queue.push({ importPath, importedBy, from });
  };
  for (const [imp, by] of options.imports) enqueue(imp, by, null);

  /** The package's provider and file names, or why it has none. */
  const lookup = (item: Pending): { provider: Provider; names: string[] } | MissingPackage => {
    const p = item.importPath;
    const miss = (reason: MissingReason, req?: Requirement | null): MissingPackage => ({
      importPath: p,
      module: req?.module ?? null,
      version: req?.version ?? null,
      importedBy: item.importedBy,
      reason,
    });
    if (options.ownModules.some((m) => within(p, m))) return miss('not in the tree');
    const nearest = longest(local, p);
    const names = nearest ? packageFiles(nearest, p, look) : [];
    if (nearest && names.length > 0) return { provider: nearest, names };
    const req =
      longestRequirement(required, p) ??
      longestRequirement(requirementsOf(item.from?.goMod ?? null), p);
    if (!req) return miss(nearest ? 'no such package in the checkout' : 'not required by go.mod');
    if (!options.moduleCache) return miss('no module cache', req);
    const key = `${req.module}@${req.version}`;
    let provider = cached.get(key);
    if (!provider) {
      const dir = moduleCacheDir(options.moduleCache, req.module, req.version);
      provider = {
        module: req.module,
        dir,
        source: 'module cache',
        version: req.version,
        required: required.get(req.requiredAs)?.version ?? null,
        permalink: modulePermalinkBase(req.module, { version: req.version }),
        goMod: readGoMod(look(path.join(dir, 'go.mod'))),
      };
      cached.set(key, provider);
    }
    if (!existsSync(look(provider.dir)))
      return miss(nearest ? 'no such package in the checkout' : 'not in the module cache', req);
    const cachedNames = packageFiles(provider, p, look);
    if (cachedNames.length === 0) return miss('no such package in the module', req);
    return { provider, names: cachedNames };
  };

  for (let next = 0; next < queue.length; next++) {
    const item = queue[next]!;
    const p = item.importPath;
    const found = lookup(item);
    if ('reason' in found) {
      missing.push(found);
      continue;
    }
    const { provider, names } = found;
    const tally = used.get(provider) ?? { packages: 0, files: 0 };
    used.set(provider, tally);
    tally.packages++;
    const rel = p === provider.module ? '' : p.slice(provider.module.length + 1);
    for (const name of names) {
      const abs = path.join(provider.dir, rel, name);
      let content: Buffer;
      try {
        content = readFileSync(abs);
      } catch {
        continue;
      }
      const header = readGoHeader(content);
      if (header.ignored) continue;
      tally.files++;
      files.push({
        path: `${prefixOf(provider)}/${rel ? `${rel}/` : ''}${name}`,
        abs,
        blob: gitBlobId(content),
      });
      for (const imp of header.imports) enqueue(imp, p, provider);
    }
  }
  const roots: DependencyRoot[] = [...used].map(([provider, tally]) => ({
    module: provider.module,
    version: provider.version,
    required: provider.required,
    source: provider.source,
    prefix: prefixOf(provider),
    dir: provider.dir,
    permalink: provider.permalink,
    ...tally,
  }));
  roots.sort((a, b) => (a.prefix < b.prefix ? -1 : 1));
  missing.sort((a, b) => (a.importPath < b.importPath ? -1 : 1));
  return { roots, files, missing, warnings };
}

/**
 * Modules of a vendor/ directory, from `vendor/modules.txt` (`# module version [=> target]`):
 * their versions give vendored files permalinks. Modules replaced by a directory are in the tree.
 */
export function vendoredModules(
  root: string,
  modulesTxt: string,
  vendorFiles: readonly string[],
): DependencyRoot[] {
  const roots: DependencyRoot[] = [];
  for (const line of modulesTxt.split('\n')) {
    const m = /^# (\S+) (v\S+)(?: => (\S+)(?: (v\S+))?)?\s*$/.exec(line);
    if (!m) continue;
    const [, module, version, target, targetVersion] = m;
    if (target && !targetVersion) continue;
    const at = targetVersion ?? version!;
    const source = target ?? module!;
    roots.push({
      module: module!,
      version: at,
      required: version!,
      source: 'vendor',
      prefix: `vendor/${module}`,
      dir: path.join(root, 'vendor', module!),
      permalink: modulePermalinkBase(source, { version: at }),
      packages: 0,
      files: 0,
    });
  }
  // Longest module first, so that a nested module takes its own files.
  const byLength = [...roots].sort((a, b) => b.module.length - a.module.length);
  const dirs = new Set<string>();
  for (const file of vendorFiles) {
    const root = byLength.find((r) => file.startsWith(`${r.prefix}/`));
    if (!root) continue;
    root.files++;
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (!dirs.has(dir)) {
      dirs.add(dir);
      root.packages++;
    }
  }
  return roots.filter((r) => r.files > 0);
}

interface Requirement {
  module: string;
  version: string;
  /** The module path go.mod requires (differs from `module` after a `replace`). */
  requiredAs: string;
}

function requirementsOf(goMod: GoModFile | null): Map<string, Requirement> {
  const result = new Map<string, Requirement>();
  if (!goMod) return result;
  for (const r of goMod.requires)
    result.set(r.path, { module: r.path, version: r.version, requiredAs: r.path });
  for (const r of goMod.versionReplaces) {
    const req = result.get(r.from);
    if (req && (!r.fromVersion || r.fromVersion === req.version))
      result.set(r.from, { module: r.to, version: r.toVersion, requiredAs: r.from });
  }
  return result;
}

function longestRequirement(required: Map<string, Requirement>, p: string): Requirement | null {
  let best: [string, Requirement] | null = null;
  for (const entry of required)
    if (within(p, entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  if (!best) return null;
  return best[1];
}

/** go.work `use`s and go.mod directory `replace`s outside the tree, then `--with` checkouts. */
async function localProviders(
  options: ResolveDependenciesOptions,
  required: Map<string, Requirement>,
  warnings: string[],
  look: (p: string) => string,
): Promise<Provider[]> {
  const providers: Provider[] = [];
  const add = async (
    dir: string,
    source: DependencySource,
    module?: string,
    checkout?: Checkout | null,
  ) => {
    // Read through `look`: what a checkout's go.mod says (its module path, its requirements)
    // decides what it provides, and a stamp watches what was looked at.
    const goMod = readGoMod(look(path.join(dir, 'go.mod')));
    const name = module ?? goMod?.module ?? godepsImportPathOf(dir, look);
    if (!name) {
      warnings.push(
        `${source === 'with' ? '--with' : source} ${dir}: no go.mod or Godeps/Godeps.json says its module path; not used`,
      );
      return;
    }
    const git = checkout === undefined ? await checkoutOf(dir) : checkout;
    providers.push({
      module: name,
      dir,
      source,
      version: git?.commit.slice(0, 12) ?? null,
      required: required.get(name)?.version ?? null,
      permalink: git ? checkoutPermalink(git, dir, name, look) : null,
      goMod,
    });
    // A checkout of Kubernetes brings its staging modules, which its go.mod replaces in-tree.
    if (source === 'with') {
      for (const r of goMod?.replaces ?? []) {
        const target = path.resolve(dir, r.to);
        if (target.startsWith(`${dir}${path.sep}`) && existsSync(target))
          await add(target, source, r.from, git);
      }
    }
  };
  const outside = (dir: string) =>
    dir !== options.root && !dir.startsWith(`${options.root}${path.sep}`);
  if (options.goWork) {
    for (const use of parseGoWork(options.goWork)) {
      const dir = path.resolve(options.root, use);
      if (outside(dir) && existsSync(look(dir))) await add(dir, 'go.work');
    }
  }
  for (const r of options.goMod?.replaces ?? []) {
    const dir = path.resolve(options.root, r.to);
    if (outside(dir) && existsSync(look(dir))) await add(dir, 'replace', r.from);
  }
  for (const dir of options.with) {
    if (!existsSync(look(dir))) warnings.push(`--with ${dir}: no such directory; not used`);
    else await add(dir, 'with');
  }
  return providers;
}

/** The provider of the longest module path holding `p`; the first given wins a tie. */
function longest(providers: readonly Provider[], p: string): Provider | null {
  let best: Provider | null = null;
  for (const provider of providers)
    if (within(p, provider.module) && (!best || provider.module.length > best.module.length))
      best = provider;
  return best;
}

/** Names of the package's non-test Go files, none when the directory is another module's. */
function packageFiles(
  provider: Provider,
  importPath: string,
  look: (p: string) => string,
): string[] {
  const rel = importPath === provider.module ? '' : importPath.slice(provider.module.length + 1);
  const dir = path.join(provider.dir, rel);
  if (rel && existsSync(look(path.join(dir, 'go.mod')))) return [];
  try {
    return readdirSync(look(dir), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go'))
      .filter((e) => !e.name.startsWith('.') && !e.name.startsWith('_'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function prefixOf(provider: Provider): string {
  return `${DEPS_PREFIX}${provider.module}@${provider.version ?? 'local'}`;
}

function readGoMod(file: string): GoModFile | null {
  try {
    return parseGoMod(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function godepsImportPathOf(dir: string, look: (p: string) => string): string | null {
  try {
    return godepsImportPath(readFileSync(look(path.join(dir, 'Godeps', 'Godeps.json')), 'utf8'));
  } catch {
    return null;
  }
}

interface Checkout {
  /** Top-level directory of the git work tree. */
  top: string;
  commit: string;
}

async function checkoutOf(dir: string): Promise<Checkout | null> {
  try {
    const [top, commit] = (await gitText(dir, ['rev-parse', '--show-toplevel', 'HEAD']))
      .trim()
      .split('\n');
    return top && commit ? { top, commit } : null;
  } catch {
    return null;
  }
}

/**
 * A checkout's files at its commit: under the repository that holds the checkout's top directory
 * (its own module, or Kubernetes for a staging directory of a Kubernetes checkout).
 */
function checkoutPermalink(
  git: Checkout,
  dir: string,
  module: string,
  look: (p: string) => string,
): string | null {
  const rel = path.relative(git.top, dir).split(path.sep).join('/');
  if (!rel) return modulePermalinkBase(module, { commit: git.commit });
  const topModule =
    readGoMod(look(path.join(git.top, 'go.mod')))?.module ?? godepsImportPathOf(git.top, look);
  const base = topModule ? modulePermalinkBase(topModule, { commit: git.commit }) : null;
  return base ? `${base}/${rel}` : null;
}

/** The go command's rule: a path whose first element has no dot is the standard library's. */
function isStandard(importPath: string): boolean {
  const first = importPath.split('/')[0]!;
  return !first.includes('.') || importPath === 'C';
}

function within(p: string, module: string): boolean {
  return p === module || p.startsWith(`${module}/`);
}
