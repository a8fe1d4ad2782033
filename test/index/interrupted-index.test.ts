/**
 * An interrupted or failing index run leaves the previous index whole: parsed facts are kept (the
 * next run resumes), the tree's tables are replaced only by a complete link.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexInterruptedError, parseRepository } from '../../src/index/index-repository.js';
import { linkTree } from '../../src/resolve/link-tree.js';
import { findParsedBlobs, findTree, openIndexStore } from '../../src/store/index-store.js';
import { FACTS_VERSION } from '../../src/index/facts.js';
import { projectRoot } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-interrupt-');

describe('an interrupted index', () => {
  it('says it was interrupted when discovery fails after an interrupt (git stopped by it)', async () => {
    const { store } = await openIndexStore(path.join(tmp, 'discover.sqlite'));
    const controller = new AbortController();
    controller.abort();
    // Discovery fails here (no such directory), as it does when Ctrl-C stops git mid-listing.
    const root = path.join(tmp, 'no-such-tree');
    await expect(
      parseRepository({ root, store, jobs: 1, signal: controller.signal }),
    ).rejects.toBeInstanceOf(IndexInterruptedError);
    await expect(parseRepository({ root, store, jobs: 1 })).rejects.not.toBeInstanceOf(
      IndexInterruptedError,
    );
    await store.close();
  });

  it('keeps the previous index intact and usable, and resumes from what it parsed', async () => {
    const root = path.join(tmp, 'tree');
    cpSync(path.join(projectRoot, 'fixtures', 'go', 'func-field-assignment'), root, {
      recursive: true,
    });
    const { store } = await openIndexStore(path.join(tmp, 'index.sqlite'));
    const first = await parseRepository({ root, store, jobs: 1 });
    const { treeId } = await linkTree({ store, parsed: first });
    const before = await store.all<{ symbol: string }>(
      'SELECT symbol FROM symbols WHERE tree = ? ORDER BY id',
      [treeId],
    );

    writeFileSync(path.join(root, 'more.go'), 'package main\n\nfunc more() {}\n');
    const controller = new AbortController();
    let batches = 0;
    await expect(
      parseRepository({
        root,
        store,
        jobs: 1,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'parse' && p.done > 0 && ++batches === 1) controller.abort();
        },
      }),
    ).rejects.toBeInstanceOf(IndexInterruptedError);

    const after = await store.all<{ symbol: string }>(
      'SELECT symbol FROM symbols WHERE tree = ? ORDER BY id',
      [treeId],
    );
    expect(after).toEqual(before);
    expect(after.map((s) => s.symbol)).not.toContain('example.com/func-field-assignment.more');
    // What was parsed before the interruption is saved: the next run parses nothing again.
    const resumed = await parseRepository({ root, store, jobs: 1 });
    expect(resumed.parsed).toBe(0);
    const blobs = resumed.files.map((f) => f.blob);
    expect((await findParsedBlobs(store, blobs, FACTS_VERSION)).size).toBe(new Set(blobs).size);
    await linkTree({ store, parsed: resumed });
    const tree = await findTree(store, root);
    const symbols = await store.all<{ symbol: string }>(
      'SELECT symbol FROM symbols WHERE tree = ?',
      [tree!.id],
    );
    expect(symbols.map((s) => s.symbol)).toContain('example.com/func-field-assignment.more');
    await store.close();
  });

  it('rolls back a link that fails half way, leaving the old tables', async () => {
    const root = path.join(tmp, 'tree2');
    cpSync(path.join(projectRoot, 'fixtures', 'go', 'method-value-call'), root, {
      recursive: true,
    });
    const { store } = await openIndexStore(path.join(tmp, 'index2.sqlite'));
    const parsed = await parseRepository({ root, store, jobs: 1 });
    const { treeId } = await linkTree({ store, parsed });
    const count = async () =>
      (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM edges WHERE tree = ?', [treeId]))!
        .n;
    const edgesBefore = await count();
    // A rule file that cannot be read fails the link before anything is written...
    await expect(
      linkTree({
        store,
        parsed: { ...parsed, files: parsed.files },
        rules: [path.join(tmp, 'missing.yaml')],
      }),
    ).rejects.toThrow(/cannot read rules file/);
    // ...and a failure inside the write transaction rolls back.
    await store.exec(
      'CREATE TRIGGER fail_edges BEFORE INSERT ON edges BEGIN SELECT RAISE(ABORT, "disk on fire"); END',
    );
    await store.run("UPDATE trees SET summary = '{}' WHERE id = ?", [treeId]);
    await expect(linkTree({ store, parsed })).rejects.toThrow(/disk on fire/);
    await store.exec('DROP TRIGGER fail_edges');
    expect(await count()).toBe(edgesBefore);
    await store.close();
  });
});
