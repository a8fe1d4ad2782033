import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findTour,
  loadTours,
  parseTour,
  TourFileError,
  type TourIssue,
} from '../../src/tour/load-tours.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { tourYaml } from './sample-index.js';

function issuesOf(text: string, file = 'guides/demo.yaml', twinNames?: string[]): TourIssue[] {
  try {
    parseTour(text, file, twinNames ? { twinNames } : {});
  } catch (error) {
    if (error instanceof TourFileError) return [...error.issues];
    throw error;
  }
  throw new Error('the tour was accepted');
}

describe('parseTour', () => {
  it('reads a valid tour with defaults for the optional fields', () => {
    const tour = parseTour(tourYaml(), 'guides/demo.yaml');
    expect(tour.name).toBe('demo');
    expect(tour.file).toBe('guides/demo.yaml');
    expect(tour.steps).toHaveLength(2);
    expect(tour.steps[0]).toMatchObject({
      focus: { call: 'sched.SchedulePod' },
      alternatives: [],
      demo: true,
      optional: false,
    });
    expect(tour.steps[1]!.cite).toEqual([]);
  });

  it('names the file, line, column and field of an unknown field, and what is allowed there', () => {
    const text = tourYaml().replace(
      '    prose: Filter, score, select.',
      '    prose: Filter, score, select.\n    prosa: typo',
    );
    const [issue] = issuesOf(text);
    expect(issue).toMatchObject({
      file: 'guides/demo.yaml',
      line: 25,
      col: 5,
      field: 'steps[1].prosa',
    });
    expect(issue!.message).toMatch(
      /^unknown field \(allowed here: title, symbol, alternatives, focus, prose, twin, cite, demo, optional\)$/,
    );
  });

  it('points at the step of a missing required field', () => {
    const text = tourYaml().replace('    prose: Filter, score, select.\n', '');
    expect(issuesOf(text)).toEqual([
      {
        file: 'guides/demo.yaml',
        line: 19,
        col: 5,
        field: 'steps[1].prose',
        message: 'required field is missing',
      },
    ]);
  });

  it('says a field of the wrong type has the wrong type, not that it is missing (issue 14, case 8)', () => {
    const text = tourYaml()
      .replace('order: 1', 'order: "first"')
      .replace('    prose: Filter, score, select.', '    prose: [Filter, score, select]');
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        line: 3,
        field: 'order',
        message: 'expected number, not a string ("first")',
      }),
      expect.objectContaining({ field: 'steps[1].prose', message: 'expected string, not a list' }),
    ]);
  });

  it('rejects a short name where a full symbol belongs, pointing at the value', () => {
    const text = tourYaml().replace(
      'symbol: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
      'symbol: schedulePod',
    );
    const [issue] = issuesOf(text);
    expect(issue).toMatchObject({ line: 20, col: 5, field: 'steps[1].symbol' });
    expect(issue!.message).toContain('expected a full symbol as DESIGN.md writes it');
  });

  it('accepts generic receivers as go/ssa prints them', () => {
    const text = tourYaml().replace(
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      '(*sigs.k8s.io/controller-runtime/pkg/internal/source.Kind[object,request]).Start',
    );
    expect(parseTour(text, 'guides/demo.yaml').steps[1]!.alternatives).toEqual([
      '(*sigs.k8s.io/controller-runtime/pkg/internal/source.Kind[object,request]).Start',
    ]);
  });

  it('requires exactly one of call and text in a focus', () => {
    const text = tourYaml().replace(
      'focus: { text: findNodesThatFit }',
      'focus: { text: a, call: b }',
    );
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({
        line: 23,
        field: 'steps[1].focus',
        message: 'give exactly one of `call` or `text`',
      }),
    ]);
  });

  it('reports every problem of a file at once', () => {
    const text = tourYaml()
      .replace('order: 1', 'order: first')
      .replace(
        'symbol: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
        'symbol: scheduleOne',
      );
    expect(issuesOf(text).map((i) => i.field)).toEqual(['order', 'steps[0].symbol']);
  });

  it('requires the name to be the file name, the name `tour <name>` takes', () => {
    expect(issuesOf(tourYaml(), 'guides/other.yaml')).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'name',
        message: expect.stringContaining('"other"'),
      }),
    ]);
  });

  it('checks twin names when it is given the twins', () => {
    const text = tourYaml().replace('name: scheduler', 'name: shceduler');
    expect(issuesOf(text, 'guides/demo.yaml', ['scheduler', 'informer'])).toEqual([
      expect.objectContaining({
        line: 15,
        field: 'steps[0].twin.name',
        message: 'no twin named "shceduler"; the twins are: scheduler, informer',
      }),
    ]);
  });

  it('reports a YAML syntax error with its position', () => {
    const [issue] = issuesOf('name: demo\norder: 1\ntitle: x\n  bad: indent\n');
    expect(issue).toEqual({
      file: 'guides/demo.yaml',
      field: 'YAML',
      line: 3,
      col: 8,
      message: 'Nested mappings are not allowed in compact mappings',
    });
  });

  it('ends its message with the fix', () => {
    expect(() => parseTour(tourYaml().replace('order: 1', 'order: 0'), 'guides/demo.yaml')).toThrow(
      /^invalid tour:\n {2}guides\/demo\.yaml:3:1: order: .*\nfix the field\(s\) above/,
    );
  });
});

describe('loadTours', () => {
  it('loads the tour files of a directory in reading order, skipping subfolders', () => {
    const dir = useTempDir();
    writeFileSync(path.join(dir, 'demo.yaml'), tourYaml().replace('order: 1', 'order: 2'));
    writeFileSync(path.join(dir, 'first.yaml'), tourYaml().replace('name: demo', 'name: first'));
    mkdirSync(path.join(dir, 'scenarios'));
    writeFileSync(path.join(dir, 'scenarios', 'x.yaml'), 'not: a tour');
    expect(loadTours(dir).map((t) => t.name)).toEqual(['first', 'demo']);
  });

  it('reports the problems of every bad file together', () => {
    const dir = useTempDir();
    writeFileSync(path.join(dir, 'a.yaml'), tourYaml());
    writeFileSync(
      path.join(dir, 'b.yaml'),
      tourYaml().replace('name: demo', 'name: b').replace('title: "Demo: two steps"\n', ''),
    );
    try {
      loadTours(dir, { shownAs: (file) => `guides/${path.basename(file)}` });
      expect.fail('the bad files were accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(TourFileError);
      expect((error as TourFileError).issues.map((i) => `${i.file}:${i.line}:${i.field}`)).toEqual([
        'guides/a.yaml:1:name',
        'guides/b.yaml:1:title',
      ]);
      expect((error as TourFileError).exitCode).toBe(2);
    }
  });

  it('says which directory it cannot read and how to pass another', () => {
    expect(() => loadTours('/nonexistent/guides')).toThrow(
      /cannot read the guides directory \/nonexistent\/guides: ENOENT; pass --guides DIR/,
    );
  });
});

describe('findTour', () => {
  it('lists the tour names when the name is unknown', () => {
    const tour = parseTour(tourYaml(), 'guides/demo.yaml');
    expect(findTour([tour], 'demo')).toBe(tour);
    expect(() => findTour([tour], 'dmeo')).toThrow(
      'no tour named "dmeo"; the tours are: demo (see `k8s-read tour list`)',
    );
  });
});
