/**
 * What twin tests share: a world (clock, seeded random source, API server), pod shorthand, and
 * goroutine helpers. Tests never sleep: they run the virtual clock.
 */
import { VirtualClock, type Proc } from '../../src/twins/sim/clock.js';
import { SeededRandom } from '../../src/twins/sim/random.js';
import { Timeline } from '../../src/twins/sim/timeline.js';
import { FakeApiServer } from '../../src/twins/apiserver.js';
import type { KubeObject, Pod } from '../../src/twins/objects.js';

export interface TestWorld {
  clock: VirtualClock;
  rand: SeededRandom;
  apiserver: FakeApiServer;
  timeline: Timeline;
}

export function testWorld(seed = 1, historySize = 1000): TestWorld {
  const clock = new VirtualClock();
  const rand = new SeededRandom(seed);
  const timeline = new Timeline(clock);
  return {
    clock,
    rand,
    timeline,
    apiserver: new FakeApiServer({ clock, rand, historySize, timeline }),
  };
}

/** A stored-looking pod without an API server: for data-structure tests. */
export function pod(
  name: string,
  options: {
    namespace?: string;
    rv?: string;
    labels?: Record<string, string>;
    nodeName?: string;
  } = {},
): Pod {
  return {
    kind: 'Pod',
    metadata: {
      namespace: options.namespace ?? 'default',
      name,
      uid: `uid-${name}`,
      resourceVersion: options.rv ?? '1',
      generation: 1,
      labels: options.labels ?? {},
      creationTimestamp: 0,
    },
    spec: options.nodeName ? { nodeName: options.nodeName } : {},
    status: { phase: 'Pending' },
  };
}

export function createPod(
  apiserver: FakeApiServer,
  name: string,
  labels: Record<string, string> = {},
): Pod {
  return apiserver.create<Pod>({ kind: 'Pod', metadata: { namespace: 'default', name, labels } });
}

/** Runs a goroutine to completion on the clock and returns its result. */
export function runProc<T>(clock: VirtualClock, proc: Proc<T>): T {
  let result: T | undefined;
  let done = false;
  clock.go(
    (function* (): Proc {
      result = yield* proc;
      done = true;
    })(),
  );
  clock.run();
  if (!done) throw new Error('the goroutine is still blocked when the clock ran out of work');
  return result as T;
}

export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace}/${obj.metadata.name}`;
}

/** The error `fn` throws, or undefined: for asserting on an error's kind without a try block. */
export function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}
