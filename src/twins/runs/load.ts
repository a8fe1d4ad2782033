/**
 * Load runs for the benchmarks (and, small, for tests): the informer pipeline under a stream of
 * API events, and the scheduler placing many pods on many nodes. No timeline: nothing is narrated,
 * so the cost measured is the twins' own. Each returns what a check needs to prove the run was
 * real: the informer's indexer must end equal to the API server, every pod must be bound.
 */
import { sleep, StopChannel, VirtualClock, type Proc } from '../sim/clock.js';
import { SeededRandom } from '../sim/random.js';
import { FakeApiServer } from '../apiserver.js';
import { SharedIndexInformer } from '../informer.js';
import { Controller, enqueueingHandler } from '../controller.js';
import { RateLimitingQueue } from '../workqueue.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { metaNamespaceKeyFunc, type Pod } from '../objects.js';

export interface InformerLoadOptions {
  objects: number;
  events: number;
  seed: number;
  /** @default 2 */
  workers?: number;
}

export interface InformerLoadResult {
  events: number;
  syncs: number;
  /** Objects in the informer's indexer at the end, and in the API server. */
  indexed: number;
  stored: number;
  /** Keys whose indexed resource version differs from the server's (0 when the cache caught up). */
  mismatched: number;
  virtualMs: number;
  tasks: number;
}

/**
 * `objects` pods, then `events` writes (70% updates, 15% creates, 15% deletes) one virtual
 * millisecond apart, through reflector, DeltaFIFO, indexer, a handler, a rate-limited queue and
 * workers that read the indexer.
 */
export function runInformerLoad(options: InformerLoadOptions): InformerLoadResult {
  const clock = new VirtualClock();
  const rand = new SeededRandom(options.seed);
  const apiserver = new FakeApiServer({ clock, rand, historySize: 1000 });
  const names: string[] = [];
  for (let i = 0; i < options.objects; i++) {
    const pod = apiserver.create<Pod>({
      kind: 'Pod',
      metadata: { namespace: `ns-${i % 10}`, name: `pod-${i}`, labels: { app: `app-${i % 50}` } },
    });
    names.push(metaNamespaceKeyFunc(pod));
  }
  const stop = new StopChannel();
  const informer = new SharedIndexInformer({
    name: 'Pod',
    listerWatcher: apiserver.listerWatcher('Pod'),
    clock,
    rand,
  });
  const queue = new RateLimitingQueue<string>({ clock });
  let syncs = 0;
  const controller = new Controller({
    clock,
    queue,
    cacheSyncs: [() => informer.hasSynced()],
    syncHandler: (key) => {
      syncs++;
      informer.indexer.getByKey(key);
      return undefined;
    },
  });
  informer.addEventHandler(enqueueingHandler(queue), { name: 'controller' });
  let next = options.objects;
  const driver = function* (): Proc {
    yield* sleep(clock, 1000);
    for (let i = 0; i < options.events; i++) {
      const roll = rand.float64();
      if (roll < 0.15 || names.length === 0) {
        const pod = apiserver.create<Pod>({
          kind: 'Pod',
          metadata: {
            namespace: `ns-${next % 10}`,
            name: `pod-${next}`,
            labels: { app: `app-${next % 50}` },
          },
        });
        next++;
        names.push(metaNamespaceKeyFunc(pod));
      } else if (roll < 0.3) {
        const at = rand.intn(names.length);
        const key = names[at]!;
        names[at] = names[names.length - 1]!;
        names.pop();
        const [namespace, name] = key.split('/') as [string, string];
        apiserver.delete('Pod', namespace, name);
      } else {
        const key = names[rand.intn(names.length)]!;
        const [namespace, name] = key.split('/') as [string, string];
        const pod = apiserver.get<Pod>('Pod', namespace, name);
        apiserver.update({
          ...pod,
          metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, rev: String(i) } },
        });
      }
      yield* sleep(clock, 1);
    }
  };
  clock.go(informer.run(stop));
  clock.go(controller.run(options.workers ?? 2, stop));
  clock.go(driver());
  const end = 1000 + options.events + 5000;
  clock.run({ until: end });
  stop.close();
  clock.run({ until: end });
  const stored = apiserver.objectsOf<Pod>('Pod');
  let mismatched = 0;
  for (const pod of stored) {
    const cached = informer.indexer.getByKey(metaNamespaceKeyFunc(pod)) as Pod | undefined;
    if (cached?.metadata.resourceVersion !== pod.metadata.resourceVersion) mismatched++;
  }
  return {
    events: options.events,
    syncs,
    indexed: informer.indexer.size,
    stored: stored.length,
    mismatched,
    virtualMs: clock.now(),
    tasks: clock.steps,
  };
}

export interface SchedulerLoadOptions {
  nodes: number;
  pods: number;
  seed: number;
}

export interface SchedulerLoadResult {
  bound: number;
  pending: number;
  failedAttempts: number;
  /** Pods per node, to see the spread. */
  maxPerNode: number;
  minPerNode: number;
  virtualMs: number;
}

/** `nodes` nodes of 32 cores and 128Gi, then `pods` pods asking for 250m-1 cpu and 256Mi-1Gi. */
export function runSchedulerLoad(options: SchedulerLoadOptions): SchedulerLoadResult {
  const clock = new VirtualClock();
  const rand = new SeededRandom(options.seed);
  const apiserver = new FakeApiServer({ clock, rand });
  for (let i = 0; i < options.nodes; i++) {
    apiserver.create({
      kind: 'Node',
      metadata: { name: `node-${i}`, labels: { zone: `zone-${i % 3}` } },
      status: { allocatable: { cpu: 32_000, memory: 128 * 2 ** 30, pods: 110 } },
    });
  }
  const stop = new StopChannel();
  const podInformer = new SharedIndexInformer({
    name: 'Pod',
    listerWatcher: apiserver.listerWatcher('Pod'),
    clock,
    rand,
  });
  const nodeInformer = new SharedIndexInformer({
    name: 'Node',
    listerWatcher: apiserver.listerWatcher('Node'),
    clock,
    rand,
  });
  const scheduler = new Scheduler({ clock, rand, apiserver, podInformer, nodeInformer });
  clock.go(podInformer.run(stop));
  clock.go(nodeInformer.run(stop));
  clock.go(scheduler.run(stop));
  clock.after(1000, () => {
    for (let i = 0; i < options.pods; i++) {
      apiserver.create({
        kind: 'Pod',
        metadata: { namespace: 'default', name: `pod-${i}` },
        spec: { requests: { cpu: 250 * (1 + (i % 4)), memory: 256 * 2 ** 20 * (1 + (i % 4)) } },
        status: { phase: 'Pending' },
      });
    }
  });
  const end = 1000 + 60_000;
  clock.run({ until: end });
  stop.close();
  clock.run({ until: end });
  const perNode = new Map<string, number>();
  let bound = 0;
  for (const pod of apiserver.objectsOf<Pod>('Pod')) {
    if (!pod.spec.nodeName) continue;
    bound++;
    perNode.set(pod.spec.nodeName, (perNode.get(pod.spec.nodeName) ?? 0) + 1);
  }
  const counts = [...perNode.values()];
  return {
    bound,
    pending: options.pods - bound,
    failedAttempts: scheduler.failedAttempts,
    maxPerNode: counts.length ? Math.max(...counts) : 0,
    minPerNode: counts.length === options.nodes ? Math.min(...counts) : 0,
    virtualMs: clock.now(),
  };
}
