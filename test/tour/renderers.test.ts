import { describe, expect, it } from 'vitest';
import { renderTourMarkdown } from '../../src/tour/tour-markdown.js';
import { renderTourText } from '../../src/tour/tour-text.js';
import { buildTourView, type TreeDescription } from '../../src/tour/tour-view.js';
import { demoTour, memoryIndex, modernScheduler, schedulerFiles } from './sample-index.js';

const tree: TreeDescription = {
  label: 'fixtures/kubernetes (demo tree)',
  commit: '0123456789abcdef0123456789abcdef01234567',
  version: 'v1.25.0',
  permalinkBase:
    'https://github.com/kubernetes/kubernetes/blob/0123456789abcdef0123456789abcdef01234567',
  demoTree: 'kubernetes',
};

describe('the tour as text (--plain)', () => {
  it('prints each step with its place, the source around the focus, the prose, the twin note and the sources', async () => {
    const view = await buildTourView(demoTour(), modernScheduler, tree);
    const text = renderTourText(view, { width: 60 });
    expect(text).toBe(
      [
        'Demo: two steps',
        '2 steps · fixtures/kubernetes (demo tree) @ 0123456789ab (v1.25.0)',
        '',
        'A demo of the tour format.',
        '',
        '── 1/2  scheduleOne ────────────────────────────────────────',
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
        'pkg/scheduler/schedule_one.go:7  https://github.com/kubernetes/kubernetes/blob/0123456789abcdef0123456789abcdef01234567/pkg/scheduler/schedule_one.go#L7',
        '',
        '   4  func (sched *Scheduler) scheduleOne(ctx context.Context) {',
        '   5      podInfo := sched.NextPod()',
        '   6      // sched.SchedulePod(ctx) is called below',
        '▶  7      result, err := sched.SchedulePod(ctx, fwk, state, pod)',
        '   8      if err != nil {',
        '   9          return',
        '  10      }',
        '  11      sched.bind(ctx, result)',
        '  12  }',
        '',
        'One pod at a time.',
        '',
        'What the twin simplifies (k8s-read twin run scheduler):',
        'No preemption.',
        '',
        'Sources: kubernetes/kubernetes v1.25.0 pkg/scheduler/schedule_one.go',
        '',
        '── 2/2  the algorithm ──────────────────────────────────────',
        '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
        'pkg/scheduler/schedule_one.go:15  https://github.com/kubernetes/kubernetes/blob/0123456789abcdef0123456789abcdef01234567/pkg/scheduler/schedule_one.go#L15',
        '',
        '  14  func (sched *Scheduler) schedulePod(ctx context.Context) {',
        '▶ 15      nodes := sched.findNodesThatFitPod(ctx)',
        '  16      _ = nodes',
        '  17  }',
        '',
        'Filter, score, select.',
        '',
      ].join('\n'),
    );
  });

  it('starts at the step asked for', async () => {
    const view = await buildTourView(demoTour(), modernScheduler, tree);
    const text = renderTourText(view, { fromStep: 2 });
    expect(text).not.toContain('── 1/2');
    expect(text).toContain('── 2/2  the algorithm');
  });

  it('says a step is not in the tree, with what it tried and what is similar', async () => {
    const index = memoryIndex(
      [
        {
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce',
          kind: 'method',
          file: 'pkg/scheduler/schedule_one.go',
          line: 4,
          endLine: 12,
        },
      ],
      schedulerFiles,
    );
    const text = renderTourText(await buildTourView(demoTour(), index, tree));
    expect(text).toContain(
      'not in this tree: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne\n  similar: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce',
    );
    expect(text).toContain(
      'not in this tree: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod\n  (also tried: (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule)',
    );
  });
});

describe('the tour as Markdown (export tour -o md)', () => {
  it('links every step to its code at the commit, quotes the twin note and links the sources by version', async () => {
    const view = await buildTourView(demoTour(), modernScheduler, tree);
    const md = renderTourMarkdown(view);
    expect(md).toBe(
      [
        '# Demo: two steps',
        '',
        'A demo of the tour format.',
        '',
        '*Read on fixtures/kubernetes (demo tree) at [`0123456789ab`](https://github.com/kubernetes/kubernetes/tree/0123456789abcdef0123456789abcdef01234567) (v1.25.0), 2 steps. Take it interactively with `k8s-read tour demo`.*',
        '',
        '## Steps',
        '',
        '1. [scheduleOne](#step-1-scheduleone)',
        '2. [the algorithm](#step-2-the-algorithm)',
        '',
        '<a id="step-1-scheduleone"></a>',
        '## 1. scheduleOne',
        '',
        '[`(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne`](https://github.com/kubernetes/kubernetes/blob/0123456789abcdef0123456789abcdef01234567/pkg/scheduler/schedule_one.go#L7) — `pkg/scheduler/schedule_one.go:7`',
        '',
        '```go',
        'func (sched *Scheduler) scheduleOne(ctx context.Context) {',
        '\tpodInfo := sched.NextPod()',
        '\t// sched.SchedulePod(ctx) is called below',
        '\tresult, err := sched.SchedulePod(ctx, fwk, state, pod)',
        '\tif err != nil {',
        '\t\treturn',
        '\t}',
        '\tsched.bind(ctx, result)',
        '}',
        '```',
        '',
        'Focus: line 7, the call sched.SchedulePod.',
        '',
        'One pod at a time.',
        '',
        '> **What the twin simplifies (`k8s-read twin run scheduler`):** No preemption.',
        '',
        'Sources: [kubernetes/kubernetes v1.25.0: pkg/scheduler/schedule_one.go](https://github.com/kubernetes/kubernetes/blob/v1.25.0/pkg/scheduler/schedule_one.go)',
        '',
        '<a id="step-2-the-algorithm"></a>',
        '## 2. the algorithm',
        '',
        '[`(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod`](https://github.com/kubernetes/kubernetes/blob/0123456789abcdef0123456789abcdef01234567/pkg/scheduler/schedule_one.go#L15) — `pkg/scheduler/schedule_one.go:15`',
        '',
        '```go',
        'func (sched *Scheduler) schedulePod(ctx context.Context) {',
        '\tnodes := sched.findNodesThatFitPod(ctx)',
        '\t_ = nodes',
        '}',
        '```',
        '',
        'Focus: line 15, "findNodesThatFit".',
        '',
        'Filter, score, select.',
        '',
      ].join('\n'),
    );
  });

  it('writes a plain symbol and no links for a tree without a GitHub remote', async () => {
    const view = await buildTourView(demoTour(), modernScheduler, { ...tree, permalinkBase: null });
    const md = renderTourMarkdown(view);
    expect(md).toContain(
      '`(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne` — `pkg/scheduler/schedule_one.go:7`',
    );
    expect(md).toContain(
      '*Read on fixtures/kubernetes (demo tree) at `0123456789ab` (v1.25.0), 2 steps.',
    );
    expect(md).not.toContain('/blob/0123');
  });

  it('says a step is missing instead of inventing its code', async () => {
    const view = await buildTourView(demoTour(), memoryIndex([], {}), tree);
    const md = renderTourMarkdown(view);
    expect(md).toContain(
      '> **Not in this tree:** `(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod` or `(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule`.',
    );
    expect(md).not.toContain('```go');
  });
});
