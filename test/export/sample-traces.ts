/**
 * Hand-built traces for the renderer tests. `schedulerTrace` is shaped like the real
 * kube-scheduler trace (names and files as in Kubernetes v1.24) and holds one of everything a
 * renderer must show: every edge kind, a framework rule, interface alternatives, a function
 * reached twice, a cycle, a node without a permalink and unresolved calls. `generatedTrace`
 * (shared with the benchmark) is a large deterministic one for folding and timing.
 */
import type { EdgeKind, NodeKind, Trace, TraceEdge, TraceNode } from '../../src/trace/types.js';

const commit = '941a0be80ab3ce0fdbe23c9d3cd786b1586a4845';
const blob = `https://github.com/kubernetes/kubernetes/blob/${commit}`;

const app = 'k8s.io/kubernetes/cmd/kube-scheduler/app';
const sched = 'k8s.io/kubernetes/pkg/scheduler';
const runtime = 'k8s.io/kubernetes/pkg/scheduler/framework/runtime';
const queue = 'k8s.io/kubernetes/pkg/scheduler/internal/queue';
const leader = 'k8s.io/client-go/tools/leaderelection';

function node(
  symbol: string,
  pkg: string,
  file: string,
  line: number,
  kind: NodeKind = 'func',
  url: string | null = `${blob}/${file}#L${line}`,
): TraceNode {
  return { symbol, file, line, kind, package: pkg, url };
}

function edge(
  caller: string,
  callee: string,
  site: string,
  kind: EdgeKind = 'static',
  via: string | null = null,
  alternatives: string[] = [],
): TraceEdge {
  return { caller, callee, site, kind, via, alternatives };
}

const S = {
  main: 'k8s.io/kubernetes/cmd/kube-scheduler.main',
  newCommand: `${app}.NewSchedulerCommand`,
  runE: `${app}.NewSchedulerCommand$1`,
  runCommand: `${app}.runCommand`,
  setup: `${app}.Setup`,
  run: `${app}.Run`,
  runInline: `${app}.Run$2`,
  onStarted: `${app}.Run$1`,
  runOrDie: `${leader}.RunOrDie`,
  newScheduler: `${sched}.New`,
  schedRun: `(*${sched}.Scheduler).Run`,
  queueRun: `(*${queue}.PriorityQueue).Run`,
  scheduleOne: `(*${sched}.Scheduler).scheduleOne`,
  schedulePod: `(*${sched}.Scheduler).schedulePod`,
  findFit: `(*${sched}.Scheduler).findNodesThatFitPod`,
  passFilters: `(*${sched}.Scheduler).findNodesThatPassFilters`,
  runFilters: `(*${runtime}.frameworkImpl).RunFilterPluginsWithNominatedPods`,
  prioritize: `${sched}.prioritizeNodes`,
  prioritizeGo: `${sched}.prioritizeNodes$1`,
  selectHost: `${sched}.selectHost`,
  failure: `(*${sched}.Scheduler).handleSchedulingFailure`,
  bindingCycle: `(*${sched}.Scheduler).scheduleOne$1`,
  bind: `(*${sched}.Scheduler).bind`,
  extendersBinding: `(*${sched}.Scheduler).extendersBinding`,
  finishBinding: `(*${sched}.Scheduler).finishBinding`,
};

export const schedulerSymbols = S;

