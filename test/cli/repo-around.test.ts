/**
 * With no --repo and no KUBERNETES_SRC, the repository is the Go checkout around the working
 * directory: the top of the git checkout when it is a Go tree (a directory of Kubernetes' staging
 * still means Kubernetes), else the Go module the directory is in (a monorepo); the demo tree only
 * where there is neither.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { chooseRoot } from '../../src/cli/repo.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r.root, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function repo(files: Record<string, string>): TempRepo {
  const r = createTempRepo('k8s-read-around-');
  repos.push(r);
  for (const [file, text] of Object.entries(files)) r.write(file, text);
  r.commit('the tree');
  return r;
}

const quiet = new Writable({ write: (_c, _e, done) => done() });
/** What chooseRoot says of a tree found around the working directory. */
const found = (dir: string) => ({ root: realpathSync(dir), source: 'cwd' });

function chosenFrom(cwd: string): ReturnType<typeof chooseRoot> {
  mkdirSync(cwd, { recursive: true });
  const ctx: CliContext = { stdout: quiet, stderr: quiet, env: {}, cwd };
  return chooseRoot({}, ctx);
}

describe('the checkout around the working directory', () => {
  it('is the top of a Go checkout, from any directory in it, its nested modules too', () => {
    const k = repo({
      'go.mod': 'module k8s.io/kubernetes\n',
      'staging/src/k8s.io/client-go/go.mod': 'module k8s.io/client-go\n',
      'staging/src/k8s.io/client-go/tools/cache/cache.go': 'package cache\n',
    });
    expect(chosenFrom(path.join(k.root, 'staging/src/k8s.io/client-go/tools'))).toEqual(
      found(k.root),
    );
    expect(chosenFrom(k.root)).toEqual(found(k.root));
  });

  it('is the module the directory is in when the top of the checkout is no Go tree', () => {
    const mono = repo({
      'README.md': 'services\n',
      'services/api/go.mod': 'module example.com/api\n',
      'services/api/cmd/api/main.go': 'package main\n\nfunc main() {}\n',
      'services/web/package.json': '{}\n',
    });
    expect(chosenFrom(path.join(mono.root, 'services/api/cmd/api'))).toEqual(
      found(path.join(mono.root, 'services/api')),
    );
    expect(chosenFrom(path.join(mono.root, 'services/api'))).toEqual(
      found(path.join(mono.root, 'services/api')),
    );
    // Outside every module of the checkout: no Go tree around, so the demo tree.
    expect(chosenFrom(path.join(mono.root, 'services/web')).source).toBe('demo');
    expect(chosenFrom(mono.root).source).toBe('demo');
  });

  it('is a project kept in a GOPATH layout inside the checkout, from any directory in it', () => {
    // A fork of an old release: the top holds `src/k8s.io/kubernetes`, with no go.mod or Godeps/.
    const fork = repo({
      'README.md': 'Kubernetes 1.14\n',
      // Kept beside it, and no Go project: it does not make the top ambiguous.
      'src/k8s.io/website/README.md': 'the docs\n',
      'src/k8s.io/kubernetes/cmd/kube-scheduler/scheduler.go': 'package main\n\nfunc main() {}\n',
      'src/k8s.io/kubernetes/pkg/scheduler/scheduler.go': 'package scheduler\n',
      'src/k8s.io/kubernetes/staging/src/k8s.io/client-go/tools/cache/cache.go': 'package cache\n',
      'src/k8s.io/kubernetes/staging/src/k8s.io/api/go.mod': 'module k8s.io/api\n',
      'src/k8s.io/kubernetes/staging/src/k8s.io/api/core/v1/types.go': 'package v1\n',
      'src/k8s.io/kubernetes/staging/src/k8s.io/code-generator/tools.go': 'package codegenerator\n',
      'src/k8s.io/kubernetes/staging/src/k8s.io/code-generator/cmd/gen/main.go': 'package main\n',
    });
    const kubernetes = found(path.join(fork.root, 'src/k8s.io/kubernetes'));
    expect(chosenFrom(path.join(fork.root, 'src/k8s.io/kubernetes'))).toEqual(kubernetes);
    expect(chosenFrom(path.join(fork.root, 'src/k8s.io/kubernetes/pkg/scheduler'))).toEqual(
      kubernetes,
    );
    // Its staging/src is a GOPATH too, and a module with a go.mod sits in it: the outer project,
    // which holds both, is the tree (as a Go tree at the top wins over its nested modules).
    const staging = 'src/k8s.io/kubernetes/staging/src/k8s.io';
    expect(chosenFrom(path.join(fork.root, staging, 'client-go/tools/cache'))).toEqual(kubernetes);
    expect(chosenFrom(path.join(fork.root, staging, 'api/core/v1'))).toEqual(kubernetes);
    expect(chosenFrom(path.join(fork.root, staging, 'code-generator/cmd/gen'))).toEqual(kubernetes);
    // At the top of the fork, its one project; between the two, none (the demo tree).
    expect(chosenFrom(fork.root)).toEqual(kubernetes);
    expect(chosenFrom(path.join(fork.root, 'src/k8s.io')).source).toBe('demo');
    // Two projects kept there: which one is meant is not guessed, nor the demo tree read instead.
    fork.write('src/k8s.io/kubectl/cmd/kubectl/kubectl.go', 'package main\n');
    expect(() => chosenFrom(fork.root)).toThrow(
      `${fork.root} holds 2 Go projects under src/ (src/k8s.io/kubectl, src/k8s.io/kubernetes); say which to read with --repo, or run k8s-read from inside it`,
    );
    expect(chosenFrom(path.join(fork.root, 'src/k8s.io/kubectl/cmd'))).toEqual(
      found(path.join(fork.root, 'src/k8s.io/kubectl')),
    );
  });

  it('names a project under an owner on github.com and the like by three elements', () => {
    const fork = repo({
      'src/github.com/owner/tool/main.go': 'package main\n\nfunc main() {}\n',
      'src/github.com/owner/tool/internal/run/run.go': 'package run\n',
    });
    expect(chosenFrom(path.join(fork.root, 'src/github.com/owner/tool/internal/run'))).toEqual(
      found(path.join(fork.root, 'src/github.com/owner/tool')),
    );
    expect(chosenFrom(path.join(fork.root, 'src/github.com/owner')).source).toBe('demo');
    expect(chosenFrom(fork.root)).toEqual(found(path.join(fork.root, 'src/github.com/owner/tool')));
  });

  it('is a GOPATH project only if it holds Go: a checkout kept by path out of habit is none', () => {
    const gopath = mkdtempSync(path.join(os.tmpdir(), 'k8s-read-gopath-'));
    dirs.push(gopath);
    const checkout = (dir: string, files: Record<string, string>) => {
      const root = path.join(gopath, dir);
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      }
      execFileSync('git', ['init', '-q'], { cwd: root });
      return root;
    };
    // The top of the checkout is the project: Go in a command, no go.mod.
    const tool = checkout('src/example.com/tool', {
      'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
      'lib/lib.go': 'package lib\n',
    });
    expect(chosenFrom(path.join(tool, 'lib'))).toEqual(found(tool));
    // A project without Go, kept under the same layout (ghq's habit): not a Go tree.
    const site = checkout('src/github.com/me/site', {
      'package.json': '{}\n',
      'cmd/build/index.js': '\n',
      'fixtures/tree/cmd/demo/main.go': 'package main\n',
    });
    expect(chosenFrom(path.join(site, 'fixtures/tree')).source).toBe('demo');
    expect(chosenFrom(site).source).toBe('demo');
  });

  it('is the module the directory is in when a GOPATH shape lies inside that module', () => {
    const mono = repo({
      'README.md': 'services\n',
      'services/api/go.mod': 'module example.com/api\n',
      'services/api/testdata/src/example.com/dep/dep.go': 'package dep\n',
    });
    expect(chosenFrom(path.join(mono.root, 'services/api/testdata/src/example.com/dep'))).toEqual(
      found(path.join(mono.root, 'services/api')),
    );
  });
});
