import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultScenarioPath,
  findTwin,
  listTwins,
  twinNames,
  type TwinName,
} from '../../src/twins/catalog.js';
import { renderTimelineLines } from '../../src/twins/render.js';
import { UsageError } from '../../src/errors.js';
import { projectRoot } from '../helpers/run-cli.js';
import { caught } from './harness.js';

describe('the twin catalog', () => {
  it('lists the ten twins of the issue, each with a title, Go symbols and a shipped scenario', () => {
    expect(listTwins().map((t) => t.name)).toEqual([
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
    ]);
    for (const twin of listTwins()) {
      expect(twin.title.length).toBeGreaterThan(10);
      expect(twin.mirrors.length).toBeGreaterThan(0);
      expect(twin.scenario).toBe(`guides/scenarios/${twin.name}.yaml`);
    }
  });

  it('says which twins exist when asked for one that does not', () => {
    const error = caught(() => findTwin('informr')) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(
      'no twin named "informr"; the twins are: apiserver, reflector, deltafifo',
    );
  });

  describe.each(twinNames)('the %s twin on its default scenario', (name) => {
    const file = defaultScenarioPath(projectRoot, name);
    const first = findTwin(name).run(file, 3);
    const again = findTwin(name).run(file, 3);

    it('produces a timeline of events that each name a component, an event and a Go symbol', () => {
      expect(first.result.twin).toBe(name);
      expect(first.result.seed).toBe(3);
      expect(first.result.events.length).toBeGreaterThan(10);
      for (const e of first.result.events) {
        expect(Object.keys(e)).toEqual(['t', 'component', 'event', 'key', 'detail', 'mirrors']);
        expect(e.mirrors).toMatch(/\.[A-Za-z_]/);
      }
      const times = first.result.events.map((e) => e.t);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });

    it('is deterministic: the same seed gives the same timeline', () => {
      expect(again.result).toEqual(first.result);
    });

    it('describes its scenario', () => {
      expect(first.description).toBeTruthy();
      expect(path.basename(file)).toBe(`${name}.yaml`);
    });
  });

  it('lets the seed change what happens where randomness matters', () => {
    const file = defaultScenarioPath(projectRoot, 'replicaset');
    const names = (seed: number) =>
      findTwin('replicaset')
        .run(file, seed)
        .result.events.filter((e) => e.event === 'create')
        .map((e) => e.key);
    expect(names(1)).not.toEqual(names(2));
  });

  it('ends each default scenario in the state its description promises', () => {
    const last = (name: TwinName, event: string) =>
      findTwin(name)
        .run(defaultScenarioPath(projectRoot, name))
        .result.events.filter((e) => e.event === event);
    expect(last('replicaset', 'converged').map((e) => e.key)).toEqual(['default/web']);
    expect(last('controller-runtime', 'converged').map((e) => e.key)).toEqual(['default/shop']);
    expect(last('scheduler', 'pending')).toEqual([]);
    expect(last('informer', 'tombstone').map((e) => e.key)).toEqual(['default/web-3']);
    expect(
      last('deltafifo', 'delta Deleted').some((e) =>
        e.detail.includes('two deletes collapsed into one'),
      ),
    ).toBe(true);
  });
});

describe('renderTimelineLines', () => {
  it('aligns the columns and ends each line with the Go symbol', () => {
    const lines = renderTimelineLines([
      {
        t: 1.25,
        component: 'reflector',
        event: 'watch ADDED',
        key: 'default/web-1',
        detail: 'd1',
        mirrors: 'pkg.A',
      },
      { t: 10, component: 'workqueue', event: 'Add', key: 'k', detail: 'd2', mirrors: 'pkg.B' },
    ]);
    expect(lines).toEqual([
      't=1.250s   reflector  watch ADDED  default/web-1  d1  [mirrors pkg.A]',
      't=10.000s  workqueue  Add          k              d2  [mirrors pkg.B]',
    ]);
  });
});