export function schedulerTrace(): Trace {
  return {
    component: 'kube-scheduler',
    root: S.main,
    repo: { path: '/src/kubernetes', commit, version: 'v1.24.0' },
    nodes: [
      node(S.main, 'k8s.io/kubernetes/cmd/kube-scheduler', 'cmd/kube-scheduler/scheduler.go', 29),
      node(S.newCommand, app, 'cmd/kube-scheduler/app/server.go', 72),
      node(S.runE, app, 'cmd/kube-scheduler/app/server.go', 93, 'closure'),
      node(S.runCommand, app, 'cmd/kube-scheduler/app/server.go', 117),
      node(S.setup, app, 'cmd/kube-scheduler/app/server.go', 298),
      node(S.newScheduler, sched, 'pkg/scheduler/scheduler.go', 234),
      node(S.run, app, 'cmd/kube-scheduler/app/server.go', 145),
      node(S.runInline, app, 'cmd/kube-scheduler/app/server.go', 168, 'closure'),
      node(
        S.runOrDie,
        leader,
        'staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go',
        219,
        'func',
        null,
      ),
      node(S.onStarted, app, 'cmd/kube-scheduler/app/server.go', 213, 'closure'),
      node(S.schedRun, sched, 'pkg/scheduler/scheduler.go', 336, 'method'),
      node(S.queueRun, queue, 'pkg/scheduler/internal/queue/scheduling_queue.go', 289, 'method'),
      node(S.scheduleOne, sched, 'pkg/scheduler/schedule_one.go', 66, 'method'),
      node(S.schedulePod, sched, 'pkg/scheduler/schedule_one.go', 311, 'method'),
      node(S.findFit, sched, 'pkg/scheduler/schedule_one.go', 364, 'method'),
      node(S.passFilters, sched, 'pkg/scheduler/schedule_one.go', 449, 'method'),
      node(S.runFilters, runtime, 'pkg/scheduler/framework/runtime/framework.go', 733, 'method'),
      node(S.prioritize, sched, 'pkg/scheduler/schedule_one.go', 605),
      node(S.prioritizeGo, sched, 'pkg/scheduler/schedule_one.go', 667, 'closure'),
      node(S.selectHost, sched, 'pkg/scheduler/schedule_one.go', 709),
      node(S.failure, sched, 'pkg/scheduler/schedule_one.go', 812, 'method'),
      node(S.bindingCycle, sched, 'pkg/scheduler/schedule_one.go', 193, 'closure'),
      node(S.bind, sched, 'pkg/scheduler/schedule_one.go', 756, 'method'),
      node(S.extendersBinding, sched, 'pkg/scheduler/schedule_one.go', 776, 'method'),
      node(S.finishBinding, sched, 'pkg/scheduler/schedule_one.go', 789, 'method'),
    ],
    edges: [
      edge(S.main, S.newCommand, 'cmd/kube-scheduler/scheduler.go:30'),
      edge(S.newCommand, S.runE, 'cmd/kube-scheduler/app/server.go:93', 'framework', 'cobra-run'),
      edge(S.runE, S.runCommand, 'cmd/kube-scheduler/app/server.go:94'),
      edge(S.runCommand, S.setup, 'cmd/kube-scheduler/app/server.go:133'),
      edge(S.setup, S.newScheduler, 'cmd/kube-scheduler/app/server.go:334'),
      edge(S.runCommand, S.run, 'cmd/kube-scheduler/app/server.go:141'),
      edge(S.run, S.runInline, 'cmd/kube-scheduler/app/server.go:168', 'closure'),
      edge(S.run, S.runOrDie, 'cmd/kube-scheduler/app/server.go:227'),
      edge(
        S.run,
        S.onStarted,
        'cmd/kube-scheduler/app/server.go:213',
        'framework',
        'leaderelection.OnStartedLeading',
      ),
      edge(S.onStarted, S.schedRun, 'cmd/kube-scheduler/app/server.go:215'),
      edge(S.run, S.schedRun, 'cmd/kube-scheduler/app/server.go:236'),
      edge(S.schedRun, S.queueRun, 'pkg/scheduler/scheduler.go:337', 'interface'),
      edge(
        S.schedRun,
        S.scheduleOne,
        'pkg/scheduler/scheduler.go:338',
        'framework',
        'wait.UntilWithContext',
      ),
      edge(
        S.scheduleOne,
        S.schedulePod,
        'pkg/scheduler/schedule_one.go:96',
        'funcvalue',
        'sched.SchedulePod',
      ),
      edge(S.schedulePod, S.findFit, 'pkg/scheduler/schedule_one.go:321'),
      edge(S.findFit, S.passFilters, 'pkg/scheduler/schedule_one.go:406'),
      edge(S.passFilters, S.runFilters, 'pkg/scheduler/schedule_one.go:479', 'interface', null, [
        `(*k8s.io/kubernetes/pkg/scheduler/testing.fakeFramework).RunFilterPluginsWithNominatedPods`,
        `(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.noopFramework).RunFilterPluginsWithNominatedPods`,
      ]),
      edge(S.schedulePod, S.prioritize, 'pkg/scheduler/schedule_one.go:342'),
      edge(S.prioritize, S.prioritizeGo, 'pkg/scheduler/schedule_one.go:667', 'goroutine'),
      edge(S.schedulePod, S.selectHost, 'pkg/scheduler/schedule_one.go:352'),
      edge(S.scheduleOne, S.failure, 'pkg/scheduler/schedule_one.go:128'),
      edge(S.scheduleOne, S.failure, 'pkg/scheduler/schedule_one.go:150'),
      edge(S.scheduleOne, S.bindingCycle, 'pkg/scheduler/schedule_one.go:193', 'goroutine'),
      edge(S.bindingCycle, S.bind, 'pkg/scheduler/schedule_one.go:245'),
      edge(S.bind, S.extendersBinding, 'pkg/scheduler/schedule_one.go:760'),
      edge(S.extendersBinding, S.bind, 'pkg/scheduler/schedule_one.go:781'),
      edge(S.bind, S.finishBinding, 'pkg/scheduler/schedule_one.go:758'),
      edge(S.finishBinding, S.failure, 'pkg/scheduler/schedule_one.go:796'),
    ],
    unresolved: [
      {
        caller: S.scheduleOne,
        expr: 'fwk.RunPostFilterPlugins',
        site: 'pkg/scheduler/schedule_one.go:108',
      },
      {
        caller: S.run,
        expr: 'cc.InformerFactory.Start',
        site: 'cmd/kube-scheduler/app/server.go:195',
      },
    ],
  };
}

/** A trace with a root and nothing it calls: what an unknown entry point or a too-strict filter
 * gives. */
export function emptyTrace(): Trace {
  const trace = schedulerTrace();
  return { ...trace, nodes: trace.nodes.slice(0, 1), edges: [], unresolved: [] };
}

/** A large deterministic trace for folding and timing; see bench/generated-trace.mjs. */
export { generatedTrace } from '../../bench/generated-trace.mjs';

/**
 * The scheduler trace as a view that left calls out: `scheduleOne`, `schedulePod` and `bind`
 * carry the calls the view folded (and the flag that shows them), and the trace says how large
 * the full trace is — the two optional fields of the contract.
 */
export function foldedSchedulerTrace(): Trace {
  const trace = schedulerTrace();
  const folds: Record<string, { calls: number; flag: string }> = {
    [S.scheduleOne]: { calls: 7, flag: '--all' },
    [S.schedulePod]: { calls: 1, flag: '--all' },
    [S.bind]: { calls: 12, flag: '--include-noise' },
  };
  return {
    ...trace,
    nodes: trace.nodes.map((n) => (folds[n.symbol] ? { ...n, folded: folds[n.symbol] } : n)),
    total: { functions: 4806, edges: 12345 },
  };
}
