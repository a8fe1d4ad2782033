// Runs the built CLI (`npm run build` first), as a user would.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const dir = useTempDir('k8s-read-twin-');
const env = { XDG_CACHE_HOME: path.join(dir, 'cache'), HOME: dir };

describe('k8s-read twin list', () => {
  it('lists every twin with its title', async () => {
    const result = await runCli(['twin', 'list'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const name of [
      'apiserver',
      'reflector',
      'deltafifo',
      'indexer',
      'informer',
      'workqueue',
      'controller',
      'replicaset',
      'scheduler',
      'controller-runtime',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^${name} +\\S`, 'm'));
    }
  });

  it('prints name, title, mirrors and scenario as JSON', async () => {
    const result = await runCli(['twin', 'list', '-o', 'json'], { env });
    expect(result.code).toBe(0);
    const twins = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(twins).toHaveLength(10);
    expect(Object.keys(twins[0]!)).toEqual(['name', 'title', 'mirrors', 'scenario']);
    expect(twins.find((t) => t.name === 'workqueue')).toMatchObject({
      scenario: 'guides/scenarios/workqueue.yaml',
      mirrors: expect.arrayContaining(['(*k8s.io/client-go/util/workqueue.Type).Add']),
    });
  });
});

describe('k8s-read twin run', () => {
  it('prints an aligned timeline from the API event to the worker, each line naming its Go symbol', async () => {
    const result = await runCli(['twin', 'run', 'informer'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('# twin informer, seed 1, scenario guides/scenarios/informer.yaml');
    const flow = [
      'apiserver  *watch ADDED  *default/web-3',
      'reflector  *watch ADDED  *default/web-3',
      'deltafifo  *delta Added  *default/web-3',
      'indexer  *Add  *default/web-3',
      'handler controller  *OnAdd  *default/web-3',
      'workqueue  *Add  *default/web-3',
      'worker-\\d  *Get  *default/web-3',
    ];
    let at = 0;
    for (const step of flow) {
      const found = lines.findIndex(
        (line, i) => i > at && new RegExp(`^t=1\\.000s +${step}`).test(line),
      );
      expect({ step, found: found > at }).toEqual({ step, found: true });
      at = found;
    }
    expect(lines[at]).toMatch(
      /\[mirrors \(\*k8s\.io\/sample-controller\.Controller\)\.processNextWorkItem\]$/,
    );
  });

  it('prints {twin, seed, events} with -o json, and the same output for the same seed', async () => {
    const first = await runCli(['twin', 'run', 'scheduler', '--seed', '7', '-o', 'json'], { env });
    const second = await runCli(['twin', 'run', 'scheduler', '--seed', '7', '-o', 'json'], { env });
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const run = JSON.parse(first.stdout) as {
      twin: string;
      seed: number;
      events: Record<string, unknown>[];
    };
    expect(Object.keys(run)).toEqual(['twin', 'seed', 'events']);
    expect(run.twin).toBe('scheduler');
    expect(run.seed).toBe(7);
    expect(Object.keys(run.events[0]!)).toEqual([
      't',
      'component',
      'event',
      'key',
      'detail',
      'mirrors',
    ]);
  });

  it('lets a different seed change the timeline', async () => {
    const one = await runCli(['twin', 'run', 'replicaset', '--seed', '1'], { env });
    const two = await runCli(['twin', 'run', 'replicaset', '--seed', '2'], { env });
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).not.toBe(one.stdout);
  });

  it('paces the same lines in real time with --speed', async () => {
    const plain = await runCli(['twin', 'run', 'indexer'], { env });
    const paced = await runCli(['twin', 'run', 'indexer', '--speed', '100'], { env });
    expect(paced.code).toBe(0);
    expect(paced.stdout).toBe(plain.stdout);
  });

  it('runs a scenario file and names file, line and field when it is wrong (exit 2, no stack)', async () => {
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'steps:\n  - at: 1s\n    add: a\n  - at: 2s\n    add: b\n    addd: c\n');
    const result = await runCli(['twin', 'run', 'workqueue', '--scenario', file], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: invalid scenario:\n  ${file}:6:5: steps[1].addd: unknown field`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('runs a good scenario file from the current directory', async () => {
    writeFileSync(
      path.join(dir, 'queue.yaml'),
      'duration: 1s\nsteps:\n  - at: 0s\n    add: default/x\n',
    );
    const result = await runCli(
      ['twin', 'run', 'workqueue', '--scenario', 'queue.yaml', '-o', 'json'],
      { env, cwd: dir },
    );
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as { events: { event: string; key: string }[] };
    expect(run.events.map((e) => `${e.event} ${e.key}`)).toContain('Get default/x');
  });

  it('lists the twins when the name is unknown (exit 2)', async () => {
    const result = await runCli(['twin', 'run', 'kubelet'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: no twin named "kubelet"; the twins are: apiserver, reflector, deltafifo, indexer, informer, workqueue, controller, replicaset, scheduler, controller-runtime',
    );
  });

  it('refuses a seed that is not a whole number', async () => {
    const result = await runCli(['twin', 'run', 'informer', '--seed', 'abc'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('write a whole number');
  });
});

describe('k8s-read twin show', () => {
  it('prints the TypeScript twin of a Go symbol with file:line, without an index', async () => {
    const result = await runCli(['twin', 'show', '(*k8s.io/client-go/tools/cache.DeltaFIFO).Pop'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^src\/twins\/deltafifo\.ts:\d+ {2}deltafifo DeltaFIFO\.pop {2}\(mirrors \(\*k8s\.io\/client-go\/tools\/cache\.DeltaFIFO\)\.Pop\)\n\/\*\*/,
    );
    expect(result.stdout).toContain('*pop(process: PopProcessFunc)');
  });

  it('prints the matches as JSON', async () => {
    const result = await runCli(['twin', 'show', 'selectHost', '-o', 'json'], { env });
    expect(result.code).toBe(0);
    const matches = JSON.parse(result.stdout) as { exportName: string; file: string }[];
    expect(matches.map((m) => `${m.file} ${m.exportName}`)).toEqual([
      'src/twins/scheduler/scheduler.ts selectHost',
    ]);
  });

  it('suggests mirrored symbols when there is no twin for the one asked', async () => {
    const result = await runCli(
      ['twin', 'show', '(*k8s.io/client-go/util/workqueue.Type).Frobnicate'],
      { env },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no symbol matches');
  });
});

describe('k8s-read twin check', () => {
  it('checks every @mirrors tag against the index of the tree and reports the missing symbols as JSON', async () => {
    // The index lives in the cache directory; a user's usually exists already.
    mkdirSync(path.join(dir, 'cache', 'k8s-read'), { recursive: true });
    const result = await runCli(['twin', 'check', '-o', 'json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      mirrors: number;
      missing: { twin: string; symbol: string }[];
    };
    expect(Object.keys(report)).toEqual(['mirrors', 'missing']);
    expect(report.mirrors).toBeGreaterThan(300);
    // The demo tree is a slice of Kubernetes: some symbols are missing, and the ones it does
    // have (the work queue's Add, for one) are not reported.
    expect(report.missing.length).toBeGreaterThan(0);
    expect(report.missing.length).toBeLessThan(report.mirrors);
    expect(report.missing.map((m) => m.symbol)).not.toContain(
      '(*k8s.io/client-go/util/workqueue.Type).Add',
    );
    expect(report.missing.every((m) => typeof m.twin === 'string' && m.symbol.includes('.'))).toBe(
      true,
    );
  });
});
