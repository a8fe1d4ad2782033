/**
 * A pane's body: exactly `height` rows of at most `width` columns, each cut (never wrapped) so the
 * frame keeps its shape at any size. Panes decide what the rows are; this draws them.
 */
import { Box, Text } from 'ink';
import { useColour } from './use-colour.js';

export type Tone = 'plain' | 'heading' | 'dim' | 'accent' | 'warn' | 'link';

export interface Row {
  /** May hold ANSI colour (highlighted code). */
  text: string;
  tone?: Tone;
  /** Drawn inverted: the selected row of a focused list. */
  inverse?: boolean;
  bold?: boolean;
}

const toneProps: Record<Tone, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  plain: {},
  heading: { bold: true },
  dim: { dimColor: true },
  accent: { color: 'yellow', bold: true },
  warn: { color: 'red', bold: true },
  link: { color: 'blue', dimColor: true },
};

export function Rows({
  rows,
  width,
  height,
}: {
  rows: readonly Row[];
  width: number;
  height: number;
}) {
  const colour = useColour();
  const props = (tone: Tone) => {
    const { color, ...rest } = toneProps[tone];
    return { ...rest, ...(color ? colour(color) : {}) };
  };
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {rows.slice(0, height).map((row, i) => (
        <Text
          key={i}
          wrap="truncate-end"
          inverse={row.inverse ?? false}
          {...props(row.tone ?? 'plain')}
          {...(row.bold ? { bold: true } : {})}
        >
          {row.text === '' ? ' ' : row.text}
        </Text>
      ))}
    </Box>
  );
}
