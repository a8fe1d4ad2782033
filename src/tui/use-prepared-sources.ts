/**
 * Source files read and coloured ahead of the reader: the steps around the selected one are
 * prepared while the reader reads, so moving to the next step is a render, not a file read and a
 * highlight.js pass (a long Go file takes tens of milliseconds to colour). Coloured lines are kept
 * per file for the session.
 */
import { useCallback, useEffect, useRef } from 'react';
import { sourceKey } from './answer-keys.js';
import { highlightLines } from './highlight.js';
import type { NavItem, TuiProviders } from './types.js';
import { fetchAnswer, type AnswerCache } from './use-answer.js';

/** Steps prepared on each side of the selected one. */
const AHEAD = 2;

export function usePreparedSources(
  cache: AnswerCache,
  providers: TuiProviders,
  items: readonly NavItem[],
  selected: number,
  coloured: boolean,
): (file: string, text: string) => string[] {
  const coloredLines = useRef(new Map<string, string[]>());
  const linesOf = useCallback(
    (file: string, text: string) => {
      const key = `${coloured ? 'colour' : 'plain'}:${file}`;
      let lines = coloredLines.current.get(key);
      if (!lines) {
        lines = highlightLines(text, 'go', coloured);
        coloredLines.current.set(key, lines);
      }
      return lines;
    },
    [coloured],
  );
  useEffect(() => {
    let current = true;
    const files = new Set<string>();
    for (let i = selected - AHEAD; i <= selected + AHEAD; i++) {
      const file = items[i]?.location?.file;
      if (file) files.add(file);
    }
    for (const file of files) {
      void fetchAnswer(cache, sourceKey(file), () => providers.readSource(file)).then(
        // Coloured on a later turn, so a key pressed meanwhile is answered first.
        (text) => setImmediate(() => current && linesOf(file, text)),
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [cache, providers, items, selected, linesOf]);
  return linesOf;
}
