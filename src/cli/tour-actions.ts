/**
 * The actions of `tour` and `tui`, loaded only when one of them runs: read the tours, open the
 * index, anchor the steps, and hand everything to a renderer — text, Markdown, or the Ink screen
 * (whose data arrives through props and provider functions built in tui-providers.ts; the screen
 * itself opens nothing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IndexMissingError, K8sReadError, UsageError } from '../errors.js';
import type { BlamedLine } from '../git/types.js';
import type { PullRequestOptions } from '../git/pull-requests.js';
import type { GitRepository } from '../git/repository.js';
import type { Store } from '../store/db.js';
import {
  findDefinitions,
  findEdgesTo,
  findSymbolsByIds,
  listSymbolsInPackagePrefix,
  searchSymbols,
  type DefinitionRow,
  type SymbolKind,
} from '../store/symbols.js';
import type { TourIndex } from '../tour/anchor.js';
import { checkTours, type TourCheckReport } from '../tour/check.js';
import { loadTourByName, loadTours, type LoadOptions } from '../tour/load-tours.js';
import type { Tour } from '../tour/schema.js';
import { renderTourMarkdown } from '../tour/tour-markdown.js';
import { describeTree, renderTourText } from '../tour/tour-text.js';
import { buildTourView, type TreeDescription, type TourView } from '../tour/tour-view.js';
import { resolvePosition } from '../trace/queries.js';
import { permalinkBase } from '../trace/store-graph.js';
import type { Trace } from '../trace/types.js';
import type * as Items from '../tui/items.js';
import type * as StartScreen from '../tui/start-screen.js';
import type { AppProps, Location, NavItem, TuiProviders } from '../tui/types.js';
import { sourceKey } from '../tui/answer-keys.js';
import type { AnswerCache } from '../tui/use-answer.js';
import type { MirrorTag } from '../twins/mirror-tags.js';
import type { TourFlags } from './commands/tour.js';
import { debugLogger, useColor, type CliContext } from './context.js';
import { openIndex, type OpenIndex } from './open-index.js';
import { writeJson } from './output.js';
import { packageRoot } from './package-info.js';
import { chooseRepo, type RepoOptions } from './repo.js';

const fixturesDir = path.join(packageRoot, 'fixtures');

function guidesDir(ctx: CliContext, flags: TourFlags): string {
  return flags.guides ? path.resolve(ctx.cwd, flags.guides) : path.join(packageRoot, 'guides');
}

export function loadGuideTours(
  ctx: CliContext,
  flags: TourFlags,
  options: LoadOptions = {},
): Tour[] {
  return loadTours(guidesDir(ctx, flags), { ...options, shownAs: (file) => shownPath(ctx, file) });
}

/** One tour by name: only its file is read (a YAML parse per file is most of `tour`'s start-up). */
export function loadGuideTour(ctx: CliContext, flags: TourFlags, name: string): Tour {
  return loadTourByName(guidesDir(ctx, flags), name, { shownAs: (file) => shownPath(ctx, file) });
}

export async function runTourList(
  ctx: CliContext,
  flags: TourFlags & { output: 'text' | 'json' },
): Promise<void> {
  const tours = loadGuideTours(ctx, flags);
  if (flags.output === 'json') {
    writeJson(
      ctx.stdout,
      tours.map((t) => ({ name: t.name, title: t.title, steps: t.steps.length })),
    );
    return;
  }
  const width = Math.max(...tours.map((t) => t.name.length));
  for (const t of tours)
    ctx.stdout.write(
      `${t.name.padEnd(width)}  ${String(t.steps.length).padStart(2)} steps  ${t.title}\n`,
    );
  ctx.stdout.write('\ntake one with `k8s-read tour <name>` (add --plain for text)\n');
}

