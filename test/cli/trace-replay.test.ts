/**
 * A trace whose answer was read from the kept answers is printed again, the next time the same
 * command line is run, without running the command (src/cli/replay.ts); and never once anything
 * the answer or its warnings depend on has changed: the index, HEAD, the repository the options
 * choose, the rules, the build, the arguments, the environment.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

const repo = createTempRepo('k8s-read-trace-replay-');
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
const tmp = useTempDir('k8s-read-trace-replay-db-');
const db = path.join(tmp, 'index.sqlite');
const cache = path.join(tmp, 'cache');
const answers = path.join(cache, 'k8s-read', 'answers');
const REPLAYED = '[replay] printed the output kept';

interface Run {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  cli?: string;
}

function run({ args = [], env = {}, cwd, cli }: Run): Promise<CliResult> {
  const argv = ['trace', 'kube-proxy', '--repo', repo.root, '--db', db, ...args];
  return runCli(argv, {
    env: { XDG_CACHE_HOME: cache, ...env },
    ...(cwd ? { cwd } : {}),
    ...(cli ? { cli } : {}),
  });
}

/** The same command, saying whether it was printed from a kept output. */
function replayed(r: Run = {}): Promise<CliResult> {
  return run({ ...r, env: { ...r.env, K8S_READ_DEBUG: 'replay' } });
}

/** The same trace traced afresh, reading and keeping nothing. */
function fresh(r: Run = {}): Promise<CliResult> {
  return run({ ...r, env: { ...r.env, K8S_READ_TRACE_CACHE: 'off' } });
}

/** Runs the command until an answer is kept (a first run traces, a second reads the kept one). */
async function keep(r: Run = {}): Promise<CliResult> {
  await run(r);
  return run(r);
}

function withoutReplayLine(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('[replay]'))
    .join('\n');
}

beforeAll(async () => {
  commitProxyFixture(repo);
  expect((await runCli(['index', '--repo', repo.root, '--db', db])).code).toBe(0);
});

describe('a kept trace printed again', () => {
  it('prints the same bytes, on both streams, as the command run afresh', async () => {
    const first = await run({});
    expect(first.code, first.stderr).toBe(0);
    expect((await run({})).stdout).toBe(first.stdout);
    const again = await replayed();
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(REPLAYED);
    expect(again.stdout).toBe(first.stdout);
    expect(withoutReplayLine(again.stderr)).toBe(first.stderr);
    expect(again.stdout).toBe((await fresh()).stdout);

    const json = { args: ['-o', 'json'] };
    await keep(json);
    const replayedJson = await replayed(json);
    expect(replayedJson.stderr).toContain(REPLAYED);
    expect(replayedJson.stdout).toBe((await fresh(json)).stdout);
    expect(JSON.parse(replayedJson.stdout)).toMatchObject({ root: expect.any(String) });
  });

  it('keeps nothing from a run that traced, failed, did not read a kept answer or printed debug lines', async () => {
    rmSync(answers, { recursive: true, force: true });
    const depth = { args: ['--depth', '2'] };
    await run(depth); // traces, and keeps its answer in the index only
    expect((await replayed(depth)).stderr).not.toContain(REPLAYED);
    const refused = { args: ['--depth', '0'] };
    await keep(refused);
    const usage = await replayed(refused);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toContain(REPLAYED);
    // Traced afresh (K8S_READ_TRACE_CACHE=off) the answer is not one kept: neither is its output.
    const off = { args: ['--depth', '4'], env: { K8S_READ_TRACE_CACHE: 'off' } };
    await keep(off);
    expect((await replayed(off)).stderr).not.toContain(REPLAYED);
    const debugged = { args: ['--depth', '3'], env: { K8S_READ_DEBUG: 'trace' } };
    await keep(debugged);
    expect((await run(debugged)).stderr).toContain('[trace]');
    // Only `--depth 2`, read from the kept answers by the replayed() call above, was kept.
    expect(readdirSync(answers)).toHaveLength(1);
  });

  it('is not printed for other arguments, another directory or other variables', async () => {
    await keep();
    expect((await replayed()).stderr).toContain(REPLAYED);
    const others: Run[] = [
      { args: ['--max-children', '1'] },
      { env: { COLUMNS: '60' } },
      { env: { K8S_READ_TRACE_PACK: 'off' } },
      { cwd: repo.root },
    ];
    for (const other of others) {
      const r = await replayed(other);
      expect(r.stderr, JSON.stringify(other)).not.toContain(REPLAYED);
      expect(r.stdout).toBe((await fresh(other)).stdout);
    }
  });

  it('is not printed once HEAD moves, and then carries the stale-index warning', async () => {
    await keep();
    repo.write('docs/NOTES.md', 'a note\n');
    repo.commit('a note');
    const moved = await replayed();
    expect(moved.stderr).not.toContain(REPLAYED);
    expect(moved.stderr).toContain('warning: the index is of');
    expect(moved.stdout).toBe((await fresh()).stdout);
    await run({});
    const again = await replayed();
    expect(again.stderr).toContain(REPLAYED);
    expect(again.stderr).toContain('warning: the index is of');
  });

  it('is not printed once the index is written again', async () => {
    await keep();
    const before = (await replayed()).stdout;
    addDrainConnections(repo.root);
    repo.commit('drain connections');
    expect((await runCli(['index', '--repo', repo.root, '--db', db])).code).toBe(0);
    const after = await replayed();
    expect(after.stderr).not.toContain(REPLAYED);
    expect(after.stdout).toContain('drainConnections');
    expect(before).not.toContain('drainConnections');
    expect(after.stdout).toBe((await fresh()).stdout);
  });

  it('is not printed when the database file is replaced, even by a copy of itself', async () => {
    await keep();
    expect((await replayed()).stderr).toContain(REPLAYED);
    const copy = `${db}.copy`;
    cpSync(db, copy);
    rmSync(db);
    cpSync(copy, db);
    const r = await replayed();
    expect(r.stderr).not.toContain(REPLAYED);
    expect(r.stdout).toBe((await fresh()).stdout);
  });

  it('is not printed when the options choose another repository', async () => {
    // From a directory inside the checkout, no --repo: the checkout around it is the repository.
    const inside = path.join(repo.root, 'pkg');
    const around = (r: Run = {}) =>
      runCli(['trace', 'kube-proxy', '--db', db, ...(r.args ?? [])], {
        cwd: inside,
        env: { XDG_CACHE_HOME: cache, ...r.env },
      });
    await around();
    await around();
    expect((await around({ env: { K8S_READ_DEBUG: 'replay' } })).stderr).toContain(REPLAYED);
    // A Go checkout of its own made there: it is now the one chosen, and it has no index yet.
    cpSync(path.join(repo.root, '.git'), path.join(inside, '.git'), { recursive: true });
    writeFileSync(path.join(inside, 'go.mod'), 'module example.com/nested\n\ngo 1.21\n');
    try {
      const r = await around({ env: { K8S_READ_DEBUG: 'replay' } });
      expect(r.stderr).not.toContain(REPLAYED);
      expect(r.stderr).toContain(`no index for ${inside}`);
    } finally {
      rmSync(path.join(inside, '.git'), { recursive: true, force: true });
      rmSync(path.join(inside, 'go.mod'), { force: true });
    }
  });

  it('is not printed by another build or an install whose rules differ', async () => {
    const install = path.join(tmp, 'install');
    const cli = copyInstall(install);
    const debug = { cli, env: { K8S_READ_DEBUG: 'replay' } };

    await keep({ cli });
    expect((await run(debug)).stderr).toContain(REPLAYED);
    writeFileSync(path.join(install, 'dist', 'build-id'), 'another build\n');
    expect((await run(debug)).stderr).not.toContain(REPLAYED);

    await keep({ cli });
    expect((await run(debug)).stderr).toContain(REPLAYED);
    hideSyncProxyRules(install);
    const edited = await run(debug);
    expect(edited.stderr).not.toContain(REPLAYED);
    expect(edited.stdout).not.toContain('syncProxyRules');
  });

  it('is a miss, not a failure, when the kept file is damaged', async () => {
    await keep();
    for (const name of readdirSync(answers)) writeFileSync(path.join(answers, name), '{"format":');
    const r = await replayed();
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain(REPLAYED);
    expect(r.stdout).toBe((await fresh()).stdout);
    await run({});
    expect((await replayed()).stderr).toContain(REPLAYED);
  });
});

