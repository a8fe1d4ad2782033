/**
 * Which Go files make up a tree, and their blob ids. In a git work tree: tracked files with the
 * blob ids git already knows, files edited on disk and untracked-not-ignored files hashed here (so
 * a work tree with local edits indexes what is on disk). Anywhere else: a directory walk, every
 * file hashed like a git blob. Then each package's import path (go.mod, else what a tree from
 * before go.mod says), and the packages it imports from outside the tree.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { K8sReadError } from '../errors.js';
import { printablePath } from '../shared/text.js';
import { resolveDependencies, vendoredModules, type DependencyReport } from './dependencies.js';
import { gitBatch, type GitOutput } from './git-exec.js';
import { readGoHeader, type GoHeader } from './go-header.js';
import { inferImportPaths } from './gopath.js';
import {
  buildModuleLayout,
  godepsImportPath,
  parseGoMod,
  type ImportPathSource,
  type LayoutExtras,
  type ModuleLayout,
} from './modules.js';
import { gitBlobId } from '../shared/git-blob.js';
import { dirOf } from '../shared/repo-path.js';

export interface DiscoverOptions {
  /** @default false */
  includeVendor?: boolean;
  /** @default false */
  includeTests?: boolean;
  /** Checkouts of modules the tree imports (`--with`), absolute paths. @default [] */
  with?: readonly string[];
  /** The Go module cache (`$GOMODCACHE`), or null to not look there. @default null */
  moduleCache?: string | null;
}

export interface SourceFile {
  /** Path relative to the root, `/`-separated. */
  path: string;
  /** Git blob id when git knows the file unchanged; otherwise computed while parsing. */
  blob?: string;
  /** Where to read it, for a dependency's file (its `path` is under `_deps/`). */
  abs?: string;
}

/** Where a file of the tree (or of a dependency) is read from. */
export function sourcePath(root: string, file: SourceFile): string {
  return file.abs ?? path.join(root, file.path);
}

export interface TreeInfo {
  root: string;
  isGit: boolean;
  commit: string | null;
  /** Whether a Go file the index reads (one of `files`) differs from HEAD: edited or untracked. */
  dirty: boolean;
  /**
   * The origin remote's URL, when the indexed commit is on the remote (reachable from a remote
   * branch or a tag): permalinks are built from it. Null otherwise.
   */
  remote: string | null;
  /** True when there is an origin but the indexed commit is on none of its branches or tags. */
  unpublished: boolean;
  /**
   * The release tag on HEAD's main line (first parents) that describes HEAD: `v1.24.0`, or
   * `v1.25.0-alpha.0-12-g941a0be80ab3` between tags. Only release tags of the module itself
   * (`vX.Y.Z[-pre]`): the publishing bot's `kubernetes-1.14.0-alpha.1` markers and tags reached
   * through merged branches say nothing about HEAD's version.
   */
  version: string | null;
  files: SourceFile[];
  layout: ModuleLayout;
  /** `duplicates`: files of a directory whose import path another directory already has. */
  skipped: { vendor: number; tests: number; duplicates: number };
  /** Packages (directories with Go files) by how their import path was found. */
  importPaths: Partial<Record<ImportPathSource, number>>;
  dependencies: DependencyReport;
  /** Directories that could not be read, and files whose names Go cannot use: left out, said why. */
  unreadable: { path: string; why: string }[];
  /**
   * The files besides `files` whose text discovery read or looked for (go.mod, Godeps.json,
   * go.work, vendor/modules.txt), relative to the root, and the paths outside the tree that
   * dependency resolution looked at, absolute: what else a change of could change it.
   */
  read: string[];
}

