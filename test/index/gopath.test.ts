import { cpSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferImportPaths } from '../../src/index/gopath.js';
import { buildModuleLayout } from '../../src/index/modules.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { projectRoot } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const fixture = path.join(projectRoot, 'fixtures', 'gopath-tree');

/** The layout inferImportPaths gives, as import paths of the given directories. */
function pathsOf(evidence: Parameters<typeof inferImportPaths>[0], dirs: string[]) {
  const layout = buildModuleLayout(new Map(), undefined, inferImportPaths(evidence));
  return Object.fromEntries(
    dirs.map((d) => [d, `${layout.importPathOf(d)} (${layout.sourceOf(d)})`]),
  );
}

describe('import paths of a tree without go.mod', () => {
  it('takes a directory’s own import comment first, then the nearest Godeps.json', () => {
    const dirs = ['cmd/app', 'pkg/a', 'staging/src/k8s.io/client-go/tools/cache'];
    expect(
      pathsOf(
        {
          dirs,
          comments: new Map([['cmd/app', 'k8s.io/kubernetes/cmd/app']]),
          godeps: new Map([
            ['', 'k8s.io/kubernetes'],
            ['staging/src/k8s.io/client-go', 'k8s.io/client-go'],
          ]),
          imports: [],
        },
        dirs,
      ),
    ).toEqual({
      'cmd/app': 'k8s.io/kubernetes/cmd/app (import comment)',
      'pkg/a': 'k8s.io/kubernetes/pkg/a (Godeps.json)',
      'staging/src/k8s.io/client-go/tools/cache': 'k8s.io/client-go/tools/cache (Godeps.json)',
    });
  });

  it('finds the roots from the tree’s own imports: the checkout’s path and a GOPATH src inside it', () => {
    const dirs = [
      'cmd/kube-scheduler',
      'pkg/scheduler',
      'pkg/scheduler/core',
      'staging/src/k8s.io/apimachinery/pkg/util/wait',
    ];
    expect(
      pathsOf(
        {
          dirs,
          comments: new Map(),
          godeps: new Map(),
          imports: [
            'k8s.io/kubernetes/pkg/scheduler',
            'k8s.io/kubernetes/pkg/scheduler/core',
            'k8s.io/apimachinery/pkg/util/wait',
            'fmt',
          ],
        },
        dirs,
      ),
    ).toEqual({
      'cmd/kube-scheduler': 'k8s.io/kubernetes/cmd/kube-scheduler (imports)',
      'pkg/scheduler': 'k8s.io/kubernetes/pkg/scheduler (imports)',
      'pkg/scheduler/core': 'k8s.io/kubernetes/pkg/scheduler/core (imports)',
      'staging/src/k8s.io/apimachinery/pkg/util/wait':
        'k8s.io/apimachinery/pkg/util/wait (imports)',
    });
  });

  it('lets an inferred GOPATH src inside the tree win over the root’s Godeps.json below it', () => {
    const dirs = ['pkg/a', 'staging/src/k8s.io/apimachinery/pkg/util/wait'];
    const paths = pathsOf(
      {
        dirs,
        comments: new Map(),
        godeps: new Map([['', 'k8s.io/kubernetes']]),
        imports: ['k8s.io/apimachinery/pkg/util/wait'],
      },
      dirs,
    );
    expect(paths['staging/src/k8s.io/apimachinery/pkg/util/wait']).toBe(
      'k8s.io/apimachinery/pkg/util/wait (imports)',
    );
    expect(paths['pkg/a']).toBe('k8s.io/kubernetes/pkg/a (Godeps.json)');
  });

  it('makes no root of one odd import comment that the rest of its subtree contradicts', () => {
    // pkg/api/v1 kept the comment of the package it moved to; its neighbours say otherwise.
    const dirs = ['pkg/api/v1', 'pkg/api/v1/pod', 'pkg/api/v1/service', 'pkg/api/v1/node'];
    const paths = pathsOf(
      {
        dirs,
        comments: new Map([
          ['pkg/api/v1', 'k8s.io/api/core/v1'],
          ['pkg/api/v1/pod', 'k8s.io/kubernetes/pkg/api/v1/pod'],
          ['pkg/api/v1/service', 'k8s.io/kubernetes/pkg/api/v1/service'],
        ]),
        godeps: new Map(),
        imports: [],
      },
      dirs,
    );
    expect(paths['pkg/api/v1']).toBe('k8s.io/api/core/v1 (import comment)');
    expect(paths['pkg/api/v1/node']).toBe('k8s.io/kubernetes/pkg/api/v1/node (import comment)');
  });

  it('never matches a standard-library import, nor an import two directories end in equally', () => {
    const dirs = ['third_party/net/http', 'a/util/sets', 'b/util/sets'];
    expect(
      pathsOf(
        {
          dirs,
          comments: new Map(),
          godeps: new Map(),
          imports: ['net/http', 'example.com/x/util/sets'],
        },
        dirs,
      ),
    ).toEqual({
      'third_party/net/http': 'null (null)',
      'a/util/sets': 'null (null)',
      'b/util/sets': 'null (null)',
    });
  });
});

