/**
 * The terminal's size, following resizes. The size is read from the output stream on every render
 * (so a render for any reason uses the current size), and a `resize` event forces that render.
 */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** What a stream without a size (a pipe, a test double) is taken to be. */
export const DEFAULT_SIZE: TerminalSize = { columns: 80, rows: 24 };

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [, setResizes] = useState(0);
  useEffect(() => {
    const onResize = () => setResizes((n) => n + 1);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return {
    columns: stdout.columns || DEFAULT_SIZE.columns,
    rows: stdout.rows || DEFAULT_SIZE.rows,
  };
}
