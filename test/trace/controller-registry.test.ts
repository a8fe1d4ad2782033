/**
 * `trace kube-controller-manager/<name>` on every shape the controller registry has had: a map
 * filled with literal keys (v1.10-v1.27), a local `register` closure called with name constants
 * (v1.28), controller descriptors (v1.29 on). The path is where the controller runs (Run ->
 * StartControllers -> the start function), not where it is registered.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/trace/types.js';
import { projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const shapes = ['map', 'register', 'descriptor'] as const;
const tmp = useTempDir();

async function trace(
  shape: string,
  target: string,
  extra: readonly string[] = [],
): Promise<{ code: number; trace?: Trace; stderr: string }> {
  const repo = path.join(projectRoot, 'fixtures', 'controller-registry', shape);
  const r = await runCli([
    'trace',
    target,
    '--repo',
    repo,
    '--db',
    path.join(tmp, `${shape}.sqlite`),
    '-o',
    'json',
    ...extra,
  ]);
  return {
    code: r.code,
    stderr: r.stderr,
    ...(r.code === 0 ? { trace: JSON.parse(r.stdout) as Trace } : {}),
  };
}

describe.each(shapes)('the %s registry', (shape) => {
  it('traces replicaset from main through StartControllers to its sync handler', async () => {
    const { trace: t, stderr } = await trace(shape, 'kube-controller-manager/replicaset');
    expect(t, stderr).toBeDefined();
    const start = 'k8s.io/kubernetes/cmd/kube-controller-manager/app.startReplicaSetController';
    const into = t!.edges.find((e) => e.callee === start);
    expect(into?.caller).toBe('k8s.io/kubernetes/cmd/kube-controller-manager/app.StartControllers');
    expect(into?.kind).toBe('funcvalue');
    // Registration is not where the controller runs: no hop from the registry in the view.
    expect(t!.edges.filter((e) => e.via === 'map-register')).toEqual([]);
    expect(t!.edges.some((e) => e.callee.endsWith('ReplicaSetController).syncReplicaSet'))).toBe(
      true,
    );
    // `go NewReplicaSetController().Run(...)`: the goroutine is Run; the constructor runs first.
    const kinds = Object.fromEntries(
      t!.edges
        .filter((e) => e.caller === start)
        .map((e) => [e.callee.replace(/^.*[.)]/, ''), e.kind]),
    );
    expect(kinds).toEqual({ NewReplicaSetController: 'static', Run: 'goroutine' });
  });

  it('shows everything below the start function with --all, whatever the view would fold', async () => {
    const folded = await trace(shape, 'kube-controller-manager/replicaset', [
      '--max-children',
      '1',
    ]);
    const whole = await trace(shape, 'kube-controller-manager/replicaset', [
      '--max-children',
      '1',
      '--all',
    ]);
    const symbols = (t: Trace | undefined) => new Set(t?.nodes.map((n) => n.symbol));
    const constructor = 'k8s.io/kubernetes/pkg/controller/replicaset.NewReplicaSetController';
    expect(symbols(folded.trace).has(constructor), folded.stderr).toBe(false);
    expect(symbols(whole.trace).has(constructor), whole.stderr).toBe(true);
    for (const s of symbols(folded.trace)) expect(symbols(whole.trace).has(s)).toBe(true);
  });

  it('finds deployment, and never another controller on the way', async () => {
    const { trace: t } = await trace(shape, 'kube-controller-manager/deployment');
    expect(t!.nodes.some((n) => n.symbol.endsWith('DeploymentController).syncDeployment'))).toBe(
      true,
    );
    expect(t!.nodes.some((n) => n.symbol.includes('replicaset'))).toBe(false);
  });

  it('lists the controllers it has when the name is unknown', async () => {
    const r = await trace(shape, 'kube-controller-manager/nosuch');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no part named "nosuch"; it has:\n {2}deployment/);
  });
});
