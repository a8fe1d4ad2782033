import { describe, expect, it } from 'vitest';
import {
  ControllerExpectations,
  ExpectationsTimeoutMs,
  UIDTrackingControllerExpectations,
  getPodsToDelete,
  slowStartBatch,
} from '../../src/twins/replicaset.js';
import { startReplicaSetController } from '../../src/twins/runs/replicaset.js';
import { StopChannel, VirtualClock } from '../../src/twins/sim/clock.js';
import { SeededRandom } from '../../src/twins/sim/random.js';
import { Timeline } from '../../src/twins/sim/timeline.js';
import { FakeApiServer } from '../../src/twins/apiserver.js';
import { getControllerOf, type Pod, type ReplicaSet } from '../../src/twins/objects.js';
import { pod } from './harness.js';

describe('slowStartBatch', () => {
  it('calls in batches of 1, 2, 4, ... and stops after the first batch with a failure', () => {
    const batches: number[] = [];
    let calls = 0;
    const { successes, err } = slowStartBatch(
      20,
      1,
      () => (++calls === 6 ? new Error('quota') : undefined),
      (size) => batches.push(size),
    );
    expect(batches).toEqual([1, 2, 4]);
    expect(calls).toBe(7);
    expect(successes).toBe(6);
    expect(err?.message).toBe('quota');
  });

  it('makes every call when none fails, the last batch taking what remains', () => {
    const batches: number[] = [];
    const { successes } = slowStartBatch(
      10,
      1,
      () => undefined,
      (size) => batches.push(size),
    );
    expect(batches).toEqual([1, 2, 4, 3]);
    expect(successes).toBe(10);
  });
});

describe('ControllerExpectations', () => {
  it('blocks a sync until every expected creation is observed', () => {
    const exp = new ControllerExpectations(new VirtualClock());
    expect(exp.satisfiedExpectations('rs')).toBe(true);
    exp.expectCreations('rs', 2);
    exp.creationObserved('rs');
    expect(exp.satisfiedExpectations('rs')).toBe(false);
    exp.creationObserved('rs');
    expect(exp.satisfiedExpectations('rs')).toBe(true);
  });

  it('gives up waiting after the five-minute TTL', () => {
    const clock = new VirtualClock();
    const exp = new ControllerExpectations(clock);
    exp.expectCreations('rs', 1);
    clock.after(ExpectationsTimeoutMs, () => expect(exp.satisfiedExpectations('rs')).toBe(false));
    clock.after(ExpectationsTimeoutMs + 1, () =>
      expect(exp.satisfiedExpectations('rs')).toBe(true),
    );
    clock.run();
  });

  it("counts a pod's deletion once even when it is observed twice", () => {
    const exp = new UIDTrackingControllerExpectations(
      new ControllerExpectations(new VirtualClock()),
    );
    exp.expectDeletions('rs', ['default/a', 'default/b']);
    exp.deletionObserved('rs', 'default/a');
    exp.deletionObserved('rs', 'default/a');
    expect(exp.satisfiedExpectations('rs')).toBe(false);
    exp.deletionObserved('rs', 'default/b');
    expect(exp.satisfiedExpectations('rs')).toBe(true);
  });
});

describe('getPodsToDelete', () => {
  it('prefers unscheduled pods, then pending over running, then the newest', () => {
    const at = (p: Pod, t: number, phase?: 'Running') =>
      ({
        ...p,
        metadata: { ...p.metadata, creationTimestamp: t },
        status: { phase: phase ?? 'Pending' },
      }) as Pod;
    const pods = [
      at(pod('running-old', { nodeName: 'n' }), 1, 'Running'),
      at(pod('pending-old', { nodeName: 'n' }), 2),
      at(pod('pending-new', { nodeName: 'n' }), 3),
      at(pod('unscheduled'), 0),
    ];
    expect(getPodsToDelete(pods, 3).map((p) => p.metadata.name)).toEqual([
      'unscheduled',
      'pending-new',
      'pending-old',
    ]);
  });
});

