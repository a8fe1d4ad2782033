import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import {
  commandFor,
  hintLine,
  keyBindings,
  keyName,
  keyNames,
} from '../../src/tui/key-bindings.js';

const none: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

describe('key bindings', () => {
  it('binds every key the issue asks for to its command', () => {
    expect(commandFor('j')).toBe('down');
    expect(commandFor('down')).toBe('down');
    expect(commandFor('k')).toBe('up');
    expect(commandFor('up')).toBe('up');
    expect(commandFor('enter')).toBe('follow');
    expect(commandFor('backspace')).toBe('back');
    expect(commandFor('b')).toBe('blame');
    expect(commandFor('t')).toBe('twin');
    expect(commandFor('c')).toBe('callers');
    expect(commandFor('/')).toBe('search');
    expect(commandFor('o')).toBe('editor');
    expect(commandFor('y')).toBe('copy');
    expect(commandFor('?')).toBe('help');
    expect(commandFor('q')).toBe('quit');
  });

  it('never binds one key to two commands, and documents every command', () => {
    const all = keyBindings.flatMap((b) => b.keys);
    expect(new Set(all).size).toBe(all.length);
    for (const binding of keyBindings) expect(binding.help.length).toBeGreaterThan(0);
  });

  it('names the Backspace key whether the terminal sends BS or DEL', () => {
    expect(keyName('', { ...none, backspace: true })).toBe('backspace');
    expect(keyName('', { ...none, delete: true })).toBe('backspace');
  });

  it('splits keys that arrived in one chunk into separate presses', () => {
    expect(keyNames('jjk', none)).toEqual(['j', 'j', 'k']);
    expect(keyNames('\t\r', none)).toEqual(['tab', 'enter']);
    expect(keyNames('', { ...none, downArrow: true })).toEqual(['down']);
  });

  it('shows the short hints in the status bar', () => {
    expect(hintLine()).toContain('b blame');
    expect(hintLine()).toContain('q quit');
  });
});
