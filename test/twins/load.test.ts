import { describe, expect, it } from 'vitest';
import { runInformerLoad, runSchedulerLoad } from '../../src/twins/runs/load.js';

describe('load runs (the benchmarks, small)', () => {
  it("leaves the informer's indexer equal to the API server after a stream of writes", () => {
    const result = runInformerLoad({ objects: 500, events: 5000, seed: 4 });
    expect(result.mismatched).toBe(0);
    expect(result.indexed).toBe(result.stored);
    expect(result.syncs).toBeGreaterThan(1000);
  });

  it('binds every pod when the cluster has room, spreading them over the nodes', () => {
    const result = runSchedulerLoad({ nodes: 10, pods: 200, seed: 4 });
    expect(result.pending).toBe(0);
    expect(result.bound).toBe(200);
    expect(result.minPerNode).toBeGreaterThan(0);
  });
});
