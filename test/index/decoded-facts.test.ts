/**
 * The facts a parse makes are decoded as the parse goes (the main thread waits on the workers
 * meanwhile), and the link takes them from there instead of decoding them after: the same index
 * either way, and two files of one content never share facts objects. So are the stored facts of
 * the files a re-index does not parse again, when it parses any.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFacts } from '../../src/index/facts-codec.js';
import { parseRepository } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import type { Store } from '../../src/store/db.js';
import { openIndexStore } from '../../src/store/index-store.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-decoded-');

/** One module whose packages a and b hold the same file: one blob, two packages. */
function writeTree(root: string): void {
  // The type checker keeps an answer per expression object (`v`: T): shared facts would give b's
  // `v.M()` the T of a.
  const same =
    'package x\n\ntype T struct{}\n\nfunc (T) M() {}\n\nfunc Run() {\n\tvar v T\n\tv.M()\n}\n';
  for (const dir of ['a', 'b']) {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, 'x.go'), same);
  }
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/same\n\ngo 1.21\n');
  writeFileSync(
    path.join(root, 'main.go'),
    'package main\n\nimport (\n\ta "example.com/same/a"\n\tb "example.com/same/b"\n)\n\nfunc main() {\n\ta.Run()\n\tb.Run()\n}\n',
  );
}

async function edgeRows(store: Store, treeId: number): Promise<string[]> {
  const rows = await store.all<{ caller: string; callee: string }>(
    `SELECT c.symbol AS caller, d.symbol AS callee FROM edges e
     JOIN symbols c ON c.tree = e.tree AND c.id = e.caller
     JOIN symbols d ON d.tree = e.tree AND d.id = e.callee
     WHERE e.tree = ? ORDER BY caller, callee`,
    [treeId],
  );
  return rows.map((r) => `${r.caller} -> ${r.callee}`);
}

async function edgesOf(decodedDuringParse: boolean): Promise<string[]> {
  const root = path.join(tmp, decodedDuringParse ? 'early' : 'late');
  writeTree(root);
  const { store } = await openIndexStore(':memory:');
  try {
    const parsed = await parseRepository({ root, store, jobs: 1 });
    // Every blob this run parsed, decoded once: the facts its encoding holds.
    expect([...parsed.decoded.keys()].sort()).toEqual([...parsed.facts.keys()].sort());
    expect(parsed.decoded.size).toBe(2);
    for (const [blob, facts] of parsed.decoded)
      expect(facts).toEqual(decodeFacts(parsed.facts.get(blob)!));
    if (!decodedDuringParse) parsed.decoded.clear();
    const { treeId } = await linkTree({ store, parsed });
    // Taken by the link, none kept beyond it.
    expect(parsed.decoded.size).toBe(0);
    return edgeRows(store, treeId);
  } finally {
    await store.close();
  }
}

describe('facts decoded during the parse', () => {
  it('link to the same edges as facts decoded after it, each package its own', async () => {
    const early = await edgesOf(true);
    expect(early).toEqual(await edgesOf(false));
    expect(early).toEqual([
      'example.com/same.main -> example.com/same/a.Run',
      'example.com/same.main -> example.com/same/b.Run',
      'example.com/same/a.Run -> (example.com/same/a.T).M',
      'example.com/same/b.Run -> (example.com/same/b.T).M',
    ]);
  });

  it('reads the facts of the files not parsed again while the others parse, decoding them until it ends', async () => {
    const edges = async (readAhead: boolean): Promise<string[]> => {
      const root = path.join(tmp, readAhead ? 'again-ahead' : 'again-after');
      writeTree(root);
      const { store } = await openIndexStore(':memory:');
      try {
        await linkTree({ store, parsed: await parseRepository({ root, store, jobs: 1 }) });
        // Nothing new: nothing read ahead (the link is skipped).
        const same = await parseRepository({ root, store, jobs: 1 });
        expect(same.parsed).toBe(0);
        expect(same.decoded.size).toBe(0);
        expect((await linkTree({ store, parsed: same })).unchanged).toBe(true);

        writeFileSync(path.join(root, 'a', 'y.go'), 'package x\n\nfunc Other() {\n\tRun()\n}\n');
        const parsed = await parseRepository({ root, store, jobs: 1 });
        expect(parsed.parsed).toBe(1);
        // The new file's facts, and those of the two stored blobs (x.go's, main.go's), read;
        // decoded as far as the parse lasted (the new file's at least), the link decodes the rest.
        expect(parsed.facts.size).toBe(3);
        const fresh = [...parsed.facts.keys()].find((b) => parsed.decoded.has(b));
        expect(fresh).toBeDefined();
        for (const [blob, facts] of parsed.decoded)
          expect(facts).toEqual(decodeFacts(parsed.facts.get(blob)!));
        if (!readAhead) {
          parsed.decoded.clear();
          parsed.facts.clear();
        }
        const { treeId } = await linkTree({ store, parsed });
        return await edgeRows(store, treeId);
      } finally {
        await store.close();
      }
    };
    const ahead = await edges(true);
    expect(ahead).toContain('example.com/same/a.Other -> example.com/same/a.Run');
    expect(ahead).toContain('example.com/same/b.Run -> (example.com/same/b.T).M');
    expect(ahead).toEqual(await edges(false));
  });
});
