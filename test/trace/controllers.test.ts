/**
 * `controllers`: each controller's start function, informers, queue, workers and sync handler,
 * read off the program graph, on the demo tree (every cell checked by hand against
 * fixtures/kubernetes), on every shape of the controller registry (where the miniature controllers
 * have no informers, queue or wait.Until loop, and the table says so instead of guessing), on a
 * controller-runtime operator and on sample-controller (one program, one controller).
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFrameworkRules, loadNoiseRules } from '../../src/resolve/rules.js';
import {
  frameworkPackages,
  listControllers,
  type ControllerRow,
  type ControllerTable,
} from '../../src/trace/controllers.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot, projectRoot } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const fixtures = path.join(projectRoot, 'fixtures');
const tmp = useTempDir('k8s-read-controllers-');

async function controllersOf(
  fixture: IndexedFixture,
  component?: string,
): Promise<ControllerTable> {
  const components = loadComponentRules();
  const graph = createStoreGraph(fixture.store, fixture.tree, { components });
  return listControllers(graph, {
    frameworks: loadFrameworkRules(),
    noise: loadNoiseRules(),
    components,
    ...(component ? { component } : {}),
  });
}

/** A row as a reader checks it: `file:line name` for every place, the texts as written. */
function cells(row: ControllerRow) {
  const at = (p: { file: string; line: number; symbol: string }) =>
    `${p.file}:${p.line} ${p.symbol.replace(/^.*[.)]/, '')}`;
  return {
    name: row.name,
    aliases: row.aliases,
    start: at(row.start),
    trace: row.trace,
    informers: row.informers.map((i) => ({
      site: i.site,
      expr: i.expr,
      handlers: i.handlers.map(at),
    })),
    queues: row.queues.map((q) => ({
      expr: q.expr,
      field: q.field && `${q.field.file}:${q.field.line} ${q.field.name} ${q.field.fieldType}`,
      consumer: at(q.consumer),
      producers: q.producers,
    })),
    workers: row.workers.map((w) => ({ site: w.site, via: w.via, worker: at(w.worker) })),
    sync: row.sync.map((s) => ({ how: s.how, site: s.site, expr: s.expr, handler: at(s.handler) })),
    notFound: row.notFound,
  };
}

/** Indexes a fixture before the tests of the describe around it, and closes it after them. */
function useFixture(
  root: () => string,
  options: Parameters<typeof indexFixture>[1] = {},
): () => IndexedFixture {
  let fixture: IndexedFixture | undefined;
  beforeAll(async () => {
    fixture = await indexFixture(root(), options);
  }, 60_000);
  afterAll(() => fixture?.close());
  return () => fixture!;
}

