/**
 * A source file's lines, coloured on demand in chunks. highlight.js colours a 6,000-line file
 * (core/v1/types.go) in a few hundred milliseconds, which would freeze the keys; a pane shows a
 * few dozen lines. The file is cut into chunks at top-level boundaries — after a `}` or `)` in
 * column 0, or before a top-level `func`, `type`, `var`, `const` or comment — where no Go comment,
 * string or block is open, so each chunk colours the same alone as inside the whole file.
 */
import { highlightLines } from './highlight.js';

export interface SourceLines {
  /** Number of lines. */
  readonly count: number;
  /** Lines `from` (0-based, inclusive) to `to` (exclusive), coloured when colour is on. */
  slice(from: number, to: number): string[];
}

/** A chunk grows to at least this many lines before it may end at a boundary. */
const CHUNK_LINES = 120;

const ENDS_DECLARATION = /^[})]\s*$/;
const STARTS_DECLARATION = /^(func|type|var|const|import|\/\/)\b/;

export function sourceLines(text: string, coloured: boolean): SourceLines {
  const raw = text.split('\n');
  const starts = chunkStarts(raw);
  const done = new Map<number, string[]>();
  const chunk = (c: number): string[] => {
    let lines = done.get(c);
    if (!lines) {
      const from = starts[c]!;
      const to = starts[c + 1] ?? raw.length;
      lines = highlightLines(raw.slice(from, to).join('\n'), 'go', coloured);
      done.set(c, lines);
    }
    return lines;
  };
  return {
    count: raw.length,
    slice(from, to) {
      const out: string[] = [];
      const first = Math.max(0, from);
      const last = Math.min(raw.length, to);
      for (let c = chunkOf(starts, first); c < starts.length && starts[c]! < last; c++) {
        const lines = chunk(c);
        const base = starts[c]!;
        for (let i = Math.max(first, base); i < Math.min(last, base + lines.length); i++)
          out.push(lines[i - base]!);
      }
      return out;
    },
  };
}

function chunkStarts(lines: readonly string[]): number[] {
  const starts = [0];
  for (let i = 1; i < lines.length; i++) {
    if (i - starts.at(-1)! < CHUNK_LINES) continue;
    if (ENDS_DECLARATION.test(lines[i - 1]!) || STARTS_DECLARATION.test(lines[i]!)) starts.push(i);
  }
  return starts;
}

/** The chunk holding line `n`: the last start at or before it. */
function chunkOf(starts: readonly number[], n: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= n) low = mid;
    else high = mid - 1;
  }
  return low;
}
