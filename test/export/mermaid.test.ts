import { describe, expect, it } from 'vitest';
import { escapeLabel, renderMermaid } from '../../src/export/mermaid.js';
import { defaultRenderOptions } from '../../src/export/types.js';
import { expectGolden } from './golden.js';
import { parseMermaid } from './mermaid-parser.js';
import { generatedTrace, schedulerTrace } from './sample-traces.js';

const flow = { ...defaultRenderOptions, style: 'flow' as const };
const sequence = { ...defaultRenderOptions, style: 'sequence' as const };

describe('renderMermaid as a flowchart', () => {
  it('draws the scheduler trace clustered by package, as in its golden file', async () => {
    const text = renderMermaid(schedulerTrace(), flow);
    expectGolden('scheduler.flow.mmd', text);
    await expect(parseMermaid(text)).resolves.toBe('flowchart-v2');
  });

  it('passes the Mermaid parser clustered by file and without clusters', async () => {
    for (const cluster of ['file', 'none'] as const) {
      await expect(
        parseMermaid(renderMermaid(schedulerTrace(), { ...flow, cluster })),
      ).resolves.toBe('flowchart-v2');
    }
  });

  it('uses ids Mermaid accepts and keeps the Go names in quoted labels', () => {
    const text = renderMermaid(schedulerTrace(), flow);
    const ids = [...text.matchAll(/^\s+(\w+)[[(]/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(id).toMatch(/^[a-z]\d+$/);
    expect(text).toContain('["(*Scheduler).scheduleOne"]');
    expect(text).toContain('("NewSchedulerCommand$1")');
  });

  it('draws each kind of hop with its own arrow', () => {
    const text = renderMermaid(schedulerTrace(), flow);
    expect(text).toMatch(/n\d+ ==>\|"wait.UntilWithContext"\| n\d+/);
    expect(text).toMatch(/n\d+ -\.->\|"interface \+2"\| n\d+/);
    expect(text).toMatch(/n\d+ -\.->\|"funcvalue"\| n\d+/);
    expect(text).toMatch(/n\d+ --o\|"go"\| n\d+/);
  });

  it('links every node that has a permalink, in a new tab', () => {
    const text = renderMermaid(schedulerTrace(), flow);
    const clicks = text.split('\n').filter((line) => line.trimStart().startsWith('click '));
    expect(clicks).toHaveLength(schedulerTrace().nodes.filter((node) => node.url).length);
    expect(clicks[0]).toMatch(
      /^ {2}click n0 href "https:\/\/github\.com\/kubernetes\/kubernetes\/blob\/941a0be8\w+\/cmd\/kube-scheduler\/scheduler\.go#L29" ".*" _blank$/,
    );
  });

  it('folds a large trace into `… N more` nodes and still parses', async () => {
    const text = renderMermaid(generatedTrace(300), { ...flow, maxNodes: 40 });
    expectGolden('generated-300.flow.mmd', text);
    expect(text.match(/^\s+n\d+\[/gm)).toHaveLength(40);
    const hidden = [...text.matchAll(/\(\["… (\d+) more"\]\)/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    expect(hidden).toBe(260);
    await expect(parseMermaid(text)).resolves.toBe('flowchart-v2');
  });
});

describe('renderMermaid as a sequence diagram', () => {
  it('draws the spine of the scheduler trace, as in its golden file', async () => {
    const text = renderMermaid(schedulerTrace(), sequence);
    expectGolden('scheduler.sequence.mmd', text);
    await expect(parseMermaid(text)).resolves.toBe('sequence');
  });

  it('has a participant per receiver type or package', () => {
    const text = renderMermaid(schedulerTrace(), sequence);
    expect(text).toContain('participant p4 as scheduler.Scheduler');
    expect(text).toMatch(/p4->>p4: scheduleOne \(wait\.UntilWithContext\)/);
    expect(text).toMatch(/p4-\)p4: go scheduleOne\$1/);
  });

  it('stops at the node limit and says how many calls it left out', async () => {
    const text = renderMermaid(schedulerTrace(), { ...sequence, maxNodes: 5 });
    expect(text.match(/^ {2}p\d+-?-?[>)]/gm)).toHaveLength(5);
    expect(text).toContain('Note over p0: … 22 more calls (raise --max-nodes)');
    await expect(parseMermaid(text)).resolves.toBe('sequence');
  });
});

describe('the Mermaid parser used here', () => {
  it('rejects a broken diagram, so a passing check means something', async () => {
    await expect(parseMermaid('flowchart LR\n  n0["a"b"] --> n1')).rejects.toThrow(
      /Parse error on line 2/,
    );
    await expect(parseMermaid('sequenceDiagram\n  p0->>p1 missing colon')).rejects.toThrow(
      /Parse error/,
    );
  });
});

describe('escapeLabel', () => {
  it('turns the characters Mermaid reads as syntax into entity codes', async () => {
    expect(escapeLabel('a"b<c>#d;')).toBe('a#34;b#60;c#62;#35;d#59;');
    await expect(parseMermaid(`flowchart LR\n  n0["${escapeLabel('x"];y<z>#')}"]`)).resolves.toBe(
      'flowchart-v2',
    );
  });
});
