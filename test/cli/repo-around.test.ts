/**
 * With no --repo and no KUBERNETES_SRC, the repository is the Go checkout around the working
 * directory: the top of the git checkout when it is a Go tree (a directory of Kubernetes' staging
 * still means Kubernetes), else the Go module the directory is in (a monorepo); the demo tree only
 * where there is neither.
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { chooseRoot } from '../../src/cli/repo.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const repos: TempRepo[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r.root, { recursive: true, force: true });
});

function repo(files: Record<string, string>): TempRepo {
  const r = createTempRepo('k8s-read-around-');
  repos.push(r);
  for (const [file, text] of Object.entries(files)) r.write(file, text);
  r.commit('the tree');
  return r;
}

const quiet = new Writable({ write: (_c, _e, done) => done() });
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
    const top = realpathSync(k.root);
    expect(chosenFrom(path.join(k.root, 'staging/src/k8s.io/client-go/tools'))).toEqual({
      root: top,
      source: 'cwd',
    });
    expect(chosenFrom(k.root)).toEqual({ root: top, source: 'cwd' });
  });

  it('is the module the directory is in when the top of the checkout is no Go tree', () => {
    const mono = repo({
      'README.md': 'services\n',
      'services/api/go.mod': 'module example.com/api\n',
      'services/api/cmd/api/main.go': 'package main\n\nfunc main() {}\n',
      'services/web/package.json': '{}\n',
    });
    expect(chosenFrom(path.join(mono.root, 'services/api/cmd/api'))).toEqual({
      root: realpathSync(path.join(mono.root, 'services/api')),
      source: 'cwd',
    });
    expect(chosenFrom(path.join(mono.root, 'services/api'))).toEqual({
      root: realpathSync(path.join(mono.root, 'services/api')),
      source: 'cwd',
    });
    // Outside every module of the checkout: no Go tree around, so the demo tree.
    expect(chosenFrom(path.join(mono.root, 'services/web')).source).toBe('demo');
    expect(chosenFrom(mono.root).source).toBe('demo');
  });
});