describe('ReplicaSetController', () => {
  function cluster(seed: number) {
    const clock = new VirtualClock();
    const rand = new SeededRandom(seed);
    const timeline = new Timeline(clock);
    const apiserver = new FakeApiServer({ clock, rand, timeline });
    const stop = new StopChannel();
    const world = { clock, rand, timeline, apiserver, stop };
    const rs = apiserver.create<ReplicaSet>({
      kind: 'ReplicaSet',
      metadata: { namespace: 'default', name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: { labels: { app: 'web' }, spec: {} },
      },
      status: { replicas: 0, observedGeneration: 0 },
    });
    const controller = startReplicaSetController(world, { workers: 2, burstReplicas: 500 });
    const owned = () =>
      apiserver.objectsOf<Pod>('Pod').filter((p) => getControllerOf(p)?.uid === rs.metadata.uid);
    return { world, controller, owned };
  }

  it('creates pods in slow-start batches up to spec.replicas', () => {
    const { world, owned } = cluster(1);
    world.clock.after(1000, () => {
      const rs = world.apiserver.get<ReplicaSet>('ReplicaSet', 'default', 'web');
      world.apiserver.update({ ...rs, spec: { ...rs.spec, replicas: 7 } });
    });
    world.clock.after(5000, () => world.stop.close());
    world.clock.run();
    expect(owned()).toHaveLength(7);
    const batches = world.timeline.events
      .filter((e) => e.event === 'slow-start batch')
      .map((e) => e.detail);
    expect(batches).toEqual([
      '1 create(s)',
      '2 create(s)',
      '1 create(s)',
      '2 create(s)',
      '1 create(s)',
    ]);
  });

  it('converges to spec.replicas after random pod deletions and API failures (seeded)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { world, owned } = cluster(seed);
      const { clock, rand, apiserver } = world;
      apiserver.injectFaults([
        { verb: 'create', kind: 'Pod', probability: 0.3 },
        { verb: 'delete', kind: 'Pod', probability: 0.2 },
        { verb: 'update', kind: 'ReplicaSet', probability: 0.2 },
      ]);
      for (let t = 500; t < 30_000; t += 500) {
        clock.after(t, () => {
          const roll = rand.float64();
          const pods = owned();
          if (roll < 0.5 && pods.length > 0) {
            const victim = rand.pick(pods);
            try {
              apiserver.delete('Pod', 'default', victim.metadata.name);
            } catch {
              // the injected fault hit the chaos too
            }
          } else if (roll < 0.7) {
            try {
              const rs = apiserver.get<ReplicaSet>('ReplicaSet', 'default', 'web');
              apiserver.update({ ...rs, spec: { ...rs.spec, replicas: rand.intn(8) } });
            } catch {
              // a conflict or an injected failure: the next round scales again
            }
          }
        });
      }
      // The chaos ends and the faults with it; then the controller has a minute to settle.
      clock.after(30_000, () => apiserver.clearFaults());
      clock.after(90_000, () => world.stop.close());
      clock.run();
      const rs = apiserver.get<ReplicaSet>('ReplicaSet', 'default', 'web');
      expect({ seed, pods: owned().length }).toEqual({ seed, pods: rs.spec.replicas });
    }
  });

  it('adopts a matching orphan instead of creating a new pod', () => {
    const { world, owned } = cluster(1);
    world.clock.after(2000, () =>
      world.apiserver.delete('Pod', 'default', owned()[0]!.metadata.name),
    );
    world.clock.after(2000, () =>
      world.apiserver.create({
        kind: 'Pod',
        metadata: { namespace: 'default', name: 'orphan', labels: { app: 'web' } },
      }),
    );
    world.clock.after(5000, () => world.stop.close());
    world.clock.run();
    expect(owned().map((p) => p.metadata.name)).toContain('orphan');
    expect(owned()).toHaveLength(3);
  });
});
