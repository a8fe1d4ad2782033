/**
 * The reader's questions on the modern demo tree: def (by name and by position), search, stats,
 * callers/callees, impls, struct, assigns — text and JSON, and their bad input.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-queries-');
const env = { XDG_CACHE_HOME: path.join(tmp, 'cache') };
const repo = ['--repo', demoRoot];

async function json<T>(args: string[]): Promise<T> {
  const r = await runCli([...args, ...repo, '-o', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  const r = await runCli(['index', ...repo], { env });
  expect(r.code, r.stderr).toBe(0);
});

describe('k8s-read def', () => {
  it('finds a declaration by name with its file, line and signature', async () => {
    const rows = await json<
      { symbol: string; file: string; line: number; kind: string; signature: string }[]
    >(['def', 'scheduleOne']);
    expect(rows[0]).toMatchObject({
      symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
      file: 'pkg/scheduler/schedule_one.go',
      kind: 'method',
    });
    expect(rows[0]!.signature).toBe('func(ctx context.Context)');
  });

  it('writes a signature as Go does: channel types spaced, the variadic parameter as ...T', async () => {
    const signature = async (name: string) =>
      (await json<{ signature: string }[]>(['def', name]))[0]!.signature;
    expect(await signature('StartWithChannel')).toBe(
      'func(stopCh <-chan struct{}, f func(stopCh <-chan struct{}))',
    );
    expect(await signature('NewSchedulerCommand')).toBe(
      'func(registryOptions ...Option) *cobra.Command',
    );
  });

  it('tells what the call at file:line:col resolves to', async () => {
    const scheduleOne = (await json<{ line: number }[]>(['def', 'scheduleOne']))[0]!;
    const callees = await json<{ hops: { to: string; site: string; kind: string }[] }>([
      'callees',
      'Scheduler).scheduleOne',
    ]);
    const funcField = callees.hops.find(
      (h) => h.kind === 'funcvalue' && h.to.endsWith('.schedulePod'),
    )!;
    const line = Number(funcField.site.split(':')[1]);
    expect(line).toBeGreaterThan(scheduleOne.line);
    const answer = await json<{
      enclosing: { symbol: string };
      calls: { kind: string; target: { symbol: string } | null }[];
    }>(['def', `pkg/scheduler/schedule_one.go:${line}`]);
    expect(answer.enclosing.symbol).toBe(
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
    );
    expect(answer.calls).toContainEqual(
      expect.objectContaining({
        kind: 'funcvalue',
        target: expect.objectContaining({
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
        }),
      }),
    );
  });

  it('suggests close names when nothing matches', async () => {
    const r = await runCli(['def', 'scheduleOneX', ...repo], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: no symbol matches "scheduleOneX"/);
  });

  it('refuses a position outside the repository', async () => {
    const r = await runCli(['def', '/etc/passwd.go:3', ...repo], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is outside the repository');
  });
});

describe('k8s-read search and stats', () => {
  it('ranks an exact name first', async () => {
    const rows = await json<{ symbol: string }[]>(['search', 'selectHost']);
    expect(rows[0]!.symbol).toBe('k8s.io/kubernetes/pkg/scheduler.selectHost');
  });

  it('reports what the index holds', async () => {
    const stats = await json<{
      repo: string;
      counts: Record<string, number>;
      symbols: Record<string, number>;
    }>(['stats']);
    expect(stats.repo).toBe(demoRoot);
    expect(stats.counts.files).toBeGreaterThan(50);
    expect(stats.symbols.method).toBeGreaterThan(50);
    expect(stats.counts.edges).toBeGreaterThan(stats.counts.frameworkEdges!);
  });
});

describe('k8s-read callers, callees, impls, struct, assigns', () => {
  it('lists callers of a method with how each call was found', async () => {
    const r = await json<{ hops: { from: string; kind: string; via: string | null }[] }>([
      'callers',
      '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
    ]);
    expect(r.hops).toContainEqual(
      expect.objectContaining({
        from: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run',
        kind: 'framework',
        via: 'wait-until',
      }),
    );
  });

  it('follows callees several levels deep', async () => {
    const r = await json<{ hops: { depth: number; to: string | null }[] }>([
      'callees',
      'Scheduler).schedulePod',
      '--depth',
      '2',
    ]);
    expect(r.hops.some((h) => h.depth === 1 && h.to?.endsWith('.findNodesThatFitPod'))).toBe(true);
    expect(r.hops.some((h) => h.depth === 2 && h.to?.endsWith('.findNodesThatPassFilters'))).toBe(
      true,
    );
  });

  it('lists the implementations of an interface and where they are stored', async () => {
    const r = await json<{
      interface: string;
      implementations: { type: string }[];
      stores: { field: string; type: string | null }[];
    }>(['impls', 'controller.PodControlInterface']);
    expect(r.interface).toBe('k8s.io/kubernetes/pkg/controller.PodControlInterface');
    const types = r.implementations.map((i) => i.type);
    expect(types).toContain('k8s.io/kubernetes/pkg/controller.RealPodControl');
    expect(types.some((t) => t.endsWith('FakePodControl'))).toBe(true);
  });

  it('expands embedded structs: Pod is TypeMeta + ObjectMeta + Spec + Status', async () => {
    const r = await json<{
      type: string;
      fields: { name: string; embedded: boolean; depth: number; from: string }[];
    }>(['struct', 'k8s.io/api/core/v1.Pod']);
    const own = r.fields.filter((f) => f.depth === 0).map((f) => f.name);
    expect(own).toEqual(expect.arrayContaining(['TypeMeta', 'ObjectMeta', 'Spec', 'Status']));
    const promoted = r.fields.filter((f) => f.depth === 1).map((f) => f.name);
    expect(promoted).toEqual(expect.arrayContaining(['Kind', 'Name', 'Namespace']));
  });

  it('tells who fills a function field', async () => {
    const r = await json<{ field: string; stores: { expr: string; in: string | null }[] }[]>([
      'assigns',
      'Scheduler.SchedulePod',
    ]);
    expect(r[0]!.field).toBe('k8s.io/kubernetes/pkg/scheduler.Scheduler.SchedulePod');
    expect(r[0]!.stores.map((s) => s.expr)).toContain('sched.schedulePod');
  });

  it('rejects a field query without a type', async () => {
    const r = await runCli(['assigns', 'SchedulePod', ...repo], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('name a field as Type.field');
  });
});
