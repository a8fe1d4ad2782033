/**
 * `tour check`: every step of every tour resolved against one tree, so that a tour author (or CI)
 * learns which steps a new Kubernetes version broke, and where the symbol probably went.
 */
import { anchorTour, type StepAnchor, type TourIndex } from './anchor.js';
import type { Tour, TourFocus } from './schema.js';

export interface MissingStep {
  /** 1-based, as the TUI and `--step` count. */
  step: number;
  title: string;
  symbol: string;
  /** `symbol`: neither the symbol nor an alternative is in the tree; `focus`: the symbol is, its focus is not. */
  reason: 'symbol' | 'focus';
  /** For `symbol`: similar names in the tree, best first. */
  suggestions: string[];
  focus?: TourFocus;
}

export interface TourCheck {
  name: string;
  /** The tree checked, when one report covers several (`tour check` on the demo trees). */
  tree?: string;
  /** false when the tour reads code this tree does not have; nothing else is checked then. */
  applies: boolean;
  /** Why the tour does not apply. */
  reason?: string;
  steps: number;
  resolved: number;
  missing: MissingStep[];
  /** Steps not checked: not modelled by the demo trees (`demo: false`), or optional and absent. */
  skipped: { step: number; symbol: string; reason: string }[];
  /** Steps found through an alternative symbol (another version's name). */
  alternatives: { step: number; symbol: string; resolvedAs: string }[];
}

export interface TourCheckReport {
  tours: TourCheck[];
  /** No applicable tour has a missing step. */
  ok: boolean;
}

export interface CheckOptions {
  /** The bundled demo tree being checked (its directory under fixtures/), or null for any other tree. @default null */
  demoTree?: string | null;
}

export async function checkTours(
  tours: readonly Tour[],
  index: TourIndex,
  options: CheckOptions = {},
): Promise<TourCheckReport> {
  const demoTree = options.demoTree ?? null;
  const checks: TourCheck[] = [];
  for (const tour of tours) {
    const reason = await whyNotApplicable(tour, index, demoTree);
    if (reason !== null) {
      checks.push({
        name: tour.name,
        applies: false,
        reason,
        steps: tour.steps.length,
        resolved: 0,
        missing: [],
        skipped: [],
        alternatives: [],
      });
      continue;
    }
    const anchors = await anchorTour(tour, index, { demoTree: demoTree !== null });
    checks.push(summarize(tour, anchors));
  }
  return { tours: checks, ok: checks.every((c) => c.missing.length === 0) };
}

/** Null when the tour applies to the tree; else one sentence saying why not. */
export async function whyNotApplicable(
  tour: Tour,
  index: TourIndex,
  demoTree: string | null,
): Promise<string | null> {
  if (demoTree !== null) {
    if (tour.demoTrees.includes(demoTree)) return null;
    const models =
      tour.demoTrees.length > 0
        ? `; it runs on the demo tree${tour.demoTrees.length > 1 ? 's' : ''} ${tour.demoTrees.map((d) => `fixtures/${d}`).join(', ')}`
        : '';
    return `the demo tree fixtures/${demoTree} does not model this tour${models}`;
  }
  if (await index.hasPackage(tour.requires)) return null;
  return `this tree has no package ${tour.requires}, which the tour reads`;
}

export function summarize(tour: Tour, anchors: readonly StepAnchor[]): TourCheck {
  const check: TourCheck = {
    name: tour.name,
    applies: true,
    steps: tour.steps.length,
    resolved: 0,
    missing: [],
    skipped: [],
    alternatives: [],
  };
  anchors.forEach((anchor, i) => {
    const step = tour.steps[i]!;
    const number = i + 1;
    if (anchor.status === 'skipped') {
      check.skipped.push({ step: number, symbol: step.symbol, reason: anchor.reason });
    } else if (anchor.status === 'missing') {
      check.missing.push({
        step: number,
        title: step.title,
        symbol: step.symbol,
        reason: 'symbol',
        suggestions: anchor.suggestions,
      });
    } else {
      if (anchor.viaAlternative)
        check.alternatives.push({ step: number, symbol: step.symbol, resolvedAs: anchor.symbol });
      if (anchor.focusMissing) {
        check.missing.push({
          step: number,
          title: step.title,
          symbol: anchor.symbol,
          reason: 'focus',
          suggestions: [],
          ...(step.focus ? { focus: step.focus } : {}),
        });
      } else {
        check.resolved++;
      }
    }
  });
  return check;
}
