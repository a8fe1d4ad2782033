import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/export/markdown.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { parseMermaid } from './mermaid-parser.js';
import { schedulerTrace } from './sample-traces.js';

const options = defaultRenderOptions;
const mermaidBlock = (text: string) => /```mermaid\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '';

describe('renderMarkdown', () => {
  it('writes the scheduler report, as in its golden file', () => {
    expectGolden('scheduler.md', renderMarkdown(schedulerTrace(), options));
  });

  it('names the component, the version and the commit with a link to the tree', () => {
    const text = renderMarkdown(schedulerTrace(), options);
    expect(text).toContain('# Call trace: kube-scheduler');
    expect(text).toContain('- **Version:** v1.24.0');
    expect(text).toContain(
      '- **Commit:** [`941a0be80ab3`](https://github.com/kubernetes/kubernetes/tree/941a0be80ab3ce0fdbe23c9d3cd786b1586a4845)',
    );
  });

  it('says in its size where the depth stopped the trace, and nothing when it did not', () => {
    const size = (text: string) => text.split('\n').find((l) => l.startsWith('- **Size:**'));
    expect(size(renderMarkdown(schedulerTrace(), options))).not.toContain('further');
    const cut = { ...schedulerTrace(), deeper: { depth: 12, functions: 117 } };
    expect(size(renderMarkdown(cut, options))).toMatch(
      /; 117 functions at depth 12 call further \(--depth 24\)$/,
    );
  });

  it('holds a diagram that the Mermaid parser accepts, in either style', async () => {
    await expect(
      parseMermaid(mermaidBlock(renderMarkdown(schedulerTrace(), options))),
    ).resolves.toBe('flowchart-v2');
    const sequence = renderMarkdown(schedulerTrace(), { ...options, style: 'sequence' });
    await expect(parseMermaid(mermaidBlock(sequence))).resolves.toBe('sequence');
  });

  it('lists every hop with a permalink to its call site', () => {
    const text = renderMarkdown(schedulerTrace(), options);
    const rows = text.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows).toHaveLength(schedulerTrace().edges.length);
    expect(rows).toContain(
      '| 13 | `(*scheduler.Scheduler).Run` | `(*scheduler.Scheduler).scheduleOne` | framework via wait.UntilWithContext | ' +
        '[pkg/scheduler/scheduler.go:338](https://github.com/kubernetes/kubernetes/blob/941a0be80ab3ce0fdbe23c9d3cd786b1586a4845/pkg/scheduler/scheduler.go#L338) |',
    );
  });

  it('names the other implementations of an interface hop', () => {
    expect(renderMarkdown(schedulerTrace(), options)).toContain(
      '| interface; also `(*testing.fakeFramework).RunFilterPluginsWithNominatedPods`, `(*runtime.noopFramework).RunFilterPluginsWithNominatedPods` |',
    );
  });

  it('lists the unresolved calls, or says there are none', () => {
    const text = renderMarkdown(schedulerTrace(), options);
    expect(text).toContain(
      '| `(*scheduler.Scheduler).scheduleOne` | `fwk.RunPostFilterPlugins` | [pkg/scheduler/schedule_one.go:108](',
    );
    expect(renderMarkdown({ ...schedulerTrace(), unresolved: [] }, options)).toContain(
      'Every call in the trace was resolved.',
    );
  });

  it('shows call sites as code when the trace has no permalinks', () => {
    const trace = schedulerTrace();
    const text = renderMarkdown(
      { ...trace, nodes: trace.nodes.map((node) => ({ ...node, url: null })) },
      options,
    );
    expect(text).toContain('| `cmd/kube-scheduler/scheduler.go:30` |');
    expect(text).toContain('- **Commit:** `941a0be80ab3`');
  });
});
