/**
 * The Ink screen, for a tour or for a trace (`tui`): its props built from the tree — items, and
 * the providers of screen-providers.ts plus the terminal helpers — then the screen run on the
 * terminal until the reader quits. The screen itself opens nothing.
 */
import { sourceLocator } from '../trace/store-graph.js';
import { K8sReadError, UsageError } from '../errors.js';
import { describeTree } from '../tour/tour-text.js';
import type { TourView } from '../tour/tour-view.js';
import type { ControllerTable } from '../trace/controllers.js';
import type { Trace } from '../trace/types.js';
import { sourceKey } from '../tui/answer-keys.js';
import type * as Items from '../tui/items.js';
import type * as StartScreen from '../tui/start-screen.js';
import type { AppProps, NavItem, StartProps } from '../tui/types.js';
import type { AnswerCache } from '../tui/use-answer.js';
import { debugLogger, useColor, type CliContext } from './context.js';
import { traceIndex } from './load-trace.js';
import { packageRoot } from '../shared/package-root.js';
import type { RepoOptions } from './repo.js';
import { createScreenProviders } from './screen-providers.js';
import { copyToClipboard, isInteractive, openEditor } from './terminal.js';
import { traceViewOptions, type TraceViewFlags } from './trace-options.js';
import { openTourTree, type TourTree } from './tour-tree.js';

export type ScreenInput =
  { kind: 'tour'; view: TourView; startStep: number } | { kind: 'trace'; trace: Trace };

/** The start screen: a table of controllers, each opening its trace with these flags. */
export interface StartInput {
  kind: 'controllers';
  table: ControllerTable;
  flags: TraceViewFlags;
}

export type ScreenModules = [typeof StartScreen, typeof Items];

/** What `tui` opens: the start screen (the tree's controllers, if it has any), or a trace. */
export type TuiTarget =
  | { kind: 'start' }
  | { kind: 'controllers'; component: string | undefined }
  | { kind: 'trace'; target: string };

export function parseTuiTarget(what: readonly string[]): TuiTarget {
  if (what.length === 0) return { kind: 'start' };
  if (what[0] === 'trace' && what.length === 2) return { kind: 'trace', target: what[1]! };
  if (what[0] === 'controllers' && what.length <= 2)
    return { kind: 'controllers', component: what[1] };
  throw new UsageError(
    `\`k8s-read tui ${what.join(' ')}\`: write \`k8s-read tui\`, \`k8s-read tui trace <component|symbol>\` or \`k8s-read tui controllers [component]\``,
  );
}

/**
 * `tui [trace X | controllers [C]]`: the trace `trace X` prints for the same flags, on the screen;
 * or the start screen of the controllers `k8s-read controllers` lists, each opening its trace.
 * Without a target, the start screen when the tree has controllers, else the default trace.
 */
export async function runTui(
  ctx: CliContext,
  target: TuiTarget,
  flags: RepoOptions & TraceViewFlags,
): Promise<void> {
  if (!isInteractive(ctx, process.stdin)) {
    throw new UsageError(
      '`k8s-read tui` needs a terminal; for text use `k8s-read trace <component>` (or `k8s-read tour <name> --plain`)',
    );
  }
  const screen = loadScreenModules();
  const opened = await openTourTree(ctx, flags);
  try {
    const table = target.kind === 'trace' ? null : await startTable(ctx, opened, target);
    if (table) {
      await runScreen(ctx, opened, { kind: 'controllers', table, flags }, await screen);
      return;
    }
    const trace = await traceIndex(ctx, opened.index, {
      target: target.kind === 'trace' ? target.target : undefined,
      ...traceViewOptions(flags),
    });
    await runScreen(ctx, opened, { kind: 'trace', trace }, await screen);
  } finally {
    await opened.index.close();
  }
}

/**
 * The controllers of the start screen; null when `tui` was given no target and the tree has no
 * controllers (the screen then starts on the default trace, as `k8s-read trace` does).
 */
async function startTable(
  ctx: CliContext,
  opened: TourTree,
  target: Exclude<TuiTarget, { kind: 'trace' }>,
): Promise<ControllerTable | null> {
  const { controllersOf } = await import('./load-controllers.js');
  try {
    return await controllersOf(ctx, opened.index, {
      ...(target.kind === 'controllers' && target.component !== undefined
        ? { component: target.component }
        : {}),
    });
  } catch (error) {
    if (
      target.kind === 'start' &&
      error instanceof K8sReadError &&
      (error.code === 'E_NO_CONTROLLERS' || error.code === 'E_NO_COMPONENT')
    ) {
      debugLogger(ctx, 'tui')(`no start screen: ${error.message}`);
      return null;
    }
    throw error;
  }
}

/** Ink, React and the highlighter take longer to load than the index takes to open: start early. */
export function loadScreenModules(): Promise<ScreenModules> {
  const loading = Promise.all([import('../tui/start-screen.js'), import('../tui/items.js')]);
  // Awaited later; until then a failure must not count as unhandled (it is rethrown at the await).
  loading.catch(() => undefined);
  return loading;
}

/** Runs the screen on the terminal until the reader quits. */
export async function runScreen(
  ctx: CliContext,
  opened: TourTree,
  input: ScreenInput | StartInput,
  [{ startScreen }]: ScreenModules,
): Promise<void> {
  const debug = debugLogger(ctx, 'tui');
  // Every trace the start screen opens has providers of its own, released when the screen ends.
  const closers: (() => Promise<void>)[] = [];
  const propsOf = async (shown: ScreenInput): Promise<AppProps> => {
    const screen = await buildScreenProps(ctx, opened, shown);
    closers.push(screen.close);
    return screen.props;
  };
  let firstFrame: string | undefined;
  try {
    const first: AppProps | StartProps =
      input.kind === 'controllers'
        ? {
            mode: 'start',
            title: `controllers of ${input.table.component}`,
            treeLabel: describeTree(opened.tree),
            table: input.table,
            color: useColor(ctx),
            open: async (index) => {
              const row = input.table.controllers[index];
              if (!row) throw new UsageError(`no controller at ${index + 1}`);
              const trace = await traceIndex(ctx, opened.index, {
                ...traceViewOptions(input.flags),
                target: row.trace.target,
                ...(row.trace.in ? { in: row.trace.in } : {}),
              });
              return propsOf({ kind: 'trace', trace });
            },
          }
        : await propsOf(input);
    await startScreen(
      first,
      {
        stdin: process.stdin,
        stdout: ctx.stdout as NodeJS.WriteStream,
        stderr: ctx.stderr as NodeJS.WriteStream,
      },
      {
        editor: (file, line) => openEditor(ctx, sourceLocator(opened.index.tree).path(file), line),
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
    for (const close of closers) await close();
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
  const screen = createScreenProviders({
    index: opened.index,
    root: opened.index.tree.root,
    readSource: opened.tourIndex.readSource,
    gitCacheDb: opened.index.choice.dbPath,
    packageRoot,
  });
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
      providers: { ...screen.providers, copy: (text) => copyToClipboard(ctx, text) },
      color: useColor(ctx),
    },
    close: screen.close,
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
