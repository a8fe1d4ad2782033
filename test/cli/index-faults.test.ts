/**
 * Issue 14, cases 3, 6 (--jobs) and 7: `index` under changed limits and under Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, projectRoot, runCli, type CliResult } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-index-faults-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };

function copyFixture(name: string): string {
  const dir = path.join(tmp, name);
  cpSync(path.join(projectRoot, 'fixtures', 'go', 'func-field-assignment'), dir, {
    recursive: true,
  });
  return dir;
}

interface Summary {
  parsed: number;
  reused: number;
  counts: Record<string, number>;
  problems: { path: string; status: string; message: string | null }[];
}

async function indexJson(args: string[]): Promise<Summary> {
  const r = await runCli(['index', '-o', 'json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Summary;
}

describe('--max-file-size on files seen before (case 3)', () => {
  it('parses a file skipped under a lower limit, and skips one parsed under a higher limit', async () => {
    const dir = copyFixture('limits');
    // Every limit lies between the fixture's own files and big.go, whatever their size.
    const fixtureMax = Math.max(
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.go'))
        .map((f) => statSync(path.join(dir, f)).size),
    );
    const [lower, low, high] = [fixtureMax + 100, fixtureMax + 200, fixtureMax + 300];
    const big = `package main\n\nvar table = "${'x'.repeat(fixtureMax + 1000)}"\n\nfunc fromBigFile() {}\n`;
    writeFileSync(path.join(dir, 'big.go'), big);
    const db = path.join(tmp, 'limits.sqlite');
    const args = ['--repo', dir, '--db', db];
    const def = () => runCli(['def', 'fromBigFile', ...args], { env });

    const first = await indexJson([...args, '--max-file-size', String(high)]);
    expect(first.problems).toEqual([
      { path: 'big.go', status: 'too-large', message: `${big.length} bytes > ${high}` },
    ]);
    expect((await def()).code).toBe(1);

    const raised = await indexJson([...args, '--max-file-size', '100000']);
    expect(raised.problems).toEqual([]);
    expect(raised.parsed).toBe(1);
    expect((await def()).stdout).toContain('fromBigFile');

    // Lowered again, to another limit: the message quotes this run's limit.
    const lowered = await indexJson([...args, '--max-file-size', String(low)]);
    expect(lowered.problems).toEqual([
      { path: 'big.go', status: 'too-large', message: `${big.length} bytes > ${low}` },
    ]);
    expect((await def()).code).toBe(1);

    const same = await indexJson([...args, '--max-file-size', String(lower)]);
    expect(same.parsed).toBe(0);
    expect(same.problems[0]?.message).toBe(`${big.length} bytes > ${lower}`);
  });
});

describe('--jobs (case 6)', () => {
  it('is capped at the CPUs, and says so', async () => {
    const dir = copyFixture('jobs');
    const r = await runCli(
      ['index', '--repo', dir, '--db', path.join(tmp, 'jobs.sqlite'), '--jobs', '1000'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const cpus = os.availableParallelism();
    expect(r.stderr).toBe(
      `note: --jobs 1000 is more than the ${cpus} CPUs here; using ${cpus} (more threads only use more memory)\n`,
    );
  });

  it('rejects what is not a whole number', async () => {
    for (const value of ['many', '1.5', '0', '1e3']) {
      const r = await runCli(['index', '--jobs', value], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: --jobs must be a whole number >= 1, not ${value}\n`);
    }
  });
});

/** A tree big enough for the worker pool (>= 200 files) and a link that takes a while. */
function generateTree(dir: string, files: number, tag: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'go.mod'), 'module example.com/big\n\ngo 1.21\n');
  for (let i = 0; i < files; i++) {
    const pkg = `p${i % 40}`;
    mkdirSync(path.join(dir, pkg), { recursive: true });
    const funcs = Array.from(
      { length: 20 },
      (_, j) =>
        `func ${tag}F${i}x${j}(n int) int {\n\tif n > 0 {\n\t\treturn ${tag}F${i}x${(j + 1) % 20}(n - 1)\n\t}\n\treturn n\n}\n`,
    ).join('\n');
    writeFileSync(path.join(dir, pkg, `f${i}.go`), `package ${pkg}\n\n${funcs}`);
  }
}

/**
 * Runs `index` and sends SIGINT twice once `when` matches stderr (or after `afterMs`), then again
 * every 30 ms until the process ends, as a user leaning on Ctrl-C would.
 */
function interruptIndex(
  args: string[],
  when: { stderr: RegExp; delayMs?: number },
): Promise<CliResult & { signals: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'index', ...args], {
      env: { ...process.env, ...env, NO_COLOR: '1', K8S_READ_DEBUG: 'index' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signals = 0;
    let timer: NodeJS.Timeout | undefined;
    const start = () => {
      if (timer) return;
      const send = () => {
        if (child.kill('SIGINT')) signals++;
      };
      // Twice at once, then on and on: a run that stops within 30 ms still gets a second Ctrl-C
      // while it is stopping (only signals delivered to a live process count).
      send();
      send();
      timer = setInterval(send, 30);
    };
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let seen = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!seen && when.stderr.test(stderr)) {
        seen = true;
        setTimeout(start, when.delayMs ?? 0);
      }
    });
    child.on('close', (code, signal) => {
      if (timer) clearInterval(timer);
      // As a shell reports it: a Ctrl-C that lands while Node tears the process down (after the
      // run has stopped and said so) ends it by the signal, which is status 130 as well.
      const status = code ?? (signal ? 128 + os.constants.signals[signal] : -1);
      resolve({ code: status, stdout, stderr, signals });
    });
  });
}

