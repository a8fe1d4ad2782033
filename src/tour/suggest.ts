/**
 * Where did a symbol go? When a tour step's symbol is not in the tree, the likely successors are
 * the same name in another package (it moved) or a similar name in the same package or on the
 * same type (it was renamed: `(*genericScheduler).Schedule` became `(*Scheduler).schedulePod`).
 * Candidates come from the index; they are ranked by how close their name is, with a bonus for
 * staying in the same package or on the same receiver.
 */
import type { IndexedSymbol, TourIndex } from './anchor.js';
import { baseName, symbolParts, type SymbolParts } from '../shared/go-symbol.js';

/** At most this many suggestions per step: enough to spot the successor, few enough to read. */
const MAX_SUGGESTIONS = 5;
/** Below this, a name is not "similar" (0 = nothing alike, 1 = equal). */
const MIN_SCORE = 0.55;

export async function suggestSymbols(
  index: TourIndex,
  wanted: readonly string[],
): Promise<string[]> {
  const targets = wanted.map(symbolParts);
  // A closure only stands in for a closure: a vanished function's literals went with it.
  const closures = wanted.some((w) => /\$\d+$/.test(w));
  const candidates = new Map<string, IndexedSymbol>();
  const add = (rows: IndexedSymbol[]) => {
    for (const row of rows) {
      if (
        row.kind === 'external' ||
        !row.file ||
        (row.kind === 'closure' && !closures) ||
        candidates.has(row.symbol)
      )
        continue;
      candidates.set(row.symbol, row);
    }
  };
  for (const target of targets) {
    add(await index.searchSymbols(baseName(target.name), 200));
    if (target.package) add(await index.symbolsInPackage(target.package));
    if (target.receiver) add(await index.searchSymbols(target.receiver, 50));
  }
  const scored = [...candidates.values()]
    .map((row) => ({
      symbol: row.symbol,
      score: Math.max(...targets.map((t) => similarity(t, symbolParts(row.symbol)))),
    }))
    .filter((s) => s.score >= MIN_SCORE)
    .sort(
      (a, b) =>
        b.score - a.score || a.symbol.length - b.symbol.length || (a.symbol < b.symbol ? -1 : 1),
    );
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.symbol);
}

/** How alike two symbols are, from their names first and their package and receiver second. */
export function similarity(wanted: SymbolParts, found: SymbolParts): number {
  const a = baseName(wanted.name).toLowerCase();
  const b = baseName(found.name).toLowerCase();
  let score = 1 - editDistance(a, b) / Math.max(a.length, b.length, 1);
  // A shared prefix of a few letters (schedule/schedulePod) says more than scattered edits.
  if (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a)))
    score = Math.max(score, 0.7);
  if (wanted.package && wanted.package === found.package) score += 0.15;
  else if (lastElement(wanted.package) === lastElement(found.package)) score += 0.05;
  if (wanted.receiver && found.receiver)
    score += wanted.receiver.toLowerCase() === found.receiver.toLowerCase() ? 0.15 : 0.05;
  else if ((wanted.receiver === null) !== (found.receiver === null)) score -= 0.1;
  return score;
}

function lastElement(pkg: string): string {
  return pkg.slice(pkg.lastIndexOf('/') + 1);
}

/** Levenshtein distance (insert, delete, substitute), two rows at a time. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
