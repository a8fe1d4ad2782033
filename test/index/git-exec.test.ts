/**
 * gitBatch runs several git commands at once (one shell starting them where there is one) and
 * hands back each one's output, or undefined for one that failed, byte for byte as git printed
 * it, whatever the arguments hold, and leaves nothing behind in the temporary directory.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { gitBatch, gitBytes } from '../../src/index/git-exec.js';
import { createTempRepo } from '../helpers/temp-repo.js';

const leftovers = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith('k8s-read-git-'));

describe('gitBatch', () => {
  it('answers each command as git does alone, undefined where it failed, and cleans up', async () => {
    const repo = createTempRepo();
    // Names a shell would split, expand or quote: a space, a quote, a dollar, a glob, a newline.
    const names = ["it's here.go", 'a b.go', '$HOME.go', 'x*y.go', 'new\nline.go'];
    for (const name of names) repo.write(name, 'package p\n');
    repo.commit('first');
    const before = leftovers();
    const commands = [
      ['ls-files', '-z', '--', ...names],
      ['rev-parse', 'HEAD'],
      ['rev-parse', 'no-such-ref'],
      ['log', '-1', '--format=%s|%an'],
    ];
    const answers = await gitBatch(repo.root, commands);
    expect(answers).toHaveLength(4);
    expect(answers[0]).toEqual(await gitBytes(repo.root, commands[0]!));
    expect(answers[0]!.toString('utf8').split('\0').filter(Boolean).sort()).toEqual(
      [...names].sort(),
    );
    expect(answers[1]!.toString('utf8').trim()).toBe(repo.git('rev-parse', 'HEAD').trim());
    expect(answers[2]).toBeUndefined();
    expect(answers[3]!.toString('utf8').trim()).toBe('first|Ada Reader');
    expect(leftovers()).toEqual(before);
  });

  it('answers undefined for every command outside a git work tree', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-nogit-'));
    const answers = await gitBatch(dir, [['rev-parse', 'HEAD'], ['ls-files']]);
    rmSync(dir, { recursive: true });
    expect(answers).toEqual([undefined, undefined]);
  });

  it('answers the same without a temporary directory to write to (one process each)', async () => {
    const repo = createTempRepo();
    repo.write('a.go', 'package p\n');
    repo.commit('first');
    const commands = [['ls-files'], ['rev-parse', 'HEAD'], ['rev-parse', 'no-such-ref']];
    const before = await gitBatch(repo.root, commands);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(repo.root, 'no-such-directory');
    try {
      expect(await gitBatch(repo.root, commands)).toEqual(before);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(before[0]!.toString('utf8')).toBe('a.go\n');
  });
});