/** A small tree indexed (its functions are `old...`), then grown to 1,500 files of `new...`. */
async function indexedThenGrown(
  name: string,
): Promise<{ dir: string; db: string; args: string[] }> {
  const dir = path.join(tmp, name);
  generateTree(dir, 20, 'old');
  const db = path.join(tmp, `${name}.sqlite`);
  const args = ['--repo', dir, '--db', db, '--jobs', '2'];
  await indexJson(args);
  generateTree(dir, 1500, 'new');
  return { dir, db, args };
}

describe('Ctrl-C during index (case 7)', () => {
  it('stops, keeps the previous index and exits 130 however often it is pressed while parsing', async () => {
    const { dir, db, args } = await indexedThenGrown('big');
    for (let attempt = 0; attempt < 4; attempt++) {
      const r = await interruptIndex(args, {
        stderr: /\[index\] parsing \d+ files/,
        delayMs: attempt * 150,
      });
      expect(r.stderr, r.stderr).not.toMatch(/terminate called|Napi::Error|\n\s+at /);
      expect(r.code, r.stderr).toBe(130);
      expect(r.signals).toBeGreaterThan(1);
      expect(r.stderr).toMatch(/\ninterrupted; saving what was parsed and stopping\n/);
      expect(r.stderr.match(/still stopping/g)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(r.stderr).toMatch(/\nerror: interrupted; .*\n$/);
      const old = await runCli(['def', 'oldF3x1', '--repo', dir, '--db', db], { env });
      expect(old.code, old.stderr).toBe(0);
      const fresh = await runCli(['def', 'newF3x1', '--repo', dir, '--db', db, '-o', 'json'], {
        env,
      });
      expect(fresh.code).toBe(1);
    }
    // What was parsed before each interruption was kept: the next run resumes.
    const resumed = await indexJson(args);
    expect(resumed.reused).toBeGreaterThan(0);
    expect(resumed.parsed).toBeLessThan(1500);
  }, 240_000);

  it('stops a run interrupted after parsing, during the link, instead of finishing it', async () => {
    const { dir, db, args } = await indexedThenGrown('link');
    // Parse everything first, then interrupt the link of the same tree.
    const r = await interruptIndex(args, { stderr: /\[index\] discover .* parse / });
    expect(r.stderr, r.stderr).not.toMatch(/terminate called|Napi::Error|\n\s+at /);
    expect(r.code, r.stderr).toBe(130);
    const fresh = await runCli(['def', 'newF3x1', '--repo', dir, '--db', db], { env });
    if (/the previous index is unchanged/.test(r.stderr)) expect(fresh.code).toBe(1);
    else {
      expect(r.stderr).toContain('the index was already complete and is saved');
      expect(fresh.code).toBe(0);
    }
  }, 240_000);

  it('keeps what a first run parsed when it is interrupted during the link', async () => {
    const dir = path.join(tmp, 'first');
    generateTree(dir, 1500, 'new');
    const db = path.join(tmp, 'first.sqlite');
    const args = ['--repo', dir, '--db', db, '--jobs', '2'];
    // No database before this run: it is made, every file parsed, then the link interrupted.
    const r = await interruptIndex(args, { stderr: /\[index\] discover .* parse / });
    expect(r.stderr, r.stderr).not.toMatch(/terminate called|Napi::Error|\n\s+at /);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(
      'error: interrupted; 1500 parsed files were saved and the previous index is unchanged (run `k8s-read index` again to resume)\n',
    );
    // The next run parses nothing: it links what the interrupted one parsed.
    const resumed = await indexJson(args);
    expect(resumed).toMatchObject({ parsed: 0, reused: 1500 });
    const def = await runCli(['def', 'newF3x1', '--repo', dir, '--db', db], { env });
    expect(def.code, def.stderr).toBe(0);
  }, 240_000);
});

describe('a link from stored facts alone', () => {
  it("links a second checkout from what the first stored: every file's facts, each file its own", async () => {
    const dir = path.join(tmp, 'stored');
    generateTree(dir, 1200, 'new');
    // One content twice, its second file last of all: both files need the facts of one blob.
    mkdirSync(path.join(dir, 'zz'), { recursive: true });
    cpSync(path.join(dir, 'p0', 'f0.go'), path.join(dir, 'zz', 'f0.go'));
    const db = path.join(tmp, 'stored.sqlite');
    const first = await indexJson(['--repo', dir, '--db', db]);
    expect(first.parsed).toBe(1201);
    // A second checkout of the same files sharing the database: nothing to parse, all to link.
    const copy = path.join(tmp, 'stored-copy');
    cpSync(dir, copy, { recursive: true });
    const second = await indexJson(['--repo', copy, '--db', db]);
    expect(second).toMatchObject({ parsed: 0, reused: 1201 });
    expect(second.counts).toEqual(first.counts);
    expect(second.counts.functions).toBe(1201 * 20);
  }, 240_000);
});
