/**
 * Import paths for trees from before go.mod (Kubernetes v1.14 and earlier), where the checkout sat
 * at `$GOPATH/src/k8s.io/kubernetes` and nothing in the tree said so for sure. In order:
 * a `// import "..."` comment on a package clause names its directory; a `Godeps/Godeps.json`
 * names the directory above it (`ImportPath`); and the tree's own imports that end in one of its
 * directories name a root (`k8s.io/kubernetes/pkg/scheduler` for `pkg/scheduler` makes `` the
 * root of `k8s.io/kubernetes`; `k8s.io/client-go/tools/cache` for
 * `staging/src/k8s.io/client-go/tools/cache` makes `staging/src` a GOPATH `src` directory).
 */
import {
  importPathUnder,
  type ImportPathSource,
  type LayoutExtras,
  type ModuleInfo,
} from './modules.js';

export interface GopathEvidence {
  /** Package directories (relative to the root) that no go.mod covers. */
  dirs: readonly string[];
  /** Directory -> the path its `// import` comments give. */
  comments: ReadonlyMap<string, string>;
  /** Directory holding `Godeps/` -> the `ImportPath` its Godeps.json gives. */
  godeps: ReadonlyMap<string, string>;
  /** Import paths the tree's files import. */
  imports: Iterable<string>;
}

interface Pair {
  dir: string;
  path: string;
  source: ImportPathSource;
}

export function inferImportPaths(
  evidence: GopathEvidence,
): Required<Pick<LayoutExtras, 'exact' | 'roots'>> {
  const exact = new Map<string, { path: string; source: ImportPathSource }>();
  for (const [dir, p] of evidence.comments) exact.set(dir, { path: p, source: 'import comment' });
  const roots: ModuleInfo[] = [...evidence.godeps].map(([dir, p]) => ({
    dir,
    path: p,
    source: 'Godeps.json',
  }));
  const pairs: Pair[] = [
    ...[...evidence.comments].map(([dir, p]) => ({
      dir,
      path: p,
      source: 'import comment' as const,
    })),
    ...matchImports(evidence.dirs, evidence.imports),
  ];
  // Candidate roots, shallowest first: each must explain more of the evidence below it than the
  // root it would shadow, so one odd comment (a package that kept its old path) makes no root.
  const candidates = new Map<string, Map<string, { votes: number; comments: number }>>();
  for (const pair of pairs) {
    const root = rootOf(pair.dir, pair.path);
    if (!root) continue;
    const byPath =
      candidates.get(root.dir) ?? new Map<string, { votes: number; comments: number }>();
    candidates.set(root.dir, byPath);
    const tally = byPath.get(root.path) ?? { votes: 0, comments: 0 };
    byPath.set(root.path, tally);
    tally.votes++;
    if (pair.source === 'import comment') tally.comments++;
  }
  const depth = (dir: string) => (dir === '' ? 0 : dir.split('/').length);
  for (const dir of [...candidates.keys()].sort((a, b) => depth(a) - depth(b))) {
    if (roots.some((r) => r.dir === dir)) continue;
    const [best, tally] = [...candidates.get(dir)!].sort((a, b) => b[1].votes - a[1].votes)[0]!;
    const below = pairs.filter((p) => dir === '' || p.dir === dir || p.dir.startsWith(`${dir}/`));
    const proposed: ModuleInfo = {
      dir,
      path: best,
      source: tally.comments * 2 >= tally.votes ? 'import comment' : 'imports',
    };
    const enclosing = nearest(roots, dir);
    const agree = (root: ModuleInfo | undefined) =>
      root ? below.filter((p) => importPathUnder(root, p.dir) === p.path).length : 0;
    if (agree(proposed) > agree(enclosing)) roots.push(proposed);
  }
  return { exact, roots };
}

/**
 * Pairs a tree directory with an import path that ends in it. An import path is matched to the
 * directories sharing its longest suffix (two elements at least, or the whole directory); a tie
 * is no evidence. Standard-library paths (no dot in the first element) are never matched.
 */
function matchImports(dirs: readonly string[], imports: Iterable<string>): Pair[] {
  const byLast = new Map<string, string[][]>();
  for (const dir of dirs) {
    if (dir === '') continue;
    const parts = dir.split('/');
    const last = parts[parts.length - 1]!;
    const list = byLast.get(last) ?? [];
    byLast.set(last, list);
    list.push(parts);
  }
  const pairs: Pair[] = [];
  for (const imp of new Set(imports)) {
    const ip = imp.split('/');
    if (!ip[0]?.includes('.')) continue;
    let best = 0;
    let found: string[][] = [];
    for (const parts of byLast.get(ip[ip.length - 1]!) ?? []) {
      const s = commonSuffix(parts, ip);
      if (s < 2 && s < parts.length) continue;
      if (s > best) {
        best = s;
        found = [parts];
      } else if (s === best) found.push(parts);
    }
    if (found.length === 1) pairs.push({ dir: found[0]!.join('/'), path: imp, source: 'imports' });
  }
  return pairs;
}

function commonSuffix(a: readonly string[], b: readonly string[]): number {
  let s = 0;
  while (s < a.length && s < b.length && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return s;
}

/** The root a directory/path pair implies: what is left of each once their common tail is cut. */
function rootOf(dir: string, importPath: string): { dir: string; path: string } | null {
  const d = dir === '' ? [] : dir.split('/');
  const p = importPath.split('/');
  const s = commonSuffix(d, p);
  if (s === 0) return dir === '' ? { dir: '', path: importPath } : null;
  return { dir: d.slice(0, d.length - s).join('/'), path: p.slice(0, p.length - s).join('/') };
}

function nearest(roots: readonly ModuleInfo[], dir: string): ModuleInfo | undefined {
  let best: ModuleInfo | undefined;
  for (const r of roots) {
    if (importPathUnder(r, dir) === undefined) continue;
    if (!best || r.dir.length > best.dir.length) best = r;
  }
  return best;
}
