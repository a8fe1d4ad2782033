/**
 * What the screen is handed. The TUI opens nothing itself: src/cli builds these objects from the
 * index, git and the twins, and passes them through props — data, and provider functions for what
 * is fetched on demand. A provider left out is a capability this build or tree does not have; its
 * pane says so instead of showing anything invented.
 */
import type { BlamedLine, PullRequest } from '../git/types.js';
import type { ControllerRow, ControllerTable } from '../trace/controllers.js';
import type { TwinMatch } from '../twins/mirror-tags.js';
import type { TimelineEvent } from '../twins/sim/timeline.js';
import type { NavState } from './navigation.js';
import type { AnswerCache } from './use-answer.js';

/** A place in the Go source. */
export interface Location {
  symbol: string;
  /** Relative to the tree's root. */
  file: string;
  line: number;
  /** Last line of the declaration; equal to `line` when unknown. */
  endLine: number;
  /** The line to highlight (a tour step's focus), or null. */
  focusLine: number | null;
}

/** One tour step as the screen shows it. */
export interface GuideStep {
  number: number;
  title: string;
  /** The symbol the guide names (the anchor may be an alternative of it). */
  symbol: string;
  /** Markdown, shown as text: what Kubernetes does. */
  prose: string;
  /** What the twin simplifies, and which twin runs for this step. */
  twin: { name: string | null; simplifies: string } | null;
  /** `kubernetes/kubernetes v1.24.0 pkg/scheduler/schedule_one.go` */
  sources: string[];
  /** Why the step has no place in this tree, or a note about how it was found; null when plain. */
  note: string | null;
}

/** A row of the left pane: a tour step or a node of the trace tree. */
export interface NavItem {
  key: string;
  label: string;
  /** Indentation in the trace tree; 0 for tour steps. */
  depth: number;
  /** Null when the item has no place in this tree (a missing step). */
  location: Location | null;
  /** A short mark after the label: `↩` for a function expanded above, `✗` for a missing step. */
  mark: string | null;
  guide: GuideStep | null;
  /** For a trace node: how it was reached (`framework: cobra-run`). */
  how: string | null;
}

export interface CallSite {
  line: number;
  /** The call as written, e.g. `sched.SchedulePod`. */
  expr: string | null;
  /** The resolved callee, null when unresolved or outside the index. */
  target: Location | null;
  /** `static`, `interface`, `framework`, ... */
  kind: string;
  via: string | null;
}

export interface CallerSite {
  caller: Location;
  /** `file:line` of the call. */
  site: string;
  kind: string;
  via: string | null;
}

/** Who last changed a line and in which pull request: `blame -o json`'s answer, as the pane needs it. */
export type BlameInfo = Pick<
  BlamedLine,
  'file' | 'line' | 'commit' | 'author' | 'authorTime' | 'summary' | 'reason'
> & {
  pr: Pick<PullRequest, 'number' | 'title' | 'url'> | null;
};

/** A twin declaration whose `@mirrors` tag names the symbol (`twin show`). */
export type TwinSource = TwinMatch;

/** One event of a twin's run (`twin run`). */
export type TimelineEntry = TimelineEvent;

export interface TimelineInfo {
  twin: string;
  scenario: string;
  events: TimelineEntry[];
}

export interface TuiProviders {
  /** A file's text. */
  readSource(file: string): Promise<string>;
  /** The calls on one line of a file (inside whichever function or closure holds it). */
  callsAt(file: string, line: number): Promise<CallSite[]>;
  callers(symbol: string): Promise<CallerSite[]>;
  /** Declarations whose name contains the text, best first. */
  search(text: string): Promise<Location[]>;
  /** Who last changed the line and in which pull request. */
  blame?: (file: string, line: number) => Promise<BlameInfo>;
  /** The TypeScript twins whose `@mirrors` tag names the symbol. */
  twins?: (symbol: string) => Promise<TwinSource[]>;
  /** A twin's run on its default scenario; `twin` when the tour names one, else the symbol's twin. */
  timeline?: (symbol: string, twin: string | null) => Promise<TimelineInfo>;
  /** Opens the reader's editor; resolves to a one-line status. */
  openEditor?: (file: string, line: number) => Promise<string>;
  /** Copies text to the clipboard; resolves to a one-line status. */
  copy?: (text: string) => Promise<string>;
}

export interface AppProps {
  mode: 'tour' | 'explore';
  /** `kube-scheduler: from main() to a bound pod`, `trace kube-scheduler`. */
  title: string;
  /** `fixtures/kubernetes (demo tree) @ c3276c3fa3e8`. */
  treeLabel: string;
  items: NavItem[];
  /** 0-based item to start at. @default 0 */
  initialIndex?: number;
  /** `https://github.com/<owner>/<repo>/blob/<commit>`, or null: no permalinks to copy. */
  permalinkBase: string | null;
  providers: TuiProviders;
  /** Syntax colour and highlights. @default true */
  color?: boolean;
  /** Where to pick up when the screen is drawn again after the reader's editor. @default the first item */
  initialState?: NavState;
  /** Answers already fetched, kept across such re-draws. @default an empty cache */
  cache?: AnswerCache;
  /** Told every new navigation state (so the screen can be resumed after an editor). @default ignored */
  onNavigate?: (state: NavState) => void;
  /** Goes back to the start screen (the `home` key). @default there is none: the key says so */
  onHome?: () => void;
}

export type { ControllerRow, ControllerTable };

/** The start screen: the tree's controllers (`k8s-read controllers`), each opening its trace. */
export interface StartProps {
  mode: 'start';
  /** `kube-controller-manager`. */
  title: string;
  /** `fixtures/kubernetes (demo tree) @ c3276c3fa3e8`. */
  treeLabel: string;
  table: ControllerTable;
  /** The trace screen of the controller at this index (`tui trace <its target>`). */
  open(index: number): Promise<AppProps>;
  /** Syntax colour and highlights. @default true */
  color?: boolean;
  /** 0-based controller to start at. @default 0 */
  initialIndex?: number;
}
