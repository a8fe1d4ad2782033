/**
 * What the side pane shows, as rows: the step's guide (or the trace node's details), the TypeScript
 * twin, the twin's timeline, the blame of the cursor line, or the callers. Each view asks its
 * provider through the answer cache; a provider the screen was not given is a capability this
 * build or tree lacks, and the view says that in plain words.
 */
import { shortSymbol } from '../export/symbols.js';
import { highlightLines } from './highlight.js';
import type { NavState, SideView } from './navigation.js';
import type { Row } from './Rows.js';
import type { AppProps, Location, NavItem, TimelineEntry } from './types.js';
import { useAnswer, type Answer, type AnswerCache } from './use-answer.js';
import { wrapText } from './wrap-text.js';

export interface SideContent {
  rows: Row[];
  /** The rows are a list to choose from (callers): `sideOffset` selects, enter follows. */
  choose: ((row: number) => Location | null) | null;
  /** Where the view should open scrolled to (the first event of this symbol in a timeline). */
  openAt: number;
  /** Identifies the view's data, so the App knows when `openAt` applies. */
  key: string;
}

export const sideTitles: Record<SideView, string> = {
  about: 'Guide',
  twin: 'Twin',
  timeline: 'Run',
  blame: 'Blame',
  callers: 'Callers',
};

export function useSideContent(
  props: AppProps,
  state: NavState,
  cache: AnswerCache,
  width: number,
  coloured: boolean,
): SideContent {
  const { providers } = props;
  const location = state.location;
  const item = state.items[state.selected];
  const symbol = location?.symbol ?? null;
  const twinName = item?.guide?.twin?.name ?? null;
  // Every view's hook runs on every render (hooks keep their order); only the shown view's key is non-null.
  const want = (view: SideView, key: string | null) =>
    state.side === view && key !== null ? key : null;
  const twins = useAnswer(
    cache,
    providers.twins ? want('twin', symbol && `twins:${symbol}`) : null,
    () => providers.twins!(symbol!),
  );
  const timeline = useAnswer(
    cache,
    providers.timeline ? want('timeline', symbol && `timeline:${symbol}:${twinName ?? ''}`) : null,
    () => providers.timeline!(symbol!, twinName),
  );
  const blame = useAnswer(
    cache,
    providers.blame ? want('blame', location && `blame:${location.file}:${state.cursor}`) : null,
    () => providers.blame!(location!.file, state.cursor),
  );
  const callers = useAnswer(cache, want('callers', symbol && `callers:${symbol}`), () =>
    providers.callers(symbol!),
  );
  const key = `${state.side}:${symbol ?? ''}`;
  const text = (rows: Row[], openAt = 0): SideContent => ({ rows, choose: null, openAt, key });

  switch (state.side) {
    case 'about':
      return text(
        item?.guide
          ? guideRows(item, width)
          : nodeRows(item, location, props.permalinkBase, state.cursor),
      );
    case 'twin': {
      if (!providers.twins)
        return text(
          unavailable(
            'Twins are not available here: their TypeScript sources (src/twins) are not installed with this copy of k8s-read.',
          ),
        );
      if (!symbol) return text(nothingHere());
      return text(
        waitFor(twins, 'twins', width, (found) =>
          found.length === 0
            ? [
                { text: `No twin mirrors ${shortSymbol(symbol)}.`, tone: 'dim' },
                { text: 'The twins mirror the symbols `k8s-read twin list` names.', tone: 'dim' },
              ]
            : found.flatMap((t): Row[] => [
                { text: `${t.file}:${t.line} · ${t.twin} ${t.exportName}`, tone: 'heading' },
                { text: `mirrors ${t.symbol}`, tone: 'dim' },
                ...highlightLines(t.text, 'typescript', coloured).map((line): Row => ({
                  text: line,
                })),
                { text: '' },
              ]),
        ),
      );
    }
    case 'timeline': {
      if (!providers.timeline)
        return text(
          unavailable(
            'Twin runs are not available here: the twins are not installed with this copy of k8s-read.',
          ),
        );
      if (!symbol) return text(nothingHere());
      if (timeline?.status !== 'ready')
        return text(waitFor(timeline, 'the twin run', width, () => []));
      const { twin, scenario, events } = timeline.value;
      const rows: Row[] = [
        { text: `twin run ${twin} · ${scenario}`, tone: 'heading' },
        {
          text: `▶ marks what ${shortSymbol(symbol)} does; ${events.filter((e) => e.mirrors === symbol).length} of ${events.length} events`,
          tone: 'dim',
        },
        ...events.map((e): Row =>
          e.mirrors === symbol
            ? { text: `▶${eventText(e)}`, tone: 'accent' }
            : { text: ` ${eventText(e)}` },
        ),
      ];
      const first = events.findIndex((e) => e.mirrors === symbol);
      return text(rows, Math.max(first, 0));
    }
    case 'blame': {
      if (!providers.blame)
        return text(
          unavailable('Blame is not available here: this tree is not in a git repository.'),
        );
      if (!location) return text(nothingHere());
      return text(
        waitFor(blame, 'blame', width, (b): Row[] => {
          const rows: Row[] = [{ text: `${location.file}:${b.line}`, tone: 'heading' }];
          if (!b.commit)
            return [
              ...rows,
              { text: 'not committed yet: a local edit', tone: 'dim' },
              { text: b.reason, tone: 'dim' },
            ];
          rows.push(
            {
              text: `${b.commit.slice(0, 12)}  ${b.author ?? ''}  ${b.authorTime?.slice(0, 10) ?? ''}`,
            },
            { text: b.summary ?? '' },
            { text: '' },
          );
          if (b.pr)
            rows.push(
              { text: `PR #${b.pr.number}  ${b.pr.title ?? ''}`, tone: 'accent' },
              ...(b.pr.url ? [{ text: b.pr.url, tone: 'link' as const }] : []),
            );
          else rows.push({ text: 'no pull request found', tone: 'dim' });
          return [
            ...rows,
            ...wrapText(b.reason, width).map((line): Row => ({ text: line, tone: 'dim' })),
          ];
        }),
      );
    }
    case 'callers': {
      if (!symbol) return text(nothingHere());
      if (callers?.status !== 'ready') return text(waitFor(callers, 'callers', width, () => []));
      const list = callers.value;
      if (list.length === 0)
        return text([{ text: `Nothing in the index calls ${shortSymbol(symbol)}.`, tone: 'dim' }]);
      return {
        rows: list.map((c, i): Row => ({
          text: `${shortSymbol(c.caller.symbol)}  ${c.site}${c.kind === 'static' ? '' : `  [${c.kind}${c.via ? ` ${c.via}` : ''}]`}`,
          inverse: i === state.sideOffset && state.focus === 'side',
          bold: i === state.sideOffset,
        })),
        choose: (row) => list[row]?.caller ?? null,
        openAt: 0,
        key,
      };
    }
  }
}

