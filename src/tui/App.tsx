/**
 * The tour screen: steps (or the trace tree) on the left, the Go source in the centre, and a side
 * pane — the guide, the TypeScript twin, its timeline, blame, callers — on the right or at the
 * bottom. Everything it shows comes in through props; keys go through key-bindings.ts into the
 * navigation reducer, and data is asked of the providers on demand.
 */
import { Box, Text, useApp, useInput, type Key } from 'ink';
import { useEffect, useReducer, useRef } from 'react';
import { shortSymbol } from '../export/symbols.js';
import { ItemList } from './ItemList.js';
import { commandFor, keyName, keyNames, type Command } from './key-bindings.js';
import { computeLayout, MIN_SIZE, type Layout } from './layout.js';
import {
  initialNavState,
  navigate,
  type NavAction,
  type NavState,
  type SideView,
} from './navigation.js';
import { Overlay } from './Overlay.js';
import { SidePane } from './SidePane.js';
import type { SourceLines } from './source-lines.js';
import { SourcePane } from './SourcePane.js';
import { StatusBar } from './StatusBar.js';
import { TitleBar } from './TitleBar.js';
import type { AppProps } from './types.js';
import { sourceKey } from './answer-keys.js';
import { fetchAnswer, useAnswer, type AnswerCache } from './use-answer.js';
import { useSideContent, type SideContent } from './use-side-content.js';
import { useHighlighter } from './use-highlighter.js';
import { ColourContext } from './use-colour.js';
import { usePreparedSources } from './use-prepared-sources.js';
import { useTerminalSize } from './use-terminal-size.js';

const sideCommands: Partial<Record<Command, SideView>> = {
  blame: 'blame',
  twin: 'twin',
  timeline: 'timeline',
  callers: 'callers',
  about: 'about',
};