describe('the controllers of the demo kube-controller-manager', () => {
  let fixture: IndexedFixture;
  let table: ControllerTable;
  beforeAll(async () => {
    fixture = await indexFixture(demoRoot);
    table = await controllersOf(fixture);
  }, 120_000);
  afterAll(() => fixture?.close());

  it('lists the registered controllers, by name, with the program it read them from', () => {
    expect(table.component).toBe('kube-controller-manager');
    expect(table.kind).toBe('registry');
    expect(table.depth).toBe(10);
    expect(table.scope).toContain('pkg/controller');
    expect(table.controllers.map((c) => c.name)).toEqual(['deployment', 'replicaset']);
  });

  it('fills every column of deployment, each at the line that says it', () => {
    const dir = 'pkg/controller/deployment/deployment_controller.go';
    expect(cells(table.controllers[0]!)).toEqual({
      name: 'deployment',
      aliases: [],
      start: 'cmd/kube-controller-manager/app/apps.go:22 startDeploymentController',
      trace: { target: 'kube-controller-manager/deployment', in: null },
      informers: [
        {
          site: `${dir}:63`,
          expr: 'dInformer.Informer().AddEventHandler',
          handlers: [
            `${dir}:98 addDeployment`,
            `${dir}:103 updateDeployment`,
            `${dir}:108 deleteDeployment`,
          ],
        },
        {
          site: `${dir}:68`,
          expr: 'rsInformer.Informer().AddEventHandler',
          handlers: [`${dir}:124 addReplicaSet`],
        },
      ],
      queues: [
        {
          expr: 'dc.queue',
          field: `${dir}:51 queue workqueue.RateLimitingInterface`,
          consumer: `${dir}:158 processNextWorkItem`,
          // enqueue's Add, and handleErr's AddRateLimited (a retry hands the key over again).
          producers: [`${dir}:150`, `${dir}:176`],
        },
      ],
      workers: [{ site: `${dir}:93`, via: 'wait.UntilWithContext', worker: `${dir}:153 worker` }],
      sync: [
        {
          how: 'field',
          site: `${dir}:165`,
          expr: 'dc.syncHandler',
          handler: `${dir}:188 syncDeployment`,
        },
      ],
      notFound: {},
    });
  });

  it('fills every column of replicaset, each at the line that says it', () => {
    const file = 'pkg/controller/replicaset/replica_set.go';
    expect(cells(table.controllers[1]!)).toEqual({
      name: 'replicaset',
      aliases: [],
      start: 'cmd/kube-controller-manager/app/apps.go:12 startReplicaSetController',
      trace: { target: 'kube-controller-manager/replicaset', in: null },
      informers: [
        {
          site: `${file}:93`,
          expr: 'rsInformer.Informer().AddEventHandler',
          handlers: [`${file}:183 addRS`, `${file}:188 updateRS`, `${file}:200 deleteRS`],
        },
        {
          site: `${file}:101`,
          expr: 'podInformer.Informer().AddEventHandler',
          handlers: [`${file}:224 addPod`, `${file}:245 updatePod`, `${file}:259 deletePod`],
        },
      ],
      queues: [
        {
          expr: 'rsc.queue',
          field: `${file}:63 queue workqueue.RateLimitingInterface`,
          consumer: `${file}:293 processNextWorkItem`,
          // enqueueRS, deleteRS, addPod and deletePod; enqueueRSAfter is never called, and the
          // consumer's own AddRateLimited hands nothing to anyone else.
          producers: [`${file}:171`, `${file}:220`, `${file}:236`, `${file}:284`],
        },
      ],
      workers: [
        { site: `${file}:125`, via: 'wait.UntilWithContext', worker: `${file}:288 worker` },
      ],
      sync: [
        {
          how: 'field',
          site: `${file}:300`,
          expr: 'rsc.syncHandler',
          handler: `${file}:368 syncReplicaSet`,
        },
      ],
      notFound: {},
    });
  });

  it('never follows the frameworks the rules stand for', () => {
    const packages = frameworkPackages(loadFrameworkRules());
    expect(packages).toEqual(
      expect.arrayContaining([
        'k8s.io/client-go/tools/cache',
        'k8s.io/client-go/util/workqueue',
        'k8s.io/apimachinery/pkg/util/wait',
        'sigs.k8s.io/controller-runtime',
        'github.com/spf13/cobra',
      ]),
    );
    // The controller manager's registry types are data of the registry rules, not a framework.
    expect(packages.some((p) => p.startsWith('k8s.io/kubernetes/cmd/'))).toBe(false);
  });

  it('says which components there are when asked for one that is not', async () => {
    await expect(controllersOf(fixture, 'kube-nothing')).rejects.toThrow(
      /unknown component "kube-nothing"; components in this index:\n {2}kube-apiserver/,
    );
  });

  it('says why a component runs no controllers', async () => {
    await expect(controllersOf(fixture, 'kube-apiserver')).rejects.toThrow(
      /^kube-apiserver has no controllers: no registry of parts \(rules\/components.yaml\), no controller-runtime reconciler, and no informer handler, work queue or wait.Until loop within 10 calls of main/,
    );
  });
});

describe.each(['map', 'register', 'descriptor'] as const)('the %s registry', (shape) => {
  const fixture = useFixture(() => path.join(fixtures, 'controller-registry', shape));

  it('names each start function, and says plainly that it found nothing more', async () => {
    const table = await controllersOf(fixture());
    // v1.28 registers `names.X` constants, and v1.29 descriptors keep the old name as an alias.
    const names = {
      map: [
        ['deployment', []],
        ['replicaset', []],
      ],
      register: [
        ['deployment-controller', []],
        ['replicaset-controller', []],
      ],
      descriptor: [
        ['deployment-controller', ['deployment']],
        ['replicaset-controller', ['replicaset']],
      ],
    }[shape];
    expect(table.controllers.map((c) => [c.name, c.aliases])).toEqual(names);
    expect(table.controllers.map((c) => `${c.start.file}:${c.start.line}`)).toEqual([
      'cmd/kube-controller-manager/app/apps.go:13',
      'cmd/kube-controller-manager/app/apps.go:8',
    ]);
    for (const row of table.controllers) {
      // `go rsc.worker()` starts a goroutine, not a wait.Until loop, and no queue hands the worker
      // anything: its call to syncReplicaSet is no sync handler.
      expect(row.informers.length + row.queues.length + row.workers.length + row.sync.length).toBe(
        0,
      );
      expect(row.notFound).toEqual({
        informers: 'no AddEventHandler call within 10 calls of the start',
        queues: 'no work-queue hand-off (an Add reaching a Get) within 10 calls',
        workers: 'no wait.Until* loop on the way from the start',
        sync: 'no queue consumer to hand items to',
      });
    }
  });
});

