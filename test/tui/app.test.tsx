/**
 * The tour screen driven by keys, as a reader uses it, at 80x24 with ANSI stripped. Providers
 * answer from memory (sample-items.ts), so each test is one walk and its assertions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/App.js';
import { keys, renderTui, type RenderedTui } from '../helpers/render-tui.js';
import { fakeProviders, runLocation, tourProps } from './sample-items.js';

let screen: RenderedTui | undefined;
afterEach(() => screen?.unmount());

function open(props = tourProps(), size?: { columns: number; rows: number }): RenderedTui {
  screen = renderTui(<App {...props} />, size);
  return screen;
}

const lines = (frame: string) => frame.split('\n');

describe('the tour screen', () => {
  it('draws the first step at 80x24: steps, the source at the focus, the guide, the keys', async () => {
    const tui = open();
    const frame = await tui.waitFor((f) => f.includes('sched.Run()'), 'the source of main');
    expect(lines(frame)).toHaveLength(23);
    expect(lines(frame).every((line) => [...line].length <= 80)).toBe(true);
    expect(frame).toContain('Demo tour · step 1/3 · fixtures/demo (demo tree)');
    expect(frame).toContain('›1. main starts the…│');
    expect(frame).toContain('cmd/sched/main.go:6 · sched.main');
    expect(frame).toMatch(/›▶6 │ {5}sched\.Run\(\)/);
    expect(frame).toContain('Every daemon starts in a short main.');
    expect(frame).toContain('j/k move');
  });

  it('starts at the step it is given', async () => {
    const tui = open(tourProps({ initialIndex: 1 }));
    const frame = await tui.waitFor((f) => f.includes('for s.scheduleOne()'), 'the Run step');
    expect(frame).toContain('step 2/3');
    expect(frame).toContain('›2. Run loops over …│');
  });

  it('moves to the next step with j and to the previous one with the up arrow', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('j');
    let frame = await tui.waitFor((f) => f.includes('pkg/sched/run.go:5'), 'the second step');
    expect(frame).toContain('The loop calls scheduleOne until the queue closes.');
    tui.press(keys.up);
    frame = await tui.waitFor((f) => f.includes('cmd/sched/main.go:6'), 'the first step again');
    expect(frame).toContain('step 1/3');
  });

  it('says plainly that a step has no place in this tree, with the suggestions', async () => {
    const tui = open(tourProps({ initialIndex: 2 }));
    const frame = await tui.waitFor((f) => f.includes('Not in this tree'), 'the missing step');
    expect(frame).toContain('(no source)');
    expect(frame.replace(/\s+/g, ' ')).toContain('Similar here: k8s.io/demo/pkg/sched.Run.');
    expect(frame).toContain('›3. A step this tre…│');
  });

  it('follows the call on the cursor line with enter, and comes back with backspace', async () => {
    const providers = fakeProviders();
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press(keys.tab);
    tui.press(keys.enter);
    let frame = await tui.waitFor(
      (f) => f.includes('pkg/sched/run.go:5 · sched.Run'),
      'Run after following the call',
    );
    expect(providers.asked).toContain('calls cmd/sched/main.go:6');
    expect(frame).toContain('⌫ sched.main');
    tui.press(keys.backspace);
    frame = await tui.waitFor((f) => f.includes('cmd/sched/main.go:6'), 'main again');
    expect(lines(frame).find((line) => line.includes('cmd/sched/main.go:6'))).not.toContain('⌫');
  });

  it('reports a line without a call instead of going anywhere', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press(keys.tab);
    tui.press('j');
    tui.press(keys.enter);
    const frame = await tui.waitFor((f) => f.includes('no call on line 7'), 'the status message');
    expect(frame).toContain('cmd/sched/main.go:7');
  });

  it('reports an unresolved call by its expression', async () => {
    const tui = open(tourProps({ initialIndex: 1 }));
    await tui.waitFor((f) => f.includes('for s.scheduleOne()'), 'Run');
    tui.press(keys.tab);
    tui.press(keys.enter);
    await tui.waitFor((f) => f.includes('scheduleOne'), 'scheduleOne');
    tui.press('j');
    tui.press(keys.enter);
    await tui.waitFor(
      (f) => f.includes('s.next on line 12 does not resolve to code in the index'),
      'the unresolved call',
    );
  });

  it('shows the blame and pull request of the cursor line with b', async () => {
    const tui = open(tourProps({ initialIndex: 1 }));
    await tui.waitFor((f) => f.includes('for s.scheduleOne()'), 'Run');
    tui.press('b');
    const frame = await tui.waitFor((f) => f.includes('PR #4242'), 'the blame');
    expect(frame).toContain('0123456789ab  Ada Lovelace  2022-05-04');
    expect(frame).toContain('Loop until the queue closes');
    expect(frame).toContain('PR #4242  scheduler: stop when the queue closes');
  });

  it('says blame is not available when the screen has no blame provider', async () => {
    const { blame: _blame, ...providers } = fakeProviders();
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('b');
    await tui.waitFor((f) => f.includes('Blame is not available here'), 'the missing capability');
  });

  it('shows a provider error as the pane text, not as a crash', async () => {
    const providers = fakeProviders({
      blame: () => Promise.reject(new Error('cmd/sched/main.go is not in HEAD; commit it first')),
    });
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('b');
    await tui.waitFor(
      (f) => f.includes('blame: cmd/sched/main.go is not in HEAD; commit it first'),
      'the error',
    );
  });

  it('shows the TypeScript twin with t and its timeline with r, marking this symbol’s events', async () => {
    const providers = fakeProviders();
    const tui = open(tourProps({ initialIndex: 1, providers }));
    await tui.waitFor((f) => f.includes('for s.scheduleOne()'), 'Run');
    tui.press('t');
    let frame = await tui.waitFor(
      (f) => f.includes('src/twins/scheduler/run.ts:7 · scheduler run'),
      'the twin',
    );
    expect(frame).toContain('export function run(): void {}');
    tui.press('r');
    frame = await tui.waitFor((f) => f.includes('twin run scheduler'), 'the timeline');
    expect(frame).toMatch(/▶t=1\.000s scheduler run - loop starts/);
    expect(frame).toMatch(/ t=0\.000s apiserver create default\/web-1 Pod/);
    expect(providers.asked).toContain(`timeline ${runLocation.symbol} scheduler`);
  });

  it('says when no twin mirrors the symbol', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('t');
    await tui.waitFor((f) => f.includes('No twin mirrors sched.main.'), 'no twin');
  });

  it('lists the callers with c and follows one with enter in the side pane', async () => {
    const tui = open(tourProps({ initialIndex: 1 }));
    await tui.waitFor((f) => f.includes('for s.scheduleOne()'), 'Run');
    tui.press('c');
    await tui.waitFor((f) => f.includes('sched.main  cmd/sched/main.go:6'), 'the callers');
    tui.press(keys.tab);
    tui.press(keys.tab);
    tui.press(keys.enter);
    const frame = await tui.waitFor(
      (f) => f.includes('cmd/sched/main.go:6 · sched.main'),
      'the caller',
    );
    expect(frame).toContain('⌫ sched.Run');
  });

  it('searches symbols with / and jumps to the chosen one', async () => {
    const providers = fakeProviders();
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('/');
    await tui.waitFor((f) => f.includes('Search symbols'), 'the search');
    for (const ch of 'sched') tui.press(ch);
    await tui.waitFor(
      (f) => f.includes('(*sched.Scheduler).scheduleOne  pkg/sched/run.go:11'),
      'the results',
    );
    tui.press(keys.down);
    tui.press(keys.down);
    tui.press(keys.enter);
    await tui.waitFor(
      (f) => f.includes('run.go:11 · (*sched.Scheduler).scheduleOne'),
      'the chosen symbol',
    );
    expect(providers.asked).toContain('search sched');
  });

  it('closes the search with escape without moving', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('/');
    await tui.waitFor((f) => f.includes('Search symbols'), 'the search');
    tui.press(keys.escape);
    await tui.waitFor(
      (f) => f.includes('cmd/sched/main.go:6') && !f.includes('Search symbols'),
      'main again',
    );
  });

  it('lists every key in the help and closes it on the next key', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('?');
    const frame = await tui.waitFor(
      (f) => f.includes('Keys (any key closes this help)'),
      'the help',
    );
    expect(frame).toContain('open $EDITOR at the file and line');
    expect(frame).toContain('copy the GitHub permalink of the line');
    tui.press('x');
    await tui.waitFor((f) => !f.includes('Keys (any key'), 'the screen again');
  });

  it('copies the permalink of the cursor line with y', async () => {
    const copied: string[] = [];
    const providers = fakeProviders({
      copy: async (text) => (copied.push(text), `copied ${text}`),
    });
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('y');
    await tui.waitFor((f) => f.includes('copied https://github.com'), 'the copy status');
    expect(copied).toEqual([
      'https://github.com/kubernetes/kubernetes/blob/0123456789abcdef/cmd/sched/main.go#L6',
    ]);
  });

  it('goes back to the start screen with s, and says when there is none', async () => {
    let home = 0;
    const tui = open(tourProps({ onHome: () => (home += 1) }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('s');
    await tui.waitFor(() => home === 1, 'the start screen asked for');
    screen?.unmount();
    const plain = open();
    await plain.waitFor((f) => f.includes('sched.Run()'), 'main');
    plain.press('s');
    await plain.waitFor(
      (f) => f.includes('no start screen here: `k8s-read tui controllers` starts on one'),
      'the message',
    );
  });

  it('says there is no permalink for a tree without a GitHub remote', async () => {
    const tui = open(tourProps({ permalinkBase: null }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('y');
    await tui.waitFor(
      (f) => f.includes('no permalink: the tree has no GitHub remote'),
      'the message',
    );
  });

  it('opens the editor at the cursor line with o', async () => {
    const opened: string[] = [];
    const providers = fakeProviders({
      openEditor: async (file, line) => (opened.push(`${file}:${line}`), 'back from vi'),
    });
    const tui = open(tourProps({ providers }));
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('o');
    await tui.waitFor((f) => f.includes('back from vi'), 'the editor status');
    expect(opened).toEqual(['cmd/sched/main.go:6']);
  });

  it('follows a resize: 120 columns put the side pane on the right, 80 put it back', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.resize(140, 30);
    let frame = await tui.waitFor((f) => lines(f).length === 29, 'the taller frame');
    expect(lines(frame).every((line) => [...line].length <= 140)).toBe(true);
    expect(lines(frame).find((line) => line.includes('package main'))).toContain(
      'Step 1: main starts the scheduler',
    );
    expect(lines(frame).some((line) => line.startsWith('───'))).toBe(false);
    tui.resize(80, 24);
    frame = await tui.waitFor((f) => lines(f).length === 23, 'the 80x24 frame');
    expect(lines(frame).some((line) => line.startsWith('─'))).toBe(true);
  });

  it('moves the side pane with v', async () => {
    const tui = open();
    await tui.waitFor((f) => f.includes('sched.Run()'), 'main');
    tui.press('v');
    const frame = await tui.waitFor(
      (f) => !lines(f).some((line) => line.startsWith('───')),
      'the side pane on the right',
    );
    expect(lines(frame).find((line) => line.includes('package main'))).toContain('Step 1: main');
  });

  it('asks for a larger terminal below 60x16', async () => {
    const tui = open(tourProps(), { columns: 50, rows: 12 });
    const frame = await tui.waitFor(
      (f) => f.includes('needs a terminal of at least'),
      'the size message',
    );
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'needs a terminal of at least 60x16; this one is 50x12.',
    );
  });
});

describe('the explore screen', () => {
  it('lists the trace as a tree and names its pane Trace', async () => {
    const items = [
      {
        key: '0',
        label: 'sched.main',
        depth: 0,
        location: {
          symbol: 'k8s.io/demo/cmd/sched.main',
          file: 'cmd/sched/main.go',
          line: 5,
          endLine: 8,
          focusLine: null,
        },
        mark: null,
        guide: null,
        how: null,
      },
      {
        key: '1',
        label: 'sched.Run',
        depth: 1,
        location: runLocation,
        mark: null,
        guide: null,
        how: 'framework via cobra-run',
      },
    ];
    const tui = open(tourProps({ mode: 'explore', title: 'trace sched', items }));
    let frame = await tui.waitFor((f) => f.includes('func main()'), 'main');
    expect(frame).toContain(' Trace ');
    expect(frame).toContain('Node');
    expect(frame).not.toContain('step 1/');
    tui.press('j');
    frame = await tui.waitFor(
      (f) => f.includes('reached by a framework via cobra-run call'),
      'the node details',
    );
    expect(frame).toContain('› sched.Run');
  });
});