export async function discoverTree(root: string, options: DiscoverOptions = {}): Promise<TreeInfo> {
  // Whether this is a git work tree, what git says of HEAD and the listing, asked at once;
  // outside git every answer but the first is undefined and none is used.
  const answers = await gitBatch(root, GIT_QUESTIONS);
  // A tree the enclosing work tree ignores (k8s-read's demo tree under a project's node_modules/)
  // has none of its files in git, which would list nothing: it is read as a plain directory.
  const isGit =
    answers[INSIDE]?.toString('utf8').trim() === 'true' && answers[IGNORED] === undefined;
  const listed = isGit ? listGitFiles(root, answers) : listDirectoryFiles(root);
  const described = isGit ? describeHead(answers) : undefined;
  const skipped = { vendor: 0, tests: 0, duplicates: 0 };
  const read: string[] = [];
  const readText = (p: string) => {
    read.push(p);
    return readTreeText(root, p);
  };
  const goMods = new Map<string, string>();
  const godeps = new Map<string, string>();
  let hasVendor = false;
  const files: SourceFile[] = [];
  for (const file of listed.files) {
    const p = file.path;
    if (p.startsWith('vendor/')) hasVendor = true;
    if (p === 'go.mod' || p.endsWith('/go.mod')) {
      if (!isVendored(p)) {
        const text = readText(p);
        if (text !== null) goMods.set(dirOf(p.slice(0, -'go.mod'.length)), text);
      }
      continue;
    }
    if (p === 'Godeps/Godeps.json' || p.endsWith('/Godeps/Godeps.json')) {
      const text = isVendored(p) ? null : readText(p);
      const importPath = text === null ? null : godepsImportPath(text);
      if (importPath) godeps.set(dirOf(p.slice(0, -'Godeps/Godeps.json'.length)), importPath);
      continue;
    }
    if (!p.endsWith('.go') || ignoredByGo(p)) continue;
    if (!options.includeVendor && isVendored(p)) {
      skipped.vendor++;
      continue;
    }
    if (!options.includeTests && p.endsWith('_test.go')) {
      skipped.tests++;
      continue;
    }
    files.push(file);
  }
  const goWork = readText('go.work') ?? undefined;
  const headers = new HeaderReader(root);
  const modulesOnly = buildModuleLayout(goMods, goWork);
  const extras: LayoutExtras = findGopathPaths(files, headers, modulesOnly, godeps);
  let layout =
    extras.roots || extras.exact ? buildModuleLayout(goMods, goWork, extras) : modulesOnly;
  const dependencies: DependencyReport = {
    vendor: hasVendor ? (options.includeVendor ? 'indexed' : 'not indexed') : 'none',
    moduleCache: hasVendor ? null : (options.moduleCache ?? null),
    roots: [],
    missing: [],
    warnings: [],
  };
  // The go command reads a vendoring module's dependencies from vendor/ alone.
  if (hasVendor)
    for (const dir of options.with ?? [])
      dependencies.warnings.push(
        `--with ${dir}: not used: the tree takes its dependencies from vendor/`,
      );
  if (hasVendor && options.includeVendor) {
    const modulesTxt = readText('vendor/modules.txt');
    if (modulesTxt)
      dependencies.roots = vendoredModules(
        root,
        modulesTxt,
        files.filter((f) => f.path.startsWith('vendor/')).map((f) => f.path),
      );
  } else if (!hasVendor) {
    const found = await findDependencies(
      root,
      files,
      headers,
      layout,
      goMods,
      goWork,
      options,
      read,
    );
    Object.assign(dependencies, found.report);
    if (found.report.roots.length > 0) {
      layout = buildModuleLayout(goMods, goWork, {
        ...extras,
        dependencies: found.report.roots.map((r) => ({
          dir: r.prefix,
          path: r.module,
          source: 'dependency' as const,
        })),
      });
      files.push(...found.files);
    }
  }
  const kept = dropDuplicatePackages(files, layout);
  skipped.duplicates = files.length - kept.length;
  const { commit, remote, unpublished, version } = described
    ? described
    : { commit: null, remote: null, unpublished: false, version: null };
  return {
    root,
    isGit,
    commit,
    dirty: kept.some((f) => listed.edited.has(f.path)),
    remote,
    unpublished,
    version: version ?? guessKubernetesVersion(root),
    files: kept,
    layout,
    skipped,
    importPaths: countImportPaths(kept, layout),
    dependencies,
    unreadable: listed.unreadable,
    read,
  };
}

/** Heads of the tree's Go files, read once; the blob id comes free when git did not give one. */
class HeaderReader {
  private readonly cache = new Map<string, GoHeader | null>();
  constructor(private readonly root: string) {}

  read(file: SourceFile): GoHeader | null {
    const hit = this.cache.get(file.path);
    if (hit !== undefined) return hit;
    let header: GoHeader | null = null;
    try {
      const content = readFileSync(sourcePath(this.root, file));
      header = readGoHeader(content);
      file.blob ??= gitBlobId(content);
    } catch {
      // Unreadable: parsing reports it.
    }
    this.cache.set(file.path, header);
    return header;
  }
}

/**
 * Import paths for the directories no go.mod covers (a tree from before go.mod): their files'
 * import comments and imports, and the Godeps.json files, say where the tree sat in GOPATH.
 */
