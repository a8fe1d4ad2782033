import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RACY_MS } from '../../src/index/discovery-stamp.js';
import { Store } from '../../src/store/db.js';
import { demoRoot, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const tmp = useTempDir('k8s-read-index-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };

/** A small Go tree outside any git checkout (so files are hashed like git blobs). */
function copyTree(
  name: string,
  from = path.join(projectRoot, 'fixtures', 'go', 'func-field-assignment'),
): string {
  const dir = path.join(tmp, name);
  cpSync(from, dir, { recursive: true });
  return dir;
}

interface Summary {
  files: number;
  parsed: number;
  reused: number;
  counts: Record<string, number>;
  problems: { path: string; status: string }[];
}

async function indexJson(args: string[]): Promise<Summary> {
  const r = await runCli(['index', '-o', 'json', ...args], { env });
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Summary;
}

describe('k8s-read index', () => {
  it('indexes the demo tree and says so, with a one-line summary', async () => {
    const db = path.join(tmp, 'demo.sqlite');
    const r = await runCli(['index', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('using the bundled demo tree');
    expect(r.stdout).toMatch(
      /^indexed \d+ files \(\d+ parsed, 0 unchanged\) in [\d.]+s: \d+ packages, \d+ functions, \d+ methods/,
    );
  });

  it('parses nothing on a second run over an unchanged tree', async () => {
    const db = path.join(tmp, 'again.sqlite');
    const first = await indexJson(['--repo', demoRoot, '--db', db]);
    expect(first.parsed).toBe(first.files);
    const second = await indexJson(['--repo', demoRoot, '--db', db]);
    expect(second.parsed).toBe(0);
    expect(second.reused).toBe(first.files);
    expect(second.counts.functions).toBe(first.counts.functions);
  });

  it('re-parses only the edited file', async () => {
    const dir = copyTree('edited');
    const db = path.join(tmp, 'edited.sqlite');
    const first = await indexJson(['--repo', dir, '--db', db]);
    writeFileSync(path.join(dir, 'extra.go'), 'package main\n\nfunc extra() { use("x") }\n');
    const second = await indexJson(['--repo', dir, '--db', db]);
    expect(second.files).toBe(first.files + 1);
    expect(second.parsed).toBe(1);
  });

  it('shares parsed files between two checkouts in one database', async () => {
    const a = copyTree('version-a');
    const b = copyTree('version-b');
    writeFileSync(
      path.join(b, 'main.go'),
      `${'// changed in version b\n'}${(await import('node:fs')).readFileSync(path.join(b, 'main.go'), 'utf8')}`,
    );
    const db = path.join(tmp, 'shared.sqlite');
    const first = await indexJson(['--repo', a, '--db', db]);
    const second = await indexJson(['--repo', b, '--db', db]);
    expect(first.parsed).toBe(first.files);
    expect(second.parsed).toBe(1);
  });

  it('refuses a missing path, a file and a tree without Go files with a clear message', async () => {
    const missing = await runCli(['index', '--repo', path.join(tmp, 'nope')], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: .*nope: no such directory\. Pass --repo PATH/);

    const file = path.join(tmp, 'a-file.txt');
    writeFileSync(file, 'x');
    const notDir = await runCli(['index', '--repo', file], { env });
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toContain('not a directory');

    const empty = path.join(tmp, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(path.join(empty, 'README.md'), '# nothing to see');
    const noGo = await runCli(['index', '--repo', empty, '--db', path.join(tmp, 'empty.sqlite')], {
      env,
    });
    expect(noGo.code).toBe(2);
    expect(noGo.stderr).toContain('no Go files found');
    for (const r of [missing, notDir, noGo]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('counts files with syntax errors, bad encoding or too large, lists them with --verbose, and goes on', async () => {
    const dir = copyTree('problems');
    writeFileSync(path.join(dir, 'broken.go'), 'package main\n\nfunc broken( {\n');
    writeFileSync(
      path.join(dir, 'latin1.go'),
      Buffer.concat([
        Buffer.from('package main\n// caf'),
        Buffer.from([0xe9]),
        Buffer.from('\nfunc latin() {}\n'),
      ]),
    );
    writeFileSync(path.join(dir, 'big.go'), `package main\n\nvar big = "${'x'.repeat(5000)}"\n`);
    const db = path.join(tmp, 'problems.sqlite');
    const r = await runCli(
      ['index', '--repo', dir, '--db', db, '--max-file-size', '4000', '--verbose'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*1 with syntax errors/);
    expect(r.stderr).toContain('1 not UTF-8');
    expect(r.stderr).toContain('1 too large (skipped)');
    expect(r.stderr).toMatch(/broken\.go: syntax \(syntax errors near line 3/);
    const summary = await indexJson(['--repo', dir, '--db', db, '--max-file-size', '4000']);
    expect(summary.counts.functions).toBeGreaterThan(3);
    expect(summary.counts.syntaxErrors).toBe(1);
    const stats = await runCli(['stats', '--repo', dir, '--db', db], { env });
    expect(stats.stdout).toContain(
      '1 file with syntax errors (facts outside the errors kept; `index -v` lists them)',
    );
  });

  it('refuses to run while another index holds the database', async () => {
    const db = path.join(tmp, 'locked.sqlite');
    // The test runner itself is a live process: its pid in the lock file means "busy".
    mkdirSync(path.dirname(db), { recursive: true });
    writeFileSync(`${db}.lock`, String(process.pid));
    const r = await runCli(['index', '--repo', copyTree('locked'), '--db', db], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: another `k8s-read index` is writing .*locked\.sqlite; wait for it to finish/,
    );
  });

  it('takes over a lock left by a process that is gone', async () => {
    const db = path.join(tmp, 'stale.sqlite');
    writeFileSync(`${db}.lock`, '2147483646');
    const r = await runCli(['index', '--repo', copyTree('stale'), '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('rebuilds an index of another schema version and says so', async () => {
    const dir = copyTree('schema');
    const db = path.join(tmp, 'schema.sqlite');
    await indexJson(['--repo', dir, '--db', db]);
    const store = await Store.open(db);
    await store.run("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
    await store.close();
    const r = await runCli(['index', '--repo', dir, '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('had schema version 1; rebuilding it');
    expect(r.stdout).toMatch(/\((\d+) parsed, 0 unchanged\)/);
  });

  it('rejects a bad --jobs value as a usage error', async () => {
    const r = await runCli(['index', '--jobs', 'many'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--jobs must be a whole number');
  });
});

describe('k8s-read index on an unchanged git checkout', () => {
  it('answers from its discovery stamp without asking git, and asks again after a change', async () => {
    const repo = createTempRepo();
    repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n');
    repo.write('app.go', 'package app\n\nfunc App() { helper() }\n\nfunc helper() {}\n');
    repo.write('vendor/modules.txt', '# example.com/dep v1.0.0\n');
    repo.commit('first');
    // A stamp is written only for paths changed more than RACY_MS before discovery began.
    await delay(RACY_MS + 200);
    const db = path.join(tmp, 'stamp.sqlite');
    const run = async () => {
      const r = await runCli(['index', '-o', 'json', '--repo', repo.root, '--db', db], {
        env: { ...env, K8S_READ_DEBUG: 'index' },
      });
      expect(r.code, r.stderr).toBe(0);
      const { timings, ...rest } = JSON.parse(r.stdout) as Summary & { timings: unknown };
      expect(timings).toBeDefined();
      return { summary: rest, stamped: r.stderr.includes('from the stamp') };
    };
    const first = await run();
    expect(first.stamped).toBe(false);
    const second = await run();
    expect(second.stamped).toBe(true);
    // The same answer, but for what the first run parsed and linked.
    const { parsed, reused, megabytes, link, ...same } = second.summary as Summary & {
      megabytes: number;
      link: unknown;
    };
    expect([parsed, reused, megabytes]).toEqual([0, first.summary.files, 0]);
    expect(link).toEqual({ kept: true, sameFacts: 0 });
    expect((first.summary as Summary & { link: unknown }).link).toEqual({
      kept: false,
      sameFacts: 0,
    });
    expect(same).toEqual({
      ...first.summary,
      parsed: undefined,
      reused: undefined,
      megabytes: undefined,
      link: undefined,
    });
    repo.write('more.go', 'package app\n\nfunc More() { App() }\n');
    const third = await run();
    expect(third.stamped).toBe(false);
    expect(third.summary.parsed).toBe(1);
    expect(third.summary.files).toBe(first.summary.files + 1);
  });
});
