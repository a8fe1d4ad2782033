/**
 * A tour resolved against one tree, with the source excerpt of every step: what `tour --plain` and
 * `export tour -o md` print. Built once from the index; the renderers are pure functions of it.
 */
import { anchorTour, type StepAnchor, type TourIndex } from './anchor.js';
import type { Tour, TourStep } from './schema.js';

export interface TreeDescription {
  /** How to name the tree to a reader: `fixtures/kubernetes (demo tree)`, `~/src/kubernetes`. */
  label: string;
  commit: string | null;
  version: string | null;
  /** `https://github.com/<owner>/<repo>/blob/<commit>`, or null when the tree is not on GitHub. */
  permalinkBase: string | null;
  /** The bundled demo tree's directory under fixtures/, or null. */
  demoTree: string | null;
}

export interface ExcerptLine {
  /** 1-based line number in the file. */
  n: number;
  text: string;
}

export interface Excerpt {
  file: string;
  /** Consecutive runs of lines; a jump in `n` is a gap the renderers show as `…`. */
  lines: ExcerptLine[];
  focusLine: number | null;
}

export interface StepView {
  /** 1-based. */
  number: number;
  step: TourStep;
  anchor: StepAnchor;
  /** Permalink to the focus line, else to the symbol's lines; null without a GitHub remote. */
  url: string | null;
  excerpt: Excerpt | null;
}

export interface TourView {
  tour: Tour;
  tree: TreeDescription;
  steps: StepView[];
}

export interface ViewOptions {
  /** Read the source excerpts (text and Markdown show them; the TUI reads the source itself). @default true */
  excerpts?: boolean;
  /** Lines shown around the focus (before it; twice as many after). @default 3 */
  context?: number;
  /** Lines shown from the declaration when the step has no focus. @default 10 */
  head?: number;
}

export async function buildTourView(
  tour: Tour,
  index: TourIndex,
  tree: TreeDescription,
  options: ViewOptions = {},
): Promise<TourView> {
  const anchors = await anchorTour(tour, index, { demoTree: tree.demoTree !== null });
  const steps: StepView[] = [];
  for (const [i, anchor] of anchors.entries()) {
    steps.push({
      number: i + 1,
      step: tour.steps[i]!,
      anchor,
      url: anchor.status === 'resolved' ? stepUrl(tree.permalinkBase, anchor) : null,
      excerpt:
        anchor.status === 'resolved' && options.excerpts !== false
          ? await excerptFor(index, anchor, options)
          : null,
    });
  }
  return { tour, tree, steps };
}

export function stepUrl(
  base: string | null,
  anchor: { file: string; line: number; endLine: number; focusLine: number | null },
): string | null {
  if (!base) return null;
  const lines =
    anchor.focusLine !== null
      ? `L${anchor.focusLine}`
      : anchor.endLine > anchor.line
        ? `L${anchor.line}-L${anchor.endLine}`
        : `L${anchor.line}`;
  return `${base}/${anchor.file}#${lines}`;
}

/** The declaration line, then the focus with a little context (or the first lines of the body). */
async function excerptFor(
  index: TourIndex,
  anchor: Extract<StepAnchor, { status: 'resolved' }>,
  options: ViewOptions,
): Promise<Excerpt | null> {
  const text = await index.readSource(anchor.file);
  if (text === undefined) return null;
  const all = text.split('\n');
  const context = options.context ?? 3;
  const wanted = new Set<number>([anchor.line]);
  if (anchor.focusLine !== null) {
    for (let n = anchor.focusLine - context; n <= anchor.focusLine + 2 * context; n++)
      wanted.add(n);
  } else {
    for (let n = anchor.line; n < anchor.line + (options.head ?? 10); n++) wanted.add(n);
  }
  const lines = [...wanted]
    .filter((n) => n >= anchor.line && n <= anchor.endLine && n <= all.length)
    .sort((a, b) => a - b)
    .map((n) => ({ n, text: all[n - 1]! }));
  return { file: anchor.file, lines, focusLine: anchor.focusLine };
}
