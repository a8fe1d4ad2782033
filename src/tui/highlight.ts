/**
 * Syntax colour for the source and twin panes (cli-highlight), split into lines the panes can
 * window. cli-highlight loads every highlight.js grammar at import (a tenth of the first-screen
 * budget), so it is loaded after the first frame: the code shows at once, the colour a moment
 * later. The theme paints each line on its own, so a token that spans lines (a block comment, a
 * raw string) stays coloured on every line after the split. Tabs become four spaces first: Ink
 * measures a tab as one column, a terminal draws up to eight.
 */
import type { highlight, Theme } from 'cli-highlight';
import { createColors } from 'picocolors';
import { TAB } from '../tour/tour-text.js';

type Paint = (text: string) => string;
type Highlight = typeof highlight;

function perLine(paint: Paint): Paint {
  return (text) =>
    text
      .split('\n')
      .map((line) => (line ? paint(line) : line))
      .join('\n');
}

function theme(): Theme {
  const c = createColors(true);
  const plain: Paint = (t) => t;
  return {
    keyword: perLine(c.magenta),
    built_in: perLine(c.cyan),
    type: perLine(c.cyan),
    literal: perLine(c.blue),
    number: perLine(c.green),
    regexp: perLine(c.red),
    string: perLine(c.green),
    class: perLine(c.blue),
    function: perLine(c.yellow),
    title: perLine(c.yellow),
    comment: perLine(c.gray),
    doctag: perLine(c.gray),
    meta: perLine(c.gray),
    tag: perLine(c.gray),
    name: perLine(c.blue),
    attr: perLine(c.cyan),
    emphasis: perLine(c.italic),
    strong: perLine(c.bold),
    link: perLine(c.underline),
    addition: perLine(c.green),
    deletion: perLine(c.red),
    default: plain,
  };
}

let highlighter: { highlight: Highlight; theme: Theme } | undefined;
let loading: Promise<void> | undefined;

/** Loads cli-highlight once; resolves when `highlightLines` colours. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('cli-highlight').then((module) => {
    highlighter = { highlight: module.highlight, theme: theme() };
  });
  return loading;
}

export function highlighterLoaded(): boolean {
  return highlighter !== undefined;
}

/** The text as lines, coloured when `color` is on and the highlighter has loaded. */
export function highlightLines(text: string, language: string, color: boolean): string[] {
  const expanded = text.replace(/\t/g, TAB);
  if (!color || !highlighter) return expanded.split('\n');
  try {
    return highlighter
      .highlight(expanded, { language, ignoreIllegals: true, theme: highlighter.theme })
      .split('\n');
  } catch {
    // A grammar that chokes on a file must not take the screen down: show it uncoloured.
    return expanded.split('\n');
  }
}
