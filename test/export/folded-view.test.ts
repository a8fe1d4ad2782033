/**
 * The two optional fields of the trace contract that say what a view left out — `folded` on a
 * node, `total` on the trace — drawn by every renderer, on hand-made traces that carry them.
 */
import { describe, expect, it } from 'vitest';
import { renderDot } from '../../src/export/dot.js';
import { renderMarkdown } from '../../src/export/markdown.js';
import { renderMermaid } from '../../src/export/mermaid.js';
import { renderJson } from '../../src/export/renderers.js';
import { layoutDot } from '../../src/export/svg.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { parseMermaid } from './mermaid-parser.js';
import { foldedSchedulerTrace, schedulerSymbols, schedulerTrace } from './sample-traces.js';

const flow = { ...defaultRenderOptions, style: 'flow' as const };
const lines = (text: string) => text.split('\n');

describe('a view that folded calls, in Mermaid', () => {
  it('hangs one marker per folded function off it, saying how many calls and which flag', async () => {
    const text = renderMermaid(foldedSchedulerTrace(), flow);
    const markers = lines(text).filter((line) => /^\s+m\d+\(\[/.test(line));
    expect(markers.map((line) => line.trim())).toEqual([
      'm0(["… 7 more calls (--all)"])',
      'm1(["… 1 more call (--all)"])',
      'm2(["… 12 more calls (--include-noise)"])',
    ]);
    const scheduleOne = /^\s+(n\d+)\["\(\*Scheduler\)\.scheduleOne"\]/m.exec(text)![1]!;
    expect(text).toContain(`  ${scheduleOne} -.- m0`);
    expect(text).toMatch(/^ {2}class m0,m1,m2 more$/m);
    await expect(parseMermaid(text)).resolves.toBe('flowchart-v2');
  });

  it('says in its header how large the full trace is', () => {
    expect(lines(renderMermaid(foldedSchedulerTrace(), flow))[0]).toBe(
      '%% kube-scheduler v1.24.0 (941a0be80ab3): 25 functions, 28 calls, 2 unresolved; showing 25 of 4,806 functions',
    );
  });

  it('notes the folded calls in a sequence diagram too', async () => {
    const text = renderMermaid(foldedSchedulerTrace(), { ...flow, style: 'sequence' });
    expect(lines(text).filter((line) => line.includes('Note right of'))).toHaveLength(3);
    expect(text).toMatch(/Note right of p\d+: … 7 more calls \(--all\)/);
    await expect(parseMermaid(text)).resolves.toBe('sequence');
  });

  it('draws no marker and no marker style for a trace that folded nothing', () => {
    const text = renderMermaid(schedulerTrace(), flow);
    expect(text).not.toMatch(/more call/);
    expect(text).not.toContain('classDef more');
  });
});

describe('a view that folded calls, in DOT', () => {
  it('draws a small note per folded function, linked without an arrow, and lays it out', async () => {
    const text = renderDot(foldedSchedulerTrace(), defaultRenderOptions);
    const notes = lines(text).filter((line) => /^\s+m\d+ \[/.test(line));
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain('label="… 7 more calls (--all)"');
    expect(notes[0]).toContain('shape=note');
    expect(notes[2]).toContain(
      'tooltip="12 calls of this function are left out of the view; --include-noise shows them"',
    );
    expect(text).toMatch(/n\d+ -> m0 \[style=dashed, color="#999999", arrowhead=none\];/);
    expect(text).toContain('showing 25 of 4,806 functions');
    await expect(layoutDot(text)).resolves.toContain('7 more calls (&#45;&#45;all)');
  });
});

describe('a view that folded calls, in Markdown', () => {
  it('adds a note listing each folded function with a link and what shows the rest', () => {
    const text = renderMarkdown(foldedSchedulerTrace(), defaultRenderOptions);
    expect(text).toContain(
      '- **Size:** 25 functions, 28 calls, 2 unresolved; showing 25 of 4,806 functions',
    );
    const note = lines(text).filter((line) => line.startsWith('> '));
    expect(note[0]).toBe(
      '> **Note:** this is the view, not every call. These functions make more calls than it shows:',
    );
    expect(note.slice(1)).toEqual([
      expect.stringMatching(
        /^> - `\(\*scheduler\.Scheduler\)\.scheduleOne` \(\[pkg\/scheduler\/schedule_one\.go:66\]\(https:\/\/github\.com\/.*#L66\)\): … 7 more calls \(--all\)$/,
      ),
      expect.stringContaining('`(*scheduler.Scheduler).schedulePod`'),
      expect.stringContaining('… 12 more calls (--include-noise)'),
    ]);
  });

  it('has no note when the view folded nothing', () => {
    expect(renderMarkdown(schedulerTrace(), defaultRenderOptions)).not.toContain('**Note:**');
  });
});

describe('a view that folded calls, in JSON', () => {
  it('keeps both fields exactly, for scripts', () => {
    const trace = JSON.parse(renderJson(foldedSchedulerTrace())) as ReturnType<
      typeof foldedSchedulerTrace
    >;
    expect(trace.total).toEqual({ functions: 4806, edges: 12345 });
    expect(trace.nodes.find((n) => n.symbol === schedulerSymbols.scheduleOne)!.folded).toEqual({
      calls: 7,
      flag: '--all',
    });
  });
});
