import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndexStore } from '../../src/store/index-store.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const fixtures = path.join(projectRoot, 'fixtures');
const app = path.join(fixtures, 'modcache', 'sample-controller');
const moduleCache = path.join(fixtures, 'modcache', 'gopath', 'pkg', 'mod');

const rootsOf = (index: IndexedFixture) =>
  index.discovered.dependencies.roots.map(
    (r) => `${r.module}@${r.version} ${r.source} ${r.packages}/${r.files}`,
  );

describe('a module with its dependencies in the module cache', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(app, { moduleCache });
  }, 60_000);
  afterAll(() => index?.close());

  it('indexes the imported packages at the required versions, and nothing else of the cache', () => {
    expect(index.discovered.files.map((f) => f.path).sort()).toEqual([
      '_deps/github.com/MakeNowJust/heredoc@v1.0.0/heredoc.go',
      '_deps/k8s.io/apimachinery@v0.31.0/pkg/util/wait/wait.go',
      '_deps/k8s.io/client-go@v0.31.0/tools/cache/reflector.go',
      '_deps/k8s.io/client-go@v0.31.0/util/workqueue/queue.go',
      'controller.go',
      'main.go',
    ]);
    expect(index.discovered.importPaths).toEqual({ 'go.mod': 1, dependency: 4 });
  });

  it('records each dependency root with its module, version and permalink', () => {
    /** A module read from the cache: `cached` is its directory name there, `repo` its GitHub home. */
    const fromCache = (
      module: string,
      version: string,
      cached: string,
      repo: string,
      n: number,
    ) => ({
      module,
      version,
      required: version,
      source: 'module cache',
      prefix: `_deps/${module}@${version}`,
      dir: path.join(moduleCache, cached),
      permalink: `https://github.com/${repo}/blob/${version}`,
      packages: n,
      files: n,
    });
    expect(index.discovered.dependencies.roots).toEqual([
      fromCache(
        'github.com/MakeNowJust/heredoc',
        'v1.0.0',
        'github.com/!make!now!just/heredoc@v1.0.0',
        'MakeNowJust/heredoc',
        1,
      ),
      fromCache(
        'k8s.io/apimachinery',
        'v0.31.0',
        'k8s.io/apimachinery@v0.31.0',
        'kubernetes/apimachinery',
        1,
      ),
      fromCache(
        'k8s.io/client-go',
        'v0.31.0',
        'k8s.io/client-go@v0.31.0',
        'kubernetes/client-go',
        2,
      ),
    ]);
  });

  it('reports what it could not find instead of failing', () => {
    expect(index.discovered.dependencies.missing).toEqual([
      {
        importPath: 'k8s.io/klog/v2',
        module: 'k8s.io/klog/v2',
        version: 'v2.130.1',
        importedBy: 'k8s.io/sample-controller',
        reason: 'not in the module cache',
      },
    ]);
  });

  it('resolves calls from the tree into the dependencies, and inside them', async () => {
    const calls = index.edges.map((e) => `${e.caller} -> ${e.callee} ${e.kind}`);
    expect(calls).toContain(
      '(*k8s.io/sample-controller.Controller).Run -> (*k8s.io/client-go/tools/cache.Reflector).Run goroutine',
    );
    expect(calls).toContain(
      '(*k8s.io/sample-controller.Controller).processNextWorkItem -> (*k8s.io/client-go/util/workqueue.Type).Get interface',
    );
    expect(calls).toContain(
      '(*k8s.io/client-go/tools/cache.Reflector).Run -> k8s.io/apimachinery/pkg/util/wait.Until static',
    );
    expect(calls).toContain(
      'k8s.io/sample-controller.usage -> github.com/MakeNowJust/heredoc.Doc static',
    );
    const klog = index.edges.find((e) => e.expr?.startsWith('klog.Fatalf'));
    expect(klog?.callee ?? null).toBeNull();
  });
});

