/**
 * Pane sizes for a terminal size, and scrolling windows, as plain arithmetic: the components only
 * draw what these functions decide, which keeps 80x24 and resizes testable without rendering.
 */
import type { Placement } from './navigation.js';

export interface Layout {
  width: number;
  /** Rows the app draws: one less than the terminal, so Ink never clears the whole screen. */
  height: number;
  placement: Placement;
  /** Rows between the title and the status bar. */
  body: number;
  listWidth: number;
  sourceWidth: number;
  /** Rows of the list and source panes (header included). */
  mainHeight: number;
  sideWidth: number;
  /** Rows of the side pane (its border and header included). */
  sideHeight: number;
}

/** Below this the screen cannot be read; the app asks for a larger terminal. */
export const MIN_SIZE = { width: 60, height: 16 } as const;

/** Wide terminals put the side pane on the right; narrow ones below the source. */
const RIGHT_FROM_WIDTH = 120;

export function computeLayout(columns: number, rows: number, placement: Placement | null): Layout {
  const width = Math.max(columns, 1);
  // Ink redraws the whole terminal (a visible flicker) when a frame is as tall as the screen.
  const height = Math.max(rows - 1, 1);
  const body = Math.max(height - 2, 1);
  const side = placement ?? (width >= RIGHT_FROM_WIDTH ? 'right' : 'bottom');
  const right = side === 'right';
  const listWidth = Math.min(34, Math.max(16, Math.floor(width * 0.27)));
  const sideWidth = right ? Math.max(24, Math.floor((width - listWidth) * 0.42)) : width;
  const sideHeight = right ? body : Math.max(5, Math.floor(body * 0.42));
  return {
    width,
    height,
    placement: side,
    body,
    listWidth,
    sourceWidth: right ? width - listWidth - sideWidth : width - listWidth,
    mainHeight: right ? body : body - sideHeight,
    sideWidth,
    sideHeight,
  };
}

/**
 * The first row of a window of `size` rows over `total` rows that shows `cursor` (0-based),
 * moving as little as possible from `previousTop` and keeping `margin` rows of context.
 */
export function scrollTop(
  previousTop: number,
  cursor: number,
  size: number,
  total: number,
  margin = 2,
): number {
  if (total <= size) return 0;
  const keep = Math.min(margin, Math.floor((size - 1) / 2));
  let top = previousTop;
  if (cursor - keep < top) top = cursor - keep;
  if (cursor + keep > top + size - 1) top = cursor + keep - size + 1;
  return Math.min(Math.max(top, 0), total - size);
}

/** The first row that puts `cursor` a third of the way down: where a jump lands. */
export function centredTop(cursor: number, size: number, total: number): number {
  if (total <= size) return 0;
  return Math.min(Math.max(cursor - Math.floor(size / 3), 0), total - size);
}
