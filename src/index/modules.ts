/**
 * Import paths from the module layout, as the go command sees it: the nearest go.mod above a
 * directory names its module; `vendor/<path>` is `<path>`; in-tree `replace` targets and
 * `go.work` `use` directories carry the module path they replace or declare. Staging
 * (`staging/src/k8s.io/<name>`) needs no special case: each has its own go.mod.
 */
import path from 'node:path';

export interface ModuleInfo {
  /** Directory relative to the root, `''` for the root itself. */
  dir: string;
  path: string;
  /** `go` directive, when present. */
  go?: string;
}

export interface ModuleLayout {
  modules: ModuleInfo[];
  /** Module path of the tree's root go.mod (or the first module). */
  rootModule: string | null;
  /** Import path of a directory relative to the root, or null outside every module. */
  importPathOf(dir: string): string | null;
}

export function parseGoMod(text: string): {
  module: string | null;
  go?: string;
  replaces: { from: string; to: string }[];
} {
  const stripped = text.replace(/\/\/[^\n]*/g, '');
  const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(stripped)?.[2] ?? null;
  const go = /^\s*go\s+([\d.]+)/m.exec(stripped)?.[1];
  const replaces: { from: string; to: string }[] = [];
  const addReplace = (line: string) => {
    const m = /^\s*(\S+)(?:\s+\S+)?\s*=>\s*(\S+)(?:\s+\S+)?\s*$/.exec(line);
    if (m?.[1] && m[2] && (m[2].startsWith('./') || m[2].startsWith('../')))
      replaces.push({ from: m[1], to: m[2] });
  };
  for (const block of stripped.matchAll(/^\s*replace\s*\(([\s\S]*?)\)/gm))
    block[1]?.split('\n').forEach(addReplace);
  for (const single of stripped.matchAll(/^\s*replace\s+([^(\n][^\n]*)$/gm))
    if (single[1]) addReplace(single[1]);
  return { module, ...(go ? { go } : {}), replaces };
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
export function buildModuleLayout(goMods: Map<string, string>, goWork?: string): ModuleLayout {
  const byDir = new Map<string, ModuleInfo>();
  for (const [dir, text] of goMods) {
    const parsed = parseGoMod(text);
    if (parsed.module)
      byDir.set(dir, { dir, path: parsed.module, ...(parsed.go ? { go: parsed.go } : {}) });
  }
  // In-tree replace targets take the replaced path when their own go.mod says otherwise (or is absent).
  for (const [dir, text] of goMods) {
    for (const r of parseGoMod(text).replaces) {
      const target = normalize(path.posix.join(dir, r.to));
      if (target.startsWith('..')) continue;
      const existing = byDir.get(target);
      if (!existing || existing.path !== r.from) byDir.set(target, { dir: target, path: r.from });
    }
  }
  if (goWork) {
    for (const use of parseGoWork(goWork)) {
      const dir = normalize(use);
      if (!byDir.has(dir) && goMods.has(dir)) {
        const parsed = parseGoMod(goMods.get(dir) ?? '');
        if (parsed.module) byDir.set(dir, { dir, path: parsed.module });
      }
    }
  }
  const modules = [...byDir.values()].sort((a, b) => b.dir.length - a.dir.length);
  const rootModule = byDir.get('')?.path ?? modules[modules.length - 1]?.path ?? null;
  const cache = new Map<string, string | null>();
  const importPathOf = (dir: string): string | null => {
    const hit = cache.get(dir);
    if (hit !== undefined) return hit;
    let result: string | null = null;
    const vendorAt = vendorIndex(dir);
    if (vendorAt >= 0) {
      result = dir.slice(vendorAt + 'vendor/'.length) || null;
    } else {
      for (const m of modules) {
        if (m.dir === '' || dir === m.dir || dir.startsWith(`${m.dir}/`)) {
          const rest = m.dir === '' ? dir : dir.slice(m.dir.length + 1);
          result = rest ? `${m.path}/${rest}` : m.path;
          break;
        }
      }
    }
    cache.set(dir, result);
    return result;
  };
  return { modules, rootModule, importPathOf };
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
