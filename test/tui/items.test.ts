import { describe, expect, it } from 'vitest';
import { buildTourView } from '../../src/tour/tour-view.js';
import { tourItems, traceItems } from '../../src/tui/items.js';
import type { Trace } from '../../src/trace/types.js';
import { demoTour, memoryIndex, oldScheduler, schedulerFiles } from '../tour/sample-index.js';

const tree = { label: 'demo', commit: null, version: null, permalinkBase: null, demoTree: null };

describe('tourItems', () => {
  it('turns resolved steps into places and missing ones into marked rows with the reason', async () => {
    const items = tourItems(await buildTourView(demoTour(), oldScheduler, tree));
    expect(items.map((i) => [i.label, i.mark, i.location?.symbol ?? null])).toEqual([
      ['1. scheduleOne', '✗', null],
      [
        '2. the algorithm',
        null,
        '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      ],
    ]);
    expect(items[0]!.guide!.note).toBe(
      'Not in this tree: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne.',
    );
    expect(items[1]!.guide!.note).toBe(
      "This version's name for (*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod.",
    );
    expect(items[1]!.location).toEqual({
      symbol: '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      file: 'pkg/scheduler/core/generic_scheduler.go',
      line: 3,
      endLine: 5,
      focusLine: 4,
    });
  });

  it('keeps the guide’s prose, twin note and sources with each step', async () => {
    const [first] = tourItems(
      await buildTourView(demoTour(), memoryIndex([], schedulerFiles), tree),
    );
    expect(first!.guide).toMatchObject({
      number: 1,
      prose: 'One pod at a time.\n',
      twin: { name: 'scheduler', simplifies: 'No preemption.' },
      sources: ['kubernetes/kubernetes v1.25.0 pkg/scheduler/schedule_one.go'],
    });
  });
});

describe('traceItems', () => {
  const node = (symbol: string, line: number) => ({
    symbol,
    file: 'cmd/app.go',
    line,
    kind: 'func' as const,
    package: 'k8s.io/demo/cmd/app',
    url: null,
  });
  const edge = (
    caller: string,
    callee: string,
    kind: 'static' | 'framework' = 'static',
    via: string | null = null,
  ) => ({ caller, callee, site: 'cmd/app.go:1', kind, via, alternatives: [] });
  const trace: Trace = {
    component: 'app',
    root: 'k8s.io/demo/cmd/app.main',
    repo: { path: '/x', commit: null, version: null },
    nodes: [
      node('k8s.io/demo/cmd/app.main', 3),
      node('k8s.io/demo/cmd/app.run', 9),
      node('k8s.io/demo/cmd/app.loop', 15),
    ],
    edges: [
      edge('k8s.io/demo/cmd/app.main', 'k8s.io/demo/cmd/app.run', 'framework', 'cobra-run'),
      edge('k8s.io/demo/cmd/app.run', 'k8s.io/demo/cmd/app.loop'),
      edge('k8s.io/demo/cmd/app.loop', 'k8s.io/demo/cmd/app.run'),
      edge('k8s.io/demo/cmd/app.main', 'k8s.io/other.Helper'),
    ],
    unresolved: [],
  };

  it('lists the trace depth first, expanding each function once and marking the repeats', () => {
    expect(traceItems(trace).map((i) => [i.depth, i.label, i.mark, i.how])).toEqual([
      [0, 'app.main', null, null],
      [1, 'run', null, 'framework via cobra-run'],
      [2, 'loop', null, null],
      [3, 'run', '↻', null],
      [1, 'other.Helper', '?', null],
    ]);
  });

  it('places each node at its declaration and a node outside the trace nowhere', () => {
    const items = traceItems(trace);
    expect(items[1]!.location).toEqual({
      symbol: 'k8s.io/demo/cmd/app.run',
      file: 'cmd/app.go',
      line: 9,
      endLine: 9,
      focusLine: null,
    });
    expect(items[4]!.location).toBeNull();
  });
});
