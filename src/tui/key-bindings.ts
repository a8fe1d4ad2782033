/**
 * Every shortcut of the screen, declared once: the input handler looks keys up here and the help
 * overlay and status bar print from here, so a key cannot work without being documented or be
 * documented without working.
 */
import type { Key } from 'ink';

export type Command =
  | 'down'
  | 'up'
  | 'pageDown'
  | 'pageUp'
  | 'nextPane'
  | 'previousPane'
  | 'follow'
  | 'back'
  | 'blame'
  | 'twin'
  | 'timeline'
  | 'callers'
  | 'about'
  | 'placement'
  | 'search'
  | 'editor'
  | 'copy'
  | 'help'
  | 'home'
  | 'quit';

export interface KeyBinding {
  command: Command;
  /** Key names as `keyName` spells them: a character, or `down`, `enter`, `backspace`, `tab`, ... */
  keys: readonly string[];
  /** What the help overlay says. */
  help: string;
  /** The short form in the status bar; absent for keys only the help lists. */
  hint?: string;
}

export const keyBindings: readonly KeyBinding[] = [
  {
    command: 'down',
    keys: ['j', 'down'],
    help: 'next step, node or line (in the focused pane)',
    hint: 'j/k move',
  },
  { command: 'up', keys: ['k', 'up'], help: 'previous step, node or line' },
  { command: 'pageDown', keys: ['pagedown', 'space'], help: 'a page down' },
  { command: 'pageUp', keys: ['pageup'], help: 'a page up' },
  {
    command: 'nextPane',
    keys: ['tab', 'l', 'right'],
    help: 'focus the next pane: list, source, side',
    hint: 'tab pane',
  },
  { command: 'previousPane', keys: ['shift-tab', 'h', 'left'], help: 'focus the previous pane' },
  {
    command: 'follow',
    keys: ['enter'],
    help: 'follow the call on the source line (or open the selected item)',
    hint: '⏎ follow',
  },
  {
    command: 'back',
    keys: ['backspace'],
    help: 'go back to where you followed from',
    hint: '⌫ back',
  },
  {
    command: 'blame',
    keys: ['b'],
    help: 'blame: commit, author and pull request of the source line',
    hint: 'b blame',
  },
  {
    command: 'twin',
    keys: ['t'],
    help: 'the TypeScript twin of the symbol (twin show)',
    hint: 't twin',
  },
  {
    command: 'timeline',
    keys: ['r'],
    help: "run the twin: its timeline, this symbol's events marked (twin run)",
    hint: 'r run',
  },
  { command: 'callers', keys: ['c'], help: 'who calls the symbol', hint: 'c callers' },
  { command: 'about', keys: ['g'], help: "the step's guide (or the trace node's details)" },
  { command: 'placement', keys: ['v'], help: 'side pane on the right or at the bottom' },
  { command: 'search', keys: ['/'], help: 'search symbols and jump to one', hint: '/ search' },
  { command: 'editor', keys: ['o'], help: 'open $EDITOR at the file and line', hint: 'o editor' },
  { command: 'copy', keys: ['y'], help: 'copy the GitHub permalink of the line', hint: 'y link' },
  { command: 'help', keys: ['?'], help: 'this help', hint: '? help' },
  {
    command: 'home',
    keys: ['s'],
    help: 'back to the start screen: the controllers (`k8s-read tui` without a trace)',
  },
  { command: 'quit', keys: ['q', 'ctrl-c'], help: 'quit', hint: 'q quit' },
];

/** Ink's key event as one name: `j`, `G`, `down`, `enter`, `shift-tab`, `ctrl-c`. */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageDown) return 'pagedown';
  if (key.pageUp) return 'pageup';
  if (key.return) return 'enter';
  if (key.escape) return 'escape';
  if (key.tab) return key.shift ? 'shift-tab' : 'tab';
  // Terminals send DEL (0x7f) for the Backspace key, which Ink reports as `delete`.
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input) return `ctrl-${input}`;
  if (input === ' ') return 'space';
  return input;
}

const controlNames: Record<string, string> = {
  '\r': 'enter',
  '\n': 'enter',
  '\t': 'tab',
  '\x7f': 'backspace',
  '\b': 'backspace',
  ' ': 'space',
};

/**
 * The key names in one input event. Keys typed faster than the terminal is read (or sent by tmux
 * in one write) arrive as one chunk, which Ink hands over whole: `jjj` is three moves.
 */
export function keyNames(input: string, key: Key): string[] {
  const single = keyName(input, key);
  if (input.length <= 1 || single !== input || input.startsWith('\x1b')) return [single];
  return [...input].map((ch) => controlNames[ch] ?? ch);
}

const byKey = new Map(keyBindings.flatMap((b) => b.keys.map((k) => [k, b.command] as const)));

export function commandFor(name: string): Command | undefined {
  return byKey.get(name);
}

/**
 * `j/k move · tab pane · ...` for the status bar: every hint, or those of `commands` (a screen
 * that answers fewer keys), with `words` for hints that read differently there.
 */
export function hintLine(
  commands?: readonly Command[],
  words: Partial<Record<Command, string>> = {},
): string {
  return keyBindings
    .flatMap((b) => {
      if (commands && !commands.includes(b.command)) return [];
      const hint = words[b.command] ?? b.hint;
      return hint ? [hint] : [];
    })
    .join(' · ');
}
