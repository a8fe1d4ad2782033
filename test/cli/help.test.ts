import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('k8s-read --help', () => {
  it('lists the commands and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: k8s-read');
    expect(result.stdout).toMatch(/\btrace\b/);
    expect(result.stderr).toBe('');
  });

  it('rejects an unknown command with exit code 2 and a hint, without a stack trace', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });
});
