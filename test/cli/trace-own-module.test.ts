/**
 * A repository whose own module falls under a noise prefix (Prometheus: rules/noise.yaml folds
 * `github.com/prometheus`, written for client_golang's metrics in Kubernetes) is still traced:
 * its own calls are followed, and only the other modules under the prefix fold.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/run-cli.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-own-module-');
const env = isolatedEnv(tmp);

interface Edge {
  caller: string;
  callee: string;
}

const main = 'github.com/prometheus/prometheus/cmd/prometheus.main';
const scrape = 'github.com/prometheus/prometheus/scrape';

describe('a trace of a repository under a noise prefix', () => {
  let repo: TempRepo;
  const db = path.join(tmp, 'own.sqlite');

  beforeAll(() => {
    repo = createTempRepo('k8s-read-prom-');
    repo.write('go.mod', 'module github.com/prometheus/prometheus\n\ngo 1.21\n');
    repo.write(
      'cmd/prometheus/main.go',
      [
        'package main',
        '',
        'import (',
        '\t"github.com/alecthomas/kingpin/v2"',
        '\t"github.com/prometheus/common/version"',
        '\t"github.com/prometheus/prometheus/scrape"',
        ')',
        '',
        'func main() {',
        '\ta := kingpin.New("prometheus", "")',
        '\ta.Flag("config.file", "").String()',
        '\tversion.Print("prometheus")',
        '\tm := scrape.NewManager()',
        '\tm.Run()',
        '}',
        '',
      ].join('\n'),
    );
    repo.write(
      'scrape/manager.go',
      [
        'package scrape',
        '',
        'type Manager struct{ targets []string }',
        '',
        'func NewManager() *Manager { return &Manager{} }',
        '',
        'func (m *Manager) Run() { m.reload() }',
        '',
        'func (m *Manager) reload() { m.targets = nil }',
        '',
      ].join('\n'),
    );
    repo.commit('a daemon in a module named like a noise prefix');
  });

  const run = async (...args: string[]) => {
    const r = await runCli(['trace', 'prometheus', '--repo', repo.root, '--db', db, ...args], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as {
      root: string;
      edges: Edge[];
      nodes: { symbol: string; folded?: { calls: number } }[];
      unresolved: { caller: string; expr: string }[];
    };
  };
  const trace = (...extra: string[]) => run('--all', '-o', 'json', ...extra);

  it("follows the repository's own calls", async () => {
    const t = await trace();
    expect(t.root).toBe(main);
    expect(t.edges).toContainEqual(
      expect.objectContaining({ caller: main, callee: `${scrape}.NewManager` }),
    );
    expect(t.edges).toContainEqual(
      expect.objectContaining({ caller: main, callee: `(*${scrape}.Manager).Run` }),
    );
    expect(t.edges).toContainEqual(
      expect.objectContaining({
        caller: `(*${scrape}.Manager).Run`,
        callee: `(*${scrape}.Manager).reload`,
      }),
    );
  });

  it('folds another module under the prefix, and --include-noise shows it', async () => {
    const version = 'github.com/prometheus/common/version.Print';
    expect((await trace()).edges.map((e) => e.callee)).not.toContain(version);
    expect((await trace('--include-noise')).edges).toContainEqual(
      expect.objectContaining({ caller: main, callee: version }),
    );
  });

  it("folds calls on values of an unindexed package in the default view, as that package's calls", async () => {
    // kingpin is not in the tree: `a.Flag(...)` and `.String()` on its values stay unresolved.
    const chained = (t: { unresolved: { caller: string; expr: string }[] }) =>
      t.unresolved.filter((u) => u.caller === main && u.expr.startsWith('a.Flag'));
    const all = await trace();
    expect(chained(all).length).toBe(2);
    const view = await run('-o', 'json');
    expect(chained(view)).toEqual([]);
    const root = view.nodes.find((n) => n.symbol === main)!;
    // Folded with kingpin.New, which the default view does not expand either.
    expect(root.folded?.calls).toBeGreaterThanOrEqual(3);
  });
});
