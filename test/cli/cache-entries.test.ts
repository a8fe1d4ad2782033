/**
 * The cache's directories of kept files (src/cli/cache-entries.ts) stay few and small: the most
 * recent within a count and a size, the newest whatever its size, the one just written whatever
 * the clock says.
 */
import { mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepMostRecent, writeCacheEntry } from '../../src/cli/cache-entries.js';
import { useTempDir } from '../helpers/temp-dir.js';

const root = useTempDir('k8s-read-replay-prune-');
let made = 0;

/** A directory of kept outputs `a.json` (oldest) ... with the given sizes. */
function keptOutputs(sizes: number[]): string {
  const dir = path.join(root, String(made++));
  sizes.forEach((size, i) => {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${String.fromCharCode(97 + i)}.json`);
    writeFileSync(file, 'x'.repeat(size), { flag: 'w' });
    const when = new Date(Date.UTC(2026, 0, 1, 0, i));
    utimesSync(file, when, when);
  });
  return dir;
}

describe('keepMostRecent', () => {
  it('keeps the most recent within the count', () => {
    const dir = keptOutputs([1, 1, 1, 1, 1]);
    keepMostRecent(dir, { count: 3, bytes: 1000 });
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'd.json', 'e.json']);
  });

  it('keeps the most recent within the size, and the newest whatever its size', () => {
    const dir = keptOutputs([10, 10, 10, 10]);
    keepMostRecent(dir, { count: 10, bytes: 25 });
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'd.json']);
    const large = keptOutputs([10, 100]);
    keepMostRecent(large, { count: 10, bytes: 25 });
    expect(readdirSync(large)).toEqual(['b.json']);
  });

  it('leaves files that are not kept outputs', () => {
    const dir = keptOutputs([1, 1]);
    writeFileSync(path.join(dir, 'a.json.123.tmp'), 'half');
    keepMostRecent(dir, { count: 1, bytes: 1000 });
    expect(readdirSync(dir).sort()).toEqual(['a.json.123.tmp', 'b.json']);
  });
});

describe('writeCacheEntry', () => {
  it('keeps the entry just written when every entry has the same time', () => {
    const dir = keptOutputs([1, 1, 1]);
    // Named to come last among equal times: only "the one just written" keeps it.
    const file = path.join(dir, '0.json');
    writeCacheEntry(file, 'new', { count: 10 });
    const when = new Date(Date.UTC(2026, 0, 1));
    for (const name of readdirSync(dir)) utimesSync(path.join(dir, name), when, when);
    keepMostRecent(dir, { count: 2 }, '0.json');
    expect(readdirSync(dir).sort()).toEqual(['0.json', 'c.json']);
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir).some((name) => name.endsWith('.tmp'))).toBe(false);
  });
});
