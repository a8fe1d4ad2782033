import { describe, expect, it } from 'vitest';
import {
  EnqueueRequestForOwner,
  Manager,
  controllerManagedBy,
  type Reconciler,
  type RequestQueue,
} from '../../src/twins/controller-runtime.js';
import { startAppManager } from '../../src/twins/runs/controller-runtime.js';
import { RateLimitingQueue } from '../../src/twins/workqueue.js';
import { StopChannel, VirtualClock } from '../../src/twins/sim/clock.js';
import { SeededRandom } from '../../src/twins/sim/random.js';
import { Timeline } from '../../src/twins/sim/timeline.js';
import { FakeApiServer } from '../../src/twins/apiserver.js';
import { getControllerOf, type KubeObject, type Pod } from '../../src/twins/objects.js';
import { pod } from './harness.js';

function world(seed: number) {
  const clock = new VirtualClock();
  const rand = new SeededRandom(seed);
  const timeline = new Timeline(clock);
  return {
    clock,
    rand,
    timeline,
    apiserver: new FakeApiServer({ clock, rand, timeline }),
    stop: new StopChannel(),
  };
}

type App = KubeObject<{ replicas: number }>;

describe('controller-runtime', () => {
  it('converges although it misses events: a reconciler reads the whole state (level-triggered)', () => {
    for (const seed of [1, 2, 3, 4]) {
      const w = world(seed);
      w.apiserver.create({
        kind: 'App',
        metadata: { namespace: 'default', name: 'shop' },
        spec: { replicas: 3 },
      });
      startAppManager(w, {
        syncPeriod: 20_000,
        maxConcurrentReconciles: 2,
        reconcileDuration: 10,
        requeueAfter: 0,
        dropEvents: 0.6,
      });
      for (let t = 1000; t < 30_000; t += 1000) {
        w.clock.after(t, () => {
          if (w.rand.chance(0.5)) {
            const pods = w.apiserver.objectsOf<Pod>('Pod');
            if (pods.length > 0)
              w.apiserver.delete('Pod', 'default', w.rand.pick(pods).metadata.name);
          } else {
            const app = w.apiserver.get<App>('App', 'default', 'shop');
            w.apiserver.update({
              ...app,
              metadata: { ...app.metadata, resourceVersion: '' },
              spec: { replicas: w.rand.intn(6) },
            });
          }
        });
      }
      w.clock.after(75_000, () => w.stop.close());
      w.clock.run();
      const app = w.apiserver.get<App>('App', 'default', 'shop');
      const pods = w.apiserver
        .objectsOf<Pod>('Pod')
        .filter((p) => getControllerOf(p)?.uid === app.metadata.uid);
      expect({ seed, pods: pods.map((p) => p.metadata.name).sort() }).toEqual({
        seed,
        pods: Array.from({ length: app.spec.replicas }, (_, i) => `shop-${i}`),
      });
      expect(w.timeline.events.some((e) => e.event === 'dropped')).toBe(true);
    }
  });

  it("maps an owned object's event to its controlling owner", () => {
    const clock = new VirtualClock();
    const queue: RequestQueue = new RateLimitingQueue<string>({ clock });
    const child = {
      ...pod('shop-0'),
      metadata: {
        ...pod('shop-0').metadata,
        ownerReferences: [
          { kind: 'App', name: 'shop', uid: 'u1', controller: true },
          { kind: 'Other', name: 'x', uid: 'u2' },
        ],
      },
    };
    new EnqueueRequestForOwner('App', true).delete(child, queue);
    new EnqueueRequestForOwner('Other', true).delete(child, queue);
    expect(queue.snapshot().queue).toEqual(['default/shop']);
  });

  it('turns Result{RequeueAfter} into Forget and AddAfter, and an error into AddRateLimited', () => {
    const w = world(1);
    w.apiserver.create({
      kind: 'App',
      metadata: { namespace: 'default', name: 'a' },
      spec: { replicas: 1 },
    });
    const mgr = new Manager(w.apiserver, { clock: w.clock, rand: w.rand, timeline: w.timeline });
    const seen: number[] = [];
    let calls = 0;
    const reconciler: Reconciler = {
      reconcile() {
        seen.push(w.clock.now());
        calls++;
        if (calls === 1) return { err: new Error('not yet') };
        if (calls <= 3) return { result: { requeueAfterMs: 1000 } };
        return {};
      },
    };
    const ctrl = controllerManagedBy(mgr).for('App').complete(reconciler);
    w.clock.go(mgr.start(w.stop));
    w.clock.after(10_000, () => w.stop.close());
    w.clock.run();
    // Cache sync at 100ms; the error retries after 5ms; then two RequeueAfter of 1s each.
    expect(seen).toEqual([100, 105, 1105, 2105]);
    expect(ctrl.reconciles.get('default/a')).toBe(4);
  });

  it('refuses a second For, as the Builder does', () => {
    const w = world(1);
    const mgr = new Manager(w.apiserver, { clock: w.clock, rand: w.rand });
    expect(() => controllerManagedBy(mgr).for('App').for('Pod')).toThrow(
      /should only be called once/,
    );
  });
});
