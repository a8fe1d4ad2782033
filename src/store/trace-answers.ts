/**
 * Trace answers kept beside the index (trace-answers.sql): the JSON of a whole `Trace` under a key
 * that the caller builds from everything the answer depends on. This layer gives the index's part
 * of that key (its generation) and moves the text, deflated; it never reads the answer's shape.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Store } from './db.js';
import type { TreeRow } from './index-store.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Answers kept per database: the traces a reader goes back to, not every one ever asked. */
const KEPT = 32;

/**
 * What the kept answers may take of the database, deflated. A v1.24 index is ~170 MB and the issue
 * on speed gives the database 200 MB; one answer of `trace kubelet --all` is ~6.5 MB of JSON and
 * ~0.6 MB deflated, so 16 MB keeps the KEPT most recent but of the very largest. The newest answer
 * is kept whatever its size (the one just asked is the one asked again).
 */
export const KEPT_BYTES = 16 * 1024 * 1024;

/**
 * What identifies the index of a tree as it is now: its row (commit, dirty state, when it was
 * written, its summary) and the row counts written with it. Every index run that writes the tree
 * (a re-parse, a relink) rewrites both; one that changes nothing leaves them, and the answers
 * stay true.
 */
export async function indexGeneration(store: Store, tree: TreeRow): Promise<string> {
  const rows = await store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [
    `rows:${tree.id}`,
  ]);
  return createHash('sha256')
    .update(JSON.stringify({ tree, rows: rows?.value ?? null }))
    .digest('hex');
}

/** The answer stored under `key`, or undefined (none, or no table yet, or a fault reading it). */
export async function readTraceAnswer(store: Store, key: string): Promise<string | undefined> {
  try {
    const row = await store.get<{ answer: string | Buffer }>(
      'SELECT answer FROM trace_answers WHERE key = ?',
      [key],
    );
    if (row === undefined) return undefined;
    // Builds before 021cda2 kept the text itself; their keys differ, but a row is a row.
    return typeof row.answer === 'string'
      ? row.answer
      : inflateRawSync(row.answer).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Stores an answer, deflated, dropping the tree's answers of other generations and the oldest past
 * KEPT answers or KEPT_BYTES (newest first; the new one always stays). Never waits for another
 * writer (an `index` run holds the lock for long): the caller ignores a failure, which only costs
 * the next trace its answer.
 */
export async function writeTraceAnswer(
  store: Store,
  entry: { key: string; tree: number; generation: string; answer: string },
): Promise<void> {
  const waited = store.busyTimeout;
  await store.setBusyTimeout(0);
  try {
    await store.exec(readFileSync(path.join(here, 'trace-answers.sql'), 'utf8'));
    await store.transaction(async () => {
      await store.run('DELETE FROM trace_answers WHERE tree = ? AND generation != ?', [
        entry.tree,
        entry.generation,
      ]);
      await store.run(
        `INSERT OR REPLACE INTO trace_answers (key, tree, generation, written, answer)
       VALUES (?, ?, ?, (SELECT COALESCE(MAX(written), 0) + 1 FROM trace_answers), ?)`,
        [entry.key, entry.tree, entry.generation, deflateRawSync(entry.answer, { level: 1 })],
      );
      await store.run(
        `DELETE FROM trace_answers WHERE key IN (
           SELECT key FROM (
             SELECT key, COUNT(*) OVER newest AS n, SUM(length(answer)) OVER newest AS bytes
             FROM trace_answers
             WINDOW newest AS (ORDER BY written DESC ROWS UNBOUNDED PRECEDING))
           WHERE n > 1 AND (n > ${KEPT} OR bytes > ${KEPT_BYTES}))`,
      );
    });
  } finally {
    await store.setBusyTimeout(waited);
  }
}
