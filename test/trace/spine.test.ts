/**
 * chooseSpine on a small program shaped like the kubelet's pod loop: the loop's housekeeping
 * (`HandlePodCleanups`, many calls) and its pod additions (`HandlePodAdditions -> dispatchWork`)
 * both call the pod workers' `UpdatePod`, which starts the pod's worker goroutine.
 */
import { describe, expect, it } from 'vitest';
import type { EdgeKind } from '../../src/trace/types.js';
import type { DefinitionRow } from '../../src/store/symbols.js';
import type { PHop, PNode, ProgramGraph } from '../../src/trace/program-graph.js';
import { chooseSpine, hopKey } from '../../src/trace/spine.js';
import { NO_IMPLEMENTATION } from '../../src/shared/edge-via.js';

/** Functions by name, each with the calls it makes in source order: [callee, kind]. */
type Calls = Record<string, [string, EdgeKind][]>;

function program(calls: Calls): {
  graph: ProgramGraph;
  id: (name: string) => number;
} {
  const names = [
    ...new Set([
      ...Object.keys(calls),
      ...Object.values(calls)
        .flat()
        .map(([n]) => n),
    ]),
  ];
  const id = (name: string) => names.indexOf(name);
  // `name@2`: another node of the same function, reached with other bindings.
  const base = (name: string) => name.replace(/@\d+$/, '');
  const nodes: PNode[] = names.map((name, i) => {
    const sym: DefinitionRow = {
      id: names.indexOf(base(name)) >= 0 ? names.indexOf(base(name)) : i,
      symbol: `example.com/kubelet.${base(name)}`,
      name: base(name),
      kind: 'func',
      file: 'kubelet.go',
      line: i * 100 + 1,
      endLine: i * 100 + 40,
      col: 0,
      package: 'example.com/kubelet',
      detail: null,
      doc: null,
    };
    return { id: i, sym, env: null, depth: 0, expanded: true };
  });
  const hops = new Map<number, PHop[]>();
  for (const [caller, list] of Object.entries(calls))
    hops.set(
      id(caller),
      list.map(([callee, kind], i): PHop => {
        const line = id(caller) * 100 + 2 + i;
        return {
          to: id(callee),
          kind,
          via: null,
          alternatives: [],
          edge: {
            caller: id(caller),
            callee: id(callee),
            kind,
            via: null,
            rank: 0,
            file: 'kubelet.go',
            line,
            col: 2,
            expr: null,
          },
        };
      }),
    );
  const graph: ProgramGraph = {
    nodes,
    hops,
    unresolved: new Map(),
    symbols: new Map(nodes.map((n) => [n.sym.id, n.sym])),
    cut: 0,
    helpers: new Map(),
    deeper: 0,
  };
  return { graph, id };
}

/** The view's key of the hop from one named function to another. */
function hopOf(graph: ProgramGraph, id: (name: string) => number) {
  return (from: string, to: string) =>
    hopKey(
      id(from),
      graph.hops.get(id(from))!.find((h) => h.to === id(to))!,
    );
}

const podLoop: Calls = {
  main: [['syncLoop', 'goroutine']],
  syncLoop: [['syncLoopIteration', 'static']],
  syncLoopIteration: [
    ['HandlePodAdditions', 'interface'],
    ['HandlePodCleanups', 'interface'],
  ],
  HandlePodAdditions: [
    ['canAdmitPod', 'static'],
    ['dispatchWork', 'static'],
  ],
  HandlePodCleanups: [
    ['UpdatePod', 'interface'],
    ['cleanupOrphanedPodDirs', 'static'],
    ['removeOrphanedPodStatuses', 'static'],
    ['cleanupOrphanedPodCgroups', 'static'],
  ],
  dispatchWork: [['UpdatePod', 'interface']],
  UpdatePod: [['managePodLoop', 'goroutine']],
  managePodLoop: [['syncPod', 'funcvalue']],
};

