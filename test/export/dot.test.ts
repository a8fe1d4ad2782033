import { describe, expect, it } from 'vitest';
import { quote, renderDot } from '../../src/export/dot.js';
import { layoutDot } from '../../src/export/svg.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { generatedTrace, schedulerTrace } from './sample-traces.js';

const options = defaultRenderOptions;
const lineOf = (text: string, needle: string) =>
  text.split('\n').find((line) => line.includes(needle)) ?? '';

describe('renderDot', () => {
  it('draws the scheduler trace clustered by package, as in its golden file', async () => {
    const text = renderDot(schedulerTrace(), options);
    expectGolden('scheduler.dot', text);
    await expect(layoutDot(text)).resolves.toContain('<svg');
  });

  it('has one cluster per package, or per file, or none', () => {
    const count = (cluster: 'package' | 'file' | 'none') =>
      renderDot(schedulerTrace(), { ...options, cluster }).match(/subgraph cluster_\d+/g)?.length ??
      0;
    expect(count('package')).toBe(6);
    expect(count('file')).toBe(7);
    expect(count('none')).toBe(0);
    expect(renderDot(schedulerTrace(), { ...options, cluster: 'file' })).toContain(
      'label="pkg/scheduler/schedule_one.go"',
    );
  });

  it('gives each kind of hop its own line style and a legend that shows them all', () => {
    const text = renderDot(schedulerTrace(), options);
    expect(lineOf(text, 'label="wait.UntilWithContext"')).toContain('style="bold"');
    expect(
      lineOf(text, 'tooltip="interface +2 alternatives at pkg/scheduler/schedule_one.go:479'),
    ).toContain('style="dashed"');
    expect(lineOf(text, 'tooltip="funcvalue via sched.SchedulePod')).toContain('style="dotted"');
    expect(lineOf(text, 'tooltip="goroutine at pkg/scheduler/schedule_one.go:193"')).toContain(
      'arrowhead="odiamond"',
    );
    const legend = text.slice(text.indexOf('subgraph cluster_legend'));
    for (const kind of ['static', 'closure', 'interface', 'funcvalue', 'framework', 'goroutine']) {
      expect(legend).toContain(`label="${kind}"`);
    }
  });

  it('puts the full symbol in the tooltip and the permalink in the URL of each node', () => {
    const line = lineOf(renderDot(schedulerTrace(), options), 'label="(*Scheduler).scheduleOne"');
    expect(line).toContain(
      'tooltip="(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne\\npkg/scheduler/schedule_one.go:66"',
    );
    expect(line).toContain(
      'URL="https://github.com/kubernetes/kubernetes/blob/941a0be80ab3ce0fdbe23c9d3cd786b1586a4845/pkg/scheduler/schedule_one.go#L66"',
    );
    expect(line).toContain('target="_blank"');
  });

  it('gives a node without a permalink no URL', () => {
    expect(lineOf(renderDot(schedulerTrace(), options), 'label="RunOrDie"')).not.toContain('URL=');
  });

  it('lists interface alternatives in the tooltip of the hop', () => {
    expect(renderDot(schedulerTrace(), options)).toContain(
      'also: (*k8s.io/kubernetes/pkg/scheduler/testing.fakeFramework).RunFilterPluginsWithNominatedPods',
    );
  });

  it('folds a large trace at --max-nodes and lays it out without error', async () => {
    const text = renderDot(generatedTrace(300), { ...options, maxNodes: 60 });
    expect(text.match(/^\s+n\d+ \[/gm)).toHaveLength(60);
    expect(text).toMatch(/f0 \[label="… \d+ more"/);
    await expect(layoutDot(text)).resolves.toContain('</svg>');
  });

  it('draws every function of the trace when no node limit is given, as `trace` shows them', () => {
    const text = renderDot(generatedTrace(300), options);
    expect(text.match(/^\s+n\d+ \[/gm)).toHaveLength(300);
    expect(text).not.toMatch(/f0 \[/);
  });
});

describe('quote', () => {
  it('escapes quotes, backslashes and newlines for a DOT string', async () => {
    expect(quote('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    await expect(layoutDot(`digraph { x [label=${quote('say "hi"\\ now')}]; }`)).resolves.toContain(
      'say &quot;hi&quot;\\ now',
    );
  });
});

describe('layoutDot', () => {
  it("rejects broken DOT with Graphviz's own message, so a clean layout means something", async () => {
    await expect(layoutDot('digraph { a -> ; }')).rejects.toThrow(/syntax error/);
  });

  it('lays out again after a failed layout', async () => {
    await expect(layoutDot('digraph { a -> ; }')).rejects.toThrow();
    await expect(layoutDot('digraph { a -> b; }')).resolves.toContain('</svg>');
  });
});