function findGopathPaths(
  files: readonly SourceFile[],
  headers: HeaderReader,
  modules: ModuleLayout,
  godeps: ReadonlyMap<string, string>,
): LayoutExtras {
  const uncovered = files.filter(
    (f) => !isVendored(f.path) && modules.importPathOf(dirOf(f.path)) === null,
  );
  if (uncovered.length === 0) return {};
  const comments = new Map<string, string>();
  const imports = new Set<string>();
  for (const file of uncovered) {
    const header = headers.read(file);
    if (!header) continue;
    const dir = dirOf(file.path);
    // The go command reads import comments of non-test files only.
    if (header.importComment && !file.path.endsWith('_test.go') && !comments.has(dir))
      comments.set(dir, header.importComment);
    for (const imp of header.imports) imports.add(imp);
  }
  return inferImportPaths({
    dirs: [...new Set(uncovered.map((f) => dirOf(f.path)))],
    comments,
    godeps,
    imports,
  });
}

async function findDependencies(
  root: string,
  files: readonly SourceFile[],
  headers: HeaderReader,
  layout: ModuleLayout,
  goMods: Map<string, string>,
  goWork: string | undefined,
  options: DiscoverOptions,
  looked: string[],
): Promise<{ report: Omit<DependencyReport, 'vendor' | 'moduleCache'>; files: SourceFile[] }> {
  const provided = new Set<string>();
  for (const f of files) {
    const p = layout.importPathOf(dirOf(f.path));
    if (p) provided.add(p);
  }
  const imports = new Map<string, string>();
  for (const file of files) {
    if (file.path.endsWith('_test.go')) continue;
    const header = headers.read(file);
    const importer = layout.importPathOf(dirOf(file.path)) ?? file.path;
    for (const imp of header?.imports ?? []) if (!imports.has(imp)) imports.set(imp, importer);
  }
  const rootGoMod = goMods.get('');
  const found = await resolveDependencies({
    root,
    goMod: rootGoMod === undefined ? null : parseGoMod(rootGoMod),
    ...(goWork ? { goWork } : {}),
    with: options.with ?? [],
    moduleCache: options.moduleCache ?? null,
    imports,
    provides: (p) => provided.has(p),
    ownModules: layout.modules
      .filter((m) => m.source === 'go.mod' || m.source === 'go.work')
      .map((m) => m.path),
    looked,
  });
  return {
    report: { roots: found.roots, missing: found.missing, warnings: found.warnings },
    files: found.files,
  };
}

/**
 * One directory per import path: a second directory with the same path (a copy, or a package
 * that kept its old import comment) would declare everything twice. The directory found by the
 * earlier method wins, then the one outside vendor/, then the shallower.
 */
function dropDuplicatePackages(files: SourceFile[], layout: ModuleLayout): SourceFile[] {
  const owner = new Map<string, string>();
  const dropped = new Set<string>();
  const rank = (dir: string) => [
    SOURCE_ORDER.indexOf(layout.sourceOf(dir) ?? 'dependency'),
    isVendored(`${dir}/`) ? 1 : 0,
    dir.split('/').length,
  ];
  const better = (a: string, b: string) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! < rb[i]!;
    return a < b;
  };
  for (const dir of new Set(files.map((f) => dirOf(f.path)))) {
    const p = layout.importPathOf(dir);
    if (p === null) continue;
    const held = owner.get(p);
    if (held === undefined) owner.set(p, dir);
    else if (better(dir, held)) {
      owner.set(p, dir);
      dropped.add(held);
    } else dropped.add(dir);
  }
  return dropped.size === 0 ? files : files.filter((f) => !dropped.has(dirOf(f.path)));
}

const SOURCE_ORDER: readonly ImportPathSource[] = [
  'go.mod',
  'go.work',
  'import comment',
  'Godeps.json',
  'imports',
  'vendor',
  'dependency',
];

function countImportPaths(
  files: readonly SourceFile[],
  layout: ModuleLayout,
): Partial<Record<ImportPathSource, number>> {
  const counts: Partial<Record<ImportPathSource, number>> = {};
  for (const dir of new Set(files.map((f) => dirOf(f.path)))) {
    const source = layout.sourceOf(dir);
    if (source) counts[source] = (counts[source] ?? 0) + 1;
  }
  return counts;
}

function readTreeText(root: string, p: string): string | null {
  try {
    return readFileSync(path.join(root, p), 'utf8');
  } catch {
    // Unreadable: it only loses what it would have said.
    return null;
  }
}

