/**
 * A blame answered from the cache alone, with no git started, is printed again the next time the
 * same command line is run (src/cli/replay.ts); never once the file, HEAD, the commits to look
 * through or the origin's URL (its pull request links) have changed, nor after a run that had to
 * ask git.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createQueueHistory } from '../helpers/git-history.js';
import { copyInstall, runCli, type CliResult } from '../helpers/run-cli.js';
import { execSql } from '../helpers/sqlite-file.js';
import { useTempDir } from '../helpers/temp-dir.js';

const { repo } = createQueueHistory();
const scratch = useTempDir('k8s-read-blame-replay-');
const cache = path.join(scratch, 'cache');
const REPLAYED = '[replay] printed the output kept';

function blame(args: string[] = [], env: Record<string, string> = {}, db = 'index.sqlite') {
  return runCli(
    ['blame', 'pkg/queue.go:3', '--repo', repo.root, '--db', path.join(scratch, db), ...args],
    { env: { XDG_CACHE_HOME: cache, ...env } },
  );
}

/** The same blame, saying whether it was printed from a kept output. */
function replayed(args: string[] = []): Promise<CliResult> {
  return blame(args, { K8S_READ_DEBUG: 'replay' });
}

/** The same blame with a cache of its own, used once: git is asked. */
let fresh = 0;
function uncached(args: string[] = []): Promise<CliResult> {
  return blame(args, {}, `fresh-${fresh++}.sqlite`);
}

describe('a cached blame printed again', () => {
  it('is kept only from a run that did not start git, and prints the same bytes', async () => {
    const cold = await blame();
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stdout).toContain('#12');
    const cached = await replayed();
    expect(cached.stderr).not.toContain(REPLAYED); // the cold run asked git: nothing was kept
    expect(cached.stdout).toBe(cold.stdout);
    const again = await replayed();
    expect(again.stderr).toContain(REPLAYED);
    expect(again.stdout).toBe(cold.stdout);
    expect(again.stdout).toBe((await uncached()).stdout);

    await blame(['-o', 'json']);
    await blame(['-o', 'json']);
    const json = await replayed(['-o', 'json']);
    expect(json.stderr).toContain(REPLAYED);
    expect(json.stdout).toBe((await uncached(['-o', 'json'])).stdout);
  });

  it('is not printed once the file is edited, and shows the edit', async () => {
    await blame();
    expect((await replayed()).stderr).toContain(REPLAYED);
    const file = path.join(repo.root, 'pkg', 'queue.go');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('func Add() { add() }', 'func Add() { add(); add() }'));
    try {
      const edited = await replayed();
      expect(edited.stderr).not.toContain(REPLAYED);
      expect(edited.stdout).toContain('add(); add()');
      expect(edited.stdout).toBe((await uncached()).stdout);
    } finally {
      writeFileSync(file, text);
    }
  });

  it('is not printed once a file of commits to look through appears', async () => {
    await blame();
    await blame();
    expect((await replayed()).stderr).toContain(REPLAYED);
    const ignore = path.join(repo.root, '.git-blame-ignore-revs');
    writeFileSync(ignore, `${repo.git('rev-parse', 'HEAD').trim()}\n`);
    try {
      const r = await replayed();
      expect(r.stderr).not.toContain(REPLAYED);
      expect(r.stdout).toBe((await uncached()).stdout);
    } finally {
      rmSync(ignore);
    }
  });

  it("is not printed once the origin's URL changes, and links to the new one", async () => {
    await blame();
    await blame();
    expect((await replayed()).stderr).toContain(REPLAYED);
    repo.git('remote', 'set-url', 'origin', 'https://github.com/kubernetes/elsewhere');
    try {
      const r = await replayed();
      expect(r.stderr).not.toContain(REPLAYED);
      expect(r.stdout).toContain('https://github.com/kubernetes/elsewhere/pull/12');
    } finally {
      repo.git('remote', 'set-url', 'origin', 'https://github.com/kubernetes/demo');
    }
  });

  it('is not printed once HEAD moves', async () => {
    await blame();
    await blame();
    expect((await replayed()).stderr).toContain(REPLAYED);
    repo.write('docs/NOTES.md', 'a note\n');
    repo.commit('A note');
    const r = await replayed();
    expect(r.stderr).not.toContain(REPLAYED);
    expect(r.stdout).toBe((await uncached()).stdout);
  });

  it('is not kept from a run that asked git, even with every file it watches unchanged', async () => {
    // A database k8s-read did not make: blame answers without a cache, from git every time, and
    // git reads more than the files a replay watches (here the .mailmap).
    const db = path.join(scratch, 'notes.db');
    await execSql(db, 'CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)');
    const args = ['--db', db];
    const first = await blame(args);
    expect(first.stderr).toContain('answers are not cached');
    expect(first.stdout).toContain('Ada Reader');
    await blame(args);
    expect((await blame(args, { K8S_READ_DEBUG: 'replay' })).stderr).not.toContain(REPLAYED);
    const mailmap = path.join(repo.root, '.mailmap');
    writeFileSync(mailmap, 'Ada Lovelace <ada@example.com> Ada Reader <ada@example.com>\n');
    try {
      const renamed = await blame(args, { K8S_READ_DEBUG: 'replay' });
      expect(renamed.stderr).not.toContain(REPLAYED);
      expect(renamed.stdout).toContain('Ada Lovelace');
    } finally {
      rmSync(mailmap);
    }
  });

  it('answers as ever when the state a replay needs cannot be read', async () => {
    // An install without rules/ (blame reads none): the replay cannot tell its state.
    const cli = copyInstall(path.join(scratch, 'no-rules'), []);
    const ours = await uncached();
    const argv = [
      'blame',
      'pkg/queue.go:3',
      '--repo',
      repo.root,
      '--db',
      path.join(scratch, 'nr.sqlite'),
    ];
    // Cold, then from the cache: both look at the state.
    for (let i = 0; i < 2; i++) {
      const theirs = await runCli(argv, { cli, env: { XDG_CACHE_HOME: cache } });
      expect(theirs.code, theirs.stderr).toBe(0);
      expect(theirs.stdout).toBe(ours.stdout);
    }
  });
});
