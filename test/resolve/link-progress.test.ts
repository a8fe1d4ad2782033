/**
 * The link says how far it is, for the bar `index` shows on a terminal: the facts loaded file by
 * file, a step while the types are checked, then each of the two passes over the files' calls, then
 * the write.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileFacts } from '../../src/index/facts.js';
import { decodeFacts } from '../../src/index/facts-codec.js';
import { parseRepository, type IndexProgress } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import { openIndexStore } from '../../src/store/index-store.js';
import { projectRoot } from '../helpers/run-cli.js';

describe('link progress', () => {
  it('reports the load, the type check, both passes over the calls and the write, in order', async () => {
    const root = path.join(projectRoot, 'fixtures', 'kubernetes');
    const { store } = await openIndexStore(':memory:');
    try {
      const parsed = await parseRepository({ root, store, jobs: 1 });
      const events: IndexProgress[] = [];
      const { treeId, unchanged } = await linkTree({
        store,
        parsed,
        onProgress: (p) => events.push({ ...p }),
      });
      expect(unchanged).toBe(false);

      const phases = events.map((e) => e.phase);
      const firstLink = phases.indexOf('link');
      const firstWrite = phases.indexOf('write');
      expect(phases[0]).toBe('load');
      expect(firstLink).toBeGreaterThan(0);
      expect(firstWrite).toBeGreaterThan(firstLink);
      expect(phases.slice(firstLink, firstWrite).every((p) => p === 'link')).toBe(true);

      const load = events.slice(0, firstLink);
      expect(load.every((e) => e.phase === 'load' && e.total === parsed.files.length)).toBe(true);
      expect(load[0]!.done).toBe(0);
      expect(nonDecreasing(load.map((e) => e.done))).toBe(true);
      // The type check is the last load event, with all files loaded.
      expect(load.at(-1)).toMatchObject({ step: 'checking types', done: parsed.files.length });

      // Two passes, each over the calls of the files the build takes, one after the other.
      const link = events.slice(firstLink, firstWrite);
      const built = await store.all<{ facts: Buffer }>(
        `SELECT b.facts FROM files f JOIN blobs b ON b.blob = f.blob
         WHERE f.tree = ? AND f.status IN ('ok', 'syntax', 'encoding')`,
        [treeId],
      );
      const calls = built.reduce(
        (n, row) => n + decodeFacts<FileFacts>(new Uint8Array(row.facts)).calls.length,
        0,
      );
      expect(built.length).toBeGreaterThan(100);
      const steps = [...new Set(link.map((e) => e.step))];
      expect(steps).toEqual(['following arguments', 'linking calls']);
      for (const step of steps) {
        const pass = link.filter((e) => e.step === step);
        expect(pass.every((e) => e.total === calls)).toBe(true);
        expect(pass[0]!.done).toBe(0);
        expect(pass.at(-1)!.done).toBe(calls);
        expect(nonDecreasing(pass.map((e) => e.done))).toBe(true);
        // Told as the pass goes (every two files), not only at its start and end.
        expect(pass.length).toBeGreaterThan(built.length / 4);
      }
    } finally {
      await store.close();
    }
  });

  it('says nothing of a link it skips', async () => {
    const root = path.join(projectRoot, 'fixtures', 'go', 'go-and-defer');
    const { store } = await openIndexStore(':memory:');
    try {
      await linkTree({ store, parsed: await parseRepository({ root, store, jobs: 1 }) });
      const events: IndexProgress[] = [];
      const again = await linkTree({
        store,
        parsed: await parseRepository({ root, store, jobs: 1 }),
        onProgress: (p) => events.push(p),
      });
      expect(again.unchanged).toBe(true);
      expect(events).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

function nonDecreasing(values: number[]): boolean {
  return values.every((v, i) => i === 0 || v >= values[i - 1]!);
}