/** `v1.24.0`, `v0.24.0-beta.1`, optionally with git describe's `-<n>-g<sha>` after it. */
const RELEASE_TAG = /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** HEAD's commit, the origin remote when it holds the commit, and the release tag. */
function describeHead(answers: readonly GitOutput[]): {
  commit: string | null;
  remote: string | null;
  unpublished: boolean;
  version: string | null;
} {
  const text = (i: number) => answers[i]?.toString('utf8').trim() ?? '';
  const commit = text(HEAD) || null;
  let remote = text(ORIGIN) || null;
  let unpublished = false;
  // OUTSIDE is empty when a remote branch or tag holds HEAD, HEAD itself when none does.
  if (remote && commit && text(OUTSIDE) !== '') {
    remote = null;
    unpublished = true;
  }
  const described = text(DESCRIBED);
  const version = RELEASE_TAG.test(described) ? described : null;
  return { commit, remote, unpublished, version };
}

/** The files discovery reads, as git pathspecs (a `*` crosses directories). */
const LISTED = ['*.go', '*go.mod', '*Godeps.json', 'vendor/modules.txt'];

/**
 * What discovery asks git. -z keeps names with spaces or non-ASCII characters intact (no
 * quoting); names that are not UTF-8 are found in the raw bytes (a decoded string would name a
 * file that does not exist). The last two each walk the work tree; the diff says which tracked
 * files changed on disk and which of them are gone (`D`).
 */
const GIT_QUESTIONS: readonly (readonly string[])[] = [
  ['rev-parse', '--is-inside-work-tree'],
  ['rev-parse', 'HEAD'],
  ['config', '--get', 'remote.origin.url'],
  ['describe', '--tags', '--first-parent', '--match', 'v[0-9]*'],
  ['rev-list', '-n', '1', 'HEAD', '--not', '--remotes', '--tags'],
  ['ls-files', '-s', '-z', '--', ...LISTED],
  ['diff', '--name-status', '-z', '--relative', '--', ...LISTED],
  ['ls-files', '-o', '--exclude-standard', '-z', '--', ...LISTED],
  // Exits 0 (an answer) when the work tree ignores the root itself. It looks in git's index: a
  // root under an ignore pattern whose files were added with --force is not ignored.
  ['check-ignore', '-q', '.'],
];
const [INSIDE, HEAD, ORIGIN, DESCRIBED, OUTSIDE, STAGED, CHANGED, UNTRACKED, IGNORED] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8,
] as const;

interface Listing {
  files: SourceFile[];
  /** Files edited on disk or untracked (git knows no blob of them as they are). */
  edited: Set<string>;
  unreadable: { path: string; why: string }[];
}

function listGitFiles(root: string, answers: readonly GitOutput[]): Listing {
  const unreadable: Listing['unreadable'] = [];
  const [stagedBytes, changedBytes, untrackedBytes] = [
    answers[STAGED],
    answers[CHANGED],
    answers[UNTRACKED],
  ];
  if (!stagedBytes || !changedBytes || !untrackedBytes)
    throw new K8sReadError(`git could not list the files of ${printablePath(root)}`, {
      code: 'E_GIT_LIST',
    });
  const changedText = changedBytes.toString('utf8');
  const staged = usableNames(stagedBytes, unreadable, { staged: true });
  const modified = new Set<string>();
  const deleted = new Set<string>();
  const changed = splitZ(changedText);
  for (let i = 0; i + 1 < changed.length; i += 2) {
    const status = changed[i]!;
    // A rename or copy names two paths (the work tree against the index makes none).
    if (status.startsWith('R') || status.startsWith('C')) i++;
    const p = changed[i + 1]!;
    modified.add(p);
    if (status === 'D') deleted.add(p);
  }
  const untracked = usableNames(untrackedBytes, unreadable).filter(
    (p) => !isSymlink(path.join(root, p)),
  );
  const files: SourceFile[] = [];
  const edited = new Set<string>();
  for (const entry of staged) {
    const tab = entry.indexOf('\t');
    const [mode, blob] = entry.slice(0, tab).split(' ');
    const p = entry.slice(tab + 1);
    // Symlinks (vendor/k8s.io/* -> staging) and submodules: their files are listed where they live.
    if (mode === '120000' || mode === '160000' || deleted.has(p)) continue;
    if (modified.has(p)) {
      edited.add(p);
      files.push({ path: p });
    } else files.push({ path: p, ...(blob ? { blob } : {}) });
  }
  for (const p of untracked) {
    edited.add(p);
    files.push({ path: p });
  }
  return { files, edited, unreadable };
}

