/**
 * `index` and `stats` say where a tree's packages came from: how a tree from before go.mod got its
 * import paths, and which dependencies outside the tree were found (`--with`, the module cache).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-sources-');
const gopathTree = path.join(projectRoot, 'fixtures', 'gopath-tree');
const app = path.join(projectRoot, 'fixtures', 'modcache', 'sample-controller');
const gopath = path.join(projectRoot, 'fixtures', 'modcache', 'gopath');
const env = isolatedEnv(tmp);

describe('a tree without go.mod', () => {
  const db = path.join(tmp, 'gopath.sqlite');

  it('indexes it and says how its import paths were found', async () => {
    const r = await runCli(['index', '--repo', gopathTree, '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^indexed 9 files .*: 8 packages, /);
    expect(r.stdout).toContain(
      "  import paths: 4 packages from Godeps/Godeps.json, 3 from // import comments, 1 from the tree's own imports\n",
    );
    expect(r.stdout).toContain(
      '  dependencies: in vendor/, not indexed (--include-vendor indexes them)\n',
    );
    expect(r.stderr).not.toContain('warning');
  });

  it('says that a vendor/ from before modules names packages, not modules, when it indexes it', async () => {
    const r = await runCli(
      [
        'index',
        '--repo',
        gopathTree,
        '--db',
        path.join(tmp, 'gopath-vendor.sqlite'),
        '--include-vendor',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '  dependencies: vendor/ (no vendor/modules.txt: its packages are named by their paths)\n',
    );
  });

  it('stats tells the same, in text and in JSON', async () => {
    const text = await runCli(['stats', '--repo', gopathTree, '--db', db], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('  import paths: 4 packages from Godeps/Godeps.json, 3 from');
    const json = await runCli(['stats', '--repo', gopathTree, '--db', db, '-o', 'json'], { env });
    const stats = JSON.parse(json.stdout) as { module: string; importPaths: unknown };
    expect(stats.module).toBe('k8s.io/kubernetes');
    expect(stats.importPaths).toEqual({ 'Godeps.json': 4, 'import comment': 3, imports: 1 });
  });

  it('traces kube-scheduler from main to scheduleOne', async () => {
    const r = await runCli(
      ['trace', 'kube-scheduler', '--repo', gopathTree, '--db', db, '-o', 'json'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const trace = JSON.parse(r.stdout) as {
      root: string;
      edges: { caller: string; callee: string; site: string; kind: string; via: string }[];
    };
    expect(trace.root).toBe('k8s.io/kubernetes/cmd/kube-scheduler.main');
    expect(trace.edges).toContainEqual(
      expect.objectContaining({
        caller: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run',
        callee: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
        site: 'pkg/scheduler/scheduler.go:33',
        kind: 'framework',
        via: 'wait-until',
      }),
    );
  });
});

describe('a module whose dependencies are outside the tree', () => {
  it('finds them in the module cache under $GOPATH/pkg/mod, and warns about the missing one', async () => {
    const r = await runCli(
      ['index', '--repo', app, '--db', path.join(tmp, 'gopath-cache.sqlite')],
      { env: { ...env, GOPATH: gopath } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '  dependencies: 3 modules outside the tree (4 packages, 4 files): 3 from the module cache\n',
    );
    expect(r.stderr).toBe(
      'warning: 1 imported package not found (--verbose lists them); give checkouts with --with PATH, or fetch modules into the cache with `go mod download`:\n' +
        `  not in the module cache (${path.join(gopath, 'pkg', 'mod')}): k8s.io/klog/v2@v2.130.1\n`,
    );
  });

  it('lists modules and missing packages with --verbose, and all of it with -o json', async () => {
    const args = ['index', '--repo', app, '--db', path.join(tmp, 'modcache.sqlite')];
    const cacheEnv = { ...env, GOMODCACHE: path.join(gopath, 'pkg', 'mod') };
    const verbose = await runCli([...args, '-v'], { env: cacheEnv });
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toContain(
      `    k8s.io/client-go@v0.31.0: 2 packages from the module cache (${path.join(gopath, 'pkg', 'mod', 'k8s.io', 'client-go@v0.31.0')})\n`,
    );
    expect(verbose.stderr).toContain(
      '    k8s.io/klog/v2  (imported by k8s.io/sample-controller)\n',
    );
    const json = await runCli([...args, '-o', 'json'], { env: cacheEnv });
    const summary = JSON.parse(json.stdout) as {
      dependencies: {
        roots: { prefix: string; permalink: string }[];
        missing: { importPath: string }[];
      };
    };
    expect(summary.dependencies.roots.map((r) => r.prefix)).toEqual([
      '_deps/github.com/MakeNowJust/heredoc@v1.0.0',
      '_deps/k8s.io/apimachinery@v0.31.0',
      '_deps/k8s.io/client-go@v0.31.0',
    ]);
    expect(summary.dependencies.missing.map((m) => m.importPath)).toEqual(['k8s.io/klog/v2']);
  });

  it("links a dependency's functions to its own repository at the required version", async () => {
    const args = ['--repo', app, '--db', path.join(tmp, 'modcache.sqlite')];
    const cacheEnv = { ...env, GOMODCACHE: path.join(gopath, 'pkg', 'mod') };
    const r = await runCli(['trace', 'sample-controller', ...args, '--all', '-o', 'json'], {
      env: cacheEnv,
    });
    expect(r.code, r.stderr).toBe(0);
    const trace = JSON.parse(r.stdout) as {
      nodes: { file: string; line: number; url: string | null }[];
    };
    const dep = trace.nodes.filter((n) => n.file.startsWith('_deps/k8s.io/client-go@v0.31.0/'));
    expect(dep.length).toBeGreaterThan(0);
    for (const n of dep)
      expect(n.url).toBe(
        `https://github.com/kubernetes/client-go/blob/v0.31.0/${n.file.slice('_deps/k8s.io/client-go@v0.31.0/'.length)}#L${n.line}`,
      );
  });

  it('takes checkouts given with --with when a command indexes by itself', async () => {
    const clientGo = path.join(tmp, 'client-go');
    cpSync(path.join(gopath, 'pkg', 'mod', 'k8s.io', 'client-go@v0.31.0'), clientGo, {
      recursive: true,
    });
    const r = await runCli(
      [
        'def',
        'ListAndWatch',
        '--repo',
        app,
        '--db',
        path.join(tmp, 'with.sqlite'),
        '--with',
        clientGo,
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\(\*k8s\.io\/client-go\/tools\/cache\.Reflector\)\.ListAndWatch {2}_deps\/k8s\.io\/client-go@local\/tools\/cache\/reflector\.go:\d+/,
    );
  });

  it('refuses a --with path that does not exist', async () => {
    const r = await runCli(
      ['index', '--repo', app, '--db', path.join(tmp, 'bad.sqlite'), '--with', 'no/such/dir'],
      {
        env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: --with no/such/dir: no such directory; give the path of a module's checkout\n",
    );
    expect(r.stdout).toBe('');
  });
});
