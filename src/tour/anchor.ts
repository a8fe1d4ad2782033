/**
 * Anchoring: a step's symbol (or the first of its alternatives that the tree has) becomes a place
 * in this tree — file, line span and the line of its focus. Nothing here is guessed: a step whose
 * symbols are all absent is `missing`, with suggestions, and a focus that is not in the symbol's
 * source is reported rather than moved to some other line.
 */
import type { DefinitionRow } from '../store/symbols.js';
import type { Tour, TourFocus, TourStep } from './schema.js';
import { suggestSymbols } from './suggest.js';

/** A declaration in the index, as the tour needs it. */
export type IndexedSymbol = Pick<
  DefinitionRow,
  'symbol' | 'name' | 'package' | 'file' | 'line' | 'endLine'
> & { kind: string };

/**
 * What anchoring asks of an index; src/cli builds it from the store, tests from a list.
 */
export interface TourIndex {
  /** Declarations named exactly `symbol` (external references excluded). */
  findSymbol(symbol: string): Promise<IndexedSymbol[]>;
  /** Declarations whose name contains `text`, best first. */
  searchSymbols(text: string, limit: number): Promise<IndexedSymbol[]>;
  /** Declarations of a package. */
  symbolsInPackage(pkg: string): Promise<IndexedSymbol[]>;
  /** Whether the tree holds the package or one below it. */
  hasPackage(prefix: string): Promise<boolean>;
  /** A file's text (relative path), or undefined when it cannot be read. */
  readSource(file: string): Promise<string | undefined>;
}

export type StepAnchor =
  | {
      status: 'resolved';
      /** The symbol found: the step's own or one of its alternatives. */
      symbol: string;
      viaAlternative: boolean;
      kind: string;
      file: string;
      line: number;
      endLine: number;
      /** The line of the focus, or null when the step has none or it was not found. */
      focusLine: number | null;
      /** The step names a focus that the symbol's source does not contain. */
      focusMissing: boolean;
    }
  | { status: 'missing'; suggestions: string[] }
  | { status: 'skipped'; reason: string };

export interface AnchorOptions {
  /** The tree is a bundled demo tree: steps marked `demo: false` are skipped, not missing. @default false */
  demoTree?: boolean;
}

export async function anchorStep(
  step: TourStep,
  index: TourIndex,
  options: AnchorOptions = {},
): Promise<StepAnchor> {
  if (options.demoTree && !step.demo)
    return { status: 'skipped', reason: 'the demo trees do not model this step (demo: false)' };
  const names = [step.symbol, ...step.alternatives];
  for (const name of names) {
    const found = (await index.findSymbol(name)).filter(
      (d) => d.symbol === name && d.kind !== 'external' && d.file,
    );
    const def = found[0];
    if (!def) continue;
    const focusLine = step.focus ? await findFocusLine(index, def, step.focus) : null;
    return {
      status: 'resolved',
      symbol: def.symbol,
      viaAlternative: name !== step.symbol,
      kind: def.kind,
      file: def.file,
      line: def.line,
      endLine: Math.max(def.endLine, def.line),
      focusLine,
      focusMissing: step.focus !== undefined && focusLine === null,
    };
  }
  if (step.optional)
    return { status: 'skipped', reason: 'an optional side trip that this tree does not have' };
  return { status: 'missing', suggestions: await suggestSymbols(index, names) };
}

export async function anchorTour(
  tour: Tour,
  index: TourIndex,
  options: AnchorOptions = {},
): Promise<StepAnchor[]> {
  // All steps at once: their queries and file reads overlap instead of queueing one by one.
  return Promise.all(tour.steps.map((step) => anchorStep(step, index, options)));
}

/** The first line of the symbol's span that holds the focus. */
export async function findFocusLine(
  index: TourIndex,
  def: Pick<IndexedSymbol, 'file' | 'line' | 'endLine'>,
  focus: TourFocus,
): Promise<number | null> {
  const text = await index.readSource(def.file);
  if (text === undefined) return null;
  const lines = text.split('\n');
  const matches = focusMatcher(focus);
  for (let n = def.line; n <= Math.max(def.endLine, def.line) && n <= lines.length; n++) {
    if (matches(lines[n - 1]!)) return n;
  }
  return null;
}

/** A call matches as written before its arguments (or type arguments), not inside a longer name. */
function focusMatcher(focus: TourFocus): (line: string) => boolean {
  if (focus.call !== undefined) {
    const escaped = focus.call.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const boundary = /^[\p{L}_]/u.test(focus.call) ? '(?<![\\p{L}\\p{N}_])' : '';
    const pattern = new RegExp(`${boundary}${escaped}\\s*[([]`, 'u');
    // A call in a comment is not the call.
    return (line) => !line.trimStart().startsWith('//') && pattern.test(line);
  }
  const text = focus.text!;
  return (line) => line.includes(text);
}
