import { Text } from 'ink';
import { hintLine } from './key-bindings.js';
import { useColour } from './use-colour.js';

/** The bottom row: the last message (a copied link, a call that could not be followed), else the keys. */
export function StatusBar({ status, width }: { status: string | null; width: number }) {
  const colour = useColour();
  return (
    <Text
      wrap="truncate-end"
      {...(status ? { ...colour('yellow'), bold: true } : { dimColor: true })}
    >
      {` ${status ?? hintLine()}`.padEnd(width)}
    </Text>
  );
}
