/**
 * `k8s-read export trace` as a user runs it (the built dist/cli.js): the mistakes it must catch
 * before building a trace. Drawing the demo tree's trace is in export-demo.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const noStack = /\n\s+at /;

describe('k8s-read export trace', () => {
  it('lists the formats, styles and clusters in its help', async () => {
    const result = await runCli(['export', 'trace', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/choices: "tree", "json", "mermaid",\s+"dot", "svg", "md"/);
    expect(result.stdout).toContain('--max-nodes <n>');
    expect(result.stdout).toContain('--out <file>');
    expect(result.stderr).toBe('');
  });

  it('rejects an unknown format and names the formats it knows', async () => {
    const result = await runCli(['export', 'trace', 'kube-scheduler', '-o', 'pdf']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "argument 'pdf' is invalid. Allowed choices are tree, json, mermaid, dot, svg, md.",
    );
    expect(result.stdout).toBe('');
  });

  it('rejects a node limit that is not a whole number', async () => {
    const result = await runCli(['export', 'trace', 'kube-scheduler', '--max-nodes', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-nodes takes a whole number of 1 or more, not "many"');
  });

  it('refuses --out in a directory that does not exist, naming the path, before tracing', async () => {
    const dir = useTempDir();
    const out = path.join(dir, 'missing', 'sched.svg');
    const result = await runCli(['export', 'trace', 'kube-scheduler', '--out', out]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: cannot write ${out}: no directory ${path.dirname(out)}; choose a writable path for --out\n`,
    });
  });

  it('refuses --out that is a directory or lies under a file', async () => {
    const dir = useTempDir();
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'file'), '');
    const intoDirectory = await runCli([
      'export',
      'trace',
      'kube-scheduler',
      '--out',
      path.join(dir, 'sub'),
    ]);
    expect(intoDirectory.code).toBe(2);
    expect(intoDirectory.stderr).toContain('it is a directory');
    const underFile = await runCli([
      'export',
      'trace',
      'kube-scheduler',
      '--out',
      path.join(dir, 'file', 'x.svg'),
    ]);
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toContain(`${path.join(dir, 'file')} is not a directory`);
    expect(underFile.stderr).not.toMatch(noStack);
  });
});
