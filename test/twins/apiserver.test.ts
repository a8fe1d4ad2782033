import { describe, expect, it } from 'vitest';
import {
  ApiError,
  isConflict,
  isConnectionRefused,
  isNotFound,
  isResourceExpired,
  type WatchEvent,
} from '../../src/twins/apiserver.js';
import type { Proc } from '../../src/twins/sim/clock.js';
import type { KubeObject } from '../../src/twins/objects.js';
import { caught, createPod, testWorld } from './harness.js';

function drain(
  world: ReturnType<typeof testWorld>,
  chan: { recv(): Proc<[WatchEvent | undefined, boolean]> },
): string[] {
  const seen: string[] = [];
  world.clock.go(
    (function* (): Proc {
      for (;;) {
        const [event, ok] = yield* chan.recv();
        if (!ok || !event) return;
        const obj = event.object as KubeObject;
        seen.push(
          event.type === 'ERROR'
            ? `ERROR ${(event.object as { code: number }).code}`
            : `${event.type} ${obj.metadata.name}@${obj.metadata.resourceVersion}`,
        );
      }
    })(),
  );
  world.clock.run();
  return seen;
}

describe('FakeApiServer', () => {
  it('gives every write the next resource version, across kinds, as etcd does', () => {
    const world = testWorld();
    const a = createPod(world.apiserver, 'a');
    const node = world.apiserver.create({ kind: 'Node', metadata: { name: 'n1' } });
    const a2 = world.apiserver.update({ ...a, metadata: { ...a.metadata, labels: { x: 'y' } } });
    expect([
      a.metadata.resourceVersion,
      node.metadata.resourceVersion,
      a2.metadata.resourceVersion,
    ]).toEqual(['2', '3', '4']);
    expect(world.apiserver.list('Pod').resourceVersion).toBe('4');
  });

  it('rejects an update carrying a stale resource version with a 409 conflict', () => {
    const world = testWorld();
    const a = createPod(world.apiserver, 'a');
    world.apiserver.update({ ...a, metadata: { ...a.metadata, labels: { v: '2' } } });
    const error = caught(() =>
      world.apiserver.update({ ...a, metadata: { ...a.metadata, labels: { v: '3' } } }),
    );
    expect(isConflict(error)).toBe(true);
    expect((error as ApiError).code).toBe(409);
  });

  it("replays the events after a watch's resource version, then streams new ones", () => {
    const world = testWorld();
    const a = createPod(world.apiserver, 'a');
    createPod(world.apiserver, 'b');
    const watch = world.apiserver.watch('Pod', { resourceVersion: a.metadata.resourceVersion });
    world.apiserver.delete('Pod', 'default', 'a');
    world.clock.after(5, () => watch.stop());
    expect(drain(world, watch.resultChan)).toEqual(['ADDED b@3', 'DELETED a@4']);
  });

  it('answers a watch from a compacted resource version with one 410 Expired event', () => {
    const world = testWorld();
    const a = createPod(world.apiserver, 'a');
    createPod(world.apiserver, 'b');
    world.apiserver.compact();
    const watch = world.apiserver.watch('Pod', { resourceVersion: a.metadata.resourceVersion });
    expect(drain(world, watch.resultChan)).toEqual(['ERROR 410']);
  });

  it('forgets the oldest events beyond its history size, so old watches expire on their own', () => {
    const world = testWorld(1, 3);
    const first = createPod(world.apiserver, 'p0');
    for (let i = 1; i < 6; i++) createPod(world.apiserver, `p${i}`);
    expect(
      drain(
        world,
        world.apiserver.watch('Pod', { resourceVersion: first.metadata.resourceVersion })
          .resultChan,
      ),
    ).toEqual(['ERROR 410']);
  });

  it('ends open watches with 410 on expireWatches', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    const watch = world.apiserver.watch('Pod', {
      resourceVersion: world.apiserver.resourceVersion,
    });
    world.clock.after(1, () => world.apiserver.expireWatches());
    expect(drain(world, watch.resultChan)).toEqual(['ERROR 410']);
    expect(world.apiserver.openWatches('Pod')).toBe(0);
  });

  it('closes a watch after its timeout', () => {
    const world = testWorld();
    const watch = world.apiserver.watch('Pod', {
      resourceVersion: world.apiserver.resourceVersion,
      timeoutSeconds: 2,
    });
    world.clock.run();
    expect(watch.resultChan.closed).toBe(true);
    expect(world.clock.now()).toBe(2000);
  });

  it('refuses list and watch while disconnected, and serves them again afterwards', () => {
    const world = testWorld();
    world.apiserver.disconnect(1000);
    expect(isConnectionRefused(caught(() => world.apiserver.list('Pod')))).toBe(true);
    expect(isConnectionRefused(caught(() => world.apiserver.watch('Pod')))).toBe(true);
    world.clock.after(1000, () => expect(world.apiserver.list('Pod').items).toEqual([]));
    world.clock.run();
  });

  it('fails injected calls exactly as many times as asked, then serves them', () => {
    const world = testWorld();
    world.apiserver.injectFaults([
      { verb: 'create', kind: 'Pod', times: 2, code: 503, reason: 'ServiceUnavailable' },
    ]);
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        createPod(world.apiserver, `p${i}`);
        outcomes.push('ok');
      } catch (err) {
        outcomes.push(String((err as ApiError).code));
      }
    }
    expect(outcomes).toEqual(['503', '503', 'ok']);
  });

  it('binds a pending pod once and refuses a second binding', () => {
    const world = testWorld();
    createPod(world.apiserver, 'a');
    expect(world.apiserver.bind('default', 'a', 'node-1').spec.nodeName).toBe('node-1');
    expect(() => world.apiserver.bind('default', 'a', 'node-2')).toThrow(
      /already assigned to node "node-1"/,
    );
  });

  it('says NotFound and Expired in the words client code tests for', () => {
    const world = testWorld();
    expect(isNotFound(caught(() => world.apiserver.delete('Pod', 'default', 'ghost')))).toBe(true);
    expect(isResourceExpired(new ApiError(410, 'Gone', 'gone'))).toBe(true);
  });

  it('generates names from generateName with the seeded random source', () => {
    const names = [1, 1, 2].map(
      (seed) =>
        testWorld(seed).apiserver.create({ kind: 'Pod', metadata: { generateName: 'web-' } })
          .metadata.name,
    );
    expect(names[0]).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(names[0]).toBe(names[1]);
    expect(names[2]).not.toBe(names[0]);
  });
});
