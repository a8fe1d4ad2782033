/**
 * A small tour as the screen receives it, and fake providers that answer from memory: what the
 * TUI tests render, so each test reads as a reader's walk rather than as setup.
 */
import type {
  AppProps,
  BlameInfo,
  CallSite,
  Location,
  NavItem,
  TuiProviders,
} from '../../src/tui/types.js';

export const mainLocation: Location = {
  symbol: 'k8s.io/demo/cmd/sched.main',
  file: 'cmd/sched/main.go',
  line: 5,
  endLine: 8,
  focusLine: 6,
};
export const runLocation: Location = {
  symbol: 'k8s.io/demo/pkg/sched.Run',
  file: 'pkg/sched/run.go',
  line: 3,
  endLine: 9,
  focusLine: 5,
};
export const loopLocation: Location = {
  symbol: '(*k8s.io/demo/pkg/sched.Scheduler).scheduleOne',
  file: 'pkg/sched/run.go',
  line: 11,
  endLine: 14,
  focusLine: null,
};

export const sources: Record<string, string> = {
  'cmd/sched/main.go': [
    'package main',
    '',
    'import "k8s.io/demo/pkg/sched"',
    '',
    'func main() {',
    '\tsched.Run()',
    '\tprintln("done")',
    '}',
    '',
  ].join('\n'),
  'pkg/sched/run.go': [
    'package sched',
    '',
    'func Run() {',
    '\ts := &Scheduler{}',
    '\tfor s.scheduleOne() {',
    '\t}',
    '\t// the loop ends when the queue closes',
    '\treturn',
    '}',
    '',
    'func (s *Scheduler) scheduleOne() bool {',
    '\tpod := s.next()',
    '\treturn pod != nil',
    '}',
    '',
  ].join('\n'),
};

function step(
  number: number,
  title: string,
  location: Location | null,
  prose: string,
  note: string | null = null,
): NavItem {
  return {
    key: `step-${number}`,
    label: `${number}. ${title}`,
    depth: 0,
    location,
    mark: location ? null : '✗',
    how: null,
    guide: {
      number,
      title,
      symbol: location?.symbol ?? 'k8s.io/demo/pkg/gone.Vanished',
      prose,
      twin: number === 2 ? { name: 'scheduler', simplifies: 'The twin has no preemption.' } : null,
      sources: [`kubernetes/kubernetes v1.25.0 ${location?.file ?? 'pkg/gone/gone.go'}`],
      note,
    },
  };
}

export const tourItems: NavItem[] = [
  step(1, 'main starts the scheduler', mainLocation, 'Every daemon starts in a short main.'),
  step(
    2,
    'Run loops over scheduleOne',
    runLocation,
    'The loop calls scheduleOne until the queue closes.',
  ),
  step(
    3,
    'A step this tree lacks',
    null,
    'Prose of a missing step.',
    'Not in this tree: k8s.io/demo/pkg/gone.Vanished. Similar here: k8s.io/demo/pkg/sched.Run.',
  ),
];

export const blameOfRunLine5: BlameInfo = {
  file: 'pkg/sched/run.go',
  line: 5,
  commit: '0123456789abcdef0123456789abcdef01234567',
  author: 'Ada Lovelace',
  authorTime: '2022-05-04T10:00:00+02:00',
  summary: 'Loop until the queue closes',
  pr: {
    number: 4242,
    title: 'scheduler: stop when the queue closes',
    url: 'https://github.com/kubernetes/kubernetes/pull/4242',
  },
  reason: 'merge commit subject: Merge pull request #4242',
};

/** Providers answering from the sample sources; `calls` and `asked` record what the screen asked. */
export function fakeProviders(
  overrides: Partial<TuiProviders> = {},
): TuiProviders & { asked: string[] } {
  const asked: string[] = [];
  const callsOnLine: Record<string, CallSite[]> = {
    'cmd/sched/main.go:6': [
      { line: 6, expr: 'sched.Run', target: runLocation, kind: 'static', via: null },
    ],
    'pkg/sched/run.go:5': [
      { line: 5, expr: 's.scheduleOne', target: { ...loopLocation }, kind: 'static', via: null },
    ],
    'pkg/sched/run.go:12': [{ line: 12, expr: 's.next', target: null, kind: 'static', via: null }],
  };
  return {
    asked,
    readSource: async (file) => {
      asked.push(`source ${file}`);
      const text = sources[file];
      if (text === undefined) throw new Error(`${file} cannot be read`);
      return text;
    },
    callsAt: async (file, line) => {
      asked.push(`calls ${file}:${line}`);
      return callsOnLine[`${file}:${line}`] ?? [];
    },
    callers: async (symbol) => {
      asked.push(`callers ${symbol}`);
      return symbol === runLocation.symbol
        ? [
            {
              caller: { ...mainLocation, focusLine: 6 },
              site: 'cmd/sched/main.go:6',
              kind: 'static',
              via: null,
            },
          ]
        : [];
    },
    search: async (text) => {
      asked.push(`search ${text}`);
      return [mainLocation, runLocation, loopLocation].filter((l) =>
        l.symbol.toLowerCase().includes(text.toLowerCase()),
      );
    },
    blame: async (file, line) => {
      asked.push(`blame ${file}:${line}`);
      if (file === blameOfRunLine5.file && line === blameOfRunLine5.line) return blameOfRunLine5;
      return {
        ...blameOfRunLine5,
        file,
        line,
        commit: null,
        pr: null,
        reason: 'not committed yet: a local edit in the work tree',
      };
    },
    twins: async (symbol) => {
      asked.push(`twins ${symbol}`);
      return symbol === runLocation.symbol
        ? [
            {
              twin: 'scheduler',
              exportName: 'run',
              symbol,
              file: 'src/twins/scheduler/run.ts',
              line: 7,
              text: '/** @mirrors k8s.io/demo/pkg/sched.Run */\nexport function run(): void {}',
            },
          ]
        : [];
    },
    timeline: async (symbol, twin) => {
      asked.push(`timeline ${symbol} ${twin ?? '-'}`);
      return {
        twin: twin ?? 'scheduler',
        scenario: 'guides/scenarios/scheduler.yaml',
        events: [
          {
            t: 0,
            component: 'apiserver',
            event: 'create',
            key: 'default/web-1',
            detail: 'Pod',
            mirrors: 'k8s.io/demo/pkg/api.Create',
          },
          {
            t: 1,
            component: 'scheduler',
            event: 'run',
            key: '-',
            detail: 'loop starts',
            mirrors: runLocation.symbol,
          },
        ],
      };
    },
    ...overrides,
  };
}

export function tourProps(overrides: Partial<AppProps> = {}): AppProps {
  return {
    mode: 'tour',
    title: 'Demo tour',
    treeLabel: 'fixtures/demo (demo tree)',
    items: tourItems,
    permalinkBase: 'https://github.com/kubernetes/kubernetes/blob/0123456789abcdef',
    providers: fakeProviders(),
    color: false,
    ...overrides,
  };
}