describe('where dependencies are looked for', () => {
  const tmp = useTempDir('k8s-read-deps-');

  /** The app and a copy of client-go v0.31.0 side by side, outside git. */
  function siblings(name: string): { app: string; clientGo: string } {
    const dir = path.join(tmp, name);
    cpSync(app, path.join(dir, 'app'), { recursive: true });
    cpSync(path.join(moduleCache, 'k8s.io/client-go@v0.31.0'), path.join(dir, 'client-go'), {
      recursive: true,
    });
    return { app: path.join(dir, 'app'), clientGo: path.join(dir, 'client-go') };
  }

  it('takes a --with checkout before the module cache', async () => {
    const { app: tree, clientGo } = siblings('with');
    const index = await indexFixture(tree, { moduleCache, with: [clientGo] });
    try {
      expect(rootsOf(index)).toEqual([
        'github.com/MakeNowJust/heredoc@v1.0.0 module cache 1/1',
        'k8s.io/apimachinery@v0.31.0 module cache 1/1',
        'k8s.io/client-go@null with 2/2',
      ]);
      const root = index.discovered.dependencies.roots.find((r) => r.source === 'with');
      expect(root).toMatchObject({
        prefix: '_deps/k8s.io/client-go@local',
        dir: clientGo,
        required: 'v0.31.0',
        permalink: null,
      });
      expect(index.discovered.files.map((f) => f.path)).toContain(
        '_deps/k8s.io/client-go@local/tools/cache/reflector.go',
      );
    } finally {
      await index.close();
    }
  });

  it('takes a go.work use outside the tree before --with', async () => {
    const { app: tree, clientGo } = siblings('work');
    writeFileSync(path.join(tree, 'go.work'), 'go 1.22.0\n\nuse (\n\t.\n\t../client-go\n)\n');
    const other = path.join(tmp, 'work', 'other-client-go');
    cpSync(clientGo, other, { recursive: true });
    const index = await indexFixture(tree, { moduleCache, with: [other] });
    try {
      expect(
        index.discovered.dependencies.roots.find((r) => r.module === 'k8s.io/client-go'),
      ).toMatchObject({
        source: 'go.work',
        dir: clientGo,
      });
    } finally {
      await index.close();
    }
  });

  it('says every missing package when there is no module cache, and still indexes the tree', async () => {
    const index = await indexFixture(app, { moduleCache: path.join(tmp, 'no-such-cache') });
    try {
      expect(index.discovered.files.map((f) => f.path).sort()).toEqual([
        'controller.go',
        'main.go',
      ]);
      expect(
        index.discovered.dependencies.missing.map((m) => `${m.importPath} ${m.reason}`),
      ).toEqual([
        'github.com/MakeNowJust/heredoc not in the module cache',
        'k8s.io/apimachinery/pkg/util/wait not in the module cache',
        'k8s.io/client-go/tools/cache not in the module cache',
        'k8s.io/client-go/util/workqueue not in the module cache',
        'k8s.io/klog/v2 not in the module cache',
      ]);
      expect(index.symbols.size).toBeGreaterThan(0);
    } finally {
      await index.close();
    }
  });

  it('looks no further than vendor/ in a tree that has one', async () => {
    const tree = path.join(fixtures, 'sample-controller');
    const skipped = await indexFixture(tree, { moduleCache });
    try {
      expect(skipped.discovered.dependencies).toMatchObject({
        vendor: 'not indexed',
        roots: [],
        missing: [],
      });
    } finally {
      await skipped.close();
    }
    const vendored = await indexFixture(tree, { moduleCache, includeVendor: true });
    try {
      expect(rootsOf(vendored)).toEqual([
        'k8s.io/api@v0.24.0 vendor 2/6',
        'k8s.io/apimachinery@v0.24.0 vendor 10/16',
        'k8s.io/client-go@v0.24.0 vendor 16/40',
      ]);
      expect(vendored.discovered.dependencies.roots[2]).toMatchObject({
        prefix: 'vendor/k8s.io/client-go',
        permalink: 'https://github.com/kubernetes/client-go/blob/v0.24.0',
      });
    } finally {
      await vendored.close();
    }
  });

  it('says why a --with checkout was not used, and goes on', async () => {
    const plain = path.join(tmp, 'no-module');
    mkdirSync(plain, { recursive: true });
    const index = await indexFixture(app, { moduleCache, with: [plain] });
    try {
      expect(index.discovered.dependencies.warnings).toEqual([
        `--with ${plain}: no go.mod or Godeps/Godeps.json says its module path; not used`,
      ]);
      expect(index.discovered.dependencies.roots).toHaveLength(3);
    } finally {
      await index.close();
    }
    const vendored = await indexFixture(path.join(fixtures, 'sample-controller'), {
      moduleCache,
      with: [plain],
    });
    try {
      expect(vendored.discovered.dependencies.warnings).toEqual([
        `--with ${plain}: not used: the tree takes its dependencies from vendor/`,
      ]);
    } finally {
      await vendored.close();
    }
  });

  it('parses a dependency version once for every tree of a database', async () => {
    const other = path.join(tmp, 'other-controller');
    mkdirSync(other, { recursive: true });
    writeFileSync(
      path.join(other, 'go.mod'),
      'module example.com/other-controller\n\ngo 1.22.0\n\nrequire (\n\tk8s.io/apimachinery v0.31.0\n\tk8s.io/client-go v0.31.0\n)\n',
    );
    writeFileSync(
      path.join(other, 'main.go'),
      'package main\n\nimport "k8s.io/client-go/util/workqueue"\n\nfunc main() {\n\tq := workqueue.New()\n\tq.Add("a")\n}\n',
    );
    const { store } = await openIndexStore(':memory:');
    const first = await indexFixture(app, { moduleCache, store });
    const second = await indexFixture(other, { moduleCache, store });
    try {
      expect(first.parsed).toBe(6);
      // Only its own main.go: queue.go is the same blob as in the first tree.
      expect(second.parsed).toBe(1);
      expect(second.discovered.files.map((f) => f.path)).toContain(
        '_deps/k8s.io/client-go@v0.31.0/util/workqueue/queue.go',
      );
    } finally {
      await first.close();
    }
  });
});
