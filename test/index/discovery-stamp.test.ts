/**
 * The discovery stamp stands for git's answer only while nothing that answer depends on changed:
 * each change below would change what git lists (or which commit it names), and each must make
 * the stamp unusable; with no change, the stamp's tree is what discovery finds again.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverTree } from '../../src/index/discover.js';
import {
  makeStamp,
  RACY_MS,
  serializeTree,
  treeFromStamp,
  type StampContext,
} from '../../src/index/discovery-stamp.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const options = { includeVendor: false, includeTests: false, with: [], moduleCache: null };

let home: string;
let savedEnv: NodeJS.ProcessEnv;

beforeEach(() => {
  // git (started by discovery) and the stamp read the same user config: a home of the test's own.
  savedEnv = { ...process.env };
  home = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-home-'));
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  process.env.GIT_CONFIG_NOSYSTEM = '1';
});

afterEach(() => {
  process.env = savedEnv;
  rmSync(home, { recursive: true, force: true });
});

function context(extra: Partial<StampContext> = {}): StampContext {
  return { env: { ...process.env }, build: 'test-build', options, ...extra };
}

/** A committed module with vendor/ (dependencies from inside the tree), and `tools.go` untracked. */
function makeRepo({ untracked = true } = {}): TempRepo {
  const repo = createTempRepo();
  repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n');
  repo.write('app.go', 'package app\n\nfunc App() {}\n');
  repo.write('pkg/lib/lib.go', 'package lib\n\nfunc Lib() {}\n');
  repo.write('docs/README.md', 'the docs\n');
  repo.write('vendor/modules.txt', '# example.com/dep v1.0.0\n');
  repo.write('vendor/example.com/dep/dep.go', 'package dep\n');
  repo.write('.gitignore', '/scratch/\n');
  repo.commit('first');
  if (untracked) repo.write('tools.go', 'package app\n');
  return repo;
}

/** A stamp of the tree as discovery finds it now, taken as if discovery had begun well after. */
async function stampNow(root: string, ctx = context()) {
  const tree = await discoverTree(root, options);
  const stamp = makeStamp(tree, serializeTree(tree), ctx, Date.now() + RACY_MS + 1000);
  // A change made in the same clock tick as the stamp's stat could leave the same times: the
  // stamp's own guard (RACY_MS) is what covers that in real runs, which this helper steps over.
  await delay(30);
  return { tree, stamp };
}

