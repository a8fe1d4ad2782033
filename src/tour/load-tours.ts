/**
 * Reads tour files and validates them. A bad tour is reported as `file:line:col: field: problem`
 * for every problem found (positions from the YAML document through its LineCounter), so a tour
 * author fixes the file without guessing where the schema looked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, isMap, isScalar, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { allowedFields, tourSchema, type Tour } from './schema.js';

export interface TourIssue {
  file: string;
  line: number;
  col: number;
  /** `steps[2].symbol`; `(top level)` for the document itself. */
  field: string;
  message: string;
}

/** One or more tour files are not valid tours; `issues` holds each problem with its position. */
export class TourFileError extends UsageError {
  readonly issues: readonly TourIssue[];
  constructor(issues: readonly TourIssue[]) {
    const shown = issues
      .slice(0, 12)
      .map((i) => `${i.file}:${i.line}:${i.col}: ${i.field}: ${i.message}`);
    const more =
      issues.length > shown.length ? `\n  ... and ${issues.length - shown.length} more` : '';
    super(
      `invalid tour:\n  ${shown.join('\n  ')}${more}\nfix the field(s) above (guides/kube-scheduler.yaml is a working example)`,
      { code: 'E_TOUR' },
    );
    this.issues = issues;
  }
}

export interface LoadOptions {
  /** When given, a step's `twin.name` must be one of these. @default not checked */
  twinNames?: readonly string[];
}

/** Validates tour text; `file` names it in messages and must end in `<name>.yaml`. */
export function parseTour(text: string, file: string, options: LoadOptions = {}): Tour {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new TourFileError(
      doc.errors.map((e) => {
        // Without prettyErrors the yaml package leaves linePos empty; the offset is always there.
        const { line, col } = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { file, line, col, field: 'YAML', message: e.message.split('\n')[0]! };
      }),
    );
  }
  const at = (p: readonly (string | number)[], message: string): TourIssue => ({
    file,
    ...positionOf(doc, lineCounter, p),
    field: formatPath(p),
    message,
  });
  const parsed = tourSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success)
    throw new TourFileError(parsed.error.issues.map((issue) => describeIssue(issue, at)));
  const tour = parsed.data;
  const issues: TourIssue[] = [];
  const expected = path.basename(file).replace(/\.ya?ml$/, '');
  if (tour.name !== expected)
    issues.push(
      at(
        ['name'],
        `the name must be the file's name, ${JSON.stringify(expected)} (it is what \`k8s-read tour <name>\` takes)`,
      ),
    );
  if (options.twinNames) {
    tour.steps.forEach((step, i) => {
      const name = step.twin?.name;
      if (name !== undefined && !options.twinNames!.includes(name)) {
        issues.push(
          at(
            ['steps', i, 'twin', 'name'],
            `no twin named ${JSON.stringify(name)}; the twins are: ${options.twinNames!.join(', ')}`,
          ),
        );
      }
    });
  }
  if (issues.length > 0) throw new TourFileError(issues);
  return { ...tour, file };
}

/** Reads one tour file; `shownAs` is how messages name it. */
export function loadTourFile(file: string, shownAs = file, options: LoadOptions = {}): Tour {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read tour ${shownAs}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; check the path`,
    );
  }
  return parseTour(text, shownAs, options);
}

/**
 * Every `*.yaml` directly in `dir` (not in subfolders: guides/scenarios holds twin scenarios),
 * in reading order. Problems of all files are reported together.
 */
export function loadTours(
  dir: string,
  options: LoadOptions & { shownAs?: (file: string) => string } = {},
): Tour[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => e.name);
  } catch (error) {
    throw new UsageError(
      `cannot read the guides directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; pass --guides DIR with tour files`,
    );
  }
  const tours: Tour[] = [];
  const issues: TourIssue[] = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    try {
      tours.push(loadTourFile(file, options.shownAs?.(file) ?? file, options));
    } catch (error) {
      if (!(error instanceof TourFileError)) throw error;
      issues.push(...error.issues);
    }
  }
  if (issues.length > 0) throw new TourFileError(issues);
  return tours.sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : 1));
}

/**
 * The tour named `name` from `dir`: its own file when there is one (a tour's name is its file's
 * name, so one file is read, not all), else every file, to list the names in the error.
 */
export function loadTourByName(
  dir: string,
  name: string,
  options: LoadOptions & { shownAs?: (file: string) => string } = {},
): Tour {
  const file = path.join(dir, `${name}.yaml`);
  if (/^[a-z0-9-]+$/.test(name) && existsSync(file))
    return loadTourFile(file, options.shownAs?.(file) ?? file, options);
  return findTour(loadTours(dir, options), name);
}

/** The tour of that name, or a UsageError listing the names. */
export function findTour(tours: readonly Tour[], name: string): Tour {
  const tour = tours.find((t) => t.name === name);
  if (tour) return tour;
  throw new UsageError(
    `no tour named ${JSON.stringify(name)}; the tours are: ${tours.map((t) => t.name).join(', ')} (see \`k8s-read tour list\`)`,
  );
}

function describeIssue(
  issue: z.core.$ZodIssue,
  at: (p: readonly (string | number)[], message: string) => TourIssue,
): TourIssue {
  const base = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    return at([...base, key], `unknown field (allowed here: ${allowedHere(base).join(', ')})`);
  }
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return at(base, 'required field is missing');
  return at(base, issue.message);
}

function allowedHere(p: readonly (string | number)[]): readonly string[] {
  const last = [...p].reverse().find((x) => typeof x === 'string');
  if (p.length === 0) return allowedFields.tour;
  if (last === 'steps') return allowedFields.step;
  if (last === 'focus' || last === 'twin' || last === 'cite') return allowedFields[last];
  return [];
}

/** The line and column of the deepest node on `p` that exists (a map key when the path ends in one). */
function positionOf(
  doc: Document,
  lineCounter: LineCounter,
  p: readonly (string | number)[],
): { line: number; col: number } {
  for (let depth = p.length; depth >= 0; depth--) {
    const prefix = p.slice(0, depth);
    if (depth > 0) {
      const parent = depth === 1 ? doc.contents : doc.getIn(prefix.slice(0, -1), true);
      if (isMap(parent)) {
        const key = prefix[depth - 1];
        const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === key);
        const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
        if (range) return lineCounter.linePos(range[0]);
        continue;
      }
    }
    const node = depth === 0 ? doc.contents : doc.getIn(prefix, true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return lineCounter.linePos(range[0]);
  }
  return { line: 1, col: 1 };
}

/** `steps[2].focus.call` */
function formatPath(p: readonly (string | number)[]): string {
  let out = '';
  for (const part of p) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || '(top level)';
}
