/**
 * Where a scrolling pane's window starts. Moving the cursor scrolls as little as possible; a jump
 * (a new `jumpKey`: another file, another step) puts the cursor a third of the way down.
 */
import { useRef } from 'react';
import { centredTop, scrollTop } from './layout.js';

export function useWindowTop(cursor: number, size: number, total: number, jumpKey: string): number {
  const last = useRef<{ top: number; key: string } | null>(null);
  const top =
    last.current === null || last.current.key !== jumpKey
      ? centredTop(cursor, size, total)
      : scrollTop(last.current.top, cursor, size, total);
  // Remembered during render on purpose: the next render scrolls from what this one showed.
  last.current = { top, key: jumpKey };
  return top;
}
