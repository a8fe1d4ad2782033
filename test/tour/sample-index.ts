/**
 * An index in memory for anchoring tests: declarations and file texts, answering the questions
 * src/tour asks of an index (src/cli answers the same ones from SQLite).
 */
import type { IndexedSymbol, TourIndex } from '../../src/tour/anchor.js';
import { parseTour } from '../../src/tour/load-tours.js';
import type { Tour } from '../../src/tour/schema.js';

export function memoryIndex(
  symbols: Omit<IndexedSymbol, 'name' | 'package'>[],
  files: Record<string, string>,
): TourIndex & { asked: string[] } {
  const rows: IndexedSymbol[] = symbols.map((s) => {
    const method = /^\(\*?(.+)\.([^.()]+)\)\.(.+)$/.exec(s.symbol);
    const dot = s.symbol.indexOf('.', s.symbol.lastIndexOf('/') + 1);
    return {
      ...s,
      package: method ? method[1]! : s.symbol.slice(0, dot),
      name: method ? method[3]! : s.symbol.slice(dot + 1),
    };
  });
  const asked: string[] = [];
  return {
    asked,
    findSymbol: async (symbol) => rows.filter((r) => r.symbol === symbol),
    searchSymbols: async (text, limit) =>
      rows.filter((r) => r.name.toLowerCase().includes(text.toLowerCase())).slice(0, limit),
    symbolsInPackage: async (pkg) => rows.filter((r) => r.package === pkg),
    hasPackage: async (prefix) =>
      rows.some((r) => r.package === prefix || r.package.startsWith(`${prefix}/`)),
    readSource: async (file) => {
      asked.push(file);
      return files[file];
    },
  };
}

export const schedulerFiles: Record<string, string> = {
  'pkg/scheduler/schedule_one.go': [
    'package scheduler',
    '',
    '// scheduleOne schedules one pod.',
    'func (sched *Scheduler) scheduleOne(ctx context.Context) {',
    '\tpodInfo := sched.NextPod()',
    '\t// sched.SchedulePod(ctx) is called below',
    '\tresult, err := sched.SchedulePod(ctx, fwk, state, pod)',
    '\tif err != nil {',
    '\t\treturn',
    '\t}',
    '\tsched.bind(ctx, result)',
    '}',
    '',
    'func (sched *Scheduler) schedulePod(ctx context.Context) {',
    '\tnodes := sched.findNodesThatFitPod(ctx)',
    '\t_ = nodes',
    '}',
  ].join('\n'),
  'pkg/scheduler/core/generic_scheduler.go': [
    'package core',
    '',
    'func (g *genericScheduler) Schedule(pod *v1.Pod) {',
    '\tg.findNodesThatFit(pod)',
    '}',
  ].join('\n'),
};

export const modernScheduler = memoryIndex(
  [
    {
      symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      kind: 'method',
      file: 'pkg/scheduler/schedule_one.go',
      line: 4,
      endLine: 12,
    },
    {
      symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      kind: 'method',
      file: 'pkg/scheduler/schedule_one.go',
      line: 14,
      endLine: 17,
    },
    {
      symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatFitPod',
      kind: 'method',
      file: 'pkg/scheduler/schedule_one.go',
      line: 20,
      endLine: 30,
    },
    {
      symbol: 'k8s.io/kubernetes/pkg/scheduler.selectHost',
      kind: 'func',
      file: 'pkg/scheduler/schedule_one.go',
      line: 32,
      endLine: 40,
    },
  ],
  schedulerFiles,
);

/** The v1.15 name of the scheduling algorithm, where the old tree declares it. */
export const genericSchedule = {
  symbol: '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
  kind: 'method',
  file: 'pkg/scheduler/core/generic_scheduler.go',
  line: 3,
  endLine: 5,
};

export const oldScheduler = memoryIndex([genericSchedule], schedulerFiles);

/** A small valid tour in YAML, with a few fields to override per test. */
export function tourYaml(extraStep = ''): string {
  return `name: demo
title: "Demo: two steps"
order: 1
summary: |
  A demo of the tour format.
requires: k8s.io/kubernetes/pkg/scheduler
demoTrees: [kubernetes]
steps:
  - title: scheduleOne
    symbol: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne
    focus: { call: sched.SchedulePod }
    prose: |
      One pod at a time.
    twin:
      name: scheduler
      simplifies: No preemption.
    cite:
      - { repo: kubernetes/kubernetes, version: v1.25.0, path: pkg/scheduler/schedule_one.go }
  - title: the algorithm
    symbol: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod
    alternatives:
      - (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule
    focus: { text: findNodesThatFit }
    prose: Filter, score, select.
${extraStep}`;
}

export function demoTour(extraStep = ''): Tour {
  return parseTour(tourYaml(extraStep), 'guides/demo.yaml');
}
