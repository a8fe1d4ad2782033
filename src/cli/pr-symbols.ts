/**
 * The symbols a pull request touched, named and placed as they were at its merge commit: its
 * diff hunks are line ranges of that commit's files, so they are matched against those files
 * parsed at that commit (git cat-file, tree-sitter, the index's own naming), not against today's
 * index, where the same lines may hold code a later PR added.
 *
 * Package paths come from the go.mod files of that commit; a tree without go.mod (Kubernetes
 * before 1.15) takes its root's from Godeps/Godeps.json (staging/src/<path> is <path>), else from
 * the current index, by directory.
 */
import type { ChangedFile, PullRequestDetails } from '../git/types.js';
import type { GitRepository } from '../git/repository.js';
import type { ModuleInfo } from '../index/modules.js';
import type { SymbolKind } from '../store/symbols.js';
import { dirOf } from '../shared/repo-path.js';

export interface TouchedSymbol {
  symbol: string;
  kind: SymbolKind;
  file: string;
  line: number;
  endLine: number;
}

export interface PullRequestSymbols {
  /** The commit whose files the lines refer to (the merge or squash commit). */
  at: string;
  symbols: TouchedSymbol[];
  /** Go files whose package path is known neither from a go.mod at that commit nor from the index. */
  unplaced: string[];
}

/** Far more than a reviewed pull request changes; a vendor bump beyond it is not parsed whole. */
const MAX_FILES = 2000;

export async function findSymbolsAtMerge(
  repo: GitRepository,
  details: PullRequestDetails,
  /** Package path by directory from the current index, for trees without go.mod. */
  indexedPackages: () => Promise<Map<string, string>>,
): Promise<PullRequestSymbols> {
  const at = details.mergeCommit;
  const changed = details.files
    .filter((f) => f.path.endsWith('.go') && f.status !== 'D' && f.hunks.length > 0)
    .slice(0, MAX_FILES);
  if (changed.length === 0) return { at, symbols: [], unplaced: [] };
  const [
    { factsOfSource },
    { buildModuleLayout, godepsImportPath },
    { buildModel },
    { symbolsTouched },
  ] = await Promise.all([
    import('../index/parse-file.js'),
    import('../index/modules.js'),
    import('../resolve/model.js'),
    import('../git/pr-lookup.js'),
  ]);
  const goModPaths = await repo.listFiles(
    at,
    (p) => (p === 'go.mod' || p.endsWith('/go.mod')) && !/(^|\/)vendor\//.test(p),
  );
  const [sources, goModFiles] = await Promise.all([
    repo.readFiles(
      at,
      changed.map((f) => f.path),
    ),
    repo.readFiles(at, goModPaths),
  ]);
  const goMods = new Map<string, string>();
  for (const [p, text] of goModFiles)
    goMods.set(p === 'go.mod' ? '' : p.slice(0, -'/go.mod'.length), text.toString('utf8'));
  const roots: ModuleInfo[] = [];
  if (goMods.size === 0) {
    // Before go.mod (Kubernetes 1.14 and older): Godeps.json names the root's import path, and
    // staging/src is a GOPATH of its own (staging/src/k8s.io/client-go is k8s.io/client-go).
    const godeps = (await repo.readFiles(at, ['Godeps/Godeps.json'])).get('Godeps/Godeps.json');
    const root = godeps ? godepsImportPath(godeps.toString('utf8')) : null;
    if (root)
      roots.push(
        { dir: '', path: root, source: 'Godeps.json' },
        { dir: 'staging/src', path: '', source: 'Godeps.json' },
      );
  }
  const layout = buildModuleLayout(goMods, undefined, { roots });
  let fromIndex: Map<string, string> | undefined;

  const definitions: TouchedSymbol[] = [];
  const unplaced: string[] = [];
  for (const file of changed) {
    const source = sources.get(file.path);
    if (!source) continue;
    const dir = dirOf(file.path);
    let pkgPath = layout.importPathOf(dir);
    if (!pkgPath) {
      fromIndex ??= await indexedPackages();
      pkgPath = fromIndex.get(dir) ?? null;
    }
    if (!pkgPath) {
      unplaced.push(file.path);
      continue;
    }
    const facts = factsOfSource(source.toString('utf8'));
    // One model per file, without its build constraints: a PR that changed a Windows-only file
    // touched its symbols all the same.
    const model = buildModel([{ path: neutralName(dir), facts: { ...facts, build: undefined } }], {
      modules: [],
      rootModule: pkgPath,
      importPathOf: () => pkgPath,
      sourceOf: () => null,
      inputs: { goMods: [] },
    });
    for (const f of model.funcs)
      definitions.push({
        symbol: f.symbol,
        kind: f.fact.kind === 'lit' ? 'closure' : f.fact.kind,
        file: file.path,
        line: f.fact.line,
        endLine: f.fact.endLine,
      });
    for (const pkg of model.packages.values()) {
      for (const t of pkg.types.values())
        definitions.push({
          symbol: t.symbol,
          kind: t.fact.kind === 'struct' || t.fact.kind === 'interface' ? t.fact.kind : 'type',
          file: file.path,
          line: t.fact.line,
          endLine: t.fact.endLine,
        });
      for (const v of pkg.values.values())
        definitions.push({
          symbol: v.symbol,
          kind: v.fact.const ? 'const' : 'var',
          file: file.path,
          line: v.fact.line,
          endLine: v.fact.line,
        });
    }
  }
  const touched = symbolsTouched(definitions, changed as ChangedFile[]).sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line,
  );
  return { at, symbols: touched, unplaced };
}

/** A file name no build constraint applies to, in the file's own directory. */
function neutralName(dir: string): string {
  return dir ? `${dir}/pr_file.go` : 'pr_file.go';
}
