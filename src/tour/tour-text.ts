/**
 * `tour <name> --plain` (and the tour without a terminal): the whole walk as text, step after step
 * — where the step is, the Go source around its focus, the prose, what the twin simplifies and the
 * sources — so it reads in a pager, a log or a screen reader as well as the TUI does.
 */
import { createColors } from 'picocolors';
import type { Excerpt, StepView, TourView } from './tour-view.js';

export interface TextOptions {
  /** ANSI colour. @default false */
  color?: boolean;
  /** The first step printed (1-based). @default 1 */
  fromStep?: number;
  /** Width of the rules between steps. @default 80 */
  width?: number;
}

/** A tab as four spaces: a terminal's eight push Go code off narrow screens. */
export const TAB = '    ';

export function renderTourText(view: TourView, options: TextOptions = {}): string {
  const c = createColors(options.color ?? false);
  const width = options.width ?? 80;
  const { tour, tree } = view;
  const out: string[] = [
    c.bold(tour.title),
    c.dim(`${tour.steps.length} steps · ${describeTree(tree)}`),
    '',
    tour.summary.trim(),
    '',
  ];
  for (const view_ of view.steps.slice(Math.max(0, (options.fromStep ?? 1) - 1))) {
    const heading = `── ${view_.number}/${tour.steps.length}  ${view_.step.title} `;
    out.push(
      c.bold(heading + '─'.repeat(Math.max(0, width - [...heading].length))),
      ...stepLines(view_, c),
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function describeTree(tree: TourView['tree']): string {
  const at = tree.commit ? ` @ ${tree.commit.slice(0, 12)}` : '';
  return `${tree.label}${at}${tree.version ? ` (${tree.version})` : ''}`;
}

type Colors = ReturnType<typeof createColors>;

function stepLines(view: StepView, c: Colors): string[] {
  const { step, anchor } = view;
  const out: string[] = [];
  if (anchor.status === 'resolved') {
    const via = anchor.viaAlternative ? c.dim(`  (this version's name for ${step.symbol})`) : '';
    out.push(c.cyan(anchor.symbol) + via);
    out.push(
      `${c.dim(`${anchor.file}:${anchor.focusLine ?? anchor.line}`)}${view.url ? `  ${c.dim(view.url)}` : ''}`,
    );
    if (anchor.focusMissing)
      out.push(
        c.yellow(`the focus (${focusText(step.focus)}) is not in this version of the symbol`),
      );
    if (view.excerpt) out.push('', ...excerptLines(view.excerpt, c));
  } else if (anchor.status === 'missing') {
    out.push(c.red(`not in this tree: ${step.symbol}`));
    if (step.alternatives.length > 0)
      out.push(c.dim(`  (also tried: ${step.alternatives.join(', ')})`));
    if (anchor.suggestions.length > 0) out.push(`  similar: ${anchor.suggestions.join(', ')}`);
  } else {
    out.push(c.dim(`${step.symbol}  (${anchor.reason})`));
  }
  out.push('', step.prose.trim());
  if (step.twin) {
    const run = step.twin.name ? ` (k8s-read twin run ${step.twin.name})` : '';
    out.push('', c.bold(`What the twin simplifies${run}:`), step.twin.simplifies.trim());
  }
  if (step.cite.length > 0)
    out.push(
      '',
      c.dim(`Sources: ${step.cite.map((s) => `${s.repo} ${s.version} ${s.path}`).join('; ')}`),
    );
  return out;
}

function excerptLines(excerpt: Excerpt, c: Colors): string[] {
  const width = String(excerpt.lines.at(-1)?.n ?? 0).length;
  const out: string[] = [];
  let previous: number | undefined;
  for (const { n, text } of excerpt.lines) {
    if (previous !== undefined && n > previous + 1) out.push(c.dim(`  ${' '.repeat(width)}  …`));
    const code = text.replace(/\t/g, TAB);
    out.push(
      n === excerpt.focusLine
        ? c.yellow(`▶ ${String(n).padStart(width)}  ${code}`)
        : `  ${c.dim(String(n).padStart(width))}  ${code}`,
    );
    previous = n;
  }
  return out;
}

export function focusText(focus: StepView['step']['focus']): string {
  if (!focus) return '';
  return focus.call !== undefined ? `the call ${focus.call}` : `"${focus.text}"`;
}
