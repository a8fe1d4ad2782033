/**
 * Issue 14, case 6: a twin run has limits, and says which one a scenario hit, at once. Before,
 * `replicas: 100000000` ran silently for minutes at 2 GB and a million events took 3.5 GB.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UsageError } from '../../src/errors.js';
import { parseScenario } from '../../src/twins/scenario.js';
import { informerScenarioSpec, runInformerPipeline } from '../../src/twins/runs/informer.js';
import { replicasetScenarioSpec } from '../../src/twins/runs/replicaset.js';
import { MAX_EVENTS, TwinRunLimitError } from '../../src/twins/runs/world.js';
import { runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { caught } from './harness.js';

const dir = useTempDir('k8s-read-twin-limits-');
const env = { XDG_CACHE_HOME: path.join(dir, 'cache'), HOME: dir };

describe('scenario limits', () => {
  it('refuses replicas beyond what a run can narrate, with the field and the limit', async () => {
    const file = path.join(dir, 'huge.yaml');
    const line = '  - { kind: ReplicaSet, name: web, replicas: 100000000, selector: { app: web } }';
    writeFileSync(file, `twin: replicaset\nduration: 40s\nobjects:\n${line}\n`);
    const started = Date.now();
    const r = await runCli(['twin', 'run', 'replicaset', '--scenario', file], { env });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: invalid scenario:\n  ${file}:4:${line.indexOf('replicas') + 1}: objects[0].replicas: at most 1000 replicas in a twin run (it narrates every pod)\nfix the field(s) above (see guides/scenarios/replicaset.yaml for a working example)\n`,
    );
  });

  it('refuses a scale step beyond the limit, and a run longer than an hour', () => {
    const scale = caught(() =>
      parseScenario(
        'steps:\n  - at: 1s\n    scale: { kind: ReplicaSet, name: web, replicas: 5000 }\n',
        's.yaml',
        replicasetScenarioSpec,
      ),
    ) as UsageError;
    expect(scale.message).toContain('s.yaml:3:43: steps[0].scale.replicas: at most 1000 replicas');
    const long = caught(() =>
      parseScenario('duration: 2000m\n', 'l.yaml', informerScenarioSpec),
    ) as UsageError;
    expect(long.message).toContain(
      'l.yaml:1:1: duration: at most 1h of virtual time in a twin run',
    );
  });
});

describe('run limits', () => {
  it(`stops a run past ${MAX_EVENTS} events and says how to shrink it`, () => {
    // Ten pods resynced every millisecond for an hour: without the limit about 300,000 events
    // (68 MB of JSON, 470 MB of memory, 13 s here).
    const scenario = parseScenario(
      `duration: 60m\nsettings: { resyncPeriod: 1ms, syncDuration: 1ms }\nobjects:\n${'abcdefghij'
        .split('')
        .map((n) => `  - { kind: Pod, name: ${n} }`)
        .join('\n')}\n`,
      'many.yaml',
      informerScenarioSpec,
    );
    const started = Date.now();
    const error = caught(() => runInformerPipeline('informer', scenario, 1));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(error).toBeInstanceOf(TwinRunLimitError);
    expect((error as TwinRunLimitError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(
      /^the scenario made more than 50000 events by t=\d+\.\d{3}s, more than a twin run narrates; shorten its duration, or lower its replicas, objects or steps$/,
    );
  });
});
