import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/twins/scenario.js';
import { informerScenarioSpec } from '../../src/twins/runs/informer.js';
import { workqueueScenarioSpec } from '../../src/twins/runs/workqueue.js';
import { UsageError } from '../../src/errors.js';
import { caught } from './harness.js';

const parse = (text: string) => parseScenario(text, 'my.yaml', informerScenarioSpec);
const message = (text: string) => {
  const error = caught(() => parse(text));
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
};

describe('parseScenario', () => {
  it('reads durations in ms, s and m, and sorts steps by time', () => {
    const scenario = parse(`
duration: 2m
settings: { syncDuration: 250ms, resyncPeriod: 1.5s }
steps:
  - at: 2s
    delete: { kind: Pod, name: b }
  - at: 500ms
    create: { kind: Pod, name: a }
`);
    expect(scenario.duration).toBe(120_000);
    expect(scenario.settings.syncDuration).toBe(250);
    expect(scenario.settings.resyncPeriod).toBe(1500);
    expect(scenario.steps.map((s) => s.at)).toEqual([500, 2000]);
    expect(scenario.settings.workers).toBe(1);
  });

  it('names the file, line, column and field of a wrong value', () => {
    expect(
      message(
        `steps:\n  - at: 1s\n    create: { kind: Pod, name: a }\n  - at: soon\n    delete: { kind: Pod, name: a }\n`,
      ),
    ).toContain('my.yaml:4:5: steps[1].at: expected a duration such as 250ms, 1.5s or 2m');
  });

  it('points at an unknown field itself', () => {
    expect(message(`objects:\n  - kind: Pod\n    name: a\n    lables: { app: web }\n`)).toContain(
      'my.yaml:4:5: objects[0].lables: unknown field',
    );
  });

  it('names the fields a kind does not have', () => {
    expect(message(`objects:\n  - { kind: Pod, name: a, replicas: 3 }\n`)).toMatch(
      /my\.yaml:2:\d+: objects\[0\]\.replicas: not a field of a Pod/,
    );
  });

  it("lists the actions of the twin when a step uses another twin's action", () => {
    const text = `steps:\n  - at: 1s\n    scale: { kind: ReplicaSet, name: web, replicas: 2 }\n`;
    expect(message(text)).toContain(
      'my.yaml:3:5: steps[0].scale: "scale" is not an action of this twin; its actions: create, update, delete',
    );
  });

  it('asks for exactly one action per step', () => {
    expect(message(`steps:\n  - at: 1s\n`)).toContain(
      'my.yaml:2:5: steps[0]: a step needs exactly one action besides "at"',
    );
  });

  it('reports YAML syntax errors with their position', () => {
    expect(message(`steps:\n  - at: 1s\n   create: [\n`)).toMatch(/my\.yaml:\d+:\d+: YAML: /);
  });

  it('refuses a scenario written for another twin and says how to run it', () => {
    const error = caught(() =>
      parseScenario('twin: informer\n', 'q.yaml', workqueueScenarioSpec),
    ) as UsageError;
    expect(error.message).toContain(
      'q.yaml:1:1: twin: this scenario is for "informer", not "workqueue"',
    );
    expect(error.exitCode).toBe(2);
  });
});
