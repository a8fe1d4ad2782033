import { describe, expect, it } from 'vitest';
import { renderTree, shortenMiddle } from '../../src/export/tree.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { foldedSchedulerTrace, generatedTrace, schedulerTrace } from './sample-traces.js';

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

  it('says a function of a package the index does not hold is not indexed, with no file:line', () => {
    const trace = schedulerTrace();
    const parse = 'k8s.io/utils/net.ParseIPSloppy';
    trace.nodes.push({
      symbol: parse,
      file: '',
      line: 0,
      kind: 'func',
      package: 'k8s.io/utils/net',
      url: null,
    });
    trace.edges.push({
      caller: trace.root,
      callee: parse,
      site: 'cmd/kube-scheduler/scheduler.go:31',
      kind: 'static',
      via: null,
      alternatives: [],
    });
    const row = lineOf(renderTree(trace, plain), 'ParseIPSloppy');
    expect(row).toMatch(/net\.ParseIPSloppy {2}not indexed$/);
    expect(row).not.toContain(':0');
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

  it('fits a narrow terminal: the location gives way before the tags, and both before the middle of a symbol', () => {
    const text = renderTree(schedulerTrace(), { ...plain, width: 80 });
    expectGolden('scheduler.tree-80.txt', text);
    expect(lines(text).every((line) => [...line].length <= 80)).toBe(true);
    expect(
      lineOf(text, 'extendersBinding').endsWith(
        '├─ (*Scheduler).extendersBinding  schedule_one.go:776',
      ),
    ).toBe(true);
    // The tag takes its short form and the location its file name; deeper, the symbol drops its
    // package and the location goes; the symbol gives up its middle before a tag goes: a hop
    // that is no direct call says so on every line.
    expect(lineOf(text, 'scheduleOne  ')).toMatch(
      /└─ \(\*Scheduler\)\.scheduleOne {2}schedule_one\.go:66 {2}\[framework\]$/,
    );
    expect(lineOf(text, 'schedulePod')).toMatch(
      /├─ \(\*Scheduler\)\.schedulePod {2}\[funcvalue\]$/,
    );
    expect(lineOf(text, 'scheduleOne$1')).toMatch(
      /├─ \(\*Scheduler\)\.scheduleOne\$1 {2}\[goroutine\]$/,
    );
    expect(lineOf(text, 'findNodesThatPassFilters')).toMatch(
      /└─ \(\*Scheduler\)\.findNodesThatPassFilters$/,
    );
    expect(lineOf(text, 'WithNominatedPods')).toMatch(
      /└─ \(\*…framework…sWithNominatedPods {2}\[interface \+2\]$/,
    );
  });

  it('never wraps or overflows: every line fits every width from 60 to 200, colour or not', () => {
    for (const trace of [schedulerTrace(), foldedSchedulerTrace(), generatedTrace(300)]) {
      for (let width = 60; width <= 200; width++) {
        const text = renderTree(trace, { ...plain, width });
        const long = lines(text).filter((line) => [...line].length > width);
        expect(long, `width ${width}`).toEqual([]);
      }
    }
    const coloured = renderTree(foldedSchedulerTrace(), { ...plain, color: true, width: 60 });
    // eslint-disable-next-line no-control-regex
    const visible = (line: string) => [...line.replace(/\u001b\[[\d;]*m/g, '')].length;
    expect(Math.max(...lines(coloured).map(visible))).toBeLessThanOrEqual(60);
  });

  it('draws a tree too deep for half the width with narrower guides, and keeps the innermost levels of deeper rows', () => {
    const text = renderTree(generatedTrace(300), { ...plain, width: 60 });
    expect(lines(text)[2]).toMatch(/^[├└] \S/);
    const deep = lines(text).filter((line) => line.startsWith('…'));
    expect(deep.length).toBeGreaterThan(0);
    for (const line of deep) expect(line).toMatch(/^…[│ ├└]{28}\S/);
    expect(renderTree(schedulerTrace(), { ...plain, width: 70 }).split('\n')[2]).toMatch(/^└─ \S/);
  });

  it('ends each folded function’s row with how many calls the view hid and which flag shows them', () => {
    const text = renderTree(foldedSchedulerTrace(), plain);
    // No row of its own: a path through ten functions takes ten rows.
    expect(lineOf(text, '7 more calls')).toMatch(
      /\(\*Scheduler\)\.scheduleOne {2}.* {2}… 7 more calls \(--all\)$/,
    );
    expect(lineOf(text, '1 more call')).toMatch(
      /\(\*Scheduler\)\.schedulePod {2}.* {2}… 1 more call \(--all\)$/,
    );
    expect(lineOf(text, '12 more calls')).toMatch(
      /\(\*Scheduler\)\.bind {2}.* {2}… 12 more calls \(--include-noise\)$/,
    );
    expect(lines(text).filter((line) => line.includes('more call'))).toHaveLength(3);
    expect(lines(text).length).toBe(lines(renderTree(schedulerTrace(), plain)).length);
  });

  it('keeps the count of a fold on the narrowest line, giving up the flag first', () => {
    for (let width = 60; width <= 200; width++) {
      const text = renderTree(foldedSchedulerTrace(), { ...plain, width });
      const folds = lines(text).filter((line) => line.includes('more call'));
      expect(
        folds.map((line) => /… \d+ more calls?(?= \(|$)/.exec(line)?.[0]),
        `width ${width}`,
      ).toEqual(['… 7 more calls', '… 1 more call', '… 12 more calls']);
    }
  });

  it('says in its header how large the full trace is when the view left functions out', () => {
    expect(lines(renderTree(foldedSchedulerTrace(), plain))[0]).toBe(
      'kube-scheduler  v1.24.0 (941a0be80ab3)  showing 25 of 4,806 functions (--all, --include-noise)',
    );
    // A narrow header keeps the component whole and says the size in fewer words.
    expect(lines(renderTree(foldedSchedulerTrace(), { ...plain, width: 60 }))[0]).toBe(
      'kube-scheduler  v1.24.0 (941a0be80ab3)  25 of 4,806',
    );
    const whole = { ...schedulerTrace(), total: { functions: 25, edges: 28 } };
    expect(lines(renderTree(whole, plain))[0]).toBe('kube-scheduler  v1.24.0 (941a0be80ab3)');
  });

  it('shortens text in the middle, keeping more of the end', () => {
    expect(shortenMiddle('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne', 30)).toBe(
      '(*k8s.io/ku…duler).scheduleOne',
    );
    expect(shortenMiddle('short', 30)).toBe('short');
    expect([...shortenMiddle('abcdefghij', 5)]).toHaveLength(5);
  });

  it('shows a trace with no calls as its root alone', () => {
    const trace = { ...schedulerTrace(), edges: [], unresolved: [] };
    expect(lines(renderTree(trace, plain)).slice(1, 3)).toEqual([
      'kube-scheduler.main  cmd/kube-scheduler/scheduler.go:29',
      '',
    ]);
  });
});
