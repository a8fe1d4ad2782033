import { describe, expect, it } from 'vitest';
import { checkTours } from '../../src/tour/check.js';
import {
  demoTour,
  genericSchedule,
  memoryIndex,
  modernScheduler,
  oldScheduler,
  schedulerFiles,
} from './sample-index.js';

describe('tour check', () => {
  it('counts every step resolved on a tree that has them', async () => {
    const report = await checkTours([demoTour()], modernScheduler);
    expect(report).toEqual({
      ok: true,
      tours: [
        {
          name: 'demo',
          applies: true,
          steps: 2,
          resolved: 2,
          missing: [],
          skipped: [],
          alternatives: [],
        },
      ],
    });
  });

  it('lists a missing step with its number, symbol and suggestions, and is not ok', async () => {
    const tree = memoryIndex(
      [
        {
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce',
          kind: 'method',
          file: 'pkg/scheduler/schedule_one.go',
          line: 4,
          endLine: 12,
        },
        genericSchedule,
      ],
      schedulerFiles,
    );
    const report = await checkTours([demoTour()], tree);
    expect(report.ok).toBe(false);
    expect(report.tours[0]).toMatchObject({
      resolved: 1,
      missing: [
        {
          step: 1,
          title: 'scheduleOne',
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
          reason: 'symbol',
          suggestions: ['(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce'],
        },
      ],
      alternatives: [
        {
          step: 2,
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
          resolvedAs: '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
        },
      ],
    });
  });

  it('lists a focus that moved out of its symbol as missing', async () => {
    const tour = demoTour();
    tour.steps[0]!.focus = { text: 'preempt(' };
    const report = await checkTours([tour], modernScheduler);
    expect(report.tours[0]!.missing).toEqual([
      {
        step: 1,
        title: 'scheduleOne',
        symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
        reason: 'focus',
        suggestions: [],
        focus: { text: 'preempt(' },
      },
    ]);
  });

  it('does not check a tour on a tree without the package it reads', async () => {
    const tour = { ...demoTour(), requires: 'k8s.io/sample-controller' };
    const report = await checkTours([tour], modernScheduler);
    expect(report).toEqual({
      ok: true,
      tours: [
        {
          name: 'demo',
          applies: false,
          reason: 'this tree has no package k8s.io/sample-controller, which the tour reads',
          steps: 2,
          resolved: 0,
          missing: [],
          skipped: [],
          alternatives: [],
        },
      ],
    });
  });

  it('checks a tour on a demo tree only when that demo tree models it', async () => {
    const report = await checkTours([demoTour()], oldScheduler, { demoTree: 'sample-controller' });
    expect(report.tours[0]).toMatchObject({
      applies: false,
      reason:
        'the demo tree fixtures/sample-controller does not model this tour; it runs on the demo tree fixtures/kubernetes',
    });
  });

  it('skips the steps a demo tree does not model', async () => {
    const tour = demoTour();
    tour.steps[0]!.demo = false;
    const report = await checkTours([tour], modernScheduler, { demoTree: 'kubernetes' });
    expect(report.tours[0]).toMatchObject({
      resolved: 1,
      skipped: [{ step: 1, reason: 'the demo trees do not model this step (demo: false)' }],
      missing: [],
    });
  });
});
