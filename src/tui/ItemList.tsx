/**
 * The left pane: the tour's steps, or the trace as an indented tree. The selected row is inverted
 * while the list has the keys, bold otherwise.
 */
import { Box, Text } from 'ink';
import { Rows, type Row } from './Rows.js';
import type { NavItem } from './types.js';
import { useWindowTop } from './use-window-top.js';

export interface ItemListProps {
  title: string;
  items: readonly NavItem[];
  selected: number;
  focused: boolean;
  width: number;
  height: number;
}

/** Deeper trace levels stop indenting: the names matter more than the depth past this. */
const MAX_INDENT = 12;

export function ItemList({ title, items, selected, focused, width, height }: ItemListProps) {
  const inner = width - 1;
  const size = Math.max(height - 1, 1);
  const top = useWindowTop(selected, size, items.length, 'list');
  const rows: Row[] = items.slice(top, top + size).map((item, i) => {
    const index = top + i;
    const isSelected = index === selected;
    const indent = ' '.repeat(Math.min(item.depth, MAX_INDENT));
    return {
      text: `${isSelected ? '›' : ' '}${indent}${item.label}${item.mark ? ` ${item.mark}` : ''}`,
      tone: item.location ? 'plain' : 'dim',
      inverse: isSelected && focused,
      bold: isSelected && !focused,
    };
  });
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="single"
      borderTop={false}
      borderBottom={false}
      borderLeft={false}
      borderDimColor
    >
      <Text wrap="truncate-end" bold inverse={focused}>
        {` ${title} ${items.length > size ? `${selected + 1}/${items.length}` : ''}`.padEnd(inner)}
      </Text>
      <Rows rows={rows} width={inner} height={size} />
    </Box>
  );
}
