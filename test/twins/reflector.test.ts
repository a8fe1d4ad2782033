import { describe, expect, it } from 'vitest';
import { Indexer } from '../../src/twins/indexer.js';
import { Reflector, type ListerWatcher, type ReflectorStore } from '../../src/twins/reflector.js';
import { StopChannel } from '../../src/twins/sim/clock.js';
import { ExponentialBackoffManager } from '../../src/twins/backoff.js';
import type { Pod } from '../../src/twins/objects.js';
import { createPod, testWorld } from './harness.js';

/** A store that records the calls a reflector makes. */
function recordingStore(): ReflectorStore & { calls: string[]; store: Indexer } {
  const store = new Indexer();
  const calls: string[] = [];
  return {
    calls,
    store,
    add: (o) => (calls.push(`add ${(o as Pod).metadata.name}`), store.add(o)),
    update: (o) => (calls.push(`update ${(o as Pod).metadata.name}`), store.update(o)),
    delete: (o) => (calls.push(`delete ${(o as Pod).metadata.name}`), store.delete(o)),
    replace: (list, rv) => (
      calls.push(`replace ${list.map((o) => (o as Pod).metadata.name).join(',')}@${rv}`),
      store.replace(list, rv)
    ),
    resync: () => calls.push('resync'),
  };
}

/** A lister-watcher that records the resource versions asked for. */
function spyingListerWatcher(inner: ListerWatcher, asked: string[]): ListerWatcher {
  return {
    list: (options) => (
      asked.push(`list ${JSON.stringify(options.resourceVersion)}`),
      inner.list(options)
    ),
    watch: (options) => (asked.push(`watch ${options.resourceVersion}`), inner.watch(options)),
  };
}

function startReflector(
  world: ReturnType<typeof testWorld>,
  store: ReflectorStore,
  resyncPeriodMs = 0,
  asked: string[] = [],
) {
  const stop = new StopChannel();
  const reflector = new Reflector({
    name: 'Pod',
    listerWatcher: spyingListerWatcher(world.apiserver.listerWatcher('Pod'), asked),
    store,
    resyncPeriodMs,
    clock: world.clock,
    rand: world.rand,
  });
  world.clock.go(reflector.run(stop));
  return { reflector, stop };
}

describe('Reflector', () => {
  it('lists at "0", replaces the store, then watches from the list\'s resource version', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const store = recordingStore();
    const asked: string[] = [];
    const { reflector, stop } = startReflector(world, store, 0, asked);
    world.clock.after(10, () => createPod(world.apiserver, 'b'));
    world.clock.after(20, () => world.apiserver.delete('Pod', 'default', 'a'));
    world.clock.after(30, () => stop.close());
    world.clock.run();
    expect(asked).toEqual(['list "0"', 'watch 2']);
    expect(store.calls).toEqual(['replace a@2', 'add b', 'delete a']);
    expect(reflector.lastSyncResourceVersion()).toBe('4');
  });

  it('re-watches from the last version it saw when a watch simply ends, without relisting', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const store = recordingStore();
    const asked: string[] = [];
    const { stop } = startReflector(world, store, 0, asked);
    world.clock.after(2000, () => createPod(world.apiserver, 'b'));
    // Going away for a moment drops the watch; the event meanwhile is replayed from history.
    world.clock.after(3000, () => world.apiserver.disconnect(10));
    world.clock.after(3005, () => createPod(world.apiserver, 'c'));
    world.clock.after(10_000, () => stop.close());
    world.clock.run();
    expect(asked.filter((a) => a.startsWith('list'))).toEqual(['list "0"']);
    expect(store.calls).toEqual(['replace a@2', 'add b', 'add c']);
  });

  it('relists after a 410 and the Replace drops the object whose delete it missed', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    createPod(world.apiserver, 'b');
    const store = recordingStore();
    const asked: string[] = [];
    const { stop } = startReflector(world, store, 0, asked);
    world.clock.after(1000, () => world.apiserver.disconnect(500));
    world.clock.after(1100, () => world.apiserver.delete('Pod', 'default', 'b'));
    world.clock.after(1200, () => world.apiserver.compact());
    world.clock.after(20_000, () => stop.close());
    world.clock.run();
    expect(asked.filter((a) => a.startsWith('list'))).toEqual(['list "0"', 'list "3"']);
    expect(store.calls).toEqual(['replace a,b@3', 'replace a@4']);
    expect(store.store.listKeys()).toEqual(['default/a']);
  });

  it('calls Resync on the store every resync period while it watches', () => {
    const world = testWorld();
    const store = recordingStore();
    const { stop } = startReflector(world, store, 1000);
    world.clock.after(3500, () => stop.close());
    world.clock.run();
    expect(store.calls.filter((c) => c === 'resync')).toHaveLength(3);
  });

  it('stops asking for resyncs when shouldResync says no', () => {
    const world = testWorld();
    const store = recordingStore();
    const { reflector, stop } = startReflector(world, store, 1000);
    reflector.shouldResync = () => false;
    world.clock.after(3500, () => stop.close());
    world.clock.run();
    expect(store.calls).not.toContain('resync');
  });
});

describe('ExponentialBackoffManager', () => {
  it('doubles from 800ms to a 30s cap, jittered up to 2x, and starts over after two quiet minutes', () => {
    const world = testWorld(3);
    const backoff = ExponentialBackoffManager.forReflector(world.clock, world.rand);
    const waits = Array.from({ length: 8 }, () => backoff.next());
    const bases = [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000];
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(bases[i]!);
      expect(w).toBeLessThan(2 * bases[i]!);
    });
    world.clock.after(121_000, () => expect(backoff.next()).toBeLessThan(1600));
    world.clock.run();
  });
});
