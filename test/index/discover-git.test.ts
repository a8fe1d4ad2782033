/**
 * In a git work tree, discovery lists what is on disk: tracked files with git's blob ids, files
 * edited on disk without one (hashed from disk later), untracked-not-ignored files, and not the
 * tracked files deleted from disk; HEAD's commit and release tag come from git.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTree } from '../../src/index/discover.js';
import { createTempRepo } from '../helpers/temp-repo.js';

describe('discoverTree in a git work tree', () => {
  it('lists tracked, edited and untracked files, not deleted or ignored ones', async () => {
    const repo = createTempRepo();
    repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n');
    repo.write('kept.go', 'package app\n\nfunc Kept() {}\n');
    repo.write('edited.go', 'package app\n\nfunc Edited() {}\n');
    repo.write('gone.go', 'package app\n\nfunc Gone() {}\n');
    repo.write('.gitignore', 'ignored.go\n');
    const commit = repo.commit('first');
    repo.git('tag', 'v1.2.3');
    repo.write('edited.go', 'package app\n\nfunc Edited() { Kept() }\n');
    rmSync(path.join(repo.root, 'gone.go'));
    repo.write('new.go', 'package app\n\nfunc New() {}\n');
    repo.write('ignored.go', 'package app\n\nfunc Ignored() {}\n');

    const tree = await discoverTree(repo.root);
    const byPath = new Map(tree.files.map((f) => [f.path, f]));
    expect([...byPath.keys()].sort()).toEqual(['edited.go', 'kept.go', 'new.go']);
    expect(byPath.get('kept.go')!.blob).toBe(repo.git('rev-parse', 'HEAD:kept.go').trim());
    // Edited and untracked files are hashed from disk (as git would), not given the index's id.
    expect(byPath.get('edited.go')!.blob).not.toBe(repo.git('rev-parse', 'HEAD:edited.go').trim());
    expect(tree.dirty).toBe(true);
    expect(tree.commit).toBe(commit);
    expect(tree.version).toBe('v1.2.3');
    expect(tree.remote).toBeNull();
  });
});
