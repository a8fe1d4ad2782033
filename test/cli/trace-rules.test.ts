/**
 * The trace's rules are validated once per content and read back from the cache: an edited rules
 * file is validated again, a damaged cache is only a slower start, and a rules mistake is still
 * reported with its file and line.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadTraceRules } from '../../src/cli/trace-rules.js';
import { loadNoiseRules } from '../../src/resolve/rules.js';
import { rulesDir } from '../../src/shared/rules-dir.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';

const quiet = new Writable({ write: (_c, _e, done) => done() });

function setup() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-rules-'));
  const dir = path.join(tmp, 'rules');
  cpSync(rulesDir, dir, { recursive: true });
  const ctx = {
    stdout: quiet,
    stderr: quiet,
    env: { XDG_CACHE_HOME: path.join(tmp, 'cache') },
    cwd: tmp,
  };
  const cached = () => readdirSync(path.join(tmp, 'cache', 'k8s-read', 'rules'));
  return { dir, ctx, cached };
}

describe('trace rules', () => {
  it('are the validated YAML, first read and from the cache alike', async () => {
    const { dir, ctx, cached } = setup();
    const expected = {
      components: loadComponentRules(path.join(dir, 'components.yaml')),
      noise: loadNoiseRules(path.join(dir, 'noise.yaml')),
    };
    expect(await loadTraceRules(ctx, dir)).toEqual(expected);
    expect(cached()).toHaveLength(1);
    expect(await loadTraceRules(ctx, dir)).toEqual(expected);
  });

  it('are read from the cache while the files are unchanged', async () => {
    const { dir, ctx, cached } = setup();
    await loadTraceRules(ctx, dir);
    const file = path.join(ctx.env.XDG_CACHE_HOME, 'k8s-read', 'rules', cached()[0]!);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.noise.packages.push('example.com/marker');
    writeFileSync(file, JSON.stringify(data));
    expect((await loadTraceRules(ctx, dir)).noise.packages).toContain('example.com/marker');
  });

  it('are validated again when a file changes; the oldest entries go past eight', async () => {
    const { dir, ctx, cached } = setup();
    await loadTraceRules(ctx, dir);
    const before = cached();
    const noise = path.join(dir, 'noise.yaml');
    const original = readFileSync(noise, 'utf8');
    const edit = (n: number) =>
      writeFileSync(
        noise,
        original.replace('packages:\n', `packages:\n  - example.com/edited${n}\n`),
      );
    edit(1);
    expect((await loadTraceRules(ctx, dir)).noise.packages).toContain('example.com/edited1');
    expect(cached()).toHaveLength(2);
    expect(cached()).toEqual(expect.arrayContaining(before));
    for (let n = 2; n <= 10; n++) {
      edit(n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await loadTraceRules(ctx, dir)).noise.packages).toContain(`example.com/edited${n}`);
    }
    expect(cached()).toHaveLength(8);
    expect(cached()).not.toEqual(expect.arrayContaining(before));
  });

  it('are one cache entry for two installs with the same rules, in different directories', async () => {
    const { dir, ctx, cached } = setup();
    const other = path.join(path.dirname(dir), 'other-install', 'rules');
    cpSync(dir, other, { recursive: true });
    await loadTraceRules(ctx, dir);
    const file = path.join(ctx.env.XDG_CACHE_HOME, 'k8s-read', 'rules', cached()[0]!);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.noise.packages.push('example.com/marker');
    writeFileSync(file, JSON.stringify(data));
    // The other install reads the same entry (a cache keyed by path validated again, and removed it).
    expect((await loadTraceRules(ctx, other)).noise.packages).toContain('example.com/marker');
    expect(cached()).toHaveLength(1);
  });

  it('survive a damaged cache entry', async () => {
    const { dir, ctx, cached } = setup();
    const first = await loadTraceRules(ctx, dir);
    writeFileSync(path.join(ctx.env.XDG_CACHE_HOME, 'k8s-read', 'rules', cached()[0]!), '{"noi');
    expect(await loadTraceRules(ctx, dir)).toEqual(first);
  });

  it('report a mistake in a rules file with its file, as before', async () => {
    const { dir, ctx } = setup();
    writeFileSync(path.join(dir, 'noise.yaml'), 'packages: 3\n');
    await expect(loadTraceRules(ctx, dir)).rejects.toThrow(/noise\.yaml/);
  });
});
