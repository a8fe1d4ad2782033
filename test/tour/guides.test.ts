/**
 * The bundled tours themselves: valid, in the order an expert reads, each step with original prose
 * and its sources cited by version. Whether their symbols resolve is `tour check`'s job
 * (test/tour/tour-cli.test.ts runs it on the demo trees).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTours } from '../../src/tour/load-tours.js';
import { twinNames } from '../../src/twins/catalog.js';
import { projectRoot } from '../helpers/run-cli.js';

const tours = loadTours(path.join(projectRoot, 'guides'), { twinNames });

describe('the bundled guides', () => {
  it('are the six tours of the issue, in reading order', () => {
    expect(tours.map((t) => [t.order, t.name])).toEqual([
      [1, 'finding-your-way'],
      [2, 'kube-scheduler'],
      [3, 'client-go'],
      [4, 'sample-controller'],
      [5, 'replicaset'],
      [6, 'controller-runtime'],
    ]);
  });

  it('cite a source by version for every step', () => {
    for (const tour of tours) {
      for (const step of tour.steps)
        expect(step.cite.length, `${tour.name}: ${step.title}`).toBeGreaterThan(0);
    }
  });

  it('name a demo tree that exists for every tour', () => {
    for (const tour of tours) {
      expect(tour.demoTrees.length, tour.name).toBeGreaterThan(0);
      for (const demo of tour.demoTrees)
        expect([
          'kubernetes',
          'kubernetes-v1.15',
          'sample-controller',
          'controller-runtime-operator',
        ]).toContain(demo);
    }
  });

  it('walk the kube-scheduler through both eras: every algorithm step names its v1.15 symbol', () => {
    const scheduler = tours.find((t) => t.name === 'kube-scheduler')!;
    const alternatives = scheduler.steps.flatMap((s) => s.alternatives);
    expect(alternatives).toContain(
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
    );
    expect(alternatives).toContain(
      'k8s.io/kubernetes/pkg/scheduler/algorithm/predicates.PodFitsResources',
    );
  });

  it('follow client-go from a kubeconfig to the indexer lookup by key', () => {
    const steps = tours.find((t) => t.name === 'client-go')!.steps.map((s) => s.symbol);
    const order = [
      'k8s.io/client-go/tools/clientcmd.BuildConfigFromFlags',
      'k8s.io/client-go/kubernetes.NewForConfig',
      '(*k8s.io/client-go/tools/cache.Reflector).ListAndWatch',
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).queueActionLocked',
      '(*k8s.io/client-go/tools/cache.threadSafeMap).updateIndices',
      '(*k8s.io/client-go/tools/cache.processorListener).run',
      '(*k8s.io/client-go/util/workqueue.Type).Add',
      '(*k8s.io/client-go/util/workqueue.Type).Get',
      '(*k8s.io/client-go/tools/cache.cache).GetByKey',
    ];
    expect(order.map((s) => steps.indexOf(s))).toEqual(
      [...order.map((s) => steps.indexOf(s))].sort((a, b) => a - b),
    );
    expect(order.every((s) => steps.includes(s))).toBe(true);
  });
});
