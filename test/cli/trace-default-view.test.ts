/**
 * The default view (`trace X`, no flags) of every daemon the demo tree holds keeps the hops a
 * reader follows from main to the loop and the algorithm inside it. The hop lists below were read
 * off the demo's Go code by hand; every fold in the text says how much it hides.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceIndex } from '../../src/cli/load-trace.js';
import { formatCount } from '../../src/export/describe.js';
import { renderTree } from '../../src/export/tree.js';
import { treeRows } from '../../src/export/tree-rows.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { findTree } from '../../src/store/index-store.js';
import type { Trace } from '../../src/trace/types.js';
import { expectGolden } from '../export/golden.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot } from '../helpers/run-cli.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const ctx = { stdout: sink(), stderr: sink(), env: {}, cwd: demoRoot };

/** Each list is a chain of calls, caller first, named by the end of their symbols. */
const HOPS: Record<string, string[][]> = {
  'kube-scheduler': [
    ['app.Run', 'app.Run$1', 'scheduler.Scheduler).Run', 'scheduler.Scheduler).scheduleOne'],
    ['Scheduler).schedulePod', 'scheduler.selectHost'],
    [
      'frameworkImpl).RunFilterPluginsWithNominatedPods',
      'frameworkImpl).RunFilterPlugins',
      'frameworkImpl).runFilterPlugin',
      // The plugins are what the registry's factories return: the call reaches them directly.
      'noderesources.Fit).Filter',
    ],
    [
      'Scheduler).scheduleOne$1',
      'Scheduler).bind',
      'frameworkImpl).RunBindPlugins',
      'frameworkImpl).runBindPlugin',
      'defaultbinder.DefaultBinder).Bind',
    ],
  ],
  kubelet: [
    ['app.startKubelet', 'kubelet.Kubelet).Run', 'pleg.GenericPLEG).Start'],
    ['GenericPLEG).Start', 'GenericPLEG).relist', 'Kubelet).syncLoopIteration'],
    ['Kubelet).Run', 'Kubelet).syncLoop', 'Kubelet).syncLoopIteration'],
    [
      'Kubelet).syncLoopIteration',
      'Kubelet).HandlePodAdditions',
      'Kubelet).dispatchWork',
      'podWorkers).UpdatePod',
      'podWorkers).UpdatePod$1',
      'podWorkers).managePodLoop',
      // The pod worker's syncPodFn is the kubelet's syncPod, expanded under RunOnce (a reference).
      'Kubelet).syncPod',
    ],
    ['Kubelet).syncPod', 'kubeGenericRuntimeManager).SyncPod'],
  ],
  'kube-proxy': [
    ['Options).Run', 'Options).runLoop', 'Options).runLoop$1', 'ProxyServer).Run'],
    [
      'ProxyServer).Run',
      'iptables.Proxier).SyncLoop',
      'BoundedFrequencyRunner).Loop',
      'BoundedFrequencyRunner).tryRun',
    ],
    ['Proxier).OnServiceSynced', 'Proxier).syncProxyRules'],
  ],
  'kube-apiserver': [
    [
      'app.Run',
      'apiserver.preparedAPIAggregator).Run',
      'server.preparedGenericAPIServer).Run',
      'preparedGenericAPIServer).NonBlockingRun',
      'server.SecureServingInfo).Serve',
      'server.RunServer',
      'server.RunServer$1',
    ],
    // The request path: the server runs the handler chain, whose innermost filter hands the request
    // to the director, go-restful's route runs the create handler, the registry's store writes
    // through the storage interface into etcd3.
    [
      'server.RunServer$2',
      'server.APIServerHandler).ServeHTTP',
      'filters.WithPanicRecovery$1',
      'filters.WithRequestInfo$1',
    ],
    // (With no authenticator or authorizer configured, those filters return the handler they
    // wrap: the request info filter calls the director directly too.)
    ['server.director).ServeHTTP', 'endpoints.restfulCreateResource$1', 'handlers.createHandler$1'],
    [
      'handlers.namedCreaterAdapter).Create',
      'registry.Store).Create',
      'registry.DryRunnableStorage).Create',
      // The storage is what the storage decorator (a function value) returns: etcd3's store.
      'etcd3.store).Create',
    ],
  ],
  // A kubectl command is a part of kubectl, registered by the first word of its Use (here a usage
  // line of 238 characters, as v1.14's get had): its Run's options, then the resource builder
  // (where kubectl's story ends, rules/components.yaml) and the printer.
  'kubectl/get': [
    ['get.NewCmdGet$1', 'get.GetOptions).Complete'],
    ['get.NewCmdGet$1', 'get.GetOptions).Validate'],
    ['get.NewCmdGet$1', 'get.GetOptions).Run', 'resource.Builder).Do'],
    ['get.GetOptions).Run', 'printers.tablePrinter).PrintObj'],
  ],
  'kube-controller-manager': [
    ['app.NewControllerManagerCommand$2', 'app.Run'],
    ['app.Run$1', 'app.StartControllers', 'app.startReplicaSetController'],
    ['app.StartControllers', 'app.startDeploymentController'],
  ],
};

