/**
 * The tree a tour (or `tour check`, or the screen) reads: which checkout, its index opened through
 * open-index.ts (which indexes it first when needed), how to name it to a reader, and the index as
 * anchoring asks for it.
 */
import { sourceLocator } from '../trace/store-graph.js';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  findDefinitions,
  listSymbolsInPackagePrefix,
  searchSymbols,
  type DefinitionRow,
  type SymbolKind,
} from '../store/symbols.js';
import type { TourIndex } from '../tour/anchor.js';
import type { Tour } from '../tour/schema.js';
import type { TreeDescription } from '../tour/tour-view.js';
import { permalinkBase } from '../trace/store-graph.js';
import type { CliContext } from './context.js';
import { openIndex, type OpenIndex } from './open-index.js';
import { packageRoot } from '../shared/package-root.js';
import { chooseRepo, type RepoOptions } from './repo.js';

export const fixturesDir = path.join(packageRoot, 'fixtures');

export interface TourTree {
  index: OpenIndex;
  tree: TreeDescription;
  tourIndex: TourIndex;
}

/**
 * Opens the index of the tree a tour (or check) reads. Without a repository of the reader's own,
 * a tour that the default demo tree does not model opens the demo tree that does (sample-controller,
 * the controller-runtime operator), and says so.
 */
export async function openTourTree(
  ctx: CliContext,
  flags: RepoOptions,
  tour?: Tour,
): Promise<TourTree> {
  let options: RepoOptions = {
    ...(flags.repo ? { repo: flags.repo } : {}),
    ...(flags.db ? { db: flags.db } : {}),
  };
  let quiet = false;
  const preferred = tour?.demoTrees[0];
  const choice = chooseRepo(options, ctx);
  if (
    choice.source === 'demo' &&
    tour &&
    preferred &&
    !tour.demoTrees.includes(path.basename(choice.root))
  ) {
    options = { ...options, repo: path.join(fixturesDir, preferred) };
    ctx.stderr.write(
      `note: no --repo, KUBERNETES_SRC or Go checkout here; using the bundled demo tree fixtures/${preferred}, which models this tour\n`,
    );
    quiet = true;
  }
  const index = await openIndex(ctx, options, { quiet });
  const demoTree = demoTreeOf(index.tree.root);
  return {
    index,
    tree: {
      label: demoTree !== null ? `fixtures/${demoTree} (demo tree)` : homeRelative(index.tree.root),
      commit: index.tree.commit_sha,
      version: index.tree.version,
      permalinkBase: permalinkBase(index.tree),
      demoTree,
    },
    tourIndex: createTourIndex(index),
  };
}

/** The directory name of a bundled demo tree under fixtures/, or null for any other tree. */
export function demoTreeOf(root: string): string | null {
  if (!existsSync(fixturesDir)) return null;
  const relative = path.relative(realpathSync(fixturesDir), root);
  return relative &&
    !relative.startsWith('..') &&
    !path.isAbsolute(relative) &&
    !relative.includes(path.sep)
    ? relative
    : null;
}

const PACKAGE_KINDS: readonly SymbolKind[] = ['func', 'method', 'struct', 'interface', 'type'];

/** The index as anchoring asks for it; sources are read once per file. */
export function createTourIndex(index: Pick<OpenIndex, 'store' | 'treeId' | 'tree'>): TourIndex {
  const { store, treeId } = index;
  const sources = new Map<string, Promise<string | undefined>>();
  const inPackage = async (
    prefix: string,
    kinds: readonly SymbolKind[],
    stopAtFirst: boolean,
  ): Promise<DefinitionRow[]> => {
    const out: DefinitionRow[] = [];
    for (const kind of kinds) {
      const rows = (await listSymbolsInPackagePrefix(store, treeId, prefix, kind)).filter(
        (d) => d.package === prefix || d.package.startsWith(`${prefix}/`),
      );
      out.push(...rows);
      if (stopAtFirst && out.length > 0) break;
    }
    return out;
  };
  // Dependencies' files live in their module's directory, not under the tree.
  const locate = sourceLocator(index.tree);
  return {
    findSymbol: async (symbol) =>
      (await findDefinitions(store, treeId, symbol)).filter((d) => d.symbol === symbol),
    searchSymbols: (text, limit) => searchSymbols(store, treeId, text, limit),
    symbolsInPackage: async (pkg) =>
      (await inPackage(pkg, PACKAGE_KINDS, false)).filter((d) => d.package === pkg),
    hasPackage: async (prefix) => (await inPackage(prefix, PACKAGE_KINDS, true)).length > 0,
    readSource: (file) => {
      let text = sources.get(file);
      if (!text) {
        text = readFile(locate.path(file), 'utf8').catch(() => undefined);
        sources.set(file, text);
      }
      return text;
    },
  };
}

function homeRelative(root: string): string {
  const home = os.homedir();
  return root === home || root.startsWith(`${home}${path.sep}`)
    ? `~${root.slice(home.length)}`
    : root;
}
