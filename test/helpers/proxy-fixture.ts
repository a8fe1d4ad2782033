/**
 * fixtures/go/func-field-per-path (a kube-proxy whose proxier has two runners) as the trace tests
 * use it: copied into a test repository, and the changes they make to the tree and to the rules.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './run-cli.js';
import type { TempRepo } from './temp-repo.js';

/** Copies the fixture into `repo` and commits it; returns the commit. */
export function commitProxyFixture(repo: TempRepo): string {
  cpSync(path.join(projectRoot, 'fixtures', 'go', 'func-field-per-path'), repo.root, {
    recursive: true,
  });
  return repo.commit('a proxier with two runners');
}

/** kube-proxy's main calls a new function, drainConnections, after the proxier's Sync. */
export function addDrainConnections(root: string): void {
  const main = path.join(root, 'cmd', 'kube-proxy', 'main.go');
  const text = readFileSync(main, 'utf8');
  writeFileSync(
    main,
    `${text.replace('\tproxier.Sync()\n', '\tproxier.Sync()\n\tdrainConnections()\n')}\nfunc drainConnections() {}\n`,
  );
}

/** The rules of the install at `install` list syncProxyRules as noise: traces no longer show it. */
export function hideSyncProxyRules(install: string): void {
  const noise = path.join(install, 'rules', 'noise.yaml');
  writeFileSync(
    noise,
    readFileSync(noise, 'utf8').replace(
      /^functions:\n/m,
      'functions:\n  - "(*example.com/func-field-per-path/pkg/proxy/iptables.Proxier).syncProxyRules"\n',
    ),
  );
}
