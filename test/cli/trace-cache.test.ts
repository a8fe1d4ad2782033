/**
 * A trace asked again is answered from the answers kept beside the index, and only while nothing
 * it was computed from has changed: an edit to the tree and a re-index, an edited rules file and
 * other flags each give the answer a fresh trace gives.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyInstall, runCli, type CliResult } from '../helpers/run-cli.js';
import {
  addDrainConnections,
  commitProxyFixture,
  hideSyncProxyRules,
} from '../helpers/proxy-fixture.js';
import { createTempRepo } from '../helpers/temp-repo.js';
import { useTempDir } from '../helpers/temp-dir.js';

const repo = createTempRepo('k8s-read-trace-cache-');
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
const tmp = useTempDir('k8s-read-trace-cache-db-');
const db = path.join(tmp, 'index.sqlite');
const args = ['--repo', repo.root, '--db', db];
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache'), K8S_READ_DEBUG: 'trace' };
const KEPT = 'the answer kept for these options';

/** A trace as the CLI answers it, with the answers kept beside the index. */
function trace(extra: string[] = [], cli?: string): Promise<CliResult> {
  return run(['trace', 'kube-proxy', ...args, ...extra], env, cli);
}

/** The same trace traced afresh, keeping nothing. */
function fresh(extra: string[] = [], cli?: string): Promise<CliResult> {
  return run(
    ['trace', 'kube-proxy', ...args, ...extra],
    { ...env, K8S_READ_TRACE_CACHE: 'off' },
    cli,
  );
}

function run(argv: string[], vars: Record<string, string>, cli?: string): Promise<CliResult> {
  // `cli`: another install of the same build (its own rules/).
  return runCli(argv, { env: vars, ...(cli ? { cli } : {}) });
}

beforeAll(async () => {
  commitProxyFixture(repo);
  expect((await runCli(['index', ...args])).code).toBe(0);
});

describe('trace answers kept beside the index', () => {
  it('answer a repeated trace, the same bytes as a fresh trace, in every output', async () => {
    const first = await trace();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain(KEPT);
    const again = await trace();
    expect(again.stderr).toContain(KEPT);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stdout).toBe((await fresh()).stdout);
    const json = await trace(['-o', 'json']);
    expect(json.stderr).toContain(KEPT);
    expect(json.stdout).toBe((await fresh(['-o', 'json'])).stdout);
  });

  it('are not read for other flags', async () => {
    await trace();
    for (const flags of [
      ['--depth', '2'],
      ['--include-noise'],
      ['--all'],
      ['--max-children', '1'],
    ]) {
      const other = await trace(flags);
      expect(other.stderr, flags.join(' ')).not.toContain(KEPT);
      expect(other.stdout).toBe((await fresh(flags)).stdout);
      expect((await trace(flags)).stderr).toContain(KEPT);
    }
    expect((await trace(['--depth', '2'])).stdout).not.toBe((await trace()).stdout);
  });

  it('are not read once the tree is edited and indexed again', async () => {
    const before = await trace();
    expect(before.stdout).not.toContain('drainConnections');
    addDrainConnections(repo.root);
    // Not indexed yet: the index (and so the answer) is still the tree as it was.
    expect((await trace()).stdout).toBe(before.stdout);
    expect((await runCli(['index', ...args])).code).toBe(0);
    const after = await trace();
    expect(after.stderr).not.toContain(KEPT);
    expect(after.stdout).toContain('drainConnections');
    expect(after.stdout).toBe((await fresh()).stdout);
    expect((await trace()).stderr).toContain(KEPT);
  });

  it('are not read by another build or an install whose rules differ, and are kept apart', async () => {
    // A second install of this build: the same dist/, its own rules/.
    const install = path.join(tmp, 'install');
    const cli = copyInstall(install);

    const ours = await trace();
    expect(ours.stdout).toContain('syncProxyRules');
    const same = await trace([], cli);
    expect(same.stderr).toContain(KEPT);
    expect(same.stdout).toBe(ours.stdout);

    // Another build (its code changed): its own answers.
    writeFileSync(path.join(install, 'dist', 'build-id'), 'another build\n');
    const rebuilt = await trace([], cli);
    expect(rebuilt.stderr).not.toContain(KEPT);
    expect(rebuilt.stdout).toBe(ours.stdout);
    expect((await trace([], cli)).stderr).toContain(KEPT);

    hideSyncProxyRules(install);
    const edited = await trace([], cli);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stderr).not.toContain(KEPT);
    expect(edited.stdout).not.toContain('syncProxyRules');
    expect(edited.stdout).toBe((await fresh([], cli)).stdout);
    // Our own rules did not change: our answer is still kept, and still ours.
    const back = await trace();
    expect(back.stderr).toContain(KEPT);
    expect(back.stdout).toBe(ours.stdout);
  });

  it('are not kept when caching is off', async () => {
    const other = ['--depth', '3'];
    expect((await fresh(other)).stderr).not.toContain(KEPT);
    expect((await trace(other)).stderr).not.toContain(KEPT);
  });
});
