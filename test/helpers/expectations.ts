/**
 * Reads the expectation comments of fixtures/go/* (grammar in fixtures/README.md):
 *   `// want <callee> -> <symbol> <kind>`, `// want <callee> -> alt <symbol>`,
 *   `// want <callee> -> not <symbol>` (no edge to it at all), `// want <callee> -> unresolved`,
 *   `// def <symbol>`.
 * A trailing comment speaks of its own line; a comment alone on its line, of the nearest code
 * line above it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Expectation =
  | { type: 'call'; file: string; line: number; callee: string; symbol: string; kind: string }
  | { type: 'alt'; file: string; line: number; callee: string; symbol: string }
  | { type: 'not'; file: string; line: number; callee: string; symbol: string }
  | { type: 'unresolved'; file: string; line: number; callee: string }
  | { type: 'def'; file: string; line: number; symbol: string };

export function readExpectations(root: string): Expectation[] {
  const out: Expectation[] = [];
  for (const file of listGoFiles(root)) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    let lastCode = 0;
    lines.forEach((text, i) => {
      const trimmed = text.trim();
      const standalone = trimmed.startsWith('//');
      if (!standalone && trimmed !== '') lastCode = i + 1;
      const line = standalone ? lastCode : i + 1;
      const comment = standalone ? trimmed : /\/\/\s*(want|def)\s.*$/.exec(text)?.[0];
      if (!comment) return;
      const want = /^\/\/\s*want\s+(\S+)\s*->\s*(.+)$/.exec(comment);
      if (want) {
        const [, callee, rest] = want as unknown as [string, string, string];
        const parts = rest.trim().split(/\s+/);
        if (parts[0] === 'unresolved') out.push({ type: 'unresolved', file, line, callee });
        else if (parts[0] === 'alt')
          out.push({ type: 'alt', file, line, callee, symbol: parts[1] ?? '' });
        else if (parts[0] === 'not')
          out.push({ type: 'not', file, line, callee, symbol: parts[1] ?? '' });
        else
          out.push({
            type: 'call',
            file,
            line,
            callee,
            symbol: parts[0] ?? '',
            kind: parts[1] ?? '',
          });
        return;
      }
      const def = /^\/\/\s*def\s+(\S+)/.exec(comment);
      if (def) out.push({ type: 'def', file, line, symbol: def[1]! });
    });
  }
  return out;
}

function listGoFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== 'vendor') out.push(...listGoFiles(root, p));
    } else if (entry.name.endsWith('.go')) out.push(p);
  }
  return out.sort();
}