describe('a controller-runtime program', () => {
  const fixture = useFixture(() => path.join(fixtures, 'controller-runtime-operator'), {
    includeVendor: true,
  });

  it('is found without a name, and lists each reconciler its builder reaches', async () => {
    const table = await controllersOf(fixture());
    expect(table.component).toBe('memcached-operator');
    expect(table.kind).toBe('controller-runtime');
    const file = 'controllers/memcached_controller.go';
    expect(table.controllers.map(cells)).toEqual([
      {
        name: 'MemcachedReconciler',
        aliases: [],
        start: `${file}:115 SetupWithManager`,
        trace: {
          target:
            '(*example.com/memcached-operator/controllers.MemcachedReconciler).SetupWithManager',
          in: 'memcached-operator',
        },
        informers: [
          { site: `${file}:117`, expr: '(*Builder).For', handlers: [] },
          { site: `${file}:118`, expr: '(*Builder).Owns', handlers: [] },
        ],
        queues: [],
        workers: [],
        sync: [
          {
            how: 'reconcile',
            site: `${file}:119`,
            expr: 'ctrl.NewControllerManagedBy().For().Owns(…).Complete',
            handler: `${file}:28 Reconcile`,
          },
        ],
        notFound: {
          queues: "kept inside controller-runtime's Controller, not in this program",
          workers: "run by controller-runtime's Controller (MaxConcurrentReconciles)",
        },
      },
    ]);
  });
});

describe('a program that is one controller', () => {
  const fixture = useFixture(() => path.join(fixtures, 'sample-controller'), {
    includeVendor: true,
  });

  it('is picked without a name: the one program that uses a work queue', async () => {
    const table = await controllersOf(fixture());
    expect(table.component).toBe('sample-controller');
    expect(table.kind).toBe('program');
    expect(table.controllers.map((c) => c.name)).toEqual(['sample-controller']);
  });

  it('reads sample-controller from main, through the literal in processNextWorkItem', async () => {
    const table = await controllersOf(fixture(), 'sample-controller');
    expect(table.kind).toBe('program');
    const [row] = table.controllers.map(cells);
    expect(row).toMatchObject({
      name: 'sample-controller',
      start: 'main.go:22 main',
      queues: [
        {
          expr: 'c.workqueue',
          field: 'controller.go:48 workqueue workqueue.RateLimitingInterface',
          consumer: 'controller.go:123 processNextWorkItem',
        },
      ],
      workers: [
        { site: 'controller.go:109', via: 'wait.Until', worker: 'controller.go:117 runWorker' },
      ],
      // A method, not a field: the first method of the consumer's type after its Get, called
      // inside the `func(obj interface{}) error {...}(obj)` literal.
      sync: [
        {
          how: 'call',
          site: 'controller.go:139',
          expr: null,
          handler: 'controller.go:155 syncHandler',
        },
      ],
    });
    expect(row!.informers.map((i) => i.site)).toEqual(['controller.go:76', 'controller.go:83']);
  });
});

describe('an informer whose type is not in the index', () => {
  const fixture = useFixture(
    () => {
      // sample-controller without client-go's apps informers: `deploymentInformer.Informer()` has
      // no known type, so its AddEventHandler is unresolved and only the literal's fields resolve.
      const root = path.join(tmp, 'sample-controller');
      cpSync(path.join(fixtures, 'sample-controller'), root, { recursive: true });
      rmSync(path.join(root, 'vendor/k8s.io/client-go/informers/apps'), { recursive: true });
      return root;
    },
    { includeVendor: true },
  );

  it('puts its handlers at the registration as written, the call that did not resolve', async () => {
    const table = await controllersOf(fixture());
    expect(table.controllers.map(cells)[0]!.informers).toEqual([
      {
        site: 'controller.go:76',
        expr: 'fooInformer.Informer().AddEventHandler',
        handlers: ['controller.go:212 enqueueFoo', 'controller.go:78 NewController$1'],
      },
      {
        site: 'controller.go:83',
        expr: 'deploymentInformer.Informer().AddEventHandler',
        handlers: ['controller.go:222 handleObject', 'controller.go:85 NewController$2'],
      },
    ]);
  });
});
