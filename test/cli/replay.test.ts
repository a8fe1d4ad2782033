/**
 * The kept outputs of src/cli/replay.ts stay few and small: the most recent within a count and a
 * size, the newest whatever its size.
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prune } from '../../src/cli/replay.js';
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

describe('prune', () => {
  it('keeps the most recent within the count', () => {
    const dir = keptOutputs([1, 1, 1, 1, 1]);
    prune(dir, { count: 3, bytes: 1000 });
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'd.json', 'e.json']);
  });

  it('keeps the most recent within the size, and the newest whatever its size', () => {
    const dir = keptOutputs([10, 10, 10, 10]);
    prune(dir, { count: 10, bytes: 25 });
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'd.json']);
    const large = keptOutputs([10, 100]);
    prune(large, { count: 10, bytes: 25 });
    expect(readdirSync(large)).toEqual(['b.json']);
  });

  it('leaves files that are not kept outputs', () => {
    const dir = keptOutputs([1, 1]);
    writeFileSync(path.join(dir, 'a.json.123.tmp'), 'half');
    prune(dir, { count: 1, bytes: 1000 });
    expect(readdirSync(dir).sort()).toEqual(['a.json.123.tmp', 'b.json']);
  });
});