export function App(props: AppProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const [state, dispatchToReact] = useReducer(
    navigate,
    undefined,
    () => props.initialState ?? initialNavState(props.items, props.initialIndex ?? 0),
  );
  // Keys can arrive faster than React re-renders (a paste, tmux send-keys): the handlers read the
  // state through this ref, which every dispatch advances at once with the same pure reducer.
  const live = useRef(state);
  live.current = state;
  const dispatch = (action: NavAction) => {
    live.current = navigate(live.current, action);
    dispatchToReact(action);
  };
  const cache = useRef<AnswerCache>(props.cache ?? new Map()).current;
  const { onNavigate } = props;
  useEffect(() => onNavigate?.(state), [state, onNavigate]);
  const layout = computeLayout(size.columns, size.rows, state.placement);
  const color = props.color ?? true;
  const { location } = state;

  const source = useAnswer(cache, location ? sourceKey(location.file) : null, () =>
    props.providers.readSource(location!.file),
  );
  const text = source?.status === 'ready' ? source.value : null;
  const coloured = useHighlighter(color);
  const linesOf = usePreparedSources(cache, props.providers, props.items, state.selected, coloured);
  const lines = text === null || !location ? null : linesOf(location.file, text);
  const sideInner = (layout.placement === 'right' ? layout.sideWidth - 1 : layout.sideWidth) - 1;
  const side = useSideContent(props, state, cache, sideInner, coloured);

  // What the latest render computed, for key handlers that may have been created by an older one.
  const rendered = useRef({ lines, side, layout });
  rendered.current = { lines, side, layout };

  // A timeline opens at the first event of the current symbol, once per view.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (side.openAt > 0 && opened.current !== side.key) {
      opened.current = side.key;
      dispatch({ type: 'sideScroll', offset: side.openAt });
    }
  }, [side.key, side.openAt]);

  // Answers that arrive after the app has gone must not dispatch into it.
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  const send = (action: NavAction) => {
    if (alive.current) dispatch(action);
  };
  const say = (text: string) => send({ type: 'status', text });
  const failed = (what: string) => (error: unknown) =>
    say(`${what}: ${error instanceof Error ? error.message : String(error)}`);

  useInput((input, key) => {
    if (live.current.overlay) handleOverlayKey(input, key);
    else for (const name of keyNames(input, key)) handleCommand(commandFor(name));
  });

  function handleCommand(command: Command | undefined): void {
    if (command === undefined) return;
    const state = live.current;
    const { location } = state;
    const { lines, side, layout } = rendered.current;
    const limit =
      state.focus === 'source'
        ? (lines?.count ?? 1)
        : state.focus === 'side'
          ? side.rows.length
          : props.items.length;
    const page = Math.max(1, (state.focus === 'side' ? layout.sideHeight : layout.mainHeight) - 3);
    const view = sideCommands[command];
    if (view) return dispatch({ type: 'toggleSide', view });
    switch (command) {
      case 'down':
      case 'up':
      case 'pageDown':
      case 'pageUp': {
        const step = command === 'down' || command === 'up' ? 1 : page;
        return dispatch({
          type: 'move',
          delta: command === 'down' || command === 'pageDown' ? step : -step,
          limit,
        });
      }
      case 'nextPane':
        return dispatch({ type: 'cyclePane', delta: 1 });
      case 'previousPane':
        return dispatch({ type: 'cyclePane', delta: -1 });
      case 'follow':
        return follow(side);
      case 'back':
        return dispatch({ type: 'back' });
      case 'placement':
        return dispatch({ type: 'togglePlacement', current: layout.placement });
      case 'search':
        return dispatch({ type: 'openSearch' });
      case 'help':
        return dispatch({ type: 'openHelp' });
      case 'home':
        if (props.onHome) return props.onHome();
        return say('no start screen here: `k8s-read tui controllers` starts on one');
      case 'editor':
        if (!location) return say('this step has no place in this tree to open');
        if (!props.providers.openEditor) return say('opening an editor is not available here');
        void props.providers.openEditor(location.file, state.cursor).then(say, failed('editor'));
        return;
      case 'copy': {
        if (!location) return say('this step has no place in this tree to link to');
        if (!props.permalinkBase)
          return say('no permalink: the tree has no GitHub remote or no commit');
        const url = `${props.permalinkBase}/${location.file}#L${state.cursor}`;
        if (!props.providers.copy) return say(url);
        void props.providers.copy(url).then(say, failed('copy'));
        return;
      }
      case 'quit':
        return exit();
    }
  }

  /** Enter: the list opens its item in the source; the source follows the call on the cursor line; a side list follows its row. */
  function follow(content: SideContent): void {
    const state = live.current;
    const { location } = state;
    if (state.focus === 'list') return dispatch({ type: 'cyclePane', delta: 1 });
    if (state.focus === 'side') {
      const target = content.choose?.(state.sideOffset);
      if (target) dispatch({ type: 'follow', location: target });
      return;
    }
    if (!location) return say('this step has no place in this tree');
    const { file } = location;
    const line = state.cursor;
    void fetchAnswer(cache, `calls:${file}:${line}`, () =>
      props.providers.callsAt(file, line),
    ).then((calls) => {
      const resolved = calls.filter((c) => c.target !== null);
      if (resolved.length === 1) return send({ type: 'follow', location: resolved[0]!.target! });
      if (resolved.length > 1) {
        return send({
          type: 'openChoice',
          title: `Follow which call on line ${line}?`,
          options: resolved.map((c) => ({
            label: `${c.expr ?? '?'} → ${shortSymbol(c.target!.symbol)}${c.kind === 'static' ? '' : `  [${c.kind}${c.via ? ` ${c.via}` : ''}]`}`,
            location: c.target!,
          })),
        });
      }
      const unresolved = calls[0];
      say(
        unresolved
          ? `${unresolved.expr ?? 'the call'} on line ${line} does not resolve to code in the index`
          : `no call on line ${line}; move the cursor to one (tab to the source, then j/k)`,
      );
    }, failed('calls'));
  }

  function handleOverlayKey(input: string, key: Key): void {
    const overlay = live.current.overlay!;
    const name = keyName(input, key);
    if (overlay.kind === 'help') return dispatch({ type: 'closeOverlay' });
    if (name === 'escape') return dispatch({ type: 'closeOverlay' });
    if (name === 'down' || name === 'ctrl-n') return dispatch({ type: 'overlayMove', delta: 1 });
    if (name === 'up' || name === 'ctrl-p') return dispatch({ type: 'overlayMove', delta: -1 });
    if (overlay.kind === 'choose') {
      if (name === 'j') return dispatch({ type: 'overlayMove', delta: 1 });
      if (name === 'k') return dispatch({ type: 'overlayMove', delta: -1 });
      if (name === 'q') return dispatch({ type: 'closeOverlay' });
      if (name === 'enter')
        return dispatch({ type: 'follow', location: overlay.options[overlay.selected]!.location });
      return;
    }
    if (name === 'enter') {
      const chosen = overlay.results?.[overlay.selected];
      if (chosen) dispatch({ type: 'follow', location: chosen });
      return;
    }
    const text =
      name === 'backspace'
        ? overlay.text.slice(0, -1)
        : input && !key.ctrl && !key.meta && name !== 'tab'
          ? overlay.text + input
          : null;
    if (text === null) return;
    dispatch({ type: 'searchInput', text });
    if (text.trim() === '') return;
    props.providers.search(text.trim()).then(
      (results) => send({ type: 'searchResults', text, results, error: null }),
      (error: unknown) =>
        send({
          type: 'searchResults',
          text,
          results: [],
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  }

  if (size.columns < MIN_SIZE.width || size.rows < MIN_SIZE.height) {
    return (
      <Text wrap="wrap">{`k8s-read needs a terminal of at least ${MIN_SIZE.width}x${MIN_SIZE.height}; this one is ${size.columns}x${size.rows}. Enlarge it, or press q.`}</Text>
    );
  }

  const item = state.items[state.selected];
  const where = props.mode === 'tour' ? `step ${state.selected + 1}/${state.items.length} · ` : '';
  const message = !location
    ? (item?.guide?.note ?? `${item?.label ?? 'this node'} is not declared in the index`)
    : source?.status === 'error'
      ? `cannot read ${location.file}: ${source.message}`
      : 'loading…';
  return (
    <ColourContext.Provider value={color}>
      <Box flexDirection="column" width={layout.width} height={layout.height}>
        <TitleBar text={`${props.title} · ${where}${props.treeLabel}`} width={layout.width} />
        {state.overlay ? (
          <Overlay overlay={state.overlay} width={layout.width} height={layout.body} />
        ) : (
          <Body
            layout={layout}
            state={state}
            props={props}
            lines={lines}
            message={message}
            side={side}
          />
        )}
        <StatusBar status={state.status} width={layout.width} />
      </Box>
    </ColourContext.Provider>
  );
}

interface BodyProps {
  layout: Layout;
  state: NavState;
  props: AppProps;
  lines: SourceLines | null;
  message: string;
  side: SideContent;
}

function Body({ layout, state, props, lines, message, side }: BodyProps) {
  const main = (
    <>
      <ItemList
        title={props.mode === 'tour' ? 'Steps' : 'Trace'}
        items={state.items}
        selected={state.selected}
        focused={state.focus === 'list'}
        width={layout.listWidth}
        height={layout.mainHeight}
      />
      <SourcePane
        location={state.location}
        cursor={state.cursor}
        lines={lines}
        message={message}
        back={state.history.at(-1)?.location.symbol ?? null}
        focused={state.focus === 'source'}
        width={layout.sourceWidth}
        height={layout.mainHeight}
      />
    </>
  );
  const sidePane = (
    <SidePane
      // Ink sets a border edge when it is turned on but never clears it when turned off, so a
      // side pane that moves is drawn anew rather than updated.
      key={layout.placement}
      view={state.side}
      aboutTitle={props.mode === 'tour' ? 'Guide' : 'Node'}
      content={side}
      offset={state.sideOffset}
      focused={state.focus === 'side'}
      placement={layout.placement}
      width={layout.sideWidth}
      height={layout.sideHeight}
    />
  );
  if (layout.placement === 'right') {
    return (
      <Box height={layout.body}>
        {main}
        {sidePane}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={layout.body}>
      <Box height={layout.mainHeight}>{main}</Box>
      {sidePane}
    </Box>
  );
}
