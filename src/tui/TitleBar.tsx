import { Text } from 'ink';

/** The top row: what is being read, where in it, on which tree. */
export function TitleBar({ text, width }: { text: string; width: number }) {
  return (
    <Text wrap="truncate-end" inverse bold>
      {` ${text}`.padEnd(width)}
    </Text>
  );
}
