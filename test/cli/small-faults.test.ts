/**
 * Issue 14, case 8: the smaller faults. (File names Go cannot use and untracked symlinks are in
 * test/index/discover-faults.test.ts; wrong guide field types in test/tour/load-tours.test.ts; a
 * failed first index in test/cli/database-faults.test.ts.)
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { chooseRepo } from '../../src/cli/repo.js';
import { runIndex } from '../../src/cli/run-index.js';
import { createHistoryRepo, mergePullRequest } from '../helpers/git-history.js';
import { demoRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-small-faults-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };

/** A terminal-like stderr that keeps what is written. */
function terminal(): Writable & { isTTY: boolean; columns: number; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(stream, { isTTY: true, columns: 100, text: () => chunks.join('') });
}

async function indexOnTerminal(name: string, extraEnv: Record<string, string>): Promise<string> {
  const stderr = terminal();
  const ctx: CliContext = {
    stdout: new Writable({ write: (_c, _e, done) => done() }),
    stderr,
    env: { ...extraEnv },
    cwd: tmp,
  };
  const choice = chooseRepo({ repo: demoRoot, db: path.join(tmp, `${name}.sqlite`) }, ctx);
  await runIndex(choice, ctx, {});
  return stderr.text();
}

describe('the progress bar', () => {
  it('is drawn on a terminal, for the parse and for the stages of the link', async () => {
    const drawn = await indexOnTerminal('tty', {});
    expect(drawn).toContain('parsing |');
    expect(drawn).toContain('loading facts |');
    expect(drawn).toContain('following arguments |');
    expect(drawn).toContain('linking calls |');
    expect(drawn.indexOf('linking calls |')).toBeLessThan(drawn.indexOf('writing the index'));
  });

  it('is not drawn when CI is set, even on a terminal', async () => {
    expect(await indexOnTerminal('ci', { CI: 'true' })).toBe('');
  });
});

describe('a newline in a file name', () => {
  it('is printed quoted on one line in the files of a pull request', async () => {
    const repo = createHistoryRepo({ 'go.mod': 'module example.com/n\n', 'a.go': 'package n\n' });
    mergePullRequest(repo, {
      number: 5,
      title: 'Add an odd file',
      branch: 'odd',
      commits: [{ message: 'odd', files: { 'odd\nname.go': 'package n\n' } }],
    });
    const r = await runCli(['pr', '5', '--repo', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\nFiles (1):\n  A "odd\\nname.go"\n');
  });
});

describe('pr <number>', () => {
  it('refuses a number no pull request has, instead of printing #1e+23', async () => {
    const r = await runCli(['pr', '99999999999999999999999', '--repo', demoRoot], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('1e+23');
    expect(r.stderr).toContain('no pull request has a number that large (23 digits)');
  });
});
