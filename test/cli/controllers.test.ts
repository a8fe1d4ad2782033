/**
 * `k8s-read controllers` as a user runs it: the table on the demo tree as text (fitted to the
 * width, every cell with its file:line) and as JSON, the controller-runtime operator found without
 * a name, and the errors of a tree or a name without controllers.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderControllers } from '../../src/export/controllers.js';
import type { ControllerTable } from '../../src/trace/controllers.js';
import { demoRoot, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-controllers-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };
const operator = path.join(projectRoot, 'fixtures', 'controller-runtime-operator');

describe('k8s-read controllers on the demo tree', () => {
  beforeAll(async () => {
    const r = await runCli(['index', '--repo', demoRoot], { env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('prints one table, a line per cell, each cell with where it is written', async () => {
    const r = await runCli(['controllers', '--repo', demoRoot], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const [title, ...rest] = r.stdout.split('\n');
    expect(title).toMatch(
      /^kube-controller-manager {2}[0-9a-f]{12} {2}2 controllers {2}\(registered start functions\)$/,
    );
    // Piped, the table fits 100 columns: directories give way before what a cell holds.
    expect(rest.join('\n')).toBe(
      [
        'CONTROLLER  PART      WHAT                                              WHERE',
        'deployment  start     startDeploymentController                         …/app/apps.go:22',
        '            informer  dInformer.Informer…eDeployment, deleteDeployment  deployment_controller.go:63',
        '            informer  rsInformer.Informer() → addReplicaSet             deployment_controller.go:68',
        '            queue     dc.queue → processNextWorkItem                    deployment_controller.go:51',
        '            worker    worker ← wait.UntilWithContext                    deployment_controller.go:153',
        '            sync      syncDeployment ← dc.syncHandler                   deployment_controller.go:188',
        'replicaset  start     startReplicaSetController                         …/app/apps.go:12',
        '            informer  rsInformer.Informe…) → addRS, updateRS, deleteRS  replica_set.go:93',
        '            informer  podInformer.Inform… addPod, updatePod, deletePod  replica_set.go:101',
        '            queue     rsc.queue → processNextWorkItem                   replica_set.go:63',
        '            worker    worker ← wait.UntilWithContext                    replica_set.go:288',
        '            sync      syncReplicaSet ← rsc.syncHandler                  replica_set.go:368',
        '',
        'filled: informers 2/2 · queues 2/2 · workers 2/2 · sync 2/2  (depth 10)',
        '',
      ].join('\n'),
    );
  });

  it('prints every cell whole when the terminal is wide enough', async () => {
    const r = await runCli(['controllers', '--repo', demoRoot], {
      env: { ...env, COLUMNS: '200' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '            informer  dInformer.Informer() → addDeployment, updateDeployment, deleteDeployment  pkg/controller/deployment/deployment_controller.go:63\n',
    );
    expect(r.stdout).toContain(
      'replicaset  start     startReplicaSetController                                                 cmd/kube-controller-manager/app/apps.go:12\n',
    );
  });

  it('gives scripts the whole table as JSON, and the text never outgrows the width', async () => {
    const r = await runCli(['controllers', '--repo', demoRoot, '-o', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const table = JSON.parse(r.stdout) as ControllerTable;
    expect(table.component).toBe('kube-controller-manager');
    expect(table.repo.path).toBe(demoRoot);
    expect(table.controllers.map((c) => c.sync.map((s) => s.handler.symbol))).toEqual([
      ['(*k8s.io/kubernetes/pkg/controller/deployment.DeploymentController).syncDeployment'],
      ['(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController).syncReplicaSet'],
    ]);
    for (let width = 40; width <= 200; width++) {
      const text = renderControllers(table, { color: false, width });
      const long = text.split('\n').filter((line) => [...line].length > width);
      expect(long, `width ${width}`).toEqual([]);
    }
  });

  it('says which components there are when the name is not one', async () => {
    const r = await runCli(['controllers', 'kube-nothing', '--repo', demoRoot], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: unknown component "kube-nothing"; components in this index:\n {2}kube-apiserver\n/,
    );
  });

  it('shows how to use it in --help', async () => {
    const r = await runCli(['controllers', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: k8s-read controllers [options] [component]');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'name -> start function -> informers watched -> queue -> workers -> sync handler',
    );
    expect(r.stdout).toContain('Examples:\n  k8s-read controllers\n');
  });
});

describe('k8s-read controllers on a controller-runtime operator', () => {
  it('finds the program without a name and lists its reconciler', async () => {
    const r = await runCli(['controllers', '--repo', operator], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^memcached-operator {2}[0-9a-f]{12} {2}1 controller/);
    // The queue and the workers live inside controller-runtime, and the table says so.
    expect(lines.slice(1, 8)).toEqual([
      'CONTROLLER           PART      WHAT                                      WHERE',
      'MemcachedReconciler  start     SetupWithManager                          memcached_controller.go:115',
      '                     informer  (*Builder).For                            memcached_controller.go:117',
      '                     informer  (*Builder).Owns                           memcached_controller.go:118',
      "                     queue     not found: kept inside cont…runtime's Controller, not in this program",
      "                     worker    not found: run by controlle…me's Controller (MaxConcurrentReconciles)",
      '                     sync      Reconcile                                 memcached_controller.go:28',
    ]);
  });
});

describe('k8s-read controllers with names longer than their column', () => {
  it('puts each name whole on a line of its own, its cells under it', async () => {
    const register = path.join(projectRoot, 'fixtures', 'controller-registry', 'register');
    const r = await runCli(['controllers', '--repo', register], {
      env: { ...env, COLUMNS: '80' },
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.every((line) => [...line].length <= 80)).toBe(true);
    expect(lines.slice(1, 5)).toEqual([
      '  PART      WHAT                                                WHERE',
      'deployment-controller',
      '  start     startDeploymentController                           …/app/apps.go:13',
      '  informer  not found: no AddEventHandler call within 10 calls of the start',
    ]);
    expect(lines).toContain('replicaset-controller');
  });
});

describe('k8s-read controllers on a client-go program', () => {
  it('reads the one program that uses a work queue as one controller, and says how it found each part', async () => {
    const sample = path.join(projectRoot, 'fixtures', 'sample-controller');
    const r = await runCli(['controllers', '--repo', sample], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^sample-controller {2}[0-9a-f]{12} {2}1 controller {2}\(the program is one controller\)$/,
    );
    expect(lines.slice(2, 9)).toEqual([
      'sample-controller  start     main                                                  main.go:22',
      '                   informer  fooInformer.Informer() → enqueueFoo, NewController$1  controller.go:76',
      '                   informer  deploymentInformer.I…→ handleObject, NewController$2  controller.go:83',
      '                   queue     c.workqueue → processNextWorkItem                     controller.go:48',
      '                   worker    runWorker ← wait.Until                                controller.go:117',
      // No syncHandler field here: the first method of its own type processNextWorkItem calls
      // after its Get, and the cell says that is how it was found.
      '                   sync      syncHandler (first call after Get)                    controller.go:155',
      '',
    ]);
  });
});
