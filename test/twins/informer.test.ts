import { describe, expect, it } from 'vitest';
import {
  FilteringResourceEventHandler,
  ResourceEventHandlerFuncs,
  SharedIndexInformer,
  processDeltas,
} from '../../src/twins/informer.js';
import { Indexer } from '../../src/twins/indexer.js';
import {
  DeletedFinalStateUnknown,
  type CacheEntry,
  type KubeObject,
  type Pod,
} from '../../src/twins/objects.js';
import { StopChannel } from '../../src/twins/sim/clock.js';
import { createPod, pod, testWorld, type TestWorld } from './harness.js';

/** A handler that records what it is told, as `Add a`, `Update a 2->5`, `Delete b (tombstone)`. */
function recorder(log: string[]) {
  return new ResourceEventHandlerFuncs({
    addFunc: (obj) => log.push(`Add ${obj.metadata.name}`),
    updateFunc: (o, n) =>
      log.push(
        `Update ${n.metadata.name} ${o.metadata.resourceVersion}->${n.metadata.resourceVersion}`,
      ),
    deleteFunc: (obj) =>
      log.push(
        obj instanceof DeletedFinalStateUnknown
          ? `Delete ${obj.key} (tombstone)`
          : `Delete ${(obj as KubeObject).metadata.name}`,
      ),
  });
}

function startInformer(world: TestWorld, resyncMs = 0) {
  const informer = new SharedIndexInformer({
    name: 'Pod',
    listerWatcher: world.apiserver.listerWatcher('Pod'),
    defaultEventHandlerResyncPeriodMs: resyncMs,
    clock: world.clock,
    rand: world.rand,
  });
  const stop = new StopChannel();
  return { informer, stop, start: () => world.clock.go(informer.run(stop)) };
}

