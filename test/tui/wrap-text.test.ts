import { describe, expect, it } from 'vitest';
import { wrapText } from '../../src/tui/wrap-text.js';

describe('wrapText', () => {
  it('joins the soft line breaks of a paragraph and wraps it at the width', () => {
    expect(wrapText('The loop calls\nscheduleOne until the queue closes.', 20)).toEqual([
      'The loop calls',
      'scheduleOne until',
      'the queue closes.',
    ]);
  });

  it('keeps paragraphs apart', () => {
    expect(wrapText('One.\n\nTwo.', 20)).toEqual(['One.', '', 'Two.']);
  });

  it('gives list items a hanging indent and starts a new row for each item', () => {
    expect(wrapText('- the scheduling queue holds pods\n- the cache', 20)).toEqual([
      '- the scheduling',
      '  queue holds pods',
      '- the cache',
    ]);
  });

  it('cuts fenced code instead of wrapping it', () => {
    expect(wrapText('```go\n\tsched.Run(ctx, with, many, arguments)\n```', 20)).toEqual([
      '      sched.Run(ctx…',
    ]);
  });

  it('never returns a row wider than the width, even for a long word', () => {
    const rows = wrapText('k8s.io/kubernetes/pkg/scheduler/framework/runtime', 16);
    expect(rows.every((row) => [...row].length <= 16)).toBe(true);
  });
});