describe('the discovery stamp', () => {
  it('gives back what discovery found while nothing changed', async () => {
    const repo = makeRepo();
    const { tree, stamp } = await stampNow(repo.root);
    expect(stamp).toBeDefined();
    const again = treeFromStamp(repo.root, context(), stamp);
    expect(again && serializeTree(again)).toBe(serializeTree(tree));
    expect(again!.layout.importPathOf('pkg/lib')).toBe('example.com/app/pkg/lib');
    expect(serializeTree(await discoverTree(repo.root, options))).toBe(serializeTree(tree));
  });

  const changes: [string, (repo: TempRepo) => void][] = [
    [
      'a Go file edited in place, its size and modification time kept',
      (repo) => {
        const file = path.join(repo.root, 'app.go');
        const { mtime } = statSync(file);
        writeFileSync(file, 'package app\n\nfunc Ap2() {}\n');
        utimesSync(file, mtime, mtime);
      },
    ],
    ['an untracked Go file', (repo) => repo.write('pkg/lib/more.go', 'package lib\n')],
    [
      'a Go file in a directory that had none',
      (repo) => repo.write('docs/example.go', 'package docs\n'),
    ],
    ['a Go file deleted', (repo) => rmSync(path.join(repo.root, 'pkg/lib/lib.go'))],
    [
      'a .gitignore edited in place',
      (repo) => appendFileSync(path.join(repo.root, '.gitignore'), 'tools.go\n'),
    ],
    ['go.mod edited', (repo) => repo.write('go.mod', 'module example.com/other\n\ngo 1.22\n')],
    ['a go.work added', (repo) => repo.write('go.work', 'go 1.22\n\nuse .\n')],
    ['a commit', (repo) => repo.git('commit', '-q', '--allow-empty', '-m', 'second')],
    ['a tag', (repo) => repo.git('tag', 'v1.0.0')],
    [
      'a file staged',
      (repo) => {
        repo.write('app.go', 'package app\n\nfunc App() { App() }\n');
        repo.git('add', 'app.go');
      },
    ],
    [
      'the user-wide ignore file',
      () => {
        mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
        writeFileSync(path.join(home, '.config', 'git', 'ignore'), 'tools.go\n');
      },
    ],
    [
      'the repository config (its remote)',
      (repo) => repo.git('remote', 'add', 'origin', 'https://example.com/app.git'),
    ],
  ];
  for (const [what, change] of changes) {
    it(`is not used after ${what}`, async () => {
      const repo = makeRepo();
      const { tree, stamp } = await stampNow(repo.root);
      expect(stamp).toBeDefined();
      change(repo);
      expect(treeFromStamp(repo.root, context(), stamp)).toBeUndefined();
      // And discovery now says something else: the stamp would have been wrong.
      const fresh = await discoverTree(repo.root, options);
      expect(serializeTree(fresh)).not.toBe(serializeTree(tree));
    });
  }

  it('stays usable after changes discovery does not see', async () => {
    const repo = makeRepo();
    const { stamp } = await stampNow(repo.root);
    repo.write('docs/README.md', 'the docs, edited in place\n'); // not a file discovery reads
    appendFileSync(path.join(repo.root, 'vendor/example.com/dep/dep.go'), '\n'); // not indexed
    expect(treeFromStamp(repo.root, context(), stamp)).toBeDefined();
  });

  it('is not made for a tree that changed just before discovery began', async () => {
    const repo = makeRepo();
    const tree = await discoverTree(repo.root, options);
    expect(makeStamp(tree, serializeTree(tree), context(), Date.now())).toBeUndefined();
  });

  it('is not used under other options, another build, or an environment that moves git', async () => {
    const repo = makeRepo();
    const { stamp } = await stampNow(repo.root);
    expect(
      treeFromStamp(repo.root, context({ options: { ...options, includeTests: true } }), stamp),
    ).toBeUndefined();
    expect(treeFromStamp(repo.root, context({ build: 'another' }), stamp)).toBeUndefined();
    const moved = { ...process.env, GIT_INDEX_FILE: path.join(repo.root, '.git', 'other') };
    expect(treeFromStamp(repo.root, context({ env: moved }), stamp)).toBeUndefined();
    expect(treeFromStamp(repo.root, context(), stamp)).toBeDefined();
  });

  it('stands in a linked worktree, and sees its commits and its files', async () => {
    const repo = makeRepo();
    const linked = path.join(mkdtempSync(path.join(os.tmpdir(), 'k8s-read-wt-')), 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'side', linked);
    const { stamp } = await stampNow(linked);
    expect(stamp).toBeDefined();
    expect(treeFromStamp(linked, context(), stamp)).toBeDefined();
    repo.git('-C', linked, 'commit', '-q', '--allow-empty', '-m', 'on side');
    expect(treeFromStamp(linked, context(), stamp)).toBeUndefined();
    const again = await stampNow(linked);
    writeFileSync(path.join(linked, 'pkg', 'lib', 'more.go'), 'package lib\n');
    expect(treeFromStamp(linked, context(), again.stamp)).toBeUndefined();
  });

  it('is not made for a tree with a name that is not UTF-8', async () => {
    const repo = makeRepo();
    // A directory named by the byte 0xff: a path no string can give back.
    mkdirSync(Buffer.concat([Buffer.from(`${repo.root}/pkg/`), Buffer.from([0xff])]));
    const tree = await discoverTree(repo.root, options);
    expect(
      makeStamp(tree, serializeTree(tree), context(), Date.now() + RACY_MS + 1000),
    ).toBeUndefined();
  });

  it('is not made where a config includes another', async () => {
    const repo = makeRepo();
    repo.git('config', 'include.path', path.join(home, 'more.gitconfig'));
    const tree = await discoverTree(repo.root, options);
    const later = Date.now() + RACY_MS + 1000;
    expect(makeStamp(tree, serializeTree(tree), context(), later)).toBeUndefined();
    repo.git('config', '--unset', 'include.path');
    expect(makeStamp(tree, serializeTree(tree), context(), later)).toBeDefined();
    repo.git('config', 'core.excludesFile', '~other/ignore');
    expect(makeStamp(tree, serializeTree(tree), context(), later)).toBeUndefined();
  });

  describe('below the top of its checkout (a module of a monorepo)', () => {
    /** makeRepo's, with a module two directories down and an untracked file in it. */
    function makeMonorepo(): { repo: TempRepo; root: string } {
      const repo = makeRepo();
      repo.write('mods/mod/go.mod', 'module example.com/mod\n\ngo 1.22\n');
      repo.write('mods/mod/a/a.go', 'package a\n\nfunc A() {}\n');
      repo.commit('a module below the top');
      repo.write('mods/mod/a/extra.go', 'package a\n');
      return { repo, root: path.join(repo.root, 'mods', 'mod') };
    }

    it('gives back what discovery found, and stands changes elsewhere in the checkout', async () => {
      const { repo, root } = makeMonorepo();
      const { tree, stamp } = await stampNow(root);
      expect(stamp).toBeDefined();
      expect(tree.files.map((f) => f.path).sort()).toEqual(['a/a.go', 'a/extra.go']);
      const again = treeFromStamp(root, context(), stamp);
      expect(again && serializeTree(again)).toBe(serializeTree(tree));
      repo.write('pkg/lib/more.go', 'package lib\n');
      repo.write('docs/README.md', 'the docs, edited\n');
      expect(treeFromStamp(root, context(), stamp)).toBeDefined();
      // Where git would not look above the root, neither does the stamp.
      const ceiling = { ...process.env, GIT_CEILING_DIRECTORIES: repo.root };
      expect(treeFromStamp(root, context({ env: ceiling }), stamp)).toBeUndefined();
    });

    /**
     * A module that replaces its dependency with a directory beside it in the same checkout (or
     * where `dep` says, relative to the module), the dependency requiring a module of its own.
     */
    function makeReplacing(dep = (_root: string) => '../dep'): { repo: TempRepo; root: string } {
      const repo = makeRepo();
      const root = path.join(repo.root, 'mods', 'mod');
      repo.write(
        'mods/mod/go.mod',
        `module example.com/mod\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ${dep(root)}\n`,
      );
      repo.write(
        'mods/mod/a/a.go',
        'package a\n\nimport "example.com/dep/lib"\n\nfunc A() { lib.Lib() }\n',
      );
      repo.write('mods/dep/go.mod', DEP_GO_MOD);
      repo.write(
        'mods/dep/lib/lib.go',
        'package lib\n\nimport "example.com/far/x"\n\nfunc Lib() { x.X() }\n',
      );
      repo.commit('a module and the module it replaces');
      return { repo, root };
    }
    const DEP_GO_MOD = 'module example.com/dep\n\ngo 1.22\n\nrequire example.com/far v1.0.0\n';

    const replaced: [string, (repo: TempRepo) => void][] = [
      [
        'a Go file added to a package it takes',
        (repo) => repo.write('mods/dep/lib/more.go', 'package lib\n'),
      ],
      [
        "the replaced module's go.mod edited",
        (repo) => repo.write('mods/dep/go.mod', DEP_GO_MOD.replace('v1.0.0', 'v1.1.0')),
      ],
      [
        "the go.mod at the top, which names the permalinks' repository",
        (repo) => repo.write('go.mod', 'module github.com/example/app\n\ngo 1.22\n'),
      ],
    ];
    for (const [what, change] of replaced) {
      it(`stands with a module replaced from the same checkout, and is not used after ${what}`, async () => {
        const { repo, root } = makeReplacing();
        const { tree, stamp } = await stampNow(root);
        expect(tree.dependencies.roots).toMatchObject([
          { module: 'example.com/dep', source: 'replace', files: 1 },
        ]);
        expect(stamp).toBeDefined();
        expect(serializeTree(treeFromStamp(root, context(), stamp)!)).toBe(serializeTree(tree));
        change(repo);
        expect(treeFromStamp(root, context(), stamp)).toBeUndefined();
        expect(serializeTree(await discoverTree(root, options))).not.toBe(serializeTree(tree));
      });
    }

    /** A checkout of the dependency on its own, beside the tree's. */
    function otherCheckout(): TempRepo {
      const other = createTempRepo();
      other.write('go.mod', DEP_GO_MOD);
      other.write(
        'lib/lib.go',
        'package lib\n\nimport "example.com/far/x"\n\nfunc Lib() { x.X() }\n',
      );
      other.commit('the dependency, checked out on its own');
      other.git('checkout', '-q', '-b', 'side');
      other.git('commit', '-q', '--allow-empty', '-m', 'on a side branch');
      other.git('checkout', '-q', 'main');
      return other;
    }
    const elsewhere: [string, (other: TempRepo) => void][] = [
      ['a commit there', (other) => other.git('commit', '-q', '--allow-empty', '-m', 'second')],
      ['another branch checked out there', (other) => other.git('checkout', '-q', 'side')],
      [
        'a Go file added to a package it takes there',
        (other) => other.write('lib/more.go', 'package lib\n'),
      ],
      [
        "that checkout's go.mod edited",
        (other) => other.write('go.mod', DEP_GO_MOD.replace('v1.0.0', 'v1.1.0')),
      ],
    ];
    for (const [what, change] of elsewhere) {
      it(`stands with a module replaced from another checkout, and is not used after ${what}`, async () => {
        const other = otherCheckout();
        for (const dep of [(from: string) => path.relative(from, other.root), () => other.root]) {
          const { root } = makeReplacing(dep);
          const { tree, stamp } = await stampNow(root);
          expect(tree.dependencies.roots).toMatchObject([
            { source: 'replace', dir: other.root, files: 1 },
          ]);
          expect(stamp).toBeDefined();
          expect(serializeTree(treeFromStamp(root, context(), stamp)!)).toBe(serializeTree(tree));
        }
        const { root } = makeReplacing(() => other.root);
        const { tree, stamp } = await stampNow(root);
        change(other);
        expect(treeFromStamp(root, context(), stamp)).toBeUndefined();
        // What git then says differs indeed (the commit in the permalinks, or the files).
        expect(serializeTree(await discoverTree(root, options))).not.toBe(serializeTree(tree));
      });
    }

    it('is not made with a module replaced from a directory outside git', async () => {
      const plain = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-plain-dep-'));
      writeFileSync(path.join(plain, 'go.mod'), 'module example.com/dep\n\ngo 1.22\n');
      mkdirSync(path.join(plain, 'lib'));
      writeFileSync(path.join(plain, 'lib', 'lib.go'), 'package lib\n\nfunc Lib() {}\n');
      const { root } = makeReplacing(() => plain);
      const tree = await discoverTree(root, options);
      expect(tree.dependencies.roots).toMatchObject([{ source: 'replace', dir: plain, files: 1 }]);
      const later = Date.now() + RACY_MS + 1000;
      expect(makeStamp(tree, serializeTree(tree), context(), later)).toBeUndefined();
      rmSync(plain, { recursive: true, force: true });
    });

    const above: [string, (repo: TempRepo) => void][] = [
      [
        "the top's .gitignore edited in place",
        (repo) => appendFileSync(path.join(repo.root, '.gitignore'), 'extra.go\n'),
      ],
      [
        'a .gitignore added between the top and the root',
        (repo) => repo.write('mods/.gitignore', 'extra.go\n'),
      ],
      ['a commit', (repo) => repo.git('commit', '-q', '--allow-empty', '-m', 'second')],
    ];
    for (const [what, change] of above) {
      it(`is not used after ${what}`, async () => {
        const { repo, root } = makeMonorepo();
        const { tree, stamp } = await stampNow(root);
        expect(stamp).toBeDefined();
        change(repo);
        expect(treeFromStamp(root, context(), stamp)).toBeUndefined();
        const fresh = await discoverTree(root, options);
        expect(serializeTree(fresh)).not.toBe(serializeTree(tree));
      });
    }
  });

  it('watches the module cache for the modules it did not find, and is not made with --with a directory outside git', async () => {
    const repo = createTempRepo();
    repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n');
    repo.write('app.go', 'package app\n\nimport "example.com/dep"\n\nvar _ = dep.X\n');
    repo.commit('first');
    const cache = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-modcache-'));
    const withCache = { ...options, moduleCache: cache };
    const ctx = context({ options: withCache });
    const tree = await discoverTree(repo.root, withCache);
    expect(tree.dependencies.missing.map((m) => m.reason)).toEqual(['not in the module cache']);
    const stamp = makeStamp(tree, serializeTree(tree), ctx, Date.now() + RACY_MS + 1000);
    expect(stamp).toBeDefined();
    await delay(30);
    expect(treeFromStamp(repo.root, ctx, stamp)).toBeDefined();
    // `go mod download` puts the module in the cache: the stamp no longer stands.
    const dep = path.join(cache, 'example.com', 'dep@v1.0.0');
    mkdirSync(dep, { recursive: true });
    writeFileSync(path.join(dep, 'go.mod'), 'module example.com/dep\n');
    writeFileSync(path.join(dep, 'dep.go'), 'package dep\n\nvar X = 1\n');
    expect(treeFromStamp(repo.root, ctx, stamp)).toBeUndefined();
    const fresh = await discoverTree(repo.root, withCache);
    expect(fresh.dependencies.missing).toEqual([]);
    expect(fresh.dependencies.roots.map((r) => r.source)).toEqual(['module cache']);
    // A stamp of the tree with its dependency found, then a file of the dependency changed.
    const found = makeStamp(fresh, serializeTree(fresh), ctx, Date.now() + RACY_MS + 1000);
    expect(found).toBeDefined();
    await delay(30);
    writeFileSync(path.join(dep, 'dep.go'), 'package dep\n\nvar X = 2\n');
    expect(treeFromStamp(repo.root, ctx, found)).toBeUndefined();

    const checkout = path.join(cache, 'example.com', 'dep@v1.0.0');
    const given = { ...options, with: [checkout] };
    const viaWith = await discoverTree(repo.root, given);
    const later = Date.now() + RACY_MS + 1000;
    expect(
      makeStamp(viaWith, serializeTree(viaWith), context({ options: given }), later),
    ).toBeUndefined();
    rmSync(cache, { recursive: true, force: true });
  });

  it('stands with --with a checkout, and is not used after a commit there or once it is gone', async () => {
    const repo = createTempRepo();
    repo.write('go.mod', 'module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n');
    repo.write('app.go', 'package app\n\nimport "example.com/dep"\n\nvar _ = dep.X\n');
    repo.commit('first');
    const dep = createTempRepo();
    dep.write('go.mod', 'module example.com/dep\n\ngo 1.22\n');
    dep.write('dep.go', 'package dep\n\nvar X = 1\n');
    dep.commit('the dependency');
    const given = { ...options, with: [dep.root] };
    const ctx = context({ options: given });
    const stampWith = async () => {
      const tree = await discoverTree(repo.root, given);
      const stamp = makeStamp(tree, serializeTree(tree), ctx, Date.now() + RACY_MS + 1000);
      await delay(30);
      return { tree, stamp };
    };
    const first = await stampWith();
    expect(first.tree.dependencies.roots).toMatchObject([{ source: 'with', dir: dep.root }]);
    expect(first.stamp).toBeDefined();
    expect(serializeTree(treeFromStamp(repo.root, ctx, first.stamp)!)).toBe(
      serializeTree(first.tree),
    );
    // The stamp is kept per options: without --with, it is not this one.
    expect(treeFromStamp(repo.root, context(), first.stamp)).toBeUndefined();
    dep.git('commit', '-q', '--allow-empty', '-m', 'second');
    expect(treeFromStamp(repo.root, ctx, first.stamp)).toBeUndefined();
    const second = await stampWith();
    expect(serializeTree(second.tree)).not.toBe(serializeTree(first.tree));
    expect(second.stamp).toBeDefined();
    rmSync(dep.root, { recursive: true, force: true });
    expect(treeFromStamp(repo.root, ctx, second.stamp)).toBeUndefined();
    const gone = await discoverTree(repo.root, given);
    expect(gone.dependencies.warnings).toEqual([`--with ${dep.root}: no such directory; not used`]);
    // A stamp made while the checkout is missing does not stand once it is there again.
    const missing = makeStamp(gone, serializeTree(gone), ctx, Date.now() + RACY_MS + 1000);
    expect(missing).toBeDefined();
    await delay(30);
    mkdirSync(dep.root);
    expect(treeFromStamp(repo.root, ctx, missing)).toBeUndefined();
  });
});

describe('dirty', () => {
  it('says whether a file the index reads differs from HEAD, not a vendored or test file', async () => {
    const repo = makeRepo({ untracked: false });
    repo.write('pkg/lib/lib_test.go', 'package lib\n');
    appendFileSync(path.join(repo.root, 'vendor/example.com/dep/dep.go'), '\n');
    expect((await discoverTree(repo.root, options)).dirty).toBe(false);
    appendFileSync(path.join(repo.root, 'pkg/lib/lib.go'), '\n');
    expect((await discoverTree(repo.root, options)).dirty).toBe(true);
  });
});
