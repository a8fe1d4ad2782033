/**
 * Reads the expectation comments of fixtures/go/* (grammar in fixtures/README.md):
 *   `// want <callee> -> <symbol> <kind>`, `// want <callee> -> alt <symbol>`,
 *   `// want <callee> -> not <symbol>` (no edge to it at all), `// want <callee> -> none` (no
 *   edge at all where it is called: a conversion), `// want <callee> -> unresolved`
 *   (`unresolved <package>`: and named as a call into that unindexed package; `unresolved ?`:
 *   into no package, and nothing else known of it; `unresolved unset`: a call of a field no
 *   code of the fixture stores a value into; `unresolved nil`: of a local that holds only nil;
 *   `unresolved unfilled`: of a value ranged over a package's list nothing fills),
 *   `// want <callee> -> <symbol> <kind> from <root>` (in the trace of `<root>`: a component or a
 *   symbol, whose program and call path decide what a function value is), `// def <symbol>`.
 * A trailing comment speaks of its own line; a comment alone on its line, of the nearest code
 * line above it. `col` is the column of the call's callee name on that line (the site the index
 * records), or null when the name is not followed by a call there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Site {
  file: string;
  line: number;
  callee: string;
  col: number | null;
}

export type Expectation =
  | (Site & { type: 'call'; symbol: string; kind: string; from?: string })
  | (Site & { type: 'alt'; symbol: string })
  | (Site & { type: 'not'; symbol: string })
  | (Site & { type: 'none' })
  | (Site & { type: 'unresolved'; pkg?: string })
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
        const site = { file, line, callee, col: calleeColumn(lines[line - 1] ?? '', callee) };
        const parts = rest.trim().split(/\s+/);
        if (parts[0] === 'unresolved')
          out.push({ type: 'unresolved', ...site, ...(parts[1] ? { pkg: parts[1] } : {}) });
        else if (parts[0] === 'alt') out.push({ type: 'alt', ...site, symbol: parts[1] ?? '' });
        else if (parts[0] === 'not') out.push({ type: 'not', ...site, symbol: parts[1] ?? '' });
        else if (parts[0] === 'none' && parts.length === 1) out.push({ type: 'none', ...site });
        else
          out.push({
            type: 'call',
            ...site,
            symbol: parts[0] ?? '',
            kind: parts[1] ?? '',
            ...(parts[2] === 'from' && parts[3] ? { from: parts[3] } : {}),
          });
        return;
      }
      const def = /^\/\/\s*def\s+(\S+)/.exec(comment);
      if (def) out.push({ type: 'def', file, line, symbol: def[1]! });
    });
  }
  return out;
}

/** The column of `name` where it is called on this line (`name(`, `name[T](`), else null. */
function calleeColumn(text: string, name: string): number | null {
  // `<-`: the channel send on the line; its hand-off edges are recorded at column 0.
  if (name === '<-') return 0;
  const code = text.replace(/\/\/.*$/, '');
  const escaped = name.replace(/[$]/g, '\\$');
  const m = new RegExp(`(?<![\\w$])${escaped}\\s*(?:\\[[^\\]]*\\]\\s*)?\\(`).exec(code);
  return m ? m.index : null;
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
