/**
 * The screen's providers against the demo tree, indexed for real: a copy of fixtures/kubernetes
 * in a git repository whose history this test builds (a first commit, then one pull request merged
 * with GitHub's merge button), so blame has a pull request to find.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScreenProviders, type ScreenProviders } from '../../src/cli/screen-providers.js';
import { createTourIndex } from '../../src/cli/tour-tree.js';
import { findTree } from '../../src/store/index-store.js';
import { mergePullRequest } from '../helpers/git-history.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { demoRoot, projectRoot } from '../helpers/run-cli.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';
import { useTempDir } from '../helpers/temp-dir.js';

const scheduleOne = '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne';
const scheduleFile = 'pkg/scheduler/schedule_one.go';

let repo: TempRepo;
let fixture: IndexedFixture;
let screen: ScreenProviders;
/** The line of `sched.SchedulePod(...)` in scheduleOne, and the line the pull request changed. */
let schedulePodLine: number;
let changedLine: number;
const scratch = useTempDir('k8s-read-providers-');

beforeAll(async () => {
  repo = createTempRepo();
  cpSync(demoRoot, repo.root, { recursive: true, verbatimSymlinks: true });
  repo.commit('Initial commit');
  const source = () => readFileSync(path.join(repo.root, scheduleFile), 'utf8').split('\n');
  mergePullRequest(repo, {
    number: 4242,
    title: 'Say why scheduleOne returns early',
    branch: 'explain-early-return',
    commits: [
      {
        message: 'Explain the early return',
        change: () => {
          const lines = source();
          const at = lines.findIndex((l) => l.includes('if podInfo == nil || podInfo.Pod == nil'));
          lines.splice(at + 1, 0, '\t\t// Nothing to schedule: the queue was closed.');
          writeFileSync(path.join(repo.root, scheduleFile), lines.join('\n'));
        },
      },
    ],
  });
  const lines = source();
  schedulePodLine = lines.findIndex((l) => l.includes('sched.SchedulePod(')) + 1;
  changedLine = lines.findIndex((l) => l.includes('the queue was closed')) + 1;
  fixture = await indexFixture(repo.root);
  const tree = (await findTree(fixture.store, repo.root))!;
  const tourIndex = createTourIndex({ store: fixture.store, treeId: fixture.treeId, tree });
  screen = createScreenProviders({
    index: fixture,
    root: repo.root,
    readSource: tourIndex.readSource,
    gitCacheDb: path.join(scratch, 'git-cache.sqlite'),
    packageRoot: projectRoot,
  });
}, 120_000);
afterAll(async () => {
  await screen?.close();
  await fixture?.close();
});

describe('the screen’s providers on the demo index', () => {
  it('reads a file of the tree, and says which one when it cannot', async () => {
    const text = await screen.providers.readSource(scheduleFile);
    expect(text).toContain('func (sched *Scheduler) scheduleOne(ctx context.Context) {');
    await expect(screen.providers.readSource('pkg/nowhere.go')).rejects.toThrow(
      `pkg/nowhere.go cannot be read from ${repo.root}`,
    );
  });

  it('resolves the calls on a line to the places they go', async () => {
    const calls = await screen.providers.callsAt(scheduleFile, schedulePodLine);
    const call = calls.find((c) => c.expr?.endsWith('SchedulePod'));
    expect(call).toMatchObject({
      line: schedulePodLine,
      kind: 'funcvalue',
      target: {
        symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).schedulePod',
        file: scheduleFile,
      },
    });
    expect(call!.target!.endLine).toBeGreaterThan(call!.target!.line);
  });

  it('lists the callers of a function with the site and how it was found', async () => {
    const callers = await screen.providers.callers(scheduleOne);
    expect(callers).toContainEqual(
      expect.objectContaining({
        caller: expect.objectContaining({
          symbol: '(*k8s.io/kubernetes/pkg/scheduler.Scheduler).Run',
          file: 'pkg/scheduler/scheduler.go',
        }),
        site: expect.stringMatching(/^pkg\/scheduler\/scheduler\.go:\d+$/),
        kind: 'framework',
      }),
    );
    const site = callers.find((c) => c.kind === 'framework')!;
    expect(site.caller.focusLine).toBe(Number(site.site.split(':')[1]));
    expect(await screen.providers.callers('k8s.io/kubernetes/pkg/nowhere.Nothing')).toEqual([]);
  });

  it('searches declarations by name', async () => {
    const found = await screen.providers.search('scheduleOne');
    expect(found.map((l) => l.symbol)).toContain(scheduleOne);
    expect(found.every((l) => l.file !== '')).toBe(true);
  });

  it('blames a line to the pull request that brought it in, and an older line to the first commit', async () => {
    const blame = screen.providers.blame!;
    await expect(blame(scheduleFile, changedLine)).resolves.toMatchObject({
      file: scheduleFile,
      line: changedLine,
      author: 'Ada Reader',
      summary: 'Explain the early return',
      pr: { number: 4242, title: 'Say why scheduleOne returns early' },
    });
    const older = await blame(scheduleFile, schedulePodLine);
    expect(older.summary).toBe('Initial commit');
    expect(older.pr).toBeNull();
    await expect(blame(scheduleFile, 100_000)).rejects.toThrow(
      `line 100000 is not in ${scheduleFile} at HEAD`,
    );
  });

  it('finds the twin that mirrors a symbol', async () => {
    const twins = await screen.providers.twins!(scheduleOne);
    expect(twins.map((t) => t.twin)).toContain('scheduler');
    expect(await screen.providers.twins!('k8s.io/kubernetes/pkg/nowhere.Nothing')).toEqual([]);
  });

  it('runs the twin of a symbol on its default scenario', async () => {
    const run = await screen.providers.timeline!(scheduleOne, null);
    expect(run.twin).toBe('scheduler');
    expect(run.scenario).toBe('guides/scenarios/scheduler.yaml');
    expect(run.events.length).toBeGreaterThan(3);
    await expect(
      screen.providers.timeline!('k8s.io/kubernetes/pkg/nowhere.Nothing', null),
    ).rejects.toThrow('no runnable twin mirrors this symbol');
  });
});
