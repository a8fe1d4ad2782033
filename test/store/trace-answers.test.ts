/**
 * The trace answers kept beside the index: each read back as it was written, deflated in the
 * database, and no more of them than KEPT answers or KEPT_BYTES, the most recent first (the
 * newest one always stays, however large).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/db.js';
import { KEPT_BYTES, readTraceAnswer, writeTraceAnswer } from '../../src/store/trace-answers.js';

let store: Store;
beforeEach(async () => {
  store = await Store.open(':memory:');
});
afterEach(() => store.close());

const write = (key: string, answer: string, generation = 'g1') =>
  writeTraceAnswer(store, { key, tree: 1, generation, answer });

async function kept(): Promise<{ key: string; bytes: number; kind: string }[]> {
  return store.all(
    'SELECT key, length(answer) AS bytes, typeof(answer) AS kind FROM trace_answers ORDER BY written',
  );
}

/** Text that deflate cannot shrink much (base64 of random bytes: ~3/4 of its length). */
const noise = (chars: number) => randomBytes(Math.ceil((chars * 3) / 4)).toString('base64');

describe('trace answers', () => {
  it('read back what was written, kept deflated', async () => {
    const answer = JSON.stringify({
      nodes: Array.from({ length: 2000 }, (_, i) => ({ symbol: `k8s.io/x.F${i}`, line: i })),
      note: 'a → b … ✓',
    });
    await write('a', answer);
    expect(await readTraceAnswer(store, 'a')).toBe(answer);
    expect(await readTraceAnswer(store, 'b')).toBeUndefined();
    const [row] = await kept();
    expect(row!.kind).toBe('blob');
    expect(row!.bytes).toBeLessThan(answer.length / 4);
  });

  it('read the text a row of an earlier build kept as it was', async () => {
    await write('a', '{}');
    await store.run(`INSERT INTO trace_answers VALUES ('old', 1, 'g1', 0, '{"nodes":[]}')`);
    expect(await readTraceAnswer(store, 'old')).toBe('{"nodes":[]}');
  });

  it('keep the 32 most recent answers', async () => {
    for (let i = 0; i < 35; i++) await write(`k${i}`, `{"n":${i}}`);
    const keys = (await kept()).map((r) => r.key);
    expect(keys).toHaveLength(32);
    expect(keys[0]).toBe('k3');
    expect(keys.at(-1)).toBe('k34');
  });

  it('keep no more than KEPT_BYTES, the newest first, and always the newest', async () => {
    // Each deflates to ~0.41 of the budget (base64 to ~3/4): two fit, the third from the newest
    // does not.
    for (const key of ['a', 'b', 'c', 'd']) await write(key, noise(KEPT_BYTES * 0.55));
    const rows = await kept();
    expect(rows.map((r) => r.key)).toEqual(['c', 'd']);
    expect(rows.reduce((sum, r) => sum + r.bytes, 0)).toBeLessThanOrEqual(KEPT_BYTES);

    // One answer larger than the whole budget, deflated: kept alone.
    const large = noise(KEPT_BYTES * 1.5);
    await write('large', large);
    const [alone, ...others] = await kept();
    expect([alone!.key, others]).toEqual(['large', []]);
    expect(alone!.bytes).toBeGreaterThan(KEPT_BYTES);
    expect(await readTraceAnswer(store, 'large')).toBe(large);
    await write('small', '{}');
    expect((await kept()).map((r) => r.key)).toEqual(['small']);
  });

  it("drop the tree's answers of another generation of its index", async () => {
    await write('a', '{"n":1}', 'g1');
    await write('b', '{"n":2}', 'g2');
    expect((await kept()).map((r) => r.key)).toEqual(['b']);
  });
});