export async function runTourCheck(
  ctx: CliContext,
  flags: TourFlags & { output: 'text' | 'json' },
): Promise<void> {
  const { twinNames } = await import('../twins/catalog.js');
  const tours = loadGuideTours(ctx, flags, { twinNames });
  // Without a tree of the reader's own, each tour is checked on the demo trees that model it:
  // one command checks the bundled tours against every fixture.
  const demoTrees =
    chooseRepo(flags, ctx).source === 'demo' ? [...new Set(tours.flatMap((t) => t.demoTrees))] : [];
  if (demoTrees.length > 0) {
    ctx.stderr.write(
      'note: no --repo, KUBERNETES_SRC or Go checkout here; checking each tour on the bundled demo trees that model it\n',
    );
  }
  const runs: { tree: TreeDescription; report: TourCheckReport }[] = [];
  for (const demo of demoTrees.length > 0 ? demoTrees : [null]) {
    const opened = await openTourTree(
      ctx,
      demo === null ? flags : { ...flags, repo: path.join(fixturesDir, demo) },
    );
    try {
      const checked = demo === null ? tours : tours.filter((t) => t.demoTrees.includes(demo));
      runs.push({
        tree: opened.tree,
        report: await checkTours(checked, opened.tourIndex, { demoTree: opened.tree.demoTree }),
      });
    } finally {
      await opened.index.close();
    }
  }
  if (flags.output === 'json') {
    const tours = runs.flatMap(({ tree, report }) =>
      report.tours.map((t) => ({ ...t, tree: tree.label })),
    );
    writeJson(ctx.stdout, { tours, ok: runs.every((r) => r.report.ok) });
  } else {
    ctx.stdout.write(runs.map(({ tree, report }) => renderCheckText(report, tree)).join('\n'));
  }
  const missing = runs.flatMap((r) => r.report.tours).reduce((n, t) => n + t.missing.length, 0);
  if (missing > 0) {
    const where = runs.length === 1 ? runs[0]!.tree.label : 'the demo trees';
    throw new K8sReadError(
      `${missing} tour step${missing === 1 ? '' : 's'} did not resolve in ${where}; add this version's symbol as an alternative, or fix the focus`,
      { code: 'E_TOUR_CHECK' },
    );
  }
}

