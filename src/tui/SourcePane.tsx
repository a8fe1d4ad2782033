/**
 * The centre: the Go source around the current place, syntax-coloured, `file:line` in the title.
 * The gutter marks the cursor (`›`), the step's focus (`▶`) and the lines of the current symbol
 * (`│`), so the marks survive without colour.
 */
import { Box, Text } from 'ink';
import { shortSymbol } from '../export/symbols.js';
import { Rows, type Row } from './Rows.js';
import type { SourceLines } from './source-lines.js';
import type { Location } from './types.js';
import { useWindowTop } from './use-window-top.js';

export interface SourcePaneProps {
  location: Location | null;
  cursor: number;
  /** The file's lines; null while loading or when there is no file to show. */
  lines: SourceLines | null;
  /** Shown instead of the code: loading, a read error, or why the step has no place here. */
  message: string | null;
  /** The symbol `back` returns to, if any. */
  back: string | null;
  focused: boolean;
  width: number;
  height: number;
}

export function SourcePane({
  location,
  cursor,
  lines,
  message,
  back,
  focused,
  width,
  height,
}: SourcePaneProps) {
  const size = Math.max(height - 1, 1);
  const total = lines?.count ?? 0;
  // The file's length is part of the key: the window is placed again once the text has arrived.
  const top = useWindowTop(
    cursor - 1,
    size,
    total,
    location ? `${location.file}:${location.symbol}:${total}` : '',
  );
  const backText = back ? `  ⌫ ${shortSymbol(back)}` : '';
  const name = location ? ` · ${shortSymbol(location.symbol)}` : '';
  const title = location
    ? ` ${fitPath(`${location.file}:${cursor}`, width - name.length - backText.length - 1)}${name}`
    : ' (no source)';
  let rows: Row[];
  if (!location || !lines) {
    rows = [
      { text: '' },
      ...(message ?? '').split('\n').map((text): Row => ({ text: ` ${text}`, tone: 'dim' })),
    ];
  } else {
    const width_ = String(Math.min(top + size, total)).length;
    rows = lines.slice(top, top + size).map((code, i): Row => {
      const n = top + i + 1;
      const isCursor = n === cursor;
      const isFocus = n === location.focusLine;
      const inSpan = n >= location.line && n <= location.endLine;
      const gutter = `${isCursor ? '›' : ' '}${isFocus ? '▶' : ' '}${String(n).padStart(width_)} ${inSpan ? '│' : ' '} `;
      return {
        text: gutter + code,
        ...(isFocus ? { tone: 'accent' as const, bold: true } : {}),
        ...(isCursor && focused ? { inverse: true } : {}),
      };
    });
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end" bold inverse={focused}>
        {`${title}${backText}`.padEnd(width)}
      </Text>
      <Rows rows={rows} width={width} height={size} />
    </Box>
  );
}

/** A path cut from the left (`…/app/server.go:23`) so the file name and line always show. */
export function fitPath(text: string, room: number): string {
  if (text.length <= room) return text;
  const parts = text.split('/');
  while (parts.length > 1 && `…/${parts.join('/')}`.length > room) parts.shift();
  return `…/${parts.join('/')}`;
}
