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

  it('lists every command on one short line with a capitalized summary', async () => {
    const result = await runCli(['--help']);
    const list = result.stdout.split('Commands:\n')[1]!.split('\n\n')[0]!.split('\n');
    const commands = list.filter((line) => !line.includes('help [command]'));
    expect(commands.length).toBeGreaterThanOrEqual(17);
    for (const line of commands) {
      expect(line.length).toBeLessThanOrEqual(125);
      expect(line.trim().split(/\s{2,}/)[1]).toMatch(/^[A-Z]/);
    }
  });

  it('rejects an unknown command with exit code 2 and a hint, without a stack trace', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });
});