describe('fixtures/gopath-tree', () => {
  let index: IndexedFixture;
  beforeAll(async () => {
    index = await indexFixture(fixture);
  }, 60_000);
  afterAll(() => index?.close());

  it('gives every package its import path and says how each was found', async () => {
    const rows = await index.store.all<{ path: string; package: string }>(
      'SELECT path, package FROM files WHERE tree = ? ORDER BY path',
      [index.treeId],
    );
    expect(rows).toEqual([
      {
        path: 'cmd/kube-scheduler/app/server.go',
        package: 'k8s.io/kubernetes/cmd/kube-scheduler/app',
      },
      { path: 'cmd/kube-scheduler/scheduler.go', package: 'k8s.io/kubernetes/cmd/kube-scheduler' },
      {
        path: 'pkg/scheduler/algorithm/scheduler_interface.go',
        package: 'k8s.io/kubernetes/pkg/scheduler/algorithm',
      },
      {
        path: 'pkg/scheduler/core/generic_scheduler.go',
        package: 'k8s.io/kubernetes/pkg/scheduler/core',
      },
      { path: 'pkg/scheduler/scheduler.go', package: 'k8s.io/kubernetes/pkg/scheduler' },
      {
        path: 'staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go',
        package: 'k8s.io/apimachinery/pkg/util/wait',
      },
      {
        path: 'staging/src/k8s.io/client-go/informers/factory.go',
        package: 'k8s.io/client-go/informers',
      },
      {
        path: 'staging/src/k8s.io/client-go/tools/cache/doc.go',
        package: 'k8s.io/client-go/tools/cache',
      },
      {
        path: 'staging/src/k8s.io/client-go/tools/cache/reflector.go',
        package: 'k8s.io/client-go/tools/cache',
      },
    ]);
    expect(index.discovered.layout.rootModule).toBe('k8s.io/kubernetes');
    // cmd/kube-scheduler, pkg/scheduler, pkg/scheduler/core from the root Godeps.json and
    // client-go/informers from staging's; app, algorithm, tools/cache from their comments;
    // apimachinery (no Godeps.json of its own here) from what the tree imports.
    expect(index.discovered.importPaths).toEqual({
      'Godeps.json': 4,
      'import comment': 3,
      imports: 1,
    });
  });

  it('resolves calls across the tree and staging', () => {
    const calls = index.edges.map((e) => `${e.caller} -> ${e.callee} ${e.kind}`);
    expect(calls).toContain(
      'k8s.io/kubernetes/cmd/kube-scheduler.main -> k8s.io/kubernetes/cmd/kube-scheduler/app.NewSchedulerCommand static',
    );
    expect(calls).toContain(
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run -> k8s.io/apimachinery/pkg/util/wait.Until goroutine',
    );
    expect(calls).toContain(
      '(*k8s.io/client-go/tools/cache.Reflector).Run -> k8s.io/apimachinery/pkg/util/wait.Until static',
    );
    expect(calls).toContain(
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne -> (*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule interface',
    );
  });
});

describe('a tree without go.mod, copied outside git', () => {
  const tmp = useTempDir('k8s-read-gopath-');

  it('finds the paths from import comments and imports alone when Godeps/ is gone', async () => {
    const dir = path.join(tmp, 'no-godeps');
    cpSync(fixture, dir, { recursive: true, verbatimSymlinks: true });
    rmSync(path.join(dir, 'Godeps'), { recursive: true });
    rmSync(path.join(dir, 'staging/src/k8s.io/client-go/Godeps'), { recursive: true });
    const index = await indexFixture(dir);
    try {
      const packages = await index.store.all<{ package: string }>(
        'SELECT DISTINCT package FROM files WHERE tree = ? ORDER BY package',
        [index.treeId],
      );
      expect(packages.map((p) => p.package)).toEqual([
        'k8s.io/apimachinery/pkg/util/wait',
        'k8s.io/client-go/informers',
        'k8s.io/client-go/tools/cache',
        'k8s.io/kubernetes/cmd/kube-scheduler',
        'k8s.io/kubernetes/cmd/kube-scheduler/app',
        'k8s.io/kubernetes/pkg/scheduler',
        'k8s.io/kubernetes/pkg/scheduler/algorithm',
        'k8s.io/kubernetes/pkg/scheduler/core',
      ]);
      // The root is named by two comments and more imports; staging/src by a comment and imports.
      expect(index.discovered.importPaths).toEqual({ 'import comment': 3, imports: 5 });
    } finally {
      await index.close();
    }
  });

  it('indexes a package once when vendor/ holds a copy of its staging directory', async () => {
    const dir = path.join(tmp, 'vendor-copy');
    cpSync(fixture, dir, { recursive: true, verbatimSymlinks: true });
    rmSync(path.join(dir, 'vendor/k8s.io/client-go'));
    cpSync(
      path.join(dir, 'staging/src/k8s.io/client-go'),
      path.join(dir, 'vendor/k8s.io/client-go'),
      {
        recursive: true,
      },
    );
    // A symlink out of the tree is never followed.
    symlinkSync(
      path.join(projectRoot, 'fixtures', 'kubernetes', 'pkg'),
      path.join(dir, 'pkg', 'outside'),
    );
    const index = await indexFixture(dir, { includeVendor: true });
    try {
      const files = index.discovered.files.map((f) => f.path);
      expect(files.filter((f) => f.includes('k8s.io/client-go/tools/cache/reflector.go'))).toEqual([
        'staging/src/k8s.io/client-go/tools/cache/reflector.go',
      ]);
      expect(files.some((f) => f.startsWith('pkg/outside/'))).toBe(false);
      expect(files).toContain('vendor/github.com/spf13/cobra/command.go');
      expect(index.discovered.skipped.duplicates).toBe(3);
    } finally {
      await index.close();
    }
  });
});
