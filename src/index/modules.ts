/**
 * Import paths from the module layout, as the go command sees it: the nearest go.mod above a
 * directory names its module; `vendor/<path>` is `<path>`; in-tree `replace` targets and
 * `go.work` `use` directories carry the module path they replace or declare. Staging
 * (`staging/src/k8s.io/<name>`) needs no special case: each has its own go.mod. Trees without
 * go.mod get exact paths and roots from src/index/gopath.ts, and dependencies found outside the
 * tree sit under `_deps/` (src/index/dependencies.ts); both are passed in as extras.
 */
import path from 'node:path';

/** How a directory's import path was found, in the order they are tried. */
export type ImportPathSource =
  'go.mod' | 'go.work' | 'import comment' | 'Godeps.json' | 'imports' | 'vendor' | 'dependency';

export interface ModuleInfo {
  /** Directory relative to the root, `''` for the root itself. */
  dir: string;
  /** Import path of `dir`; `''` for a GOPATH `src` directory (its subdirectories are their paths). */
  path: string;
  /** `go` directive, when present. */
  go?: string;
  source: ImportPathSource;
}

export interface ModuleLayout {
  modules: ModuleInfo[];
  /** Module path of the tree's root go.mod (or the first module), or the root's inferred path. */
  rootModule: string | null;
  /** Import path of a directory relative to the root, or null outside every module. */
  importPathOf(dir: string): string | null;
  /** How `importPathOf(dir)` was found, or null when it was not. */
  sourceOf(dir: string): ImportPathSource | null;
  /** What the layout was built from, as plain data: layoutFromInputs builds it again. */
  inputs: LayoutInputs;
}

/** buildModuleLayout's arguments as plain data (JSON), for a layout kept between runs. */
export interface LayoutInputs {
  goMods: [string, string][];
  goWork?: string;
  exact?: [string, { path: string; source: ImportPathSource }][];
  roots?: ModuleInfo[];
  dependencies?: ModuleInfo[];
}

export interface LayoutExtras {
  /** Directories whose own files say their import path (`// import "..."`). */
  exact?: ReadonlyMap<string, { path: string; source: ImportPathSource }>;
  /** Roots for directories no module covers; the nearest one above a directory wins. */
  roots?: readonly ModuleInfo[];
  /** Module roots of dependencies, under DEPS_PREFIX. */
  dependencies?: readonly ModuleInfo[];
}

/**
 * Files of dependencies found outside the tree are stored under this prefix. The go command
 * ignores directories whose name starts with `_`, so no file of the tree itself can sit here.
 */
export const DEPS_PREFIX = '_deps/';

export interface GoModFile {
  module: string | null;
  go?: string;
  /** `replace` directives whose target is a directory (`./x`, `../x`, `/abs/x`), as written. */
  replaces: { from: string; to: string }[];
  /** `replace` directives whose target is another module version. */
  versionReplaces: { from: string; fromVersion?: string; to: string; toVersion: string }[];
  requires: { path: string; version: string }[];
}

export function parseGoMod(text: string): GoModFile {
  const stripped = text.replace(/\/\/[^\n]*/g, '');
  const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(stripped)?.[2] ?? null;
  const go = /^\s*go\s+([\d.]+)/m.exec(stripped)?.[1];
  const replaces: GoModFile['replaces'] = [];
  const versionReplaces: GoModFile['versionReplaces'] = [];
  const addReplace = (line: string) => {
    const m = /^\s*(\S+)(?:\s+(\S+))?\s*=>\s*(\S+)(?:\s+(\S+))?\s*$/.exec(line);
    if (!m?.[1] || !m[3]) return;
    const [, from, fromVersion, to, toVersion] = m;
    // The go command's rule: a path, relative (`./`, `../`) or absolute, names a directory.
    if (
      to.startsWith('./') ||
      to.startsWith('../') ||
      to === '.' ||
      to === '..' ||
      path.isAbsolute(to)
    )
      replaces.push({ from, to });
    else if (toVersion)
      versionReplaces.push({ from, ...(fromVersion ? { fromVersion } : {}), to, toVersion });
  };
  const requires: GoModFile['requires'] = [];
  const addRequire = (line: string) => {
    const m = /^\s*("?)([^\s"]+)\1\s+(\S+)\s*$/.exec(line);
    if (m?.[2] && m[3]) requires.push({ path: m[2], version: m[3] });
  };
  for (const [directive, add] of [
    ['replace', addReplace],
    ['require', addRequire],
  ] as const) {
    for (const block of stripped.matchAll(
      new RegExp(`^\\s*${directive}\\s*\\(([\\s\\S]*?)\\)`, 'gm'),
    ))
      block[1]?.split('\n').forEach(add);
    for (const single of stripped.matchAll(
      new RegExp(`^\\s*${directive}\\s+([^(\\n][^\\n]*)$`, 'gm'),
    ))
      if (single[1]) add(single[1]);
  }
  return { module, ...(go ? { go } : {}), replaces, versionReplaces, requires };
}

/** The `ImportPath` of a `Godeps/Godeps.json`: the import path of the directory above `Godeps/`. */
export function godepsImportPath(json: string): string | null {
  try {
    const parsed = JSON.parse(json) as { ImportPath?: unknown };
    return typeof parsed.ImportPath === 'string' ? parsed.ImportPath : null;
  } catch {
    return null;
  }
}

