/**
 * `k8s-read tour` and `tui` as a user runs them (the built dist/cli.js), on the bundled demo trees.
 * Each tree is indexed once into this file's temporary directory, the first time a test needs it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const dir = useTempDir('k8s-read-tour-');
const db = (tree: string) => ['--db', path.join(dir, `${tree}.sqlite`)];
const onDemo = (tree: string) => ['--repo', `fixtures/${tree}`, ...db(tree)];
const noStack = /\n\s+at /;

/** The tours as `tour list -o json` prints them. */
const tourNames = [
  'finding-your-way',
  'kube-apiserver',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
  'client-go',
  'sample-controller',
  'replicaset',
  'deployment',
  'controller-runtime',
];

function json<T>(result: CliResult): T {
  expect(result.stderr).not.toMatch(noStack);
  return JSON.parse(result.stdout) as T;
}

describe('k8s-read tour list', () => {
  it('prints the tours in reading order as JSON: name, title, steps', async () => {
    const result = await runCli(['tour', 'list', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const tours = json<{ name: string; title: string; steps: number }[]>(result);
    expect(tours.map((t) => t.name)).toEqual(tourNames);
    expect(tours[2]).toEqual({
      name: 'kube-scheduler',
      title: 'kube-scheduler: from main() to a bound pod',
      steps: 14,
    });
  });

  it('lists the tours as text when `tour` is given no name', async () => {
    const result = await runCli(['tour']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^finding-your-way\s+11 steps {2}Finding your way in kubernetes\/kubernetes$/m,
    );
    expect(result.stdout).toContain('take one with `k8s-read tour <name>`');
  });
});

describe('k8s-read tour check', () => {
  it('checks every tour on the demo trees that model it when no repository is given', async () => {
    const result = await runCli(['tour', 'check', ...db('all-demo-trees')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('checking each tour on the bundled demo trees that model it');
    const blocks = result.stdout.split('\n\n');
    expect(blocks.map((b) => /^tours checked against (\S+)/.exec(b)?.[1])).toEqual([
      'fixtures/kubernetes',
      'fixtures/kubernetes-v1.15',
      'fixtures/sample-controller',
      'fixtures/controller-runtime-operator',
    ]);
    expect(blocks[0]).toMatch(/^ {2}✓ kube-scheduler\s+14\/14 steps$/m);
    expect(blocks[0]).toMatch(/^ {2}✓ client-go\s+15\/15 steps/m);
    expect(blocks[0]).toMatch(/^ {2}✓ kubelet\s+20\/20 steps$/m);
    expect(blocks[0]).toMatch(
      /^ {2}✓ kube-apiserver\s+20\/20 steps \(1 through another version's name\)$/m,
    );
    expect(blocks[0]).toMatch(/^ {2}✓ kube-proxy\s+15\/15 steps \(1 skipped: /m);
    expect(blocks[0]).toMatch(/^ {2}✓ deployment\s+15\/15 steps$/m);
    expect(blocks[1]).toMatch(
      /^ {2}✓ kube-scheduler\s+14\/14 steps \(6 through another version's name\)$/m,
    );
    expect(blocks[3]).toMatch(/^ {2}✓ controller-runtime\s+10\/10 steps/m);
    expect(result.stdout).not.toContain('does not apply');
  });

  it('says which tours a tree does not model when it is given one', async () => {
    const result = await runCli(['tour', 'check', ...onDemo('kubernetes')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^ {2}- sample-controller\s+does not apply: the demo tree fixtures\/kubernetes does not model this tour; it runs on the demo tree fixtures\/sample-controller$/m,
    );
  });

  it('resolves the scheduler tour on the v1.15 tree through the old era’s names, as JSON', async () => {
    const result = await runCli(['tour', 'check', '-o', 'json', ...onDemo('kubernetes-v1.15')]);
    expect(result.code).toBe(0);
    const report = json<{
      ok: boolean;
      tours: {
        name: string;
        applies: boolean;
        steps: number;
        resolved: number;
        missing: unknown[];
        alternatives: { resolvedAs: string }[];
      }[];
    }>(result);
    expect(report.ok).toBe(true);
    const scheduler = report.tours.find((t) => t.name === 'kube-scheduler')!;
    expect(scheduler).toMatchObject({ applies: true, steps: 14, resolved: 14, missing: [] });
    expect(scheduler.alternatives.map((a) => a.resolvedAs)).toContain(
      '(*k8s.io/kubernetes/pkg/scheduler/core.genericScheduler).Schedule',
    );
  });

  it('passes the sample-controller and controller-runtime tours on their demo trees, indexing their vendor/', async () => {
    for (const [tree, tour] of [
      ['sample-controller', 'sample-controller'],
      ['controller-runtime-operator', 'controller-runtime'],
    ] as const) {
      const result = await runCli(['tour', 'check', '-o', 'json', ...onDemo(tree)]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        'note: indexing vendor/ too: this module keeps its libraries there',
      );
      const checked = json<{ tours: { name: string; applies: boolean; missing: unknown[] }[] }>(
        result,
      ).tours.find((t) => t.name === tour)!;
      expect(checked).toMatchObject({ applies: true, missing: [] });
    }
  });

  it('exits 1 when a step lost its symbol, naming the step and where the symbol probably went', async () => {
    const guides = useTempDir('k8s-read-guides-');
    writeFileSync(
      path.join(guides, 'moved.yaml'),
      [
        'name: moved',
        'title: A step whose symbol was renamed',
        'order: 1',
        'summary: For tour check.',
        'requires: k8s.io/kubernetes/pkg/scheduler',
        'demoTrees: [kubernetes]',
        'steps:',
        '  - title: the loop',
        '    symbol: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce',
        '    prose: One pod at a time.',
        '    cite: [{ repo: kubernetes/kubernetes, version: v1.25.0, path: pkg/scheduler/schedule_one.go }]',
        '',
      ].join('\n'),
    );
    const result = await runCli(['tour', 'check', '--guides', guides, ...onDemo('kubernetes')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ moved  0/1 steps');
    expect(result.stdout).toContain(
      'step 1 (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOnce: not in this tree; similar: (*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne',
    );
    expect(result.stderr).toContain(
      "error: 1 tour step did not resolve in fixtures/kubernetes (demo tree); add this version's symbol as an alternative, or fix the focus",
    );
    expect(result.stderr).not.toMatch(noStack);
  });

  it('exits 2 on an invalid tour file, naming file, line, column and field', async () => {
    const guides = useTempDir('k8s-read-guides-');
    writeFileSync(
      path.join(guides, 'bad.yaml'),
      'name: bad\ntitle: Bad\norder: 1\nsummary: x\nrequires: k8s.io/x/y\nsteps:\n  - title: t\n    symbol: scheduleOne\n    prose: p\n',
    );
    const result = await runCli(['tour', 'check', '--guides', guides, ...onDemo('kubernetes')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `error: invalid tour:\\n {2}${guides.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bad\\.yaml:8:5: steps\\[0\\]\\.symbol: expected a full symbol`,
      ),
    );
    expect(result.stdout).toBe('');
  });
});

describe('k8s-read tour <name>', () => {
  it('prints the tour as text without a terminal, from the step asked for', async () => {
    const result = await runCli(['tour', 'kube-scheduler', '--step', '7', ...onDemo('kubernetes')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^kube-scheduler: from main\(\) to a bound pod\n14 steps · fixtures\/kubernetes \(demo tree\)/,
    );
    expect(result.stdout).not.toContain('── 6/14');
    expect(result.stdout).toContain('── 7/14  scheduleOne: one pod, start to finish');
    expect(result.stdout).toContain('(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne');
    expect(result.stdout).toMatch(/^▶ \d+ {6}podInfo := sched\.NextPod\(\)/m);
    expect(result.stdout).toContain('What the twin simplifies (k8s-read twin run scheduler):');
  });

  it('takes a tour on the demo tree that models it when no repository is given', async () => {
    const result = await runCli([
      'tour',
      'sample-controller',
      '--plain',
      ...db('sample-controller-auto'),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'using the bundled demo tree fixtures/sample-controller, which models this tour',
    );
    expect(result.stdout).toContain('── 1/10  main: clients, informer factories, controller, Run');
    expect(result.stdout).toContain('k8s.io/sample-controller.main');
    expect(result.stdout).toContain(
      '(*k8s.io/client-go/examples/workqueue.Controller).syncToStdout  (an optional side trip that this tree does not have)',
    );
  });

  it('names the tours when the name is unknown', async () => {
    const result = await runCli(['tour', 'kube-schedular', '--plain']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: no tour named "kube-schedular"; the tours are: ${tourNames.join(', ')} (see \`k8s-read tour list\`)\n`,
    );
  });

  it('refuses a step beyond the tour, saying how many steps it has', async () => {
    const result = await runCli(['tour', 'replicaset', '--step', '99', '--plain']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --step 99: the tour replicaset has 9 steps; pass a number from 1 to 9\n',
    );
  });
});

describe('k8s-read tui', () => {
  it('asks for a terminal instead of drawing into a pipe', async () => {
    const result = await runCli(['tui', 'trace', 'kube-scheduler']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: `k8s-read tui` needs a terminal; for text use `k8s-read trace <component>`',
    );
  });

  it('rejects a form it does not know, showing the forms it does', async () => {
    const result = await runCli(['tui', 'trace']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: `k8s-read tui trace`: write `k8s-read tui`, `k8s-read tui trace <component|symbol>` or `k8s-read tui controllers [component]`\n',
    );
  });
});
