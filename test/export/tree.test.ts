import { describe, expect, it } from 'vitest';
import { renderTree } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { schedulerTrace } from './sample-traces.js';

const plain = { ...defaultRenderOptions, color: false };
const lines = (text: string) => text.split('\n');
const lineOf = (text: string, needle: string) =>
  lines(text).find((line) => line.includes(needle)) ?? '';

describe('renderTree', () => {
  it('draws the scheduler trace depth-first from main, as in its golden file', () => {
    expectGolden('scheduler.tree.txt', renderTree(schedulerTrace(), plain));
  });

  it('opens with the component, version and commit, and closes with the counts', () => {
    const text = renderTree(schedulerTrace(), plain);
    expect(lines(text)[0]).toBe('kube-scheduler  v1.24.0 (941a0be80ab3)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('25 functions, 28 calls, 2 unresolved');
  });

  it('marks how a non-static hop was found', () => {
    const text = renderTree(schedulerTrace(), plain);
    expect(lineOf(text, '(*Scheduler).scheduleOne  ')).toMatch(
      /\[framework via wait\.UntilWithContext\]$/,
    );
    expect(lineOf(text, 'RunFilterPluginsWithNominatedPods')).toMatch(
      /\[interface \+2 alternatives\]$/,
    );
    expect(lineOf(text, 'scheduleOne$1')).toMatch(/\[goroutine\]$/);
    expect(lineOf(text, 'schedulePod')).toMatch(/\[funcvalue via sched\.SchedulePod\]$/);
  });

  it('expands a function once and points back to it afterwards', () => {
    const text = renderTree(schedulerTrace(), plain);
    expect(lines(text).filter((line) => line.includes('handleSchedulingFailure'))).toEqual([
      expect.stringContaining(
        '├─ (*Scheduler).handleSchedulingFailure  pkg/scheduler/schedule_one.go:812',
      ),
      expect.stringContaining('└─ (*Scheduler).handleSchedulingFailure  ↩ (see above)'),
    ]);
  });

  it('marks a call back into the current path as a cycle', () => {
    expect(
      lineOf(renderTree(schedulerTrace(), plain), '↻').endsWith('└─ (*Scheduler).bind  ↻ cycle'),
    ).toBe(true);
  });

  it('lists unresolved calls under their caller with their call site', () => {
    const text = renderTree(schedulerTrace(), plain);
    expect(
      lineOf(text, 'fwk.RunPostFilterPlugins').endsWith(
        '└─ ? fwk.RunPostFilterPlugins  pkg/scheduler/schedule_one.go:108',
      ),
    ).toBe(true);
  });

  it('names a symbol without its package under a caller of the same package', () => {
    const text = renderTree(schedulerTrace(), plain);
    expect(text).toContain('└─ runCommand  cmd/kube-scheduler/app/server.go:117');
    expect(text).toContain('└─ (*scheduler.Scheduler).Run  pkg/scheduler/scheduler.go:336');
  });

  it('prints no escape codes without colour and colours the hops with it', () => {
    // eslint-disable-next-line no-control-regex
    const escape = /\u001b\[/;
    expect(renderTree(schedulerTrace(), plain)).not.toMatch(escape);
    const coloured = renderTree(schedulerTrace(), { ...plain, color: true });
    expect(coloured).toMatch(escape);
    expect(lineOf(coloured, 'wait.UntilWithContext')).toContain(
      '\u001b[35m[framework via wait.UntilWithContext]',
    );
  });

  it('shortens the location, never the symbol, to fit a narrow terminal', () => {
    const text = renderTree(schedulerTrace(), { ...plain, width: 80 });
    expectGolden('scheduler.tree-80.txt', text);
    expect(
      lineOf(text, 'extendersBinding').endsWith(
        '(*Scheduler).extendersBinding  …/schedule_one.go:776',
      ),
    ).toBe(true);
  });

  it('shows a trace with no calls as its root alone', () => {
    const trace = { ...schedulerTrace(), edges: [], unresolved: [] };
    expect(lines(renderTree(trace, plain)).slice(1, 3)).toEqual([
      'kube-scheduler.main  cmd/kube-scheduler/scheduler.go:29',
      '',
    ]);
  });
});
