/**
 * The built CLI in a real terminal: tmux runs `k8s-read tour kube-scheduler` on the demo tree at
 * 80x24; the test reads the screen with capture-pane and types with send-keys. It proves the app
 * starts, moves, follows a call and comes back, follows a resize, and quits cleanly. Waiting polls
 * the screen of a real process against a deadline; nothing sleeps a fixed time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, projectRoot, runCli } from '../helpers/run-cli.js';
import { useTempDir } from '../helpers/temp-dir.js';

const socket = `k8s-read-e2e-${process.pid}`;
const session = 'tour';
const scratch = useTempDir('k8s-read-tmux-');
const dbPath = path.join(scratch, 'kubernetes.sqlite');
const stderrPath = path.join(scratch, 'stderr.txt');
const exitPath = path.join(scratch, 'exit-code.txt');

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', session);
}

async function waitForScreen(
  accept: (text: string) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = screen();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the terminal never showed ${what}; last screen:\n${last}`);
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

describe('k8s-read tour in a real terminal (tmux)', () => {
  beforeAll(async () => {
    try {
      execFileSync('tmux', ['-V'], { encoding: 'utf8' });
    } catch {
      throw new Error(
        'tmux is not installed, and this test needs a real terminal: install it (apt-get install tmux; .ci/run does)',
      );
    }
    // Index first, so that the screen's start is measured on an indexed tree.
    const indexed = await runCli(['index', '--repo', 'fixtures/kubernetes', '--db', dbPath]);
    expect(indexed.code, indexed.stderr).toBe(0);
  });

  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone: the session ended with the app.
    }
  });

  it('starts at 80x24, moves, follows a call and back, follows a resize, and quits with q', async () => {
    // CI=true would make Ink print only the last frame; a terminal user never has it set.
    const command = `cd ${quote(projectRoot)} && env -u CI TERM=xterm-256color ${quote(process.execPath)} ${quote(cliPath)} tour kube-scheduler --repo fixtures/kubernetes --db ${quote(dbPath)} 2>${quote(stderrPath)}; echo $? > ${quote(exitPath)}`;
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', command);
    // The pane stays after the app ends, so the screen it leaves behind can be read.
    tmux('set-option', '-t', session, 'remain-on-exit', 'on');

    let text = await waitForScreen(
      (s) => s.includes('command := app.NewSchedulerCommand()'),
      'the source of the first step',
    );
    expect(text).toContain('kube-scheduler: from main() to a bound pod · step 1/14');
    expect(text.split('\n').every((line) => [...line].length <= 80)).toBe(true);
    expect(text).toMatch(/›▶ ?\d+ │ +command := app\.NewSchedulerCommand\(\)/);

    tmux('send-keys', '-t', session, 'j');
    text = await waitForScreen((s) => s.includes('step 2/14'), 'the second step');
    expect(text).toContain('app.NewSchedulerCommand');

    // The step's focus is the RunE closure; its call of runCommand is the next line.
    tmux('send-keys', '-t', session, 'Tab');
    await waitForScreen(
      (s) => /›▶ ?\d+ │ +RunE: func\(cmd/.test(s),
      'the cursor on the focused closure',
    );
    tmux('send-keys', '-t', session, 'j');
    await waitForScreen(
      (s) => /› ?\d+ │ +return runCommand\(/.test(s),
      'the cursor on the call of runCommand',
    );
    tmux('send-keys', '-t', session, 'Enter');
    text = await waitForScreen(
      (s) => s.includes('· app.runCommand'),
      'runCommand after following the call',
    );
    expect(text).toContain('⌫ app.NewSchedulerCommand');

    tmux('send-keys', '-t', session, 'BSpace');
    await waitForScreen(
      (s) => /:\d+ · app\.NewSchedulerCommand\s/.test(s),
      'NewSchedulerCommand again',
    );

    tmux('resize-window', '-t', session, '-x', '130', '-y', '30');
    text = await waitForScreen(
      (s) => s.split('\n').some((line) => line.includes('Guide') && line.includes('Steps')),
      'the side pane on the right',
    );
    expect(text.split('\n').some((line) => line.startsWith('────'))).toBe(false);

    tmux('send-keys', '-t', session, '?');
    await waitForScreen((s) => s.includes('Keys (any key closes this help)'), 'the help');
    tmux('send-keys', '-t', session, 'Escape');
    await waitForScreen(
      (s) => !s.includes('Keys (any key closes this help)') && s.includes('Steps'),
      'the screen after the help',
    );

    tmux('send-keys', '-t', session, 'q');
    const deadline = Date.now() + 10_000;
    while (!existsSync(exitPath) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const code = existsSync(exitPath) ? readFileSync(exitPath, 'utf8').trim() : 'still running';
    expect(
      code,
      `the app's stderr:\n${existsSync(stderrPath) ? readFileSync(stderrPath, 'utf8') : '(none)'}`,
    ).toBe('0');
    // The alternate screen is gone: what the shell showed before the tour is back.
    expect(screen()).not.toContain('Steps');
  });
});