let fixture: IndexedFixture;
const traces = new Map<string, Trace>();

beforeAll(async () => {
  fixture = await indexFixture(demoRoot);
  const index = { store: fixture.store, tree: (await findTree(fixture.store, demoRoot))! };
  for (const target of Object.keys(HOPS))
    traces.set(target, await traceIndex(ctx, index, { target }));
}, 120_000);
afterAll(() => fixture?.close());

describe('the default view on the demo tree', () => {
  for (const [target, chains] of Object.entries(HOPS)) {
    it(`${target}: keeps the hops from main to the loop and the algorithm inside it`, () => {
      const trace = traces.get(target)!;
      for (const chain of chains)
        for (let i = 1; i < chain.length; i++) {
          const [from, to] = [chain[i - 1]!, chain[i]!];
          expect(
            trace.edges.some((e) => e.caller.endsWith(from) && e.callee.endsWith(to)),
            `${target}: ${from} -> ${to}`,
          ).toBe(true);
        }
      // A view, not everything: the header says how much the full trace has.
      expect(trace.nodes.length).toBeLessThan(trace.total?.functions ?? 0);
    });
  }

  it('draws the API server from main to its serving goroutine and a request from the handler chain to etcd3, as in its golden file', () => {
    // The demo's commit changes with every commit of this project.
    const text = renderTree(traces.get('kube-apiserver')!, {
      ...defaultRenderOptions,
      color: false,
      width: 120,
    }).replace(/\b[0-9a-f]{12}\b/g, '<commit12>');
    expectGolden('demo-kube-apiserver.tree.txt', text);
  });

  it('ends the row of every function whose calls it folded with how many, at every width', () => {
    for (const [target, trace] of traces) {
      const rows = treeRows(trace);
      const folds = rows.flatMap((row, i) =>
        row.type === 'function' && row.fold ? [{ row, i }] : [],
      );
      expect(folds.length, target).toBeGreaterThan(0);
      // Every folded function the text expands carries its fold.
      for (const node of trace.nodes.filter((n) => n.folded))
        expect(
          rows.some((r) => r.type === 'function' && r.symbol === node.symbol && r.fold),
          `${target}: ${node.symbol}`,
        ).toBe(true);
      for (const width of [60, 100, 200]) {
        const lines = renderTree(trace, { ...defaultRenderOptions, color: false, width }).split(
          '\n',
        );
        for (const { row, i } of folds) {
          const { calls, helpers = 0 } = row.fold!;
          // The header is the first line; on a narrow line the count may be one for everything.
          const counts = [calls, helpers, calls + helpers].filter((n) => n > 0).map(formatCount);
          const line = lines[i + 1]!;
          expect(line, `${target} at ${width}`).toMatch(
            /… [\d,]+ (more|helper) calls?( \(--[a-z-]+\))?(, [\d,]+ helper calls?( \(--include-noise\))?)?$/,
          );
          expect(
            counts.some((n) => line.includes(`… ${n} `) || line.includes(`, ${n} helper`)),
            `${target} at ${width}: ${line}`,
          ).toBe(true);
        }
      }
    }
  });
});
