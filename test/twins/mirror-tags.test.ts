import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Node, Project } from 'ts-morph';
import {
  checkMirrors,
  findTwinsForSymbol,
  readMirrorTags,
  type MirrorTag,
} from '../../src/twins/mirror-tags.js';
import { projectRoot } from '../helpers/run-cli.js';

const twinsDir = path.join(projectRoot, 'src', 'twins');
const tags = await readMirrorTags(twinsDir);

/** Modules that are machinery for running twins (sim/ and runs/ too), not twins of Go code. */
const machinery = new Set([
  'src/twins/scenario.ts',
  'src/twins/mirror-tags.ts',
  'src/twins/catalog.ts',
  'src/twins/render.ts',
]);

describe('readMirrorTags', () => {
  it('reads the tag on a method, with its class, file and line', () => {
    const add = tags.find((t) => t.symbol === '(*k8s.io/client-go/util/workqueue.Type).Add');
    expect(add).toMatchObject({
      twin: 'workqueue',
      exportName: 'WorkQueue.add',
      file: 'src/twins/workqueue.ts',
    });
    expect(add!.text).toContain('add(item: T): void');
    expect(add!.text).toContain('@mirrors (*k8s.io/client-go/util/workqueue.Type).Add');
  });

  it('names the twin after the folder for nested files', () => {
    expect(
      tags.find((t) => t.symbol === '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne')
        ?.twin,
    ).toBe('scheduler');
  });

  it('finds a tag on every exported class and function of the twin modules', () => {
    const project = new Project({
      skipAddingFilesFromTsConfig: true,
      skipFileDependencyResolution: true,
    });
    project.addSourceFilesAtPaths(path.join(twinsDir, '**/*.ts'));
    const tagged = new Set(tags.map((t) => `${t.file}:${t.exportName}`));
    const untagged: string[] = [];
    for (const file of project.getSourceFiles()) {
      const rel = path.relative(projectRoot, file.getFilePath()).split(path.sep).join('/');
      if (
        machinery.has(rel) ||
        rel.startsWith('src/twins/runs/') ||
        rel.startsWith('src/twins/sim/')
      )
        continue;
      for (const statement of file.getStatements()) {
        if (
          !(Node.isClassDeclaration(statement) || Node.isFunctionDeclaration(statement)) ||
          !statement.isExported()
        )
          continue;
        const name = statement.getName()!;
        if (!tagged.has(`${rel}:${name}`)) untagged.push(`${rel}:${name}`);
      }
    }
    expect(untagged).toEqual([]);
  });

  it('reads several hundred tags, each in the DESIGN symbol format', () => {
    expect(tags.length).toBeGreaterThan(300);
    const format =
      /^(\(\*?[a-z0-9./_-]+\.[A-Za-z_][A-Za-z0-9_]*(\[[A-Za-z, ]+\])?\)\.[A-Za-z_][A-Za-z0-9_]*(\$\d+)*|[a-z0-9./_-]+\.[A-Za-z_][A-Za-z0-9_]*(\$\d+)*)$/;
    expect(tags.filter((t) => !format.test(t.symbol)).map((t) => t.symbol)).toEqual([]);
  });
});

describe('checkMirrors', () => {
  const tag = (exportName: string, symbol: string, line: number): MirrorTag => ({
    twin: 'w',
    exportName,
    symbol,
    file: 'src/twins/w.ts',
    line,
    endLine: line,
    text: '',
  });

  it('reports a declaration only when none of its tags exists in the index', async () => {
    const sample = [
      tag('A.add', 'pkg.old', 1),
      tag('A.add', 'pkg.new', 1),
      tag('B', 'pkg.gone', 5),
      tag('B', 'pkg.alsoGone', 5),
      tag('C', 'pkg.here', 9),
    ];
    const asked: string[][] = [];
    const report = await checkMirrors(sample, async (symbols) => {
      asked.push(symbols);
      return new Set(['pkg.new', 'pkg.here']);
    });
    expect(asked).toEqual([['pkg.old', 'pkg.new', 'pkg.gone', 'pkg.alsoGone', 'pkg.here']]);
    expect(report).toEqual({
      mirrors: 5,
      missing: [
        { twin: 'w', symbol: 'pkg.gone' },
        { twin: 'w', symbol: 'pkg.alsoGone' },
      ],
    });
  });
});

describe('findTwinsForSymbol', () => {
  it('finds the declaration of an exact Go symbol', () => {
    const [match, ...rest] = findTwinsForSymbol(
      tags,
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).Replace',
    );
    expect(rest).toEqual([]);
    expect(match).toMatchObject({ twin: 'deltafifo', exportName: 'DeltaFIFO.replace' });
    expect(match!.text).toMatch(
      /replace\(list: readonly CacheEntry\[\], _resourceVersion: string\): void \{/,
    );
  });

  it('accepts a suffix on a name boundary when nothing matches exactly', () => {
    expect(findTwinsForSymbol(tags, 'workqueue.Type.Add').map((m) => m.exportName)).toEqual([
      'WorkQueue.add',
    ]);
    expect(findTwinsForSymbol(tags, 'scheduleOne').map((m) => m.exportName)).toEqual([
      'Scheduler.scheduleOne',
    ]);
    expect(findTwinsForSymbol(tags, 'Type.Ad')).toEqual([]);
  });

  it('finds a twin by the name the Go symbol had in an older version', () => {
    expect(
      findTwinsForSymbol(
        tags,
        '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
      ).map((m) => m.exportName),
    ).toEqual(['Scheduler.schedulePod']);
  });
});
