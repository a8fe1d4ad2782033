/**
 * `k8s-read export trace kube-scheduler` on the bundled demo tree, end to end through the built
 * CLI: every format comes out, passes its real parser, and draws the same trace `trace -o json`
 * prints. The index is built once for the file, in a temporary database.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/types.js';
import { layoutDot } from '../../src/export/svg.js';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { expectGolden } from './golden.js';
import { parseMermaid } from './mermaid-parser.js';
import { findAll, parseXml } from './xml.js';

const scratch = useTempDir('k8s-read-export-');
const db = path.join(scratch, 'demo.sqlite');
const exportTrace = (...args: string[]) =>
  runCli(['export', 'trace', 'kube-scheduler', '--db', db, ...args]);
const demoNote =
  'note: no --repo, KUBERNETES_SRC or Go checkout here; using the bundled demo tree (fixtures/kubernetes)\n';

/** The demo tree's commit changes with every commit of this project. */
const normalize = (text: string) =>
  text.replace(/\b[0-9a-f]{40}\b/g, '<commit>').replace(/\b[0-9a-f]{12}\b/g, '<commit12>');

beforeAll(async () => {
  const result = await runCli(['index', '--db', db]);
  expect(result.code, result.stderr).toBe(0);
});

describe('k8s-read export trace kube-scheduler on the demo tree', () => {
  it('prints a Mermaid flowchart by default that the Mermaid parser accepts', async () => {
    // --github pins the permalinks, which would otherwise depend on this clone's origin remote.
    const result = await exportTrace('--github', 'kubernetes/kubernetes');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(demoNote);
    expectGolden('demo-kube-scheduler.flow.mmd', normalize(result.stdout));
    await expect(parseMermaid(result.stdout)).resolves.toBe('flowchart-v2');
  });

  it('prints a sequence diagram of the spine that the Mermaid parser accepts', async () => {
    const result = await exportTrace('--style', 'sequence');
    expect(result.code, result.stderr).toBe(0);
    await expect(parseMermaid(result.stdout)).resolves.toBe('sequence');
  });

  it('prints DOT that Graphviz lays out', async () => {
    const result = await exportTrace('-o', 'dot', '--cluster', 'file');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^digraph trace \{/);
    await expect(layoutDot(result.stdout)).resolves.toContain('</svg>');
  });

  it('writes an SVG to --out (format from the extension) with a link per node that has a permalink', async () => {
    const out = path.join(scratch, 'sched.svg');
    const result = await exportTrace('--github', 'kubernetes/kubernetes', '--out', out);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(
      new RegExp(`wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(svg, [\\d.]+ kB\\)\\n$`),
    );
    const svg = parseXml(readFileSync(out, 'utf8'));
    const nodes = findAll(svg, 'g').filter((g) => g.attributes.get('class') === 'node');
    const hrefs = nodes
      .flatMap((g) => findAll(g, 'a'))
      .flatMap((a) => a.attributes.get('xlink:href') ?? []);
    // Every function of the trace `trace` prints, each with a permalink (the legend has none).
    const trace = JSON.parse((await exportTrace('-o', 'json')).stdout) as Trace;
    expect(hrefs).toHaveLength(trace.nodes.length);
    expect(
      hrefs.every((href) => href.startsWith('https://github.com/kubernetes/kubernetes/blob/')),
    ).toBe(true);
  });

  it('writes a Markdown report whose diagram parses and whose table lists every hop', async () => {
    const result = await exportTrace('-o', 'md');
    expect(result.code, result.stderr).toBe(0);
    const trace = JSON.parse((await exportTrace('-o', 'json')).stdout) as Trace;
    expect(result.stdout).toContain('# Call trace: kube-scheduler');
    expect(result.stdout.split('\n').filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(
      trace.edges.length,
    );
    await expect(
      parseMermaid(/```mermaid\n([\s\S]*?)\n```/.exec(result.stdout)![1]!),
    ).resolves.toBe('flowchart-v2');
  });

  it('prints as JSON exactly the trace that `k8s-read trace -o json` prints', async () => {
    const exported = await exportTrace('-o', 'json');
    const traced = await runCli(['trace', 'kube-scheduler', '--db', db, '-o', 'json']);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual(JSON.parse(traced.stdout));
  });

  it('takes the trace’s own flags and prints what `trace` prints for them', async () => {
    for (const flags of [
      ['--focus', 'selectHost'],
      ['--all', '--depth', '4'],
      ['--max-children', '2', '--include-noise'],
    ]) {
      const exported = await exportTrace('-o', 'json', ...flags);
      const traced = await runCli(['trace', 'kube-scheduler', '--db', db, '-o', 'json', ...flags]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout), flags.join(' ')).toEqual(JSON.parse(traced.stdout));
    }
  });

  it('draws in a diagram every function `trace` shows, selectHost included', async () => {
    const trace = JSON.parse((await exportTrace('-o', 'json')).stdout) as Trace;
    const dot = (await exportTrace('-o', 'dot')).stdout;
    expect(dot.match(/^\s+n\d+ \[/gm)).toHaveLength(trace.nodes.length);
    expect(dot).toContain('label="selectHost"');
  });

  it('says so when the trace has nothing to draw', async () => {
    const leaf = '(*k8s.io/kubernetes/pkg/scheduler/framework.Status).Code';
    const result = await runCli(['export', 'trace', leaf, '--db', db]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    // Only the ending is pinned: a commit landing mid-run adds a stale-index warning above it.
    expect(result.stderr.startsWith(demoNote)).toBe(true);
    expect(
      result.stderr.endsWith(
        `\nerror: the trace of ${leaf} has no calls to draw; check the component or --focus symbol, and that the index is current (\`k8s-read index\`)\n`,
      ),
    ).toBe(true);
  });
});