function listDirectoryFiles(root: string): Listing {
  const files: SourceFile[] = [];
  const unreadable: Listing['unreadable'] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (!rel) throw error;
      unreadable.push({
        path: `${rel}/`,
        why: (error as NodeJS.ErrnoException).code ?? 'unreadable',
      });
      return;
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const name = decodeName(entry.name, rel, unreadable);
      if (name === undefined) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      if (entry.isDirectory()) {
        if (name === 'node_modules' || name === '.git') continue;
        walk(path.join(dir, name), relPath);
      } else if (
        entry.isFile() &&
        (name.endsWith('.go') || name === 'go.mod' || name === 'Godeps.json')
      ) {
        files.push({ path: relPath });
      }
    }
  };
  walk(root, '');
  return { files, edited: new Set(), unreadable };
}

// ignoreBOM: a name that starts with U+FEFF keeps it (it is part of the name).
const utf8Name = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file name as text, or undefined (and a note) when Go could not use it: not UTF-8, control characters. */
function decodeName(
  raw: Buffer,
  rel: string,
  unreadable: Listing['unreadable'],
): string | undefined {
  let name: string;
  try {
    name = utf8Name.decode(raw);
  } catch {
    const shown = raw.toString('utf8');
    if (/\.go$/.test(shown))
      unreadable.push({ path: rel ? `${rel}/${shown}` : shown, why: 'the file name is not UTF-8' });
    return undefined;
  }
  return isPrintable(name, rel, unreadable) ? name : undefined;
}

/** False (and a note for a Go file) when the name holds control characters. */
function isPrintable(name: string, rel: string, unreadable: Listing['unreadable']): boolean {
  const shown = printablePath(rel ? `${rel}/${name}` : name);
  if (shown === (rel ? `${rel}/${name}` : name)) return true;
  if (/\.go$/.test(name))
    unreadable.push({ path: shown, why: 'the file name holds control characters' });
  return false;
}

/** NUL-separated names from git, without those Go cannot use (noted in `unreadable`). */
function usableNames(
  out: Buffer,
  unreadable: Listing['unreadable'],
  options: { staged?: boolean } = {},
): string[] {
  const names: string[] = [];
  let text: string | undefined;
  try {
    text = utf8Name.decode(out);
  } catch {
    // Some name is not UTF-8: each is decoded on its own below, to leave out only those.
  }
  if (text !== undefined) {
    // Every name is UTF-8 (NUL never sits inside a character): one decode for all of them.
    for (const entry of text.split('\0')) {
      if (entry.length === 0) continue;
      const tab = options.staged ? entry.indexOf('\t') : -1;
      if (isPrintable(tab === -1 ? entry : entry.slice(tab + 1), '', unreadable)) names.push(entry);
    }
    return names;
  }
  let start = 0;
  for (let end = out.indexOf(0); end !== -1; end = out.indexOf(0, start)) {
    const raw = out.subarray(start, end);
    start = end + 1;
    if (raw.length === 0) continue;
    // `ls-files -s` entries start with `mode blob stage\t`: only the name after the tab is checked.
    const tab = options.staged ? raw.indexOf(9) : -1;
    const prefix = tab === -1 ? '' : raw.subarray(0, tab + 1).toString('latin1');
    const name = decodeName(tab === -1 ? raw : raw.subarray(tab + 1), '', unreadable);
    if (name !== undefined) names.push(prefix + name);
  }
  return names;
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function splitZ(text: string): string[] {
  return text.split('\0').filter((s) => s.length > 0);
}

function isVendored(p: string): boolean {
  return p.startsWith('vendor/') || p.includes('/vendor/');
}

/** The go command ignores directories named testdata and those starting with `.` or `_`. */
function ignoredByGo(p: string): boolean {
  // `/dir/` of every directory on the path: a part named testdata, or one starting with . or _.
  const dirs = `/${p.slice(0, p.lastIndexOf('/') + 1)}`;
  return dirs.includes('/testdata/') || dirs.includes('/.') || dirs.includes('/_');
}

/**
 * Without tags (a shallow or single-commit clone), the newest CHANGELOG-1.N.md names the minor
 * release the tree belongs to.
 */
function guessKubernetesVersion(root: string): string | null {
  const dir = path.join(root, 'CHANGELOG');
  try {
    if (!statSync(dir).isDirectory()) return null;
    const minors = readdirSync(dir)
      .map((f) => /^CHANGELOG-1\.(\d+)\.md$/.exec(f)?.[1])
      .filter((m): m is string => m !== undefined)
      .map(Number);
    return minors.length ? `v1.${Math.max(...minors)}` : null;
  } catch {
    return null;
  }
}