function guideRows(item: NavItem, width: number): Row[] {
  const guide = item.guide!;
  const rows: Row[] = [{ text: `Step ${guide.number}: ${guide.title}`, tone: 'heading' }];
  if (guide.note)
    rows.push(
      ...wrapText(guide.note, width).map((text): Row => ({
        text,
        tone: item.location ? 'accent' : 'warn',
      })),
    );
  rows.push({ text: '' }, ...wrapText(guide.prose, width).map((text): Row => ({ text })));
  if (guide.twin) {
    rows.push(
      { text: '' },
      {
        text: `What the twin simplifies${guide.twin.name ? ` (r runs ${guide.twin.name})` : ''}`,
        tone: 'heading',
      },
    );
    rows.push(...wrapText(guide.twin.simplifies, width).map((text): Row => ({ text })));
  }
  if (guide.sources.length > 0)
    rows.push(
      { text: '' },
      { text: 'Sources', tone: 'heading' },
      ...guide.sources.map((text): Row => ({ text, tone: 'dim' })),
    );
  return rows;
}

function nodeRows(
  item: NavItem | undefined,
  location: Location | null,
  permalinkBase: string | null,
  cursor: number,
): Row[] {
  if (!location)
    return [
      {
        text: item ? `${item.label}: not declared in the index` : 'Nothing selected.',
        tone: 'dim',
      },
    ];
  const rows: Row[] = [
    { text: location.symbol, tone: 'heading' },
    { text: `${location.file}:${location.line}` },
  ];
  if (item?.how && item.location?.symbol === location.symbol)
    rows.push({ text: `reached by a ${item.how} call`, tone: 'dim' });
  if (item?.mark === '↩' && item.location?.symbol === location.symbol)
    rows.push({ text: 'expanded above in the tree', tone: 'dim' });
  if (permalinkBase)
    rows.push({ text: `${permalinkBase}/${location.file}#L${cursor}`, tone: 'link' });
  return rows;
}

function eventText(e: TimelineEntry): string {
  return `t=${e.t.toFixed(3)}s ${e.component} ${e.event} ${e.key} ${e.detail}`;
}

function waitFor<T>(
  answer: Answer<T> | null,
  what: string,
  width: number,
  rows: (value: T) => Row[],
): Row[] {
  if (answer === null || answer.status === 'loading')
    return [{ text: `loading ${what}…`, tone: 'dim' }];
  if (answer.status === 'error')
    return wrapText(`${what}: ${answer.message}`, width).map((text): Row => ({
      text,
      tone: 'warn',
    }));
  return rows(answer.value);
}

function unavailable(sentence: string): Row[] {
  return [{ text: sentence, tone: 'dim' }];
}

function nothingHere(): Row[] {
  return [{ text: 'This step has no place in this tree.', tone: 'dim' }];
}
