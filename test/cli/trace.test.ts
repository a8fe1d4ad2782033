/**
 * `trace` on the demo trees: the connected path from main into the loops on both scheduler eras,
 * the controller view, other Go repositories, the JSON contract, and bad input.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/types.js';
import { demoRoot, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-trace-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };
const v115 = path.join(projectRoot, 'fixtures', 'kubernetes-v1.15');
const sampleController = path.join(projectRoot, 'fixtures', 'sample-controller');
const operator = path.join(projectRoot, 'fixtures', 'controller-runtime-operator');

async function traceJson(args: string[]): Promise<Trace> {
  const r = await runCli(['trace', ...args, '-o', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Trace;
}

/** Asserts that `chain` is a connected path of the trace's edges; returns the edges walked. */
function expectPath(trace: Trace, chain: string[]): Trace['edges'] {
  const walked: Trace['edges'] = [];
  for (let i = 0; i + 1 < chain.length; i++) {
    const from = chain[i]!;
    const to = chain[i + 1]!;
    const edge = trace.edges.find((e) => e.caller.endsWith(from) && e.callee.endsWith(to));
    expect(edge, `no edge ${from} -> ${to} in the trace`).toBeDefined();
    walked.push(edge!);
  }
  return walked;
}

describe('k8s-read trace on the modern demo tree', () => {
  let trace: Trace;
  beforeAll(async () => {
    await runCli(['index', '--repo', demoRoot], { env });
    trace = await traceJson(['kube-scheduler', '--repo', demoRoot]);
  });

  it('follows main through cobra, leader election and wait.Until into scheduleOne and the algorithm', () => {
    // main hands the command to cli.Run, which executes it: its RunE runs from there.
    const hops = expectPath(trace, [
      'cmd/kube-scheduler.main',
      'app.NewSchedulerCommand$1',
      'app.runCommand',
      'app.Run',
      'app.Run$1',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatFitPod',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatPassFilters',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).findNodesThatPassFilters$1',
      '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunFilterPluginsWithNominatedPods',
    ]);
    expect(hops.map((h) => `${h.kind}${h.via ? `:${h.via}` : ''}`)).toEqual([
      'framework:cobra-run',
      'static',
      'static',
      'framework:leader-election',
      'static',
      'framework:wait-until',
      'funcvalue',
      'static',
      'static',
      'framework:parallelize',
      'interface',
    ]);
    expectPath(trace, [
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      'pkg/scheduler.prioritizeNodes',
    ]);
    expectPath(trace, [
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      'pkg/scheduler.selectHost',
    ]);
    expect(
      trace.edges.some(
        (e) =>
          e.callee.endsWith(
            '(*k8s.io/kubernetes/pkg/scheduler/framework/runtime.frameworkImpl).RunFilterPluginsWithNominatedPods',
          ) && e.kind === 'interface',
      ),
    ).toBe(true);
    expect(
      trace.edges.some((e) =>
        e.callee.endsWith('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).bind'),
      ),
    ).toBe(true);
    // The controller manager fills LeaderElectionConfig.Callbacks too; only the scheduler's own
    // callbacks run under the scheduler's leader election.
    const elected = trace.edges.filter((e) => e.via === 'leader-election').map((e) => e.callee);
    expect(elected.length).toBeGreaterThan(0);
    expect(elected.filter((c) => !c.startsWith('k8s.io/kubernetes/cmd/kube-scheduler/'))).toEqual(
      [],
    );
  });

  it('runs only the command main passes to cli.Run, not every command cli.Run is given anywhere', async () => {
    const all = await traceJson(['kube-scheduler', '--repo', demoRoot, '--all']);
    const run = all.edges.filter((e) => e.via === 'cobra-run').map((e) => e.callee);
    expect(run).toContain('k8s.io/kubernetes/cmd/kube-scheduler/app.NewSchedulerCommand$1');
    expect(run.filter((c) => !c.startsWith('k8s.io/kubernetes/cmd/kube-scheduler/'))).toEqual([]);
  });

  it('prints exactly the JSON contract of DESIGN.md', () => {
    expect(Object.keys(trace).sort()).toEqual([
      'component',
      'edges',
      'nodes',
      'repo',
      'root',
      'scope',
      'total',
      'unresolved',
    ]);
    expect(trace.component).toBe('kube-scheduler');
    // One program: the import closure of cmd/kube-scheduler, and the size of the full trace.
    expect(trace.scope).toEqual({
      from: 'k8s.io/kubernetes/cmd/kube-scheduler',
      packages: expect.any(Number),
      cut: expect.any(Number),
    });
    expect(trace.total!.functions).toBeGreaterThanOrEqual(trace.nodes.length);
    expect(trace.root).toBe('k8s.io/kubernetes/cmd/kube-scheduler.main');
    expect(Object.keys(trace.repo).sort()).toEqual(['commit', 'path', 'version']);
    for (const node of trace.nodes) {
      expect(
        Object.keys(node)
          .filter((k) => k !== 'folded')
          .sort(),
      ).toEqual(['file', 'kind', 'line', 'package', 'symbol', 'url']);
      expect(['func', 'method', 'closure']).toContain(node.kind);
      if (node.folded)
        expect(node.folded).toEqual({
          calls: expect.any(Number),
          flag: '--all',
          ...(node.folded.helpers ? { helpers: expect.any(Number) } : {}),
        });
    }
    for (const edge of trace.edges) {
      // Optional beside the contract: which caller passed a value, how many targets a call has
      // where the view shows fewer.
      const { boundBy, of, ...contract } = edge;
      expect(Object.keys(contract).sort()).toEqual([
        'alternatives',
        'callee',
        'caller',
        'kind',
        'site',
        'via',
      ]);
      if (boundBy !== undefined) expect(typeof boundBy).toBe('string');
      if (of !== undefined) expect(of).toBeGreaterThan(1);
      expect(edge.site).toMatch(/^[\w./-]+\.go:\d+$/);
      expect(['static', 'interface', 'funcvalue', 'closure', 'framework', 'goroutine']).toContain(
        edge.kind,
      );
    }
    const symbols = new Set(trace.nodes.map((n) => n.symbol));
    for (const edge of trace.edges)
      expect(symbols.has(edge.callee) && symbols.has(edge.caller)).toBe(true);
  });

  it('draws a readable tree with file:line and the kind of each hidden hop', async () => {
    // Wide enough that no line gives anything way (the width tests are below).
    const r = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot], {
      env: { ...env, COLUMNS: '200' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /NewSchedulerCommand\$1 {2}cmd\/kube-scheduler\/app\/server\.go:\d+ {2}\[framework via cobra-run\]/,
    );
    expect(r.stdout).toMatch(
      /\(\*Scheduler\)\.scheduleOne {2}pkg\/scheduler\/schedule_one\.go:\d+ {2}\[framework via wait-until\]/,
    );
    expect(r.stdout).toMatch(
      /\(\*Scheduler\)\.schedulePod {2}pkg\/scheduler\/schedule_one\.go:\d+ {2}\[funcvalue\]/,
    );
    expect(r.stdout.split('\n').length).toBeLessThan(400);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('fits 100 columns when piped, and $COLUMNS when it is set', async () => {
    const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));
    const piped = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot, '--all'], { env });
    expect(piped.code).toBe(0);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(100);
    const narrow = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot, '--all'], {
      env: { ...env, COLUMNS: '64' },
    });
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(64);
    expect(widest(narrow.stdout)).toBeGreaterThan(50);
  });

  it('keeps only the paths to a symbol with --focus', async () => {
    const focused = await traceJson([
      'kube-scheduler',
      '--repo',
      demoRoot,
      '--focus',
      'selectHost',
    ]);
    const leaves = focused.nodes.filter((n) => !focused.edges.some((e) => e.caller === n.symbol));
    expect(leaves.map((n) => n.symbol)).toEqual(['k8s.io/kubernetes/pkg/scheduler.selectHost']);
    expect(focused.nodes.length).toBeLessThan(trace.nodes.length);
  });

  it('traces a controller of the controller manager: handler -> queue -> worker -> sync -> pod control', async () => {
    const rs = await traceJson(['kube-controller-manager/replicaset', '--repo', demoRoot]);
    expect(rs.root).toBe('k8s.io/kubernetes/cmd/kube-controller-manager.main');
    // Where the controller runs, not where it is registered.
    expect(
      rs.edges.some(
        (e) =>
          e.callee.endsWith('app.startReplicaSetController') &&
          e.caller.endsWith('app.StartControllers') &&
          e.kind === 'funcvalue',
      ),
    ).toBe(true);
    expect(rs.edges.filter((e) => e.via === 'map-register')).toEqual([]);
    const rsc = '(*k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController)';
    expectPath(rs, [
      `${rsc}.processNextWorkItem`,
      `${rsc}.syncReplicaSet`,
      `${rsc}.manageReplicas`,
    ]);
    const sync = rs.edges.find((e) => e.callee === `${rsc}.syncReplicaSet`);
    expect(sync?.kind).toBe('funcvalue');
    const create = rs.edges.find((e) =>
      e.callee.endsWith('(k8s.io/kubernetes/pkg/controller.RealPodControl).CreatePods'),
    );
    expect(create?.kind).toBe('interface');
    // The test double lives in a package kube-controller-manager does not import: not in its program.
    expect(create?.alternatives.some((a) => a.includes('FakePodControl'))).toBe(false);
    expect(
      rs.edges.some(
        (e) => e.callee === `${rsc}.processNextWorkItem` && e.via === 'workqueue-handoff',
      ),
    ).toBe(true);
    expect(rs.edges.some((e) => e.via === 'informer-handler' && e.callee.startsWith(rsc))).toBe(
      true,
    );
  });

  it('lists the components when the name is unknown', async () => {
    const r = await runCli(['trace', 'kube-nothing', '--repo', demoRoot], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown component or symbol "kube-nothing"; components in this index:\n {2}kube-apiserver\n {2}kube-controller-manager\n {2}kube-proxy\n {2}kube-scheduler\n {2}kubectl\n {2}kubelet\n/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the candidates of an ambiguous symbol', async () => {
    const r = await runCli(['trace', 'Run', '--repo', demoRoot], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/"Run" matches \d+ symbols; name one of them:/);
    expect(r.stderr).toContain('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run');
  });

  it('prints debug lines on stderr only when K8S_READ_DEBUG names the namespace', async () => {
    const quiet = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot, '-o', 'json'], {
      env,
    });
    expect(quiet.stderr).not.toContain('[trace]');
    // Traced afresh: the line says what the trace took (a kept answer says so instead).
    const loud = await runCli(['trace', 'kube-scheduler', '--repo', demoRoot, '-o', 'json'], {
      env: { ...env, K8S_READ_DEBUG: 'index,trace', K8S_READ_TRACE_CACHE: 'off' },
    });
    expect(loud.stderr).toMatch(
      /^\[trace\] k8s\.io\/kubernetes\/cmd\/kube-scheduler\.main: \d+ nodes, \d+ edges, \d+ unresolved in \d+ ms$/m,
    );
    expect(JSON.parse(loud.stdout).root).toBe('k8s.io/kubernetes/cmd/kube-scheduler.main');
  });

  it('rejects a bad --depth', async () => {
    const r = await runCli(['trace', 'kube-scheduler', '--depth', '0', '--repo', demoRoot], {
      env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--depth takes a whole number of 1 or more');
  });
});

