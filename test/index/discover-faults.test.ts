/**
 * Issue 14, cases 5 and 8: files discovery must leave out, and say why. An unreadable directory
 * of a tree without git, an untracked symlink that points out of the work tree, file names that
 * are not UTF-8 or that hold a newline.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTree } from '../../src/index/discover.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempRepo } from '../helpers/temp-repo.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-discover-');
chmodSync(tmp, 0o755);

const goFile = (name: string) => `package main\n\nfunc ${name}() {}\n`;
/** `f<0xff>.go`: a name that is not UTF-8. */
const latin1Name = Buffer.concat([Buffer.from('f'), Buffer.from([0xff]), Buffer.from('.go')]);

describe('discovery in a git work tree', () => {
  it('leaves out an untracked symlink to a file outside the work tree, as it does tracked ones', async () => {
    const repo = createTempRepo();
    repo.write('main.go', goFile('main'));
    repo.commit('first');
    const outside = path.join(tmp, 'outside.go');
    writeFileSync(outside, goFile('secret'));
    symlinkSync(outside, path.join(repo.root, 'link.go'));
    const tree = await discoverTree(repo.root);
    expect(tree.files.map((f) => f.path)).toEqual(['main.go']);
  });

  it('names files whose names are not UTF-8 or hold a newline, instead of failing to read them', async () => {
    const repo = createTempRepo();
    repo.write('main.go', goFile('main'));
    writeFileSync(Buffer.concat([Buffer.from(`${repo.root}/`), latin1Name]), goFile('tracked'));
    repo.commit('first');
    writeFileSync(path.join(repo.root, 'new\nline.go'), goFile('untracked'));
    const tree = await discoverTree(repo.root);
    expect(tree.files.map((f) => f.path)).toEqual(['main.go']);
    expect(tree.unreadable).toEqual([
      { path: 'f\uFFFD.go', why: 'the file name is not UTF-8' },
      { path: '"new\\nline.go"', why: 'the file name holds control characters' },
    ]);
  });
});

describe('discovery without git', () => {
  it('names files whose names are not UTF-8 or hold a newline', async () => {
    const root = path.join(tmp, 'names');
    mkdirSync(root);
    writeFileSync(path.join(root, 'main.go'), goFile('main'));
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), latin1Name]), goFile('latin'));
    writeFileSync(path.join(root, 'new\nline.go'), goFile('newline'));
    const tree = await discoverTree(root);
    expect(tree.files.map((f) => f.path)).toEqual(['main.go']);
    expect(tree.unreadable.map((u) => u.why).sort()).toEqual([
      'the file name holds control characters',
      'the file name is not UTF-8',
    ]);
  });

  it('indexes around a directory it cannot read and says so in one line (case 5)', async () => {
    const root = path.join(tmp, 'locked-out');
    mkdirSync(path.join(root, 'secret'), { recursive: true });
    writeFileSync(path.join(root, 'main.go'), goFile('main'));
    writeFileSync(path.join(root, 'secret', 'a.go'), 'package secret\n');
    chmodSync(path.join(root, 'secret'), 0o000);
    const dbDir = path.join(tmp, 'db');
    mkdirSync(dbDir, { mode: 0o777 });
    chmodSync(dbDir, 0o777);
    try {
      const r = await runCli(
        ['index', '--repo', root, '--db', path.join(dbDir, 'locked-out.sqlite'), '--verbose'],
        { unprivileged: true },
      );
      expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('warning: 1 unreadable\n  secret/: unreadable (EACCES)\n');
      expect(r.stdout).toMatch(/^indexed 1 files/);
    } finally {
      chmodSync(path.join(root, 'secret'), 0o755);
    }
  });
});
