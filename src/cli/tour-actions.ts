/**
 * The actions of `tour list | check | <name>` and `export tour`, loaded only when one of them runs:
 * read the tours, open the tree they read (tour-tree.ts), anchor the steps, and hand them to a
 * renderer — text, Markdown, or the screen (screen.ts).
 */
import path from 'node:path';
import { K8sReadError, UsageError } from '../errors.js';
import { checkTours, type TourCheckReport } from '../tour/check.js';
import { loadTourByName, loadTours, type LoadOptions } from '../tour/load-tours.js';
import type { Tour } from '../tour/schema.js';
import { renderTourMarkdown } from '../tour/tour-markdown.js';
import { describeTree, renderTourText } from '../tour/tour-text.js';
import { buildTourView, type TreeDescription, type TourView } from '../tour/tour-view.js';
import type { TourFlags } from './commands/tour.js';
import { debugLogger, useColor, type CliContext } from './context.js';
import { writeJson } from './output.js';
import { packageRoot } from '../shared/package-root.js';
import { chooseRepo } from './repo.js';
import { loadScreenModules, runScreen } from './screen.js';
import { ciIsSet, isInteractive } from './terminal.js';
import { fixturesDir, openTourTree, type TourTree } from './tour-tree.js';

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
  const interactive = !flags.plain && isInteractive(ctx, process.stdin);
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
    await runScreen(ctx, opened, { kind: 'tour', view, startStep: flags.step ?? 1 }, await screen);
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

function buildView(tour: Tour, opened: TourTree): Promise<TourView> {
  return buildTourView(tour, opened.tourIndex, opened.tree);
}

function shownPath(ctx: CliContext, file: string): string {
  const fromPackage = path.relative(packageRoot, file);
  if (!fromPackage.startsWith('..')) return fromPackage;
  const fromCwd = path.relative(ctx.cwd, file);
  return fromCwd.startsWith('..') ? file : fromCwd;
}
