import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/shared/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects an object nothing holds any more', async () => {
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ rows: Array.from({ length: 1000 }, (_, i) => ({ i })) });
    })();
    // A WeakRef's target lives to the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(ref!.deref()).toBeUndefined();
  });

  it('keeps what is still held', async () => {
    const held = { rows: [1, 2, 3] };
    const ref = new WeakRef(held);
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBe(held);
  });
});
