/**
 * The screen's providers: the answers its panes fetch on demand — source, the calls on a line,
 * callers, search, blame with its pull request, the twins of a symbol and a twin's run — built over
 * the index, git and the twins. They live here, not in src/tui, because they open SQLite and git;
 * the screen is handed them through props (DESIGN.md, "the TUI opens nothing itself").
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BlamedLine } from '../git/types.js';
import type { PullRequestOptions } from '../git/pull-requests.js';
import type { GitRepository } from '../git/repository.js';
import type { Store } from '../store/db.js';
import {
  findDefinitions,
  findEdgesTo,
  findSymbolsByIds,
  searchSymbols,
  type DefinitionRow,
} from '../store/symbols.js';
import { resolvePosition, type IndexRef } from '../trace/queries.js';
import type { Location, TuiProviders } from '../tui/types.js';
import type { MirrorTag } from '../twins/mirror-tags.js';

export interface ProviderSources {
  index: IndexRef;
  /** The checkout the index was built from; git runs there. */
  root: string;
  /** A file's text (relative path), or undefined when it cannot be read. */
  readSource(file: string): Promise<string | undefined>;
  /** The index database: blame answers are cached beside it. @default no cache */
  gitCacheDb?: string;
  /** The package root: the twins are read from its src/twins, their scenarios from beside them;
   * without src/twins (a build without sources) the twin panes say so. */
  packageRoot: string;
}

export interface ScreenProviders {
  providers: TuiProviders;
  /** Releases what the providers opened (the git cache). */
  close(): Promise<void>;
}

export function createScreenProviders(sources: ProviderSources): ScreenProviders {
  const { store, treeId } = sources.index;
  const { root } = sources;
  const twinsDir = path.join(sources.packageRoot, 'src', 'twins');
  let git: Promise<{ repo: GitRepository; context: PullRequestOptions; cache?: Store }> | undefined;
  const blames = new Map<string, Promise<BlamedLine[]>>();
  let tags: Promise<MirrorTag[]> | undefined;
  const mirrorTags = async () => {
    const { readMirrorTags } = await import('../twins/mirror-tags.js');
    tags ??= readMirrorTags(twinsDir);
    return tags;
  };
  const openGit = () =>
    (git ??= (async () => {
      const [{ GitRepository }, { openGitCache }] = await Promise.all([
        import('../git/repository.js'),
        import('../store/git-cache.js'),
      ]);
      const repo = await GitRepository.open(root);
      // The cache only makes answers faster; without it they are the same.
      const cache = sources.gitCacheDb
        ? await openGitCache(sources.gitCacheDb).catch(() => undefined)
        : undefined;
      return { repo, context: { ...(cache ? { cache } : {}) }, ...(cache ? { cache } : {}) };
    })());

  const providers: TuiProviders = {
    readSource: async (file) => {
      const text = await sources.readSource(file);
      if (text === undefined) throw new Error(`${file} cannot be read from ${root}`);
      return text;
    },
    callsAt: async (file, line) => {
      const answer = await resolvePosition(sources.index, file, line, null);
      return answer.calls.map((c) => ({
        line,
        expr: c.expr,
        target:
          c.target && c.target.kind !== 'external' && c.target.file ? toLocation(c.target) : null,
        kind: c.kind,
        via: c.via,
      }));
    },
    callers: async (symbol) => {
      const def = (await findDefinitions(store, treeId, symbol)).find((d) => d.symbol === symbol);
      if (!def) return [];
      const edges = await findEdgesTo(store, treeId, [def.id]);
      const callers = new Map(
        (await findSymbolsByIds(store, treeId, [...new Set(edges.map((e) => e.caller))])).map(
          (d) => [d.id, d],
        ),
      );
      return edges.flatMap((e) => {
        const caller = callers.get(e.caller);
        return caller && caller.file
          ? [
              {
                caller: toLocation(caller, e.line),
                site: `${e.file}:${e.line}`,
                kind: e.kind,
                via: e.via,
              },
            ]
          : [];
      });
    },
    search: async (text) =>
      (await searchSymbols(store, treeId, text, 40))
        .filter((d) => d.file)
        .map((d) => toLocation(d)),
    blame: async (file, line) => {
      const { repo, context } = await openGit();
      let lines = blames.get(file);
      if (!lines) {
        const { blameFile } = await import('../git/blame.js');
        lines = blameFile(repo, { file }, {}, context);
        blames.set(file, lines);
        lines.catch(() => blames.delete(file));
      }
      const found = (await lines).find((l) => l.line === line);
      if (!found) throw new Error(`line ${line} is not in ${file} at HEAD`);
      return {
        file,
        line,
        commit: found.commit,
        author: found.author,
        authorTime: found.authorTime,
        summary: found.summary,
        pr: found.pr ? { number: found.pr.number, title: found.pr.title, url: found.pr.url } : null,
        reason: found.reason,
      };
    },
  };
  if (existsSync(twinsDir)) {
    providers.twins = async (symbol) => {
      const { findTwinsForSymbol } = await import('../twins/mirror-tags.js');
      return findTwinsForSymbol(await mirrorTags(), symbol);
    };
    providers.timeline = async (symbol, preferred) => {
      const [{ twinNames, findTwin, defaultScenarioPath }, { findTwinsForSymbol }] =
        await Promise.all([import('../twins/catalog.js'), import('../twins/mirror-tags.js')]);
      const runnable = (name: string | null | undefined): name is string =>
        name != null && (twinNames as readonly string[]).includes(name);
      const name = runnable(preferred)
        ? preferred
        : findTwinsForSymbol(await mirrorTags(), symbol)
            .map((m) => m.twin)
            .find(runnable);
      if (!name)
        throw new Error(
          `no runnable twin mirrors this symbol; the twins are: ${twinNames.join(', ')}`,
        );
      const twin = findTwin(name);
      const scenario = defaultScenarioPath(sources.packageRoot, twin.name);
      const { result } = twin.run(scenario);
      return {
        twin: twin.name,
        scenario: path.relative(sources.packageRoot, scenario),
        events: result.events,
      };
    };
  }
  return {
    providers,
    close: async () => {
      const opened = await git?.catch(() => undefined);
      await opened?.cache?.close().catch(() => undefined);
    },
  };
}

/** A declaration as a place the source pane can show, optionally focused on one line. */
export function toLocation(
  def: Pick<DefinitionRow, 'symbol' | 'file' | 'line' | 'endLine'>,
  focusLine: number | null = null,
): Location {
  return {
    symbol: def.symbol,
    file: def.file,
    line: def.line,
    endLine: Math.max(def.endLine, def.line),
    focusLine,
  };
}