function renderCheckText(report: TourCheckReport, tree: TreeDescription): string {
  const out = [`tours checked against ${describeTree(tree)}`];
  const width = Math.max(...report.tours.map((t) => t.name.length));
  for (const t of report.tours) {
    if (!t.applies) {
      out.push(`  - ${t.name.padEnd(width)}  does not apply: ${t.reason}`);
      continue;
    }
    const notes = [
      t.skipped.length > 0
        ? `${t.skipped.length} skipped: ${[...new Set(t.skipped.map((s) => s.reason))].join('; ')}`
        : '',
      t.alternatives.length > 0 ? `${t.alternatives.length} through another version's name` : '',
    ].filter(Boolean);
    const counted = t.steps - t.skipped.length;
    out.push(
      `  ${t.missing.length === 0 ? '✓' : '✗'} ${t.name.padEnd(width)}  ${t.resolved}/${counted} steps${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`,
    );
    for (const m of t.missing) {
      if (m.reason === 'focus') {
        out.push(
          `      step ${m.step} ${m.symbol}: the focus ${m.focus?.call !== undefined ? `call ${m.focus.call}` : JSON.stringify(m.focus?.text)} is not in its source`,
        );
      } else {
        out.push(
          `      step ${m.step} ${m.symbol}: not in this tree${m.suggestions.length > 0 ? `; similar: ${m.suggestions.join(', ')}` : ''}`,
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

export async function runTour(
  ctx: CliContext,
  name: string,
  flags: TourFlags & { plain?: boolean; step?: number },
): Promise<void> {
  const debug = debugLogger(ctx, 'tui');
  const interactive = !flags.plain && isInteractive(ctx);
  if (!flags.plain && !interactive && ctx.stdout.isTTY && ciIsSet(ctx)) {
    ctx.stderr.write(
      'note: CI is set, and the interactive screen draws nothing then; printing the tour as text (unset CI for the screen)\n',
    );
  }
  // Ink, React and the highlighter take longer to load than the index takes to open: start now.
  const screen = interactive ? loadScreenModules() : undefined;
  const tour = loadGuideTour(ctx, flags, name);
  if (flags.step !== undefined && flags.step > tour.steps.length) {
    throw new UsageError(
      `--step ${flags.step}: the tour ${tour.name} has ${tour.steps.length} steps; pass a number from 1 to ${tour.steps.length}`,
    );
  }
  debug(`tours read ${performance.now().toFixed(0)} ms after start`);
  const opened = await openTourTree(ctx, flags, tour);
  try {
    debug(`index open ${performance.now().toFixed(0)} ms after start`);
    if (!screen) {
      const view = await buildView(tour, opened);
      ctx.stdout.write(
        renderTourText(view, {
          color: useColor(ctx),
          fromStep: flags.step ?? 1,
          width: Math.min(ctx.stdout.columns ?? 80, 100),
        }),
      );
      return;
    }
    // The screen reads the source itself; the excerpts are for text and Markdown.
    const view = await buildTourView(tour, opened.tourIndex, opened.tree, { excerpts: false });
    debug(`steps anchored ${performance.now().toFixed(0)} ms after start`);
    await runTourScreen(
      ctx,
      opened,
      { kind: 'tour', view, startStep: flags.step ?? 1 },
      await screen,
    );
  } finally {
    await opened.index.close();
  }
}

/**
 * For `export tour <name> -o md`: the tour resolved against the chosen tree, as Markdown.
 */
export async function exportTourMarkdown(
  ctx: CliContext,
  name: string,
  flags: TourFlags,
): Promise<string> {
  const tour = loadGuideTour(ctx, flags, name);
  const opened = await openTourTree(ctx, flags, tour);
  try {
    return renderTourMarkdown(await buildView(tour, opened));
  } finally {
    await opened.index.close();
  }
}

export function parseTuiTarget(what: readonly string[]): string | undefined {
  if (what.length === 0) return undefined;
  if (what[0] === 'trace' && what.length === 2) return what[1];
  throw new UsageError(
    `\`k8s-read tui ${what.join(' ')}\`: write \`k8s-read tui\` or \`k8s-read tui trace <component|symbol>\``,
  );
}

export async function runTui(
  ctx: CliContext,
  target: string | undefined,
  flags: RepoOptions & { depth?: number },
): Promise<void> {
  if (!isInteractive(ctx)) {
    throw new UsageError(
      '`k8s-read tui` needs a terminal; for text use `k8s-read trace <component>` (or `k8s-read tour <name> --plain`)',
    );
  }
  const screen = loadScreenModules();
  const opened = await openTourTree(ctx, flags);
  try {
    const [
      { createStoreGraph },
      { traceComponent },
      { loadComponentRules },
      { loadNoisePackages },
    ] = await Promise.all([
      import('../trace/store-graph.js'),
      import('../trace/trace-component.js'),
      import('../trace/rules-data.js'),
      import('../resolve/rules.js'),
    ]);
    const components = loadComponentRules();
    const graph = createStoreGraph(opened.index.store, opened.index.tree, { components });
    const chosen = target ?? (await defaultComponent(graph));
    const trace = await traceComponent(graph, chosen, {
      components,
      noise: loadNoisePackages(),
      ...(flags.depth !== undefined ? { depth: flags.depth } : {}),
      all: false,
      includeStd: false,
      includeNoise: false,
    });
    await runTourScreen(ctx, opened, { kind: 'trace', trace }, await screen);
  } finally {
    await opened.index.close();
  }
}

async function defaultComponent(graph: {
  components(): Promise<{ name: string }[]>;
}): Promise<string> {
  const names = (await graph.components()).map((c) => c.name);
  if (names.includes('kube-scheduler')) return 'kube-scheduler';
  if (names[0] === undefined)
    throw new UsageError(
      'this tree has no main package to trace; name a function: `k8s-read tui trace <symbol>`',
    );
  return names[0];
}

/**
 * The terminal is interactive on both ends: keys come in, frames go out. Not under CI: Ink holds
 * every frame back while CI is set, so the screen would stay blank.
 */
function isInteractive(ctx: CliContext): boolean {
  return !ciIsSet(ctx) && Boolean(ctx.stdout.isTTY && process.stdin.isTTY);
}

function ciIsSet(ctx: CliContext): boolean {
  const ci = ctx.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

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
  let choice = chooseRepo(options, ctx);
  let quiet = false;
  const preferred = tour?.demoTrees[0];
  if (
    choice.source === 'demo' &&
    tour &&
    preferred &&
    !tour.demoTrees.includes(path.basename(choice.root))
  ) {
    options = { ...options, repo: path.join(fixturesDir, preferred) };
    choice = chooseRepo(options, ctx);
    ctx.stderr.write(
      `note: no --repo, KUBERNETES_SRC or Go checkout here; using the bundled demo tree fixtures/${preferred}, which models this tour\n`,
    );
    quiet = true;
  }
  const demoTree = demoTreeOf(choice.root);
  // The demo apps (sample-controller, the operator) keep their libraries in vendor/ — kubernetes
  // keeps its own in staging/ — and their tours walk into those libraries: their first index
  // includes vendor/.
  const withVendor =
    demoTree !== null &&
    existsSync(path.join(choice.root, 'vendor')) &&
    !existsSync(path.join(choice.root, 'staging'));
  let index: OpenIndex;
  try {
    index = await openIndex(ctx, options, { quiet, autoIndex: !withVendor });
  } catch (error) {
    if (!(error instanceof IndexMissingError)) throw error;
    const { runIndex } = await import('./run-index.js');
    ctx.stderr.write(`no index for ${choice.root} yet; indexing it now (once, with its vendor/)\n`);
    const summary = await runIndex(choice, ctx, { includeVendor: true });
    ctx.stderr.write(
      `indexed ${summary.files} files in ${((summary.timings.totalMs ?? 0) / 1000).toFixed(1)}s\n`,
    );
    index = await openIndex(ctx, options, { quiet: true, autoIndex: false });
  }
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

function buildView(tour: Tour, opened: TourTree): Promise<TourView> {
  return buildTourView(tour, opened.tourIndex, opened.tree);
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
export function createTourIndex(index: OpenIndex): TourIndex {
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
        text = readFile(path.join(index.tree.root, file), 'utf8').catch(() => undefined);
        sources.set(file, text);
      }
      return text;
    },
  };
}

function shownPath(ctx: CliContext, file: string): string {
  const fromPackage = path.relative(packageRoot, file);
  if (!fromPackage.startsWith('..')) return fromPackage;
  const fromCwd = path.relative(ctx.cwd, file);
  return fromCwd.startsWith('..') ? file : fromCwd;
}

function homeRelative(root: string): string {
  const home = os.homedir();
  return root === home || root.startsWith(`${home}${path.sep}`)
    ? `~${root.slice(home.length)}`
    : root;
}

export type ScreenInput =
  { kind: 'tour'; view: TourView; startStep: number } | { kind: 'trace'; trace: Trace };

type ScreenModules = [typeof StartScreen, typeof Items];

function loadScreenModules(): Promise<ScreenModules> {
  const loading = Promise.all([import('../tui/start-screen.js'), import('../tui/items.js')]);
  // Awaited later; until then a failure must not count as unhandled (it is rethrown at the await).
  loading.catch(() => undefined);
  return loading;
}

/** Runs the screen on the terminal until the reader quits. */
async function runTourScreen(
  ctx: CliContext,
  opened: TourTree,
  input: ScreenInput,
  [{ startScreen }]: ScreenModules,
): Promise<void> {
  const debug = debugLogger(ctx, 'tui');
  const screen = await buildScreenProps(ctx, opened, input);
  let firstFrame: string | undefined;
  try {
    await startScreen(
      screen.props,
      {
        stdin: process.stdin,
        stdout: ctx.stdout as NodeJS.WriteStream,
        stderr: ctx.stderr as NodeJS.WriteStream,
      },
      {
        editor: (file, line) => openEditor(ctx, path.join(opened.index.tree.root, file), line),
        // performance.now() counts from the start of the process: the time a reader waits.
        onFirstFrame: () => {
          const { user, system } = process.cpuUsage();
          firstFrame = `first frame ${performance.now().toFixed(0)} ms after start (${((user + system) / 1000).toFixed(0)} ms of CPU)`;
        },
      },
    );
    // Written once the screen is gone: a line on stderr mid-screen would be drawn over the panes.
    if (firstFrame) debug(firstFrame);
  } finally {
    await screen.close();
  }
}

/**
 * The screen's props — items, and providers over the index, git and the twins — for a tour or a
 * trace; `close` releases what the providers opened. (bench/tui.mjs renders the same props.)
 */
export async function buildScreenProps(
  ctx: CliContext,
  opened: TourTree,
  input: ScreenInput,
): Promise<{ props: AppProps; close(): Promise<void> }> {
  const { tourItems, traceItems } = await import('../tui/items.js');
  const items =
    input.kind === 'tour'
      ? tourItems(input.view)
      : await withDeclarationEnds(opened, traceItems(input.trace));
  const providers = createScreenProviders(ctx, opened);
  // The first place's source is read now, so the first frame shows code rather than "loading…".
  const cache: AnswerCache = new Map();
  const first = items[input.kind === 'tour' ? input.startStep - 1 : 0]?.location;
  const text = first ? await opened.tourIndex.readSource(first.file) : undefined;
  if (first && text !== undefined)
    cache.set(sourceKey(first.file), { status: 'ready', value: text });
  return {
    props: {
      cache,
      mode: input.kind === 'tour' ? 'tour' : 'explore',
      title: input.kind === 'tour' ? input.view.tour.title : `trace ${input.trace.component}`,
      treeLabel: describeTree(opened.tree),
      items,
      initialIndex: input.kind === 'tour' ? input.startStep - 1 : 0,
      permalinkBase: opened.tree.permalinkBase,
      providers: providers.providers,
      color: useColor(ctx),
    },
    close: providers.close,
  };
}

/** Trace nodes carry their first line only; the source pane marks the whole declaration. */
async function withDeclarationEnds(opened: TourTree, items: NavItem[]): Promise<NavItem[]> {
  const out: NavItem[] = [];
  for (const item of items) {
    const location = item.location;
    const def = location ? (await opened.tourIndex.findSymbol(location.symbol))[0] : undefined;
    out.push(
      location && def
        ? { ...item, location: { ...location, endLine: Math.max(def.endLine, location.line) } }
        : item,
    );
  }
  return out;
}

function toLocation(
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

/** The providers of the screen; `close` releases what they opened (the git cache). */
function createScreenProviders(
  ctx: CliContext,
  opened: TourTree,
): { providers: TuiProviders; close(): Promise<void> } {
  const { store, treeId } = opened.index;
  const root = opened.index.tree.root;
  const twinsDir = path.join(packageRoot, 'src', 'twins');
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
      const cache = await openGitCache(opened.index.choice.dbPath).catch(() => undefined);
      return { repo, context: { ...(cache ? { cache } : {}) }, ...(cache ? { cache } : {}) };
    })());

  const providers: TuiProviders = {
    readSource: async (file) => {
      const text = await opened.tourIndex.readSource(file);
      if (text === undefined) throw new Error(`${file} cannot be read from ${root}`);
      return text;
    },
    callsAt: async (file, line) => {
      const answer = await resolvePosition(opened.index, file, line, null);
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
    copy: (text) => copyToClipboard(ctx, text),
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
      const scenario = defaultScenarioPath(packageRoot, twin.name);
      const { result } = twin.run(scenario);
      return {
        twin: twin.name,
        scenario: path.relative(packageRoot, scenario),
        events: result.events,
      };
    };
  }
  return {
    providers,
    close: async () => {
      const opened_ = await git?.catch(() => undefined);
      await opened_?.cache?.close().catch(() => undefined);
    },
  };
}

/**
 * $VISUAL or $EDITOR at the line: `+N file` is understood by vi, vim, nvim, nano, emacs and micro;
 * VS Code and its kin take `--goto file:N`.
 */
function openEditor(ctx: CliContext, file: string, line: number): string {
  const editor = ctx.env.VISUAL || ctx.env.EDITOR;
  if (!editor) return 'set $EDITOR (or $VISUAL) to open files from here';
  const [command, ...args] = editor.split(/\s+/).filter(Boolean);
  const base = path.basename(command!);
  const where = /^(code|codium|code-insiders|cursor)$/.test(base)
    ? ['--goto', `${file}:${line}`]
    : [`+${line}`, file];
  const result = spawnSync(command!, [...args, ...where], { stdio: 'inherit' });
  if (result.error) return `could not start ${editor}: ${result.error.message}`;
  return `back from ${base} (${path.relative(ctx.cwd, file) || file}:${line})`;
}

/**
 * The terminal's clipboard through OSC 52 (works over SSH and in tmux with set-clipboard on),
 * and the desktop's through the first clipboard tool found.
 */
async function copyToClipboard(ctx: CliContext, text: string): Promise<string> {
  ctx.stdout.write(`\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`);
  const tools: [string, string[]][] = [
    ['pbcopy', []],
    ['wl-copy', []],
    ['xclip', ['-selection', 'clipboard']],
    ['xsel', ['--clipboard', '--input']],
  ];
  for (const [tool, args] of tools) {
    if (!onPath(ctx, tool)) continue;
    const result = spawnSync(tool, args, {
      input: text,
      stdio: ['pipe', 'ignore', 'ignore'],
      timeout: 2000,
    });
    if (!result.error && result.status === 0) return `copied ${text}`;
  }
  return `copied to the terminal's clipboard: ${text}`;
}

function onPath(ctx: CliContext, tool: string): boolean {
  return (ctx.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && existsSync(path.join(dir, tool)));
}
