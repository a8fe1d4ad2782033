import { Text } from 'ink';
import { hintLine } from './key-bindings.js';

/** The bottom row: the last message (a copied link, a call that could not be followed), else the keys. */
export function StatusBar({ status, width }: { status: string | null; width: number }) {
  return (
    <Text wrap="truncate-end" {...(status ? { color: 'yellow' } : { dimColor: true })}>
      {` ${status ?? hintLine()}`.padEnd(width)}
    </Text>
  );
}
