/**
 * Golden files for the renderers: `expectGolden('scheduler.tree.txt', text)` compares with
 * `test/export/__golden__/scheduler.tree.txt`; `npm run test:update` (K8S_READ_UPDATE_GOLDEN=1)
 * rewrites them. Line endings and trailing blanks are normalised so an editor cannot break a test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const goldenDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '__golden__');
const accept = 'run `npm run test:update` to accept';

export function expectGolden(name: string, actual: string): void {
  const file = path.join(goldenDir, name);
  const text = normalize(actual);
  if (process.env.K8S_READ_UPDATE_GOLDEN === '1') {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file))
    expect.fail(`no golden file ${path.relative(process.cwd(), file)} yet; ${accept}`);
  const expected = normalize(readFileSync(file, 'utf8'));
  if (text === expected) return;
  const actualLines = text.split('\n');
  const expectedLines = expected.split('\n');
  const at = actualLines.findIndex((line, i) => line !== expectedLines[i]);
  const line = at === -1 ? actualLines.length : at;
  expect.fail(
    `${name} differs from its golden file at line ${line + 1}:\n` +
      `  expected: ${JSON.stringify(expectedLines[line] ?? '<end of file>')}\n` +
      `  actual:   ${JSON.stringify(actualLines[line] ?? '<end of file>')}\n${accept}`,
  );
}

function normalize(text: string): string {
  return `${text
    .replace(/\r\n/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trimEnd()}\n`;
}