export function parseGoWork(text: string): string[] {
  const stripped = text.replace(/\/\/[^\n]*/g, '');
  const uses: string[] = [];
  for (const block of stripped.matchAll(/^\s*use\s*\(([\s\S]*?)\)/gm)) {
    for (const line of block[1]?.split('\n') ?? []) if (line.trim()) uses.push(line.trim());
  }
  for (const single of stripped.matchAll(/^\s*use\s+([^(\s][^\n]*)$/gm))
    if (single[1]) uses.push(single[1].trim());
  return uses;
}

/**
 * @param goMods go.mod files: directory relative to root -> content.
 * @param goWork content of a root go.work, if any.
 */
export function buildModuleLayout(
  goMods: Map<string, string>,
  goWork?: string,
  extras: LayoutExtras = {},
): ModuleLayout {
  const byDir = new Map<string, ModuleInfo>();
  for (const [dir, text] of goMods) {
    const parsed = parseGoMod(text);
    if (parsed.module)
      byDir.set(dir, {
        dir,
        path: parsed.module,
        ...(parsed.go ? { go: parsed.go } : {}),
        source: 'go.mod',
      });
  }
  // In-tree replace targets take the replaced path when their own go.mod says otherwise (or is absent).
  for (const [dir, text] of goMods) {
    for (const r of parseGoMod(text).replaces) {
      // An absolute target is another directory of the machine (that is not mapped here: the
      // dependencies take it), or this tree by a path that depends on where it is checked out.
      if (path.isAbsolute(r.to)) continue;
      const target = normalize(path.posix.join(dir, r.to));
      if (target.startsWith('..')) continue;
      const existing = byDir.get(target);
      if (!existing || existing.path !== r.from)
        byDir.set(target, { dir: target, path: r.from, source: 'go.mod' });
    }
  }
  if (goWork) {
    for (const use of parseGoWork(goWork)) {
      const dir = normalize(use);
      if (!byDir.has(dir) && goMods.has(dir)) {
        const parsed = parseGoMod(goMods.get(dir) ?? '');
        if (parsed.module) byDir.set(dir, { dir, path: parsed.module, source: 'go.work' });
      }
    }
  }
  const treeModules = [...byDir.values()];
  const modules = [...treeModules, ...(extras.dependencies ?? [])].sort(
    (a, b) => b.dir.length - a.dir.length,
  );
  const roots = [...(extras.roots ?? [])].sort((a, b) => b.dir.length - a.dir.length);
  const moduleAt = new Map(modules.map((m) => [m.dir, m]));
  const rootAt = new Map(roots.map((r) => [r.dir, r]));
  const exact = extras.exact ?? new Map();
  const shortest = treeModules.sort((a, b) => a.dir.length - b.dir.length)[0];
  const rootModule =
    byDir.get('')?.path ??
    exact.get('')?.path ??
    (roots.find((r) => r.dir === '')?.path || shortest?.path) ??
    null;
  const cache = new Map<string, { path: string; source: ImportPathSource } | null>();
  const lookup = (dir: string) => {
    const hit = cache.get(dir);
    if (hit !== undefined) return hit;
    let result: { path: string; source: ImportPathSource } | null = null;
    const vendorAt = dir.startsWith(DEPS_PREFIX) ? -1 : vendorIndex(dir);
    if (vendorAt >= 0) {
      const rest = dir.slice(vendorAt + 'vendor/'.length);
      result = rest ? { path: rest, source: 'vendor' } : null;
    } else {
      result = under(moduleAt, dir) ?? exact.get(dir) ?? under(rootAt, dir);
    }
    cache.set(dir, result);
    return result;
  };
  return {
    modules: [...modules, ...roots],
    rootModule,
    importPathOf: (dir) => lookup(dir)?.path ?? null,
    sourceOf: (dir) => lookup(dir)?.source ?? null,
    inputs: {
      goMods: [...goMods],
      ...(goWork !== undefined ? { goWork } : {}),
      ...(extras.exact ? { exact: [...extras.exact] } : {}),
      ...(extras.roots ? { roots: [...extras.roots] } : {}),
      ...(extras.dependencies ? { dependencies: [...extras.dependencies] } : {}),
    },
  };
}

/** The layout buildModuleLayout made from `inputs` (ModuleLayout.inputs). */
export function layoutFromInputs(inputs: LayoutInputs): ModuleLayout {
  return buildModuleLayout(new Map(inputs.goMods), inputs.goWork, {
    ...(inputs.exact ? { exact: new Map(inputs.exact) } : {}),
    ...(inputs.roots ? { roots: inputs.roots } : {}),
    ...(inputs.dependencies ? { dependencies: inputs.dependencies } : {}),
  });
}

/** The import path of `dir` under the nearest root at or above it: a walk up its parents. */
function under(
  roots: ReadonlyMap<string, ModuleInfo>,
  dir: string,
): { path: string; source: ImportPathSource } | undefined {
  if (roots.size === 0) return undefined;
  for (let at = dir; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
    const m = roots.get(at);
    if (m) {
      const p = importPathUnder(m, dir);
      return p ? { path: p, source: m.source } : undefined;
    }
    if (at === '') return undefined;
  }
}

/** The import path of `dir` below `root`: undefined when `dir` is not below it, '' for none. */
export function importPathUnder(root: ModuleInfo, dir: string): string | undefined {
  if (root.dir !== '' && dir !== root.dir && !dir.startsWith(`${root.dir}/`)) return undefined;
  const rest = root.dir === '' ? dir : dir.slice(root.dir.length + 1);
  return rest ? (root.path ? `${root.path}/${rest}` : rest) : root.path;
}

function vendorIndex(dir: string): number {
  if (dir.startsWith('vendor/')) return 0;
  const at = dir.lastIndexOf('/vendor/');
  return at >= 0 ? at + 1 : -1;
}

function normalize(p: string): string {
  const n = path.posix.normalize(p).replace(/\/$/, '');
  return n === '.' ? '' : n;
}
