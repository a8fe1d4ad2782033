/**
 * What the screen asks of the reader's terminal and desktop: whether keys can come in, their
 * editor at a line, and their clipboard. Each answer is a one-line status the screen shows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliContext } from './context.js';

/**
 * The terminal is interactive on both ends: keys come in, frames go out. Not under CI: Ink holds
 * every frame back while CI is set, so the screen would stay blank.
 */
export function isInteractive(ctx: CliContext, stdin: { isTTY?: boolean }): boolean {
  return !ciIsSet(ctx) && Boolean(ctx.stdout.isTTY && stdin.isTTY);
}

export function ciIsSet(ctx: CliContext): boolean {
  const ci = ctx.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * $VISUAL or $EDITOR at the line: `+N file` is understood by vi, vim, nvim, nano, emacs and micro;
 * VS Code and its kin take `--goto file:N`.
 */
export function openEditor(ctx: CliContext, file: string, line: number): string {
  const editor = ctx.env.VISUAL || ctx.env.EDITOR;
  if (!editor) return 'set $EDITOR (or $VISUAL) to open files from here';
  const [command, ...args] = editor.split(/\s+/).filter(Boolean);
  const base = path.basename(command!);
  const where = /^(code|codium|code-insiders|cursor)$/.test(base)
    ? ['--goto', `${file}:${line}`]
    : [`+${line}`, file];
  const result = spawnSync(command!, [...args, ...where], { stdio: 'inherit' });
  if (result.error) return `could not start ${editor}: ${result.error.message}`;
  return `back from ${base} (${path.relative(ctx.cwd, file) || file}:${line})`;
}

/**
 * The terminal's clipboard through OSC 52 (works over SSH and in tmux with set-clipboard on),
 * and the desktop's through the first clipboard tool found.
 */
export async function copyToClipboard(ctx: CliContext, text: string): Promise<string> {
  ctx.stdout.write(`\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`);
  const tools: [string, string[]][] = [
    ['pbcopy', []],
    ['wl-copy', []],
    ['xclip', ['-selection', 'clipboard']],
    ['xsel', ['--clipboard', '--input']],
  ];
  for (const [tool, args] of tools) {
    if (!onPath(ctx, tool)) continue;
    const result = spawnSync(tool, args, {
      input: text,
      stdio: ['pipe', 'ignore', 'ignore'],
      timeout: 2000,
    });
    if (!result.error && result.status === 0) return `copied ${text}`;
  }
  return `copied to the terminal's clipboard: ${text}`;
}

function onPath(ctx: CliContext, tool: string): boolean {
  return (ctx.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && existsSync(path.join(dir, tool)));
}