describe('k8s-read trace on other trees, with no version-specific code', () => {
  it('follows the v1.15 era through the Algorithm interface to genericScheduler', async () => {
    const old = await traceJson(['kube-scheduler', '--repo', v115]);
    const schedule = old.edges.find(
      (e) => e.callee === '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
    );
    expect(schedule?.kind).toBe('interface');
    expectPath(old, [
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).findNodesThatFit',
    ]);
    expectPath(old, [
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      'core.PrioritizeNodes',
    ]);
    expectPath(old, [
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).selectHost',
    ]);
    expect(
      old.edges.some(
        (e) =>
          e.callee.endsWith('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne') &&
          e.via === 'wait-until',
      ),
    ).toBe(true);
  });

  it('follows sample-controller from its handlers through the work queue into syncHandler', async () => {
    const t = await traceJson(['sample-controller', '--repo', sampleController]);
    expect(t.root).toBe('k8s.io/sample-controller.main');
    const c = '(*k8s.io/sample-controller.Controller)';
    expect(t.edges.some((e) => e.callee === `${c}.runWorker` && e.via === 'wait-until')).toBe(true);
    expectPath(t, [`${c}.runWorker`, `${c}.processNextWorkItem`]);
    expect(t.edges.some((e) => e.callee.startsWith(`${c}.syncHandler`))).toBe(true);
  });

  it('reaches Reconcile in a controller-runtime operator through Complete(r)', async () => {
    const t = await traceJson(['memcached-operator', '--repo', operator, '--all', '--depth', '8']);
    const reconcile = t.edges.find((e) => e.callee.endsWith('MemcachedReconciler).Reconcile'));
    expect(reconcile?.kind).toBe('framework');
    expect(reconcile?.via).toBe('controller-runtime');
  });

  it('takes a cmd/ directory for a main package that is a module named otherwise', async () => {
    // cert-manager's shape: cmd/controller is the module example.com/certs/controller-binary.
    const repo = path.join(tmp, 'own-module-cmd');
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
    };
    write('go.mod', 'module example.com/certs\n\ngo 1.22\n');
    write('pkg/issuer/issuer.go', 'package issuer\n\nfunc Sync() {}\n');
    write(
      'cmd/controller/go.mod',
      'module example.com/certs/controller-binary\n\ngo 1.22\n\nrequire example.com/certs v0.0.0\n\nreplace example.com/certs => ../../\n',
    );
    write(
      'cmd/controller/main.go',
      'package main\n\nimport "example.com/certs/pkg/issuer"\n\nfunc main() { issuer.Sync() }\n',
    );
    const byDir = await traceJson(['controller', '--repo', repo]);
    expect(byDir.root).toBe('example.com/certs/controller-binary.main');
    expectPath(byDir, ['controller-binary.main', 'example.com/certs/pkg/issuer.Sync']);
    expect((await traceJson(['cmd/controller', '--repo', repo])).root).toBe(byDir.root);
    const unknown = await runCli(['trace', 'webhook', '--repo', repo], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'components in this index:\n  controller-binary  (cmd/controller)\n',
    );
  });
});
