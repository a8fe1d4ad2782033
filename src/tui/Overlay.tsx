/**
 * What covers the panes for a moment: the help (every key from key-bindings.ts), the symbol search
 * with its results, or the choice between several calls on one line.
 */
import { Box, Text } from 'ink';
import { shortSymbol } from '../export/symbols.js';
import { keyBindings } from './key-bindings.js';
import type { Overlay as OverlayState } from './navigation.js';
import { Rows, type Row } from './Rows.js';
import { useColour } from './use-colour.js';
import { useWindowTop } from './use-window-top.js';

export function Overlay({
  overlay,
  width,
  height,
}: {
  overlay: OverlayState;
  width: number;
  height: number;
}) {
  const { title, rows, selected } = describe(overlay);
  const size = Math.max(height - 1, 1);
  const top = useWindowTop(selected ?? 0, size, rows.length, overlay.kind);
  const colour = useColour();
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end" bold {...colour('cyan')}>
        {` ${title}`.padEnd(width)}
      </Text>
      <Rows rows={selected === null ? rows : rows.slice(top)} width={width} height={size} />
    </Box>
  );
}

function describe(overlay: OverlayState): { title: string; rows: Row[]; selected: number | null } {
  switch (overlay.kind) {
    case 'help': {
      const keyWidth = Math.max(...keyBindings.map((b) => b.keys.join(' ').length));
      return {
        title: 'Keys (any key closes this help)',
        rows: keyBindings.map((b) => ({
          text: `  ${b.keys.join(' ').padEnd(keyWidth)}  ${b.help}`,
        })),
        selected: null,
      };
    }
    case 'search': {
      const rows: Row[] = [{ text: `  / ${overlay.text}▏`, tone: 'heading' }];
      if (overlay.error) rows.push({ text: `  ${overlay.error}`, tone: 'warn' });
      else if (overlay.results === null)
        rows.push({
          text: overlay.text ? '  searching…' : '  type part of a name; ⏎ jumps, esc closes',
          tone: 'dim',
        });
      else if (overlay.results.length === 0)
        rows.push({ text: `  no symbol contains ${JSON.stringify(overlay.text)}`, tone: 'dim' });
      else
        overlay.results.forEach((r, i) =>
          rows.push({
            text: `  ${shortSymbol(r.symbol)}  ${r.file}:${r.line}`,
            inverse: i === overlay.selected,
          }),
        );
      return {
        title: 'Search symbols',
        rows,
        selected: overlay.results && overlay.results.length > 0 ? overlay.selected + 1 : null,
      };
    }
    case 'choose':
      return {
        title: overlay.title,
        rows: overlay.options.map((o, i) => ({
          text: `  ${o.label}`,
          inverse: i === overlay.selected,
        })),
        selected: overlay.selected,
      };
  }
}
