/**
 * The start screen of `k8s-read tui`: the tree's controllers on the left (the table
 * `k8s-read controllers` prints), the selected one's cells on the right — start function,
 * informers, queue, workers, sync handler, each with its file:line or why it is empty — and enter
 * opens its trace. Everything comes in through props; opening a trace is the CLI's `open`.
 */
import { Box, Text, useApp, useInput } from 'ink';
import { useRef, useState } from 'react';
import { controllerLines, describeFilled } from '../export/controllers.js';
import { shortenMiddle } from '../export/tree.js';
import { commandFor, hintLine, keyNames, type Command } from './key-bindings.js';
import { computeLayout, MIN_SIZE } from './layout.js';
import { Rows, type Row } from './Rows.js';
import { TitleBar } from './TitleBar.js';
import { ItemList } from './ItemList.js';
import type { ControllerRow, NavItem, StartProps } from './types.js';
import { ColourContext, useColour } from './use-colour.js';
import { useTerminalSize } from './use-terminal-size.js';
import { wrapText } from './wrap-text.js';

/** The keys the start screen answers; the rest belong to the trace screen. */
export const menuCommands: readonly Command[] = [
  'down',
  'up',
  'pageDown',
  'pageUp',
  'follow',
  'quit',
];

export interface ControllerMenuProps extends StartProps {
  /** Told which controller the reader opens (enter). */
  onOpen: (index: number) => void;
  /** A one-line message: the trace being read, or why it could not be. */
  status: string | null;
}

export function ControllerMenu(props: ControllerMenuProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const { controllers } = props.table;
  const [selected, setSelected] = useState(() =>
    Math.min(Math.max(props.initialIndex ?? 0, 0), Math.max(0, controllers.length - 1)),
  );
  // Keys can arrive before Ink subscribes the handler of the latest render: enter must open the
  // controller the reader sees, not the one the stale handler saw.
  const current = useRef(selected);
  current.current = selected;
  const layout = computeLayout(size.columns, size.rows, 'right');
  const listHeight = layout.body;
  const page = Math.max(1, listHeight - 2);

  useInput((input, key) => {
    for (const name of keyNames(input, key)) {
      const command = commandFor(name);
      if (!command || !menuCommands.includes(command)) continue;
      if (command === 'quit') return exit();
      if (command === 'follow') return props.onOpen(current.current);
      const delta =
        command === 'down' ? 1 : command === 'up' ? -1 : command === 'pageDown' ? page : -page;
      current.current = Math.min(
        Math.max(current.current + delta, 0),
        Math.max(0, controllers.length - 1),
      );
      setSelected(current.current);
    }
  });

  if (size.columns < MIN_SIZE.width || size.rows < MIN_SIZE.height) {
    return (
      <Text wrap="wrap">{`k8s-read needs a terminal of at least ${MIN_SIZE.width}x${MIN_SIZE.height}; this one is ${size.columns}x${size.rows}. Enlarge it, or press q.`}</Text>
    );
  }
  const listWidth = layout.listWidth;
  const detailWidth = layout.width - listWidth;
  const row = controllers[selected];
  // The names as the trace screen lists its nodes, each at its start function.
  const items: NavItem[] = controllers.map((c) => ({
    key: c.name,
    label: c.name,
    depth: 0,
    location: { ...c.start, endLine: c.start.line, focusLine: null },
    mark: null,
    guide: null,
    how: null,
  }));
  return (
    <ColourContext.Provider value={props.color ?? true}>
      <Box flexDirection="column" width={layout.width} height={layout.height}>
        <TitleBar
          text={`${props.title} · ${controllers.length} controllers · ${props.treeLabel}`}
          width={layout.width}
        />
        <Box height={layout.body}>
          <ItemList
            title="Controllers"
            items={items}
            selected={selected}
            focused
            width={listWidth}
            height={layout.body}
          />
          <Details
            row={row}
            filled={describeFilled(props.table)}
            width={detailWidth}
            height={layout.body}
          />
        </Box>
        <MenuStatus status={props.status} width={layout.width} />
      </Box>
    </ColourContext.Provider>
  );
}

/** Where a cell's text starts: after the widest part name and two spaces. */
const PART_WIDTH = 10;

/** The selected controller's cells, one per line, its `file:line` under it. */
export function detailRows(row: ControllerRow | undefined, width: number): Row[] {
  if (!row) return [{ text: 'No controllers in this table.', tone: 'dim' }];
  const inner = Math.max(width - 2, 8);
  const rows: Row[] = [
    { text: row.name, tone: 'heading' },
    { text: shortenMiddle(`trace ${row.trace.target}`, inner), tone: 'dim' },
    { text: '' },
  ];
  const indent = ' '.repeat(PART_WIDTH);
  for (const line of controllerLines(row)) {
    const wrapped = wrapText(line.what, inner - PART_WIDTH);
    wrapped.forEach((text, i) =>
      rows.push({
        text: `${i === 0 ? line.part.padEnd(PART_WIDTH) : indent}${text}`,
        tone: line.missing ? 'accent' : 'plain',
      }),
    );
    if (line.where)
      rows.push({ text: `${indent}${shortenMiddle(line.where, inner - PART_WIDTH)}`, tone: 'dim' });
  }
  return rows;
}

function Details({
  row,
  filled,
  width,
  height,
}: {
  row: ControllerRow | undefined;
  filled: string;
  width: number;
  height: number;
}) {
  const rows = detailRows(row, width);
  const size = Math.max(height - 2, 1);
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1}>
      <Rows rows={rows} width={width - 1} height={size} />
      <Text wrap="truncate-end" dimColor>
        {shortenMiddle(filled, Math.max(width - 2, 1))}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {rows.length > size ? '… (open the trace for the rest)' : ' '}
      </Text>
    </Box>
  );
}

function MenuStatus({ status, width }: { status: string | null; width: number }) {
  const colour = useColour();
  return (
    <Text
      wrap="truncate-end"
      {...(status ? { ...colour('yellow'), bold: true } : { dimColor: true })}
    >
      {` ${status ?? hintLine(menuCommands, { follow: '⏎ open its trace' })}`.padEnd(width)}
    </Text>
  );
}
