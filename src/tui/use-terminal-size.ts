/**
 * The terminal's size, following resizes: the layout is recomputed from it on every `resize`
 * event of the output stream.
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
  const read = (): TerminalSize => ({ columns: stdout.columns || DEFAULT_SIZE.columns, rows: stdout.rows || DEFAULT_SIZE.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // `read` only closes over `stdout`, so `stdout` is the whole dependency.
  }, [stdout]);
  return size;
}
