/**
 * Renders an Ink element the way the TUI tests need it: at a fixed terminal size (80x24 unless
 * asked), with ANSI stripped from frames, resizable, and with a frame getter that throws on an
 * empty frame — a blank screen is a failure to report, not a frame to assert on.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { stripVTControlCharacters } from 'node:util';

export interface RenderedTui {
  /** The last frame, ANSI stripped; throws when nothing was drawn. */
  frame(): string;
  /** Sends keys as a terminal would: a string of characters or an escape sequence. */
  press(keys: string): void;
  /** Changes the terminal's size and tells the app, as a SIGWINCH would. */
  resize(columns: number, rows: number): void;
  /**
   * Lets pending promises (provider answers) settle until the frame satisfies `accept`; throws
   * with the last frame when it never does.
   */
  waitFor(accept: (frame: string) => boolean, what: string): Promise<string>;
  unmount(): void;
}

export const keys = {
  down: '\u001B[B',
  up: '\u001B[A',
  enter: '\r',
  backspace: '\u007F',
  tab: '\t',
  escape: '\u001B',
} as const;

/** Macrotask turns allowed for answers to arrive: enough for chained promises, never a clock. */
const SETTLE_TURNS = 200;

export function renderTui(
  element: ReactElement,
  size: { columns?: number; rows?: number } = {},
): RenderedTui {
  const result = render(element);
  let columns = size.columns ?? 80;
  let rows = size.rows ?? 24;
  // ink-testing-library's stdout is 100 columns wide and has no rows; the app reads both.
  Object.defineProperty(result.stdout, 'columns', { get: () => columns, configurable: true });
  Object.defineProperty(result.stdout, 'rows', { get: () => rows, configurable: true });
  result.stdout.emit('resize');
  const frame = () => {
    const last = result.lastFrame();
    const text = last === undefined ? '' : stripVTControlCharacters(last);
    if (text.trim() === '') throw new Error('the TUI drew an empty frame');
    return text;
  };
  return {
    frame,
    press: (input) => result.stdin.write(input),
    resize(nextColumns, nextRows) {
      columns = nextColumns;
      rows = nextRows;
      result.stdout.emit('resize');
    },
    async waitFor(accept, what) {
      // The app subscribes to resizes after its first render; tell it the size once it listens.
      result.stdout.emit('resize');
      for (let turn = 0; turn < SETTLE_TURNS; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
        const last = result.lastFrame();
        if (last !== undefined && accept(stripVTControlCharacters(last))) return frame();
      }
      throw new Error(`the TUI never showed ${what}; last frame:\n${frame()}`);
    },
    unmount: () => result.unmount(),
  };
}
