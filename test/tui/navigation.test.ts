import { describe, expect, it } from 'vitest';
import { initialNavState, navigate, type NavState } from '../../src/tui/navigation.js';
import { loopLocation, mainLocation, runLocation, tourItems } from './sample-items.js';

function walk(state: NavState, ...actions: Parameters<typeof navigate>[1][]): NavState {
  return actions.reduce(navigate, state);
}

describe('the navigation reducer', () => {
  it('starts at the chosen step, on its focus line, with the list focused and the guide shown', () => {
    const state = initialNavState(tourItems, 1);
    expect(state.selected).toBe(1);
    expect(state.location).toEqual(runLocation);
    expect(state.cursor).toBe(5);
    expect(state.focus).toBe('list');
    expect(state.side).toBe('about');
  });

  it('clamps a start step beyond the tour to its last step', () => {
    expect(initialNavState(tourItems, 99).selected).toBe(2);
  });

  it('moves between steps with j/k in the list and stops at both ends', () => {
    let state = initialNavState(tourItems);
    state = walk(
      state,
      { type: 'move', delta: 1, limit: 3 },
      { type: 'move', delta: 1, limit: 3 },
      { type: 'move', delta: 1, limit: 3 },
    );
    expect(state.selected).toBe(2);
    expect(state.location).toBeNull();
    state = walk(state, { type: 'move', delta: -5, limit: 3 });
    expect(state.selected).toBe(0);
    expect(state.location).toEqual(mainLocation);
  });

  it('moves the source cursor within the file when the source has the keys', () => {
    const state = walk(
      initialNavState(tourItems),
      { type: 'cyclePane', delta: 1 },
      { type: 'move', delta: 2, limit: 9 },
      { type: 'move', delta: 50, limit: 9 },
    );
    expect(state.focus).toBe('source');
    expect(state.cursor).toBe(9);
    expect(walk(state, { type: 'move', delta: -50, limit: 9 }).cursor).toBe(1);
  });

  it('cycles the focus list → source → side → list, and back the other way', () => {
    const state = initialNavState(tourItems);
    expect(walk(state, { type: 'cyclePane', delta: 1 }).focus).toBe('source');
    expect(
      walk(state, { type: 'cyclePane', delta: 1 }, { type: 'cyclePane', delta: 1 }).focus,
    ).toBe('side');
    expect(walk(state, { type: 'cyclePane', delta: -1 }).focus).toBe('side');
    expect(
      walk(
        state,
        { type: 'cyclePane', delta: 1 },
        { type: 'cyclePane', delta: 1 },
        { type: 'cyclePane', delta: 1 },
      ).focus,
    ).toBe('list');
  });

  it('follows a call and comes back to the same line with back', () => {
    const start = walk(initialNavState(tourItems, 1), { type: 'cyclePane', delta: 1 });
    const followed = navigate(start, { type: 'follow', location: loopLocation });
    expect(followed.location).toEqual(loopLocation);
    expect(followed.cursor).toBe(11);
    expect(followed.history).toEqual([{ location: runLocation, cursor: 5 }]);
    const back = navigate(followed, { type: 'back' });
    expect(back.location).toEqual(runLocation);
    expect(back.cursor).toBe(5);
    expect(back.history).toEqual([]);
  });

  it('says so when there is nothing to go back to', () => {
    const state = navigate(initialNavState(tourItems), { type: 'back' });
    expect(state.location).toEqual(mainLocation);
    expect(state.status).toMatch(/nothing to go back to/);
  });

  it('starts a fresh way back when another step is chosen', () => {
    const followed = walk(
      initialNavState(tourItems),
      { type: 'follow', location: runLocation },
      { type: 'cyclePane', delta: -1 },
    );
    expect(followed.focus).toBe('list');
    const next = navigate(followed, { type: 'move', delta: 1, limit: 3 });
    expect(next.selected).toBe(1);
    expect(next.history).toEqual([]);
  });

  it('toggles a side view on and back to the guide, resetting its scroll', () => {
    const blame = walk(
      initialNavState(tourItems),
      { type: 'sideScroll', offset: 4 },
      { type: 'toggleSide', view: 'blame' },
    );
    expect(blame.side).toBe('blame');
    expect(blame.sideOffset).toBe(0);
    expect(navigate(blame, { type: 'toggleSide', view: 'blame' }).side).toBe('about');
    expect(navigate(blame, { type: 'toggleSide', view: 'twin' }).side).toBe('twin');
  });

  it('scrolls the side pane within its rows', () => {
    const state = walk(
      initialNavState(tourItems),
      { type: 'cyclePane', delta: -1 },
      { type: 'move', delta: 3, limit: 10 },
      { type: 'move', delta: 30, limit: 10 },
    );
    expect(state.sideOffset).toBe(9);
  });

  it('flips the side pane between right and bottom from where it is now', () => {
    const state = initialNavState(tourItems);
    expect(navigate(state, { type: 'togglePlacement', current: 'bottom' }).placement).toBe('right');
    expect(navigate(state, { type: 'togglePlacement', current: 'right' }).placement).toBe('bottom');
  });

  it('keeps the newest search results and drops an answer to an older query', () => {
    let state = walk(
      initialNavState(tourItems),
      { type: 'openSearch' },
      { type: 'searchInput', text: 'ru' },
      { type: 'searchInput', text: 'run' },
    );
    state = navigate(state, {
      type: 'searchResults',
      text: 'ru',
      results: [mainLocation],
      error: null,
    });
    expect(state.overlay).toMatchObject({ kind: 'search', text: 'run', results: null });
    state = navigate(state, {
      type: 'searchResults',
      text: 'run',
      results: [runLocation, loopLocation],
      error: null,
    });
    state = navigate(state, { type: 'overlayMove', delta: 5 });
    expect(state.overlay).toMatchObject({
      kind: 'search',
      results: [runLocation, loopLocation],
      selected: 1,
    });
  });

  it('follows from a choice of calls and closes the choice', () => {
    const state = walk(
      initialNavState(tourItems),
      {
        type: 'openChoice',
        title: 'Follow which call?',
        options: [
          { label: 'a', location: runLocation },
          { label: 'b', location: loopLocation },
        ],
      },
      { type: 'overlayMove', delta: 1 },
    );
    expect(state.overlay).toMatchObject({ kind: 'choose', selected: 1 });
    const followed = navigate(state, { type: 'follow', location: loopLocation });
    expect(followed.overlay).toBeNull();
    expect(followed.location).toEqual(loopLocation);
  });
});
