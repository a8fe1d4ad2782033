/**
 * The start screen of `k8s-read tui`: the controllers `k8s-read controllers` lists, read off the
 * demo index (the same table, not a sample), drawn at a fixed size with ANSI stripped and driven
 * by keys as a reader does.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFrameworkRules, loadNoiseRules } from '../../src/resolve/rules.js';
import { listControllers, type ControllerTable } from '../../src/trace/controllers.js';
import { loadComponentRules } from '../../src/trace/rules-data.js';
import { createStoreGraph } from '../../src/trace/store-graph.js';
import { ControllerMenu } from '../../src/tui/ControllerMenu.js';
import { indexFixture, type IndexedFixture } from '../helpers/index-fixture.js';
import { keys, renderTui, type RenderedTui } from '../helpers/render-tui.js';
import { demoRoot } from '../helpers/run-cli.js';

let fixture: IndexedFixture;
let table: ControllerTable;
beforeAll(async () => {
  fixture = await indexFixture(demoRoot);
  const components = loadComponentRules();
  table = await listControllers(createStoreGraph(fixture.store, fixture.tree, { components }), {
    frameworks: loadFrameworkRules(),
    noise: loadNoiseRules(),
    components,
  });
}, 120_000);
afterAll(() => fixture?.close());

let screen: RenderedTui | undefined;
afterEach(() => screen?.unmount());

function open(onOpen: (index: number) => void = () => undefined, status: string | null = null) {
  screen = renderTui(
    <ControllerMenu
      mode="start"
      title="controllers of kube-controller-manager"
      treeLabel="fixtures/kubernetes (demo tree)"
      table={table}
      color={false}
      open={() => Promise.reject(new Error('not opened in this test'))}
      onOpen={onOpen}
      status={status}
    />,
    { columns: 100, rows: 30 },
  );
  return screen;
}

describe('the start screen', () => {
  it('lists the controllers and shows the first one’s cells, each with its file:line', async () => {
    const tui = open();
    const frame = await tui.waitFor((f) => f.includes('startDeploymentController'), 'deployment');
    const lines = frame.split('\n');
    expect(lines.every((line) => [...line].length <= 100)).toBe(true);
    expect(lines[0]).toContain(
      'controllers of kube-controller-manager · 2 controllers · fixtures/kubernetes (demo tree)',
    );
    expect(frame).toMatch(/›deployment/);
    expect(frame).toMatch(/ replicaset/);
    expect(frame).toContain('trace kube-controller-manager/deployment');
    const dir = 'pkg/controller/deployment/deployment_controller.go';
    const cells = [
      ['start', 'startDeploymentController', 'cmd/kube-controller-manager/app/apps.go:22'],
      ['informer', 'dInformer.Informer() → addDeployment, updateDeployment,', `${dir}:63`],
      ['informer', 'rsInformer.Informer() → addReplicaSet', `${dir}:68`],
      ['queue', 'dc.queue → processNextWorkItem', `${dir}:51`],
      ['worker', 'worker ← wait.UntilWithContext', `${dir}:153`],
      ['sync', 'syncDeployment ← dc.syncHandler', `${dir}:188`],
    ];
    for (const [part, what, where] of cells) {
      const at = lines.findIndex((l) => l.includes(`${part!.padEnd(10)}${what}`));
      expect(at, `${part} ${what}`).toBeGreaterThan(0);
      // The place is written under the cell (a wrapped cell continues first).
      expect(
        lines.slice(at + 1, at + 3).some((l) => l.includes(where!)),
        where,
      ).toBe(true);
    }
    expect(frame).toContain('informers 2/2 · queues 2/2 · workers 2/2 · sync 2/2');
    expect(frame).toContain('⏎ open its trace');
  });

  it('moves to the next controller with j and opens its trace with enter', async () => {
    const opened: number[] = [];
    const tui = open((index) => opened.push(index));
    await tui.waitFor((f) => f.includes('startDeploymentController'), 'deployment');
    tui.press('j');
    const frame = await tui.waitFor(
      (f) => f.includes('startReplicaSetController'),
      'replicaset after j',
    );
    expect(frame).toMatch(/›replicaset/);
    expect(frame).toContain('syncReplicaSet ← rsc.syncHandler');
    expect(frame).toContain('pkg/controller/replicaset/replica_set.go:368');
    tui.press(keys.enter);
    await tui.waitFor(() => opened.length > 0, 'the open request');
    expect(opened).toEqual([1]);
  });

  it('says what it is doing on the status line', async () => {
    const tui = open(undefined, 'tracing replicaset…');
    const frame = await tui.waitFor((f) => f.includes('tracing replicaset…'), 'the status');
    expect(frame).not.toContain('⏎ open its trace');
  });
});
