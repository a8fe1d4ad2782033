import { beforeAll, describe, expect, it } from 'vitest';
import { highlightLines, loadHighlighter } from '../../src/tui/highlight.js';
import { sourceLines } from '../../src/tui/source-lines.js';

/** A Go file long enough for several chunks, with comments and raw strings spanning lines. */
function goFile(functions: number): string {
  const out = ['package demo', '', 'import "fmt"', ''];
  for (let f = 0; f < functions; f++) {
    out.push(
      `/* run${f} does`,
      ' several things */',
      `func run${f}(n int) string {`,
      '\ttext := `a raw string',
      'that spans lines`',
      '\tfor i := 0; i < n; i++ {',
      '\t\tfmt.Println(i, "x") // a comment',
      '\t}',
      '\treturn text',
      '}',
      '',
    );
  }
  return out.join('\n');
}

describe('sourceLines', () => {
  beforeAll(async () => {
    await loadHighlighter();
  });

  it('colours chunk by chunk exactly as the whole file is coloured', () => {
    const text = goFile(60);
    const whole = highlightLines(text, 'go', true);
    const lines = sourceLines(text, true);
    expect(lines.count).toBe(whole.length);
    expect(lines.slice(0, lines.count)).toEqual(whole);
    expect(lines.slice(300, 340)).toEqual(whole.slice(300, 340));
  });

  it('answers a window at the end and clamps windows beyond the file', () => {
    const text = goFile(30);
    const plain = sourceLines(text, false);
    const raw = text.replace(/\t/g, '    ').split('\n');
    expect(plain.slice(plain.count - 3, plain.count + 10)).toEqual(raw.slice(-3));
    expect(plain.slice(-5, 2)).toEqual(raw.slice(0, 2));
  });
});