describe('SharedIndexInformer', () => {
  it('updates the indexer before telling handlers, so a handler reads at least what it is told', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const { informer, stop, start } = startInformer(world);
    const seen: string[] = [];
    informer.addEventHandler(
      new ResourceEventHandlerFuncs({
        addFunc: (obj) =>
          seen.push(
            `${obj.metadata.name} cached=${informer.indexer.getByKey('default/' + obj.metadata.name) !== undefined}`,
          ),
      }),
      { name: 't' },
    );
    start();
    world.clock.after(5, () => createPod(world.apiserver, 'b'));
    world.clock.after(10, () => stop.close());
    world.clock.run();
    expect(seen).toEqual(['a cached=true', 'b cached=true']);
  });

  it('gives a handler added after sync an Add for every existing object, then the live events', () => {
    const world = testWorld();
    for (const name of ['a', 'b', 'c']) createPod(world.apiserver, name);
    const { informer, stop, start } = startInformer(world);
    start();
    const late: string[] = [];
    world.clock.after(1000, () => {
      expect(informer.hasSynced()).toBe(true);
      informer.addEventHandler(recorder(late), { name: 'late' });
    });
    world.clock.after(2000, () => world.apiserver.delete('Pod', 'default', 'b'));
    world.clock.after(3000, () => stop.close());
    world.clock.run();
    expect(late.slice(0, 3).sort()).toEqual(['Add a', 'Add b', 'Add c']);
    expect(late.slice(3)).toEqual(['Delete b']);
  });

  it('buffers each handler on its own: a slow handler delays only itself', () => {
    const world = testWorld();
    const { informer, stop, start } = startInformer(world);
    const fastAt: number[] = [];
    const slowAt: number[] = [];
    informer.addEventHandler(
      new ResourceEventHandlerFuncs({ addFunc: () => fastAt.push(world.clock.now()) }),
      { name: 'fast' },
    );
    const slow = informer.addEventHandler(
      new ResourceEventHandlerFuncs({ addFunc: () => slowAt.push(world.clock.now()) }),
      { name: 'slow', latencyMs: 100 },
    );
    start();
    world.clock.after(1000, () => {
      for (let i = 0; i < 5; i++) createPod(world.apiserver, `p${i}`);
    });
    world.clock.after(1001, () => {
      expect(fastAt).toEqual([1000, 1000, 1000, 1000, 1000]);
      expect(slow!.pendingNotifications.length).toBe(4);
    });
    world.clock.after(2000, () => stop.close());
    world.clock.run();
    expect(slowAt).toEqual([1000, 1100, 1200, 1300, 1400]);
  });

  it('re-delivers every object as an update with the same resource version on resync', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const { informer, stop, start } = startInformer(world, 1000);
    const log: string[] = [];
    informer.addEventHandler(recorder(log), { name: 't' });
    start();
    world.clock.after(2500, () => stop.close());
    world.clock.run();
    expect(log).toEqual(['Add a', 'Update a 2->2', 'Update a 2->2']);
  });

  it('resyncs only the listeners that asked for it', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const { informer, stop, start } = startInformer(world, 1000);
    const withResync: string[] = [];
    const without: string[] = [];
    informer.addEventHandlerWithResyncPeriod(recorder(withResync), 1000, { name: 'resyncing' });
    informer.addEventHandlerWithResyncPeriod(recorder(without), 0, { name: 'quiet' });
    start();
    world.clock.after(2500, () => stop.close());
    world.clock.run();
    expect(withResync.filter((l) => l.startsWith('Update'))).toHaveLength(2);
    expect(without).toEqual(['Add a']);
  });

  it('tells handlers about a delete it missed while disconnected, with a tombstone, after relisting', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    createPod(world.apiserver, 'b');
    const { informer, stop, start } = startInformer(world);
    const log: string[] = [];
    informer.addEventHandler(recorder(log), { name: 't' });
    start();
    world.clock.after(1000, () => world.apiserver.disconnect(500));
    world.clock.after(1100, () => world.apiserver.delete('Pod', 'default', 'b'));
    world.clock.after(1200, () => world.apiserver.compact());
    world.clock.after(20_000, () => stop.close());
    world.clock.run();
    expect(log).toContain('Delete default/b (tombstone)');
    expect(informer.indexer.listKeys()).toEqual(['default/a']);
    expect(informer.listCount).toBe(2);
  });

  it('keeps its indexer equal to the API server through random writes and watch expiries (seeded)', () => {
    for (const seed of [1, 2, 3]) {
      const world = testWorld(seed, 50);
      const { informer, stop, start } = startInformer(world);
      start();
      for (let t = 10; t < 5000; t += 10) {
        world.clock.after(t, () => {
          const pods = world.apiserver.objectsOf<Pod>('Pod');
          const roll = world.rand.float64();
          if (roll < 0.4 || pods.length === 0) createPod(world.apiserver, `p${t}`);
          else if (roll < 0.7)
            world.apiserver.delete('Pod', 'default', world.rand.pick(pods).metadata.name);
          else if (roll < 0.97) {
            const p = world.rand.pick(pods);
            world.apiserver.update({ ...p, metadata: { ...p.metadata, labels: { t: String(t) } } });
          } else world.apiserver.expireWatches();
        });
      }
      world.clock.after(30_000, () => stop.close());
      world.clock.run();
      const server = world.apiserver
        .objectsOf<Pod>('Pod')
        .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
        .sort();
      const cached = informer.indexer
        .objects<Pod>()
        .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
        .sort();
      expect(cached).toEqual(server);
    }
  });
});

describe('processDeltas', () => {
  it('turns a Replaced delta for an unknown key into an Add and for a known key into an Update', () => {
    const store = new Indexer();
    const log: string[] = [];
    processDeltas(recorder(log), store, [{ type: 'Replaced', object: pod('a', { rv: '1' }) }]);
    processDeltas(recorder(log), store, [{ type: 'Replaced', object: pod('a', { rv: '2' }) }]);
    processDeltas(recorder(log), store, [
      { type: 'Deleted', object: new DeletedFinalStateUnknown('default/a', pod('a', { rv: '2' })) },
    ]);
    expect(log).toEqual(['Add a', 'Update a 1->2', 'Delete default/a (tombstone)']);
    expect(store.size).toBe(0);
  });
});

describe('FilteringResourceEventHandler', () => {
  it('turns an update that crosses the filter into an Add or a Delete', () => {
    const log: string[] = [];
    const assigned = (obj: CacheEntry) => Boolean((obj as Pod).spec?.nodeName);
    const handler = new FilteringResourceEventHandler(assigned, recorder(log));
    handler.onAdd(pod('a'));
    handler.onUpdate(pod('a', { rv: '1' }), pod('a', { rv: '2', nodeName: 'n1' }));
    handler.onUpdate(pod('a', { rv: '2', nodeName: 'n1' }), pod('a', { rv: '3', nodeName: 'n1' }));
    handler.onUpdate(pod('a', { rv: '3', nodeName: 'n1' }), pod('a', { rv: '4' }));
    expect(log).toEqual(['Add a', 'Update a 2->3', 'Delete a']);
  });
});
