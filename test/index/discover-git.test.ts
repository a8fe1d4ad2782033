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

  it('finds nested go.mod files, Godeps and vendor/ through git, tracked or not, and ignores other files', async () => {
    // git is asked only for the files discovery reads (pathspecs): the nested ones must be in it.
    const repo = createTempRepo();
    repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n');
    repo.write('cmd/app/main.go', 'package main\n\nfunc main() {}\n');
    repo.write('staging/src/example.com/lib/go.mod', 'module example.com/lib\n\ngo 1.22\n');
    repo.write('staging/src/example.com/lib/lib.go', 'package lib\n');
    repo.write('vendor/modules.txt', '# example.com/lib v0.0.0 => ./staging/src/example.com/lib\n');
    repo.write('README.md', 'the app\n');
    repo.commit('first');
    // Untracked: a module of its own, nested two levels down.
    repo.write('tools/gen/go.mod', 'module example.com/gen\n\ngo 1.22\n');
    repo.write('tools/gen/pkg/gen.go', 'package pkg\n');
    // Edited: a file discovery does not read leaves the tree clean.
    repo.write('README.md', 'the app, edited\n');

    const tree = await discoverTree(repo.root);
    expect(tree.files.map((f) => f.path).sort()).toEqual([
      'cmd/app/main.go',
      'staging/src/example.com/lib/lib.go',
      'tools/gen/pkg/gen.go',
    ]);
    expect(tree.dirty).toBe(true); // the untracked gen.go
    expect(tree.layout.modules.map((m) => m.path).sort()).toEqual([
      'example.com/app',
      'example.com/gen',
      'example.com/lib',
    ]);
    expect(tree.dependencies.vendor).toBe('not indexed');
  });

  it('reads a tree the work tree ignores as a plain directory (a package under node_modules/)', async () => {
    const repo = createTempRepo();
    repo.write('.gitignore', 'node_modules\n');
    repo.write('README.md', 'a project that installed a Go tree\n');
    repo.commit('first');
    repo.write('node_modules/pkg/tree/go.mod', 'module example.com/tree\n\ngo 1.22\n');
    repo.write('node_modules/pkg/tree/cmd/app/main.go', 'package main\n\nfunc main() {}\n');
    const tree = await discoverTree(path.join(repo.root, 'node_modules', 'pkg', 'tree'));
    expect(tree.files.map((f) => f.path)).toEqual(['cmd/app/main.go']);
    expect(tree.layout.importPathOf('cmd/app')).toBe('example.com/tree/cmd/app');
    // Not of the project's history: no commit of it is named.
    expect(tree.isGit).toBe(false);
    expect(tree.commit).toBeNull();
    rmSync(repo.root, { recursive: true, force: true });
  });

  it('reads a tree under an ignore pattern through git when git tracks files there (--force)', async () => {
    const repo = createTempRepo();
    repo.write('.gitignore', 'third_party/\n');
    repo.write('third_party/tree/go.mod', 'module example.com/tree\n\ngo 1.22\n');
    repo.write('third_party/tree/cmd/app/main.go', 'package main\n\nfunc main() {}\n');
    repo.git('add', '.gitignore');
    repo.git('add', '--force', 'third_party/tree/go.mod', 'third_party/tree/cmd/app/main.go');
    const commit = repo.commit('first');
    // Not added: git does not hold it, so it is not of the tree, as in any checkout.
    repo.write('third_party/tree/cmd/app/scratch.go', 'package main\n');
    const tree = await discoverTree(path.join(repo.root, 'third_party', 'tree'));
    expect(tree.isGit).toBe(true);
    expect(tree.commit).toBe(commit);
    expect(tree.files.map((f) => f.path)).toEqual(['cmd/app/main.go']);
    expect(tree.files[0]!.blob).toBe(
      repo.git('rev-parse', 'HEAD:third_party/tree/cmd/app/main.go').trim(),
    );
    rmSync(repo.root, { recursive: true, force: true });
  });
});
