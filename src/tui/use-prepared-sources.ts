/**
 * Source files read and coloured ahead of the reader: the steps around the selected one are
 * prepared while the reader reads (the file read, the lines around the step coloured), so moving
 * to the next step is a render, not a file read and a highlight.js pass. Files are kept for the
 * session, each coloured chunk by chunk as it is shown (source-lines.ts).
 */
import { useCallback, useEffect, useRef } from 'react';
import { sourceKey } from './answer-keys.js';
import { sourceLines, type SourceLines } from './source-lines.js';
import type { NavItem, TuiProviders } from './types.js';
import { fetchAnswer, type AnswerCache } from './use-answer.js';

/** Steps prepared on each side of the selected one. */
const AHEAD = 2;
/** Lines coloured on each side of a prepared step's line: more than a pane shows. */
const PREPARED = 60;

export function usePreparedSources(
  cache: AnswerCache,
  providers: TuiProviders,
  items: readonly NavItem[],
  selected: number,
  coloured: boolean,
): (file: string, text: string) => SourceLines {
  const files = useRef(new Map<string, SourceLines>());
  const linesOf = useCallback(
    (file: string, text: string) => {
      const key = `${coloured ? 'colour' : 'plain'}:${file}`;
      let lines = files.current.get(key);
      if (!lines) {
        lines = sourceLines(text, coloured);
        files.current.set(key, lines);
      }
      return lines;
    },
    [coloured],
  );
  useEffect(() => {
    let current = true;
    const places = new Map<string, number>();
    for (let i = selected - AHEAD; i <= selected + AHEAD; i++) {
      const location = items[i]?.location;
      if (location) places.set(location.file, location.focusLine ?? location.line);
    }
    for (const [file, line] of places) {
      void fetchAnswer(cache, sourceKey(file), () => providers.readSource(file)).then(
        // Coloured on a later turn, so a key pressed meanwhile is answered first.
        (text) =>
          setImmediate(
            () => current && linesOf(file, text).slice(line - PREPARED, line + PREPARED),
          ),
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [cache, providers, items, selected, linesOf]);
  return linesOf;
}