describe('chooseSpine', () => {
  it('hangs a function that starts a goroutine under the hand-off that exists to call it', () => {
    const { graph, id } = program(podLoop);
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 40, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('HandlePodAdditions', 'dispatchWork'))).toBe(true);
    expect(shown.has(hop('dispatchWork', 'UpdatePod'))).toBe(true);
    expect(shown.has(hop('UpdatePod', 'managePodLoop'))).toBe(true);
    // The breadth-first way in, through the housekeeping, is no longer where it is expanded.
    expect(shown.has(hop('HandlePodCleanups', 'UpdatePod'))).toBe(false);
  });

  it('keeps a function under its first caller when the other caller does more than hand off', () => {
    const calls: Calls = {
      ...podLoop,
      dispatchWork: [
        ['UpdatePod', 'interface'],
        ['recordMetrics', 'static'],
      ],
    };
    const { graph, id } = program(calls);
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 40, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('HandlePodCleanups', 'UpdatePod'))).toBe(true);
    expect(shown.has(hop('dispatchWork', 'UpdatePod'))).toBe(false);
  });
});

/**
 * The kubelet's run-once mode admits pods before it runs them: the critical-pod handler's eviction
 * kills a pod through the pod workers (`killPodNow`), whose `UpdatePod` starts their goroutine, as
 * the sync loop's dispatch does. Reached with other bindings, the two are two nodes of one function.
 */
const runOnceAndLoop: Calls = {
  main: [
    ['runOnce', 'static'],
    ['run', 'goroutine'],
  ],
  runOnce: [['canAdmitPod', 'static']],
  canAdmitPod: [['Admit', 'interface']],
  Admit: [['HandleAdmissionFailure', 'interface']],
  HandleAdmissionFailure: [['evictPodsToFreeRequests', 'static']],
  evictPodsToFreeRequests: [['killPodNow', 'funcvalue']],
  killPodNow: [['UpdatePod@2', 'interface']],
  'UpdatePod@2': [['managePodLoop@2', 'goroutine']],
  'managePodLoop@2': [['syncPod@2', 'funcvalue']],
  run: [['syncLoop', 'static']],
  syncLoop: [['syncLoopIteration', 'static']],
  syncLoopIteration: [['HandlePodAdditions', 'interface']],
  HandlePodAdditions: [['dispatchWork', 'static']],
  dispatchWork: [['UpdatePod', 'interface']],
  UpdatePod: [['managePodLoop', 'goroutine']],
  managePodLoop: [['syncPod', 'funcvalue']],
};

describe('chooseSpine, a goroutine set-up code starts too', () => {
  it('reaches it where running code starts it, not through the set-up code', () => {
    const { graph, id } = program(runOnceAndLoop);
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 12, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('dispatchWork', 'UpdatePod'))).toBe(true);
    expect(shown.has(hop('UpdatePod', 'managePodLoop'))).toBe(true);
    expect(shown.has(hop('killPodNow', 'UpdatePod@2'))).toBe(false);
  });

  it('goes through the set-up code when nothing running starts it', () => {
    const { graph, id } = program({ ...runOnceAndLoop, dispatchWork: [] });
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 12, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('killPodNow', 'UpdatePod@2'))).toBe(true);
    expect(shown.has(hop('UpdatePod@2', 'managePodLoop@2'))).toBe(true);
  });
});

/** A request dispatcher whose first route (by the resolver's rank) serves a log file, while a later
 * one leads through the registry into the storage, under a server that also starts a busy loop. */
const server: Calls = {
  main: [
    ['serve', 'goroutine'],
    ['housekeeping', 'goroutine'],
  ],
  serve: [['dispatch', 'static']],
  // One call site, three routes: a peer of each.
  dispatch: [
    ['logFileHandler', 'framework'],
    ['versionHandler', 'framework'],
    ['createHandler', 'framework'],
  ],
  createHandler: [
    ['admit', 'interface'],
    ['storeCreate', 'interface'],
  ],
  admit: [['validate', 'funcvalue']],
  storeCreate: [
    ['beforeCreate', 'static'],
    ['storageCreate', 'interface'],
  ],
  storageCreate: [['cacherCreate', 'interface']],
  cacherCreate: [['etcdCreate', 'interface']],
  etcdCreate: [['txn', 'static']],
  housekeeping: [
    ['sweepA', 'funcvalue'],
    ['sweepB', 'funcvalue'],
    ['sweepC', 'funcvalue'],
  ],
  sweepA: [['sweepA1', 'funcvalue']],
  sweepB: [['sweepB1', 'funcvalue']],
  sweepC: [['sweepC1', 'funcvalue']],
};

