import { describe, expect, it } from 'vitest';
import { centredTop, computeLayout, scrollTop } from '../../src/tui/layout.js';

describe('computeLayout', () => {
  it('fits 80x24 with the side pane at the bottom and one row spare so Ink never clears the screen', () => {
    const layout = computeLayout(80, 24, null);
    expect(layout).toMatchObject({ width: 80, height: 23, placement: 'bottom', body: 21 });
    expect(layout.listWidth + layout.sourceWidth).toBe(80);
    expect(layout.mainHeight + layout.sideHeight).toBe(layout.body);
    expect(layout.sideHeight).toBeGreaterThanOrEqual(5);
  });

  it('puts the side pane on the right of a wide terminal, sharing the width exactly', () => {
    const layout = computeLayout(160, 40, null);
    expect(layout.placement).toBe('right');
    expect(layout.listWidth + layout.sourceWidth + layout.sideWidth).toBe(160);
    expect(layout.mainHeight).toBe(layout.body);
  });

  it('honours the placement the reader chose over the automatic one', () => {
    expect(computeLayout(80, 24, 'right').placement).toBe('right');
    expect(computeLayout(160, 40, 'bottom').placement).toBe('bottom');
  });
});

describe('scrollTop', () => {
  it('does not scroll while the cursor stays inside the window with its margin', () => {
    expect(scrollTop(10, 15, 12, 100)).toBe(10);
  });

  it('scrolls just enough to keep the margin below the cursor', () => {
    expect(scrollTop(10, 21, 12, 100)).toBe(12);
  });

  it('scrolls just enough to keep the margin above the cursor', () => {
    expect(scrollTop(10, 10, 12, 100)).toBe(8);
  });

  it('never leaves rows empty at the end, and shows everything when it all fits', () => {
    expect(scrollTop(0, 99, 12, 100)).toBe(88);
    expect(scrollTop(5, 3, 12, 8)).toBe(0);
  });

  it('puts a jump target a third of the way down', () => {
    expect(centredTop(40, 12, 100)).toBe(36);
    expect(centredTop(2, 12, 100)).toBe(0);
  });
});
