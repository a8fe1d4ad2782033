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
  it('are the tours of the issues, in reading order: a pod from kubectl to the node, then the controllers', () => {
    expect(tours.map((t) => [t.order, t.name])).toEqual([
      [1, 'finding-your-way'],
      [2, 'kube-apiserver'],
      [3, 'kube-scheduler'],
      [4, 'kubelet'],
      [5, 'kube-proxy'],
      [6, 'client-go'],
      [7, 'sample-controller'],
      [8, 'replicaset'],
      [9, 'deployment'],
      [10, 'controller-runtime'],
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

  it('walk the kube-scheduler through every era: each algorithm step names its genericScheduler-era symbols', () => {
    const scheduler = tours.find((t) => t.name === 'kube-scheduler')!;
    const alternatives = scheduler.steps.flatMap((s) => s.alternatives);
    for (const symbol of [
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      // v1.19-v1.22: the framework's plugins, still called from genericScheduler's methods.
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).findNodesThatFitPod',
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).prioritizeNodes',
      // To v1.18: predicates and priorities registered by name.
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).findNodesThatFit',
      'k8s.io/kubernetes/pkg/scheduler/algorithm/predicates.PodFitsResources',
      'k8s.io/kubernetes/pkg/scheduler/core.PrioritizeNodes',
      // To v1.10: the command ran Options.Run and a SchedulerServer; filtering was a function.
      '(*k8s.io/kubernetes/cmd/kube-scheduler/app.SchedulerServer).Run',
      'k8s.io/kubernetes/pkg/scheduler/core.findNodesThatFit',
    ])
      expect(alternatives).toContain(symbol);
  });

  it('follow each new daemon tour to the hop the issue names', () => {
    const symbols = (name: string) =>
      tours.find((t) => t.name === name)!.steps.flatMap((s) => [s.symbol, ...s.alternatives]);
    expect(symbols('kubelet')).toEqual(
      expect.arrayContaining([
        '(*k8s.io/kubernetes/pkg/kubelet/config.podStorage).Merge',
        '(*k8s.io/kubernetes/pkg/kubelet.podWorkers).managePodLoop',
        '(*k8s.io/kubernetes/pkg/kubelet/kuberuntime.kubeGenericRuntimeManager).SyncPod',
        '(*k8s.io/kubernetes/pkg/kubelet/pleg.GenericPLEG).relist',
      ]),
    );
    expect(symbols('kube-apiserver')).toEqual(
      expect.arrayContaining([
        'k8s.io/apiserver/pkg/server.DefaultBuildHandlerChain',
        'k8s.io/apiserver/pkg/endpoints/handlers.createHandler',
        '(*k8s.io/apiserver/pkg/registry/generic/registry.Store).Create',
        '(*k8s.io/apiserver/pkg/storage/etcd3.store).Create',
      ]),
    );
    expect(symbols('kube-proxy')).toEqual(
      expect.arrayContaining([
        '(*k8s.io/kubernetes/pkg/util/async.BoundedFrequencyRunner).tryRun',
        '(*k8s.io/kubernetes/pkg/proxy/iptables.Proxier).syncProxyRules',
      ]),
    );
    expect(symbols('deployment')).toEqual(
      expect.arrayContaining([
        '(*k8s.io/kubernetes/pkg/controller/deployment.DeploymentController).rolloutRolling',
        'k8s.io/kubernetes/pkg/controller/deployment/util.NewRSNewReplicas',
      ]),
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
