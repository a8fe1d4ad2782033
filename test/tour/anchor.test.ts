import { describe, expect, it } from 'vitest';
import { anchorStep, anchorTour, findFocusLine } from '../../src/tour/anchor.js';
import {
  demoTour,
  memoryIndex,
  modernScheduler,
  oldScheduler,
  schedulerFiles,
} from './sample-index.js';

const scheduleOne = { file: 'pkg/scheduler/schedule_one.go', line: 4, endLine: 12 };

describe('anchoring a step', () => {
  it('finds the step’s own symbol and the line of its focus call', async () => {
    const [first] = await anchorTour(demoTour(), modernScheduler);
    expect(first).toEqual({
      status: 'resolved',
      symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      viaAlternative: false,
      kind: 'method',
      file: 'pkg/scheduler/schedule_one.go',
      line: 4,
      endLine: 12,
      focusLine: 7,
      focusMissing: false,
    });
  });

  it('falls back to an alternative that this version of the tree has, and says so', async () => {
    const [, second] = await anchorTour(demoTour(), oldScheduler);
    expect(second).toMatchObject({
      status: 'resolved',
      symbol: '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      viaAlternative: true,
      focusLine: 4,
    });
  });

  it('marks a step missing, with suggestions, when neither the symbol nor an alternative is there', async () => {
    const [first] = await anchorTour(demoTour(), oldScheduler);
    expect(first).toEqual({ status: 'missing', suggestions: [] });
    const renamed = memoryIndex(
      [
        {
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleNext',
          kind: 'method',
          file: 'a.go',
          line: 1,
          endLine: 2,
        },
      ],
      {},
    );
    expect(await anchorStep(demoTour().steps[0]!, renamed)).toEqual({
      status: 'missing',
      suggestions: ['(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleNext'],
    });
  });

  it('reports a focus that the symbol’s source does not hold, instead of moving it elsewhere', async () => {
    const step = { ...demoTour().steps[0]!, focus: { call: 'sched.Preempt' } };
    expect(await anchorStep(step, modernScheduler)).toMatchObject({
      status: 'resolved',
      focusLine: null,
      focusMissing: true,
    });
  });

  it('skips a step the demo trees do not model when the tree is a demo tree, and only then', async () => {
    const step = { ...demoTour().steps[0]!, demo: false };
    expect(await anchorStep(step, modernScheduler, { demoTree: true })).toEqual({
      status: 'skipped',
      reason: 'the demo trees do not model this step (demo: false)',
    });
    expect(await anchorStep(step, modernScheduler)).toMatchObject({ status: 'resolved' });
  });

  it('skips an optional side trip the tree does not have', async () => {
    const step = { ...demoTour().steps[0]!, optional: true };
    expect(await anchorStep(step, oldScheduler)).toEqual({
      status: 'skipped',
      reason: 'an optional side trip that this tree does not have',
    });
  });
});

describe('finding the focus line', () => {
  it('skips a call mentioned in a comment', async () => {
    expect(await findFocusLine(modernScheduler, scheduleOne, { call: 'sched.SchedulePod' })).toBe(
      7,
    );
  });

  it('matches a method name alone after a receiver, but not inside a longer name', async () => {
    expect(await findFocusLine(modernScheduler, scheduleOne, { call: 'SchedulePod' })).toBe(7);
    expect(await findFocusLine(modernScheduler, scheduleOne, { call: 'Pod' })).toBeNull();
  });

  it('matches text anywhere on a line, but only within the symbol’s lines', async () => {
    expect(await findFocusLine(modernScheduler, scheduleOne, { text: 'if err != nil' })).toBe(8);
    expect(
      await findFocusLine(modernScheduler, scheduleOne, { text: 'findNodesThatFitPod' }),
    ).toBeNull();
  });

  it('answers null for a file it cannot read', async () => {
    expect(
      await findFocusLine(
        memoryIndex([], schedulerFiles),
        { file: 'gone.go', line: 1, endLine: 3 },
        { text: 'x' },
      ),
    ).toBeNull();
  });
});
