/**
 * The link says how far it is, for the bar `index` shows on a terminal: the facts loaded file by
 * file, a step while the types are checked, then the two passes over the files, then the write.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRepository, type IndexProgress } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import { openIndexStore } from '../../src/store/index-store.js';
import { projectRoot } from '../helpers/run-cli.js';

describe('link progress', () => {
  it('reports the load, the type check, both passes over the files and the write, in order', async () => {
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

      // Two passes over the files the build takes: each step is one file of one pass.
      const link = events.slice(firstLink, firstWrite);
      const built = await store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM files WHERE tree = ? AND status IN ('ok', 'syntax', 'encoding')",
        [treeId],
      );
      expect(link.every((e) => e.total === 2 * built!.n)).toBe(true);
      expect(link[0]!.done).toBe(0);
      expect(link.at(-1)!.done).toBe(2 * built!.n);
      expect(nonDecreasing(link.map((e) => e.done))).toBe(true);
      expect(link.length).toBeGreaterThan(built!.n / 2);
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