describe('a kept trace of the demo tree, k8s-read installed outside any git checkout', () => {
  it('is printed for a tree below the top of its checkout, and not once HEAD moves there', async () => {
    const mono = createTempRepo('k8s-read-trace-replay-mono-');
    try {
      const sub = path.join(mono.root, 'staging', 'proxy');
      cpSync(repo.root, sub, { recursive: true, filter: (f) => path.basename(f) !== '.git' });
      mono.commit('the proxy below the top');
      const monoDb = path.join(tmp, 'mono.sqlite');
      const trace = (env: Record<string, string> = {}) =>
        runCli(['trace', 'kube-proxy', '--repo', sub, '--db', monoDb], {
          env: { XDG_CACHE_HOME: path.join(tmp, 'mono-cache'), ...env },
        });
      const first = await trace();
      expect(first.code, first.stderr).toBe(0);
      await trace();
      const again = await trace({ K8S_READ_DEBUG: 'replay' });
      expect(again.stderr).toContain(REPLAYED);
      expect(again.stdout).toBe(first.stdout);

      mono.write('NOTES.md', 'a note at the top\n');
      mono.commit('a note');
      const moved = await trace({ K8S_READ_DEBUG: 'replay' });
      expect(moved.stderr).not.toContain(REPLAYED);
      expect(moved.stderr).toContain('warning: the index is of');
    } finally {
      rmSync(mono.root, { recursive: true, force: true });
    }
  });

  it('is printed again, and not once git could answer for the tree', async () => {
    const install = path.join(tmp, 'demo-install');
    const cli = copyInstall(install, [
      'build',
      'queries',
      'rules',
      path.join('fixtures', 'kubernetes'),
    ]);
    const away = path.join(tmp, 'elsewhere');
    mkdirSync(away);
    const demo = (env: Record<string, string> = {}) =>
      runCli(['trace', 'kube-scheduler'], {
        cli,
        cwd: away,
        env: { XDG_CACHE_HOME: path.join(tmp, 'demo-cache'), ...env },
      });
    const first = await demo();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('using the bundled demo tree');
    await demo();
    const again = await demo({ K8S_READ_DEBUG: 'replay' });
    expect(again.stderr).toContain(REPLAYED);
    expect(again.stderr).toContain('using the bundled demo tree');
    expect(again.stdout).toBe((await demo({ K8S_READ_TRACE_CACHE: 'off' })).stdout);
    expect(again.stdout).toContain('kube-scheduler');

    mkdirSync(path.join(install, '.git'));
    expect((await demo({ K8S_READ_DEBUG: 'replay' })).stderr).not.toContain(REPLAYED);
  });
});
