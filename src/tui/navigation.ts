/**
 * Where the reader is, as a pure reducer: which item of the list is selected, which place the
 * source pane shows and where its cursor is, the way back, which pane has the keys, what the side
 * pane shows, and any overlay (help, search, a choice between calls). Everything that fetches or
 * renders sits outside, so every move is testable without a terminal.
 */
import type { Location, NavItem } from './types.js';

export type Pane = 'list' | 'source' | 'side';
export type SideView = 'about' | 'twin' | 'timeline' | 'blame' | 'callers';
export type Placement = 'right' | 'bottom';

export const panes: readonly Pane[] = ['list', 'source', 'side'];
export const sideViews: readonly SideView[] = ['about', 'twin', 'timeline', 'blame', 'callers'];

export interface Visit {
  location: Location;
  cursor: number;
}

export interface ChoiceOption {
  label: string;
  location: Location;
}

export type Overlay =
  | { kind: 'help' }
  | {
      kind: 'search';
      text: string;
      results: Location[] | null;
      selected: number;
      error: string | null;
    }
  | { kind: 'choose'; title: string; options: ChoiceOption[]; selected: number };

export interface NavState {
  items: readonly NavItem[];
  selected: number;
  /** What the source pane shows; null for a step that has no place in this tree. */
  location: Location | null;
  /** 1-based line of the source cursor. */
  cursor: number;
  /** Where `back` returns to, most recent last. */
  history: Visit[];
  focus: Pane;
  side: SideView;
  /** The side pane's first line, or its selected row in a list (callers). */
  sideOffset: number;
  /** Null: chosen by the terminal's width. */
  placement: Placement | null;
  overlay: Overlay | null;
  /** A one-line message in the status bar until the next key. */
  status: string | null;
}

export type NavAction =
  /** j/k in the focused pane; `limit` is the number of rows there (source lines, side rows). */
  | { type: 'move'; delta: number; limit: number }
  | { type: 'selectItem'; index: number }
  | { type: 'cyclePane'; delta: 1 | -1 }
  | { type: 'follow'; location: Location }
  | { type: 'back' }
  | { type: 'toggleSide'; view: SideView }
  | { type: 'togglePlacement'; current: Placement }
  /** Scrolls the side pane to a row (a timeline opening at the symbol's first event). */
  | { type: 'sideScroll'; offset: number }
  | { type: 'openHelp' }
  | { type: 'openSearch' }
  | { type: 'searchInput'; text: string }
  | { type: 'searchResults'; text: string; results: Location[]; error: string | null }
  | { type: 'openChoice'; title: string; options: ChoiceOption[] }
  | { type: 'overlayMove'; delta: number }
  | { type: 'closeOverlay' }
  | { type: 'status'; text: string | null };

export function initialNavState(items: readonly NavItem[], index = 0): NavState {
  const selected = clamp(index, 0, Math.max(0, items.length - 1));
  const location = items[selected]?.location ?? null;
  return {
    items,
    selected,
    location,
    cursor: startLine(location),
    history: [],
    focus: 'list',
    side: 'about',
    sideOffset: 0,
    placement: null,
    overlay: null,
    status: null,
  };
}

export function navigate(state: NavState, action: NavAction): NavState {
  switch (action.type) {
    case 'move':
      return move(state, action.delta, action.limit);
    case 'selectItem':
      return selectItem(state, action.index);
    case 'cyclePane': {
      const next =
        panes[(panes.indexOf(state.focus) + action.delta + panes.length) % panes.length]!;
      return { ...state, focus: next, status: null };
    }
    case 'follow':
      return {
        ...state,
        history: state.location
          ? [...state.history, { location: state.location, cursor: state.cursor }]
          : state.history,
        location: action.location,
        cursor: startLine(action.location),
        focus: 'source',
        sideOffset: 0,
        overlay: null,
        status: null,
      };
    case 'back': {
      const visit = state.history.at(-1);
      if (!visit)
        return { ...state, status: 'nothing to go back to: this is where the step starts' };
      return {
        ...state,
        history: state.history.slice(0, -1),
        location: visit.location,
        cursor: visit.cursor,
        sideOffset: 0,
        status: null,
      };
    }
    case 'toggleSide':
      return {
        ...state,
        side: state.side === action.view ? 'about' : action.view,
        sideOffset: 0,
        status: null,
      };
    case 'sideScroll':
      return { ...state, sideOffset: Math.max(0, action.offset) };
    case 'togglePlacement':
      return { ...state, placement: action.current === 'right' ? 'bottom' : 'right', status: null };
    case 'openHelp':
      return { ...state, overlay: { kind: 'help' }, status: null };
    case 'openSearch':
      return {
        ...state,
        overlay: { kind: 'search', text: '', results: null, selected: 0, error: null },
        status: null,
      };
    case 'searchInput':
      if (state.overlay?.kind !== 'search') return state;
      return { ...state, overlay: { ...state.overlay, text: action.text, selected: 0 } };
    case 'searchResults':
      // A late answer to an older query must not replace the newer one's.
      if (state.overlay?.kind !== 'search' || state.overlay.text !== action.text) return state;
      return {
        ...state,
        overlay: { ...state.overlay, results: action.results, error: action.error, selected: 0 },
      };
    case 'openChoice':
      return {
        ...state,
        overlay: { kind: 'choose', title: action.title, options: action.options, selected: 0 },
        status: null,
      };
    case 'overlayMove': {
      const overlay = state.overlay;
      if (overlay?.kind === 'search')
        return {
          ...state,
          overlay: {
            ...overlay,
            selected: clamp(
              overlay.selected + action.delta,
              0,
              Math.max(0, (overlay.results?.length ?? 0) - 1),
            ),
          },
        };
      if (overlay?.kind === 'choose')
        return {
          ...state,
          overlay: {
            ...overlay,
            selected: clamp(overlay.selected + action.delta, 0, overlay.options.length - 1),
          },
        };
      return state;
    }
    case 'closeOverlay':
      return { ...state, overlay: null };
    case 'status':
      return { ...state, status: action.text };
  }
}

function move(state: NavState, delta: number, limit: number): NavState {
  if (state.focus === 'list') return selectItem(state, state.selected + delta);
  if (state.focus === 'source') {
    if (!state.location) return state;
    return { ...state, cursor: clamp(state.cursor + delta, 1, Math.max(1, limit)), status: null };
  }
  return {
    ...state,
    sideOffset: clamp(state.sideOffset + delta, 0, Math.max(0, limit - 1)),
    status: null,
  };
}

function selectItem(state: NavState, index: number): NavState {
  const selected = clamp(index, 0, Math.max(0, state.items.length - 1));
  if (
    selected === state.selected &&
    state.history.length === 0 &&
    state.location === (state.items[selected]?.location ?? null)
  ) {
    return { ...state, status: null };
  }
  const location = state.items[selected]?.location ?? null;
  // A new step starts a new walk: following calls from here begins a fresh way back.
  return {
    ...state,
    selected,
    location,
    cursor: startLine(location),
    history: [],
    sideOffset: 0,
    status: null,
  };
}

function startLine(location: Location | null): number {
  return location ? (location.focusLine ?? location.line) : 1;
}

export function clamp(n: number, low: number, high: number): number {
  return Math.min(Math.max(n, low), high);
}