/** The three routes share one call site, as a dispatcher's registered functions do. */
function oneSite(graph: ProgramGraph, caller: number): void {
  for (const h of graph.hops.get(caller)!) h.edge = { ...h.edge, line: 1, col: 1 };
}

describe('chooseSpine, peers of one call', () => {
  it('follows the peer that leads to far more than the first one', () => {
    const { graph, id } = program(server);
    oneSite(graph, id('dispatch'));
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 40, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('dispatch', 'createHandler'))).toBe(true);
    expect(shown.has(hop('createHandler', 'storeCreate'))).toBe(true);
    expect(shown.has(hop('cacherCreate', 'etcdCreate'))).toBe(true);
  });

  it('keeps the first peer when none leads to far more', () => {
    const calls: Calls = {
      ...server,
      logFileHandler: [
        ['serveFile', 'static'],
        ['readDir', 'funcvalue'],
      ],
      createHandler: [['admit', 'interface']],
    };
    const { graph, id } = program(calls);
    oneSite(graph, id('dispatch'));
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 40, maxChildren: 5 });
    const hop = hopOf(graph, id);
    expect(shown.has(hop('dispatch', 'logFileHandler'))).toBe(true);
    // A later peer is listed, not followed.
    expect(shown.has(hop('createHandler', 'admit'))).toBe(false);
  });
});

describe('chooseSpine, where the story ends', () => {
  it('draws the way to a followed function even when the rows run out before it', () => {
    const { graph, id } = program(server);
    oneSite(graph, id('dispatch'));
    const hop = hopOf(graph, id);
    const options = { budget: 6, maxChildren: 5 };
    const without = chooseSpine(id('main'), graph, () => true, options);
    expect(without.has(hop('cacherCreate', 'etcdCreate'))).toBe(false);
    const shown = chooseSpine(id('main'), graph, () => true, {
      ...options,
      follow: (symbol) => symbol.endsWith('.etcdCreate'),
    });
    for (const [from, to] of [
      ['main', 'serve'],
      ['serve', 'dispatch'],
      ['dispatch', 'createHandler'],
      ['createHandler', 'storeCreate'],
      ['storeCreate', 'storageCreate'],
      ['storageCreate', 'cacherCreate'],
      ['cacherCreate', 'etcdCreate'],
    ] as const)
      expect(shown.has(hop(from, to)), `${from} -> ${to}`).toBe(true);
  });
});

describe('chooseSpine, an interface method no type implements', () => {
  // The scheduling cycle calls two extension points: one reaches its plugin's method, the other
  // ends at the interface's method (`no implementation indexed`), where the call's text says all.
  const cycle: Calls = {
    main: [['scheduleOne', 'goroutine']],
    scheduleOne: [
      ['runPostBind', 'static'],
      ['runFilter', 'static'],
    ],
    runPostBind: [['PostBind', 'interface']],
    runFilter: [['Filter', 'interface']],
    Filter: [['fits', 'static']],
  };

  function withPostBindUnimplemented(via: string | null) {
    const built = program(cycle);
    const { graph, id } = built;
    const hop = graph.hops.get(id('runPostBind'))![0]!;
    graph.nodes[id('PostBind')]!.dispatch = {
      caller: graph.nodes[id('runPostBind')]!,
      edge: { ...hop.edge, via },
      alternatives: [],
    };
    return built;
  }

  it('spends the rows on the way to code before the method that ends there', () => {
    const { graph, id } = withPostBindUnimplemented(NO_IMPLEMENTATION);
    const hop = hopOf(graph, id);
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 6, maxChildren: 5 });
    expect(shown.has(hop('Filter', 'fits'))).toBe(true);
    expect(shown.has(hop('runPostBind', 'PostBind'))).toBe(false);
  });

  it('counts an interface method with implementations to come as before', () => {
    // The same dispatch without the mark (crowded, or the implementations not yet listed): the
    // method is worth a function of twenty lines, and the rows go to it first.
    const { graph, id } = withPostBindUnimplemented(null);
    const hop = hopOf(graph, id);
    const shown = chooseSpine(id('main'), graph, () => true, { budget: 6, maxChildren: 5 });
    expect(shown.has(hop('runPostBind', 'PostBind'))).toBe(true);
    expect(shown.has(hop('Filter', 'fits'))).toBe(false);
  });
});
