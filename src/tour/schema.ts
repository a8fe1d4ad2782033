/**
 * The shape of a tour file (`guides/<name>.yaml`), as a zod schema. A tour is anchored to symbols,
 * not to line numbers: each step names a Go symbol in DESIGN's format, with alternatives for other
 * Kubernetes versions, so a tour survives code moving inside a file and `tour check` can say
 * exactly which step lost its symbol when a version renames one.
 */
import { z } from 'zod';

const IDENT = String.raw`[\p{L}_][\p{L}\p{N}_]*`;
/** A package path: at least one `/` (`k8s.io/kubernetes/pkg/scheduler`), no spaces or brackets. */
const PACKAGE = String.raw`[^\s()]*\/[^\s()]*`;
/** A generic receiver's type parameters, as go/ssa prints them: `Controller[request]`. */
const TYPE_PARAMS = String.raw`(?:\[[^\s()\]]+\])?`;
/**
 * DESIGN's symbol format: `pkg/path.Func`, `(*pkg/path.Type).Method`, `(pkg/path.Type).Method`,
 * `pkg/path.Type`, closures `pkg/path.Func$1$2`. Strict enough to catch a short name
 * (`scheduleOne`, `app.Run`) where a full symbol belongs.
 */
const SYMBOL = new RegExp(
  String.raw`^(?:\(\*?${PACKAGE}\.${IDENT}${TYPE_PARAMS}\)\.${IDENT}|${PACKAGE}\.${IDENT})(?:\$\d+)*$`,
  'u',
);

export const symbolSchema = z
  .string()
  .regex(
    SYMBOL,
    'expected a full symbol as DESIGN.md writes it, e.g. `(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne` or `k8s.io/client-go/tools/clientcmd.BuildConfigFromFlags`',
  );

/** A place inside the anchored symbol to highlight: a call (`sched.SchedulePod`) or any text. */
export const focusSchema = z
  .strictObject({
    /** A call as written in the source, without its arguments: `sched.SchedulePod`, `wait.UntilWithContext`. */
    call: z.string().min(1).optional(),
    /** Any text on one line of the symbol's source: `for {`, `podInfo := sched.NextPod()`. */
    text: z.string().min(1).optional(),
  })
  .refine(
    (f) => (f.call === undefined) !== (f.text === undefined),
    'give exactly one of `call` or `text`',
  );

/** Where the guide's claims come from, by version: rendered as a GitHub link at that tag. */
export const citationSchema = z.strictObject({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'expected owner/repo, e.g. kubernetes/kubernetes'),
  version: z.string().min(1),
  path: z.string().min(1),
});

export const stepSchema = z.strictObject({
  title: z.string().min(1),
  symbol: symbolSchema,
  /** The same step in other versions, tried in order when `symbol` is not in the tree. */
  alternatives: z.array(symbolSchema).default([]),
  focus: focusSchema.optional(),
  /** Markdown: what Kubernetes does here. */
  prose: z.string().min(1),
  /** The runnable twin of this step, and what it leaves out (kept apart from the prose). */
  twin: z
    .strictObject({
      /** A twin of `k8s-read twin list`, whose timeline the TUI shows for this step. */
      name: z.string().min(1).optional(),
      /** Markdown: what the twin simplifies. */
      simplifies: z.string().min(1),
    })
    .optional(),
  cite: z.array(citationSchema).default([]),
  /** false when the bundled demo trees do not model this step: `tour check` skips it there. */
  demo: z.boolean().default(true),
  /** A side trip that only some trees have (an example program): absent is skipped, not an error. */
  optional: z.boolean().default(false),
});

export const tourSchema = z.strictObject({
  /** The file's name without `.yaml`; what `k8s-read tour <name>` takes. */
  name: z
    .string()
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      'expected a lowercase name with dashes, e.g. kube-scheduler',
    ),
  title: z.string().min(1),
  /** Where this tour sits in the order an expert reads (1 first). */
  order: z.number().int().positive(),
  /** Markdown: what the tour is about, read before the first step. */
  summary: z.string().min(1),
  /** A Go package (or a prefix of one) the tree must hold for this tour to apply to it. */
  requires: z.string().min(1),
  /** The bundled demo trees (directories under fixtures/) that model this tour. */
  demoTrees: z
    .array(z.string().regex(/^[\w.-]+$/, 'expected a directory name under fixtures/'))
    .default([]),
  steps: z.array(stepSchema).min(1, 'a tour needs at least one step'),
});

export type Tour = z.output<typeof tourSchema> & {
  /** The file the tour was read from, as shown in messages. */
  file: string;
};
export type TourStep = z.output<typeof stepSchema>;
export type TourFocus = z.output<typeof focusSchema>;
export type Citation = z.output<typeof citationSchema>;

/** The fields a tour file may hold at each level, for "unknown field" messages. */
export const allowedFields = {
  tour: Object.keys(tourSchema.shape),
  step: Object.keys(stepSchema.shape),
  focus: ['call', 'text'],
  twin: ['name', 'simplifies'],
  cite: Object.keys(citationSchema.shape),
} as const;
