/**
 * YAML files checked by a zod schema: the one loader behind framework rules, tours and twin
 * scenarios. Every problem is reported as `file:line:col: field: message`, the position taken
 * from the YAML document (a key for an unknown or wrong field, the enclosing map for a missing
 * one), all problems of a file at once. A file that cannot be read, bad YAML syntax and an alias
 * bomb are problems like any other: a UsageError, never a stack trace.
 *
 * Bottom layer: imports nothing of k8s-read but src/errors.ts.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { UsageError } from '../errors.js';

export interface YamlIssue {
  file: string;
  line: number;
  col: number;
  /** `steps[2].symbol`; `(top level)` for the document itself; `YAML` for a syntax error. */
  field: string;
  message: string;
}

export type YamlPath = readonly (string | number)[];

/** One or more problems in a YAML file; the message lists them with positions and ends with the fix. */
export class YamlFileError extends UsageError {
  readonly issues: readonly YamlIssue[];
  constructor(kind: string, issues: readonly YamlIssue[], fix: string, code = 'E_YAML') {
    const shown = issues.slice(0, 12).map(formatIssue);
    const more =
      issues.length > shown.length ? `\n  ... and ${issues.length - shown.length} more` : '';
    super(`invalid ${kind}:\n  ${shown.join('\n  ')}${more}\n${fix}`, { code });
    this.issues = issues;
  }
}

export function formatIssue(issue: YamlIssue): string {
  return `${issue.file}:${issue.line}:${issue.col}: ${issue.field}: ${issue.message}`;
}

export interface YamlSchemaOptions {
  /** What the file is, in messages: `tour`, `scenario`, `rules file`. */
  kind: string;
  /** The line that ends a message about wrong fields: what to do. */
  fix: string;
  /** The line that ends a message about YAML syntax. @default `fix` */
  syntaxFix?: string;
  /** The fields allowed in the map at `parent`, for an unknown field's message. */
  allowedFields?: (parent: YamlPath) => string;
  /** Builds the error thrown for `issues` (a YamlFileError subclass, say). @default YamlFileError */
  error?: (issues: readonly YamlIssue[], fix: string) => Error;
}

/** A validated document, and a way to report further problems at a position in it. */
export interface YamlDocument<T> {
  data: T;
  /** An issue at `path` (the deepest node on it that exists), for checks beyond the schema. */
  issueAt(path: YamlPath, message: string): YamlIssue;
  /** Throws the file's error for these issues (does nothing when there are none). */
  fail(issues: readonly YamlIssue[]): void;
}

/** The largest number of alias expansions a document may need: more is an alias bomb. */
const MAX_ALIAS_COUNT = 100;

/** Parses and validates YAML text; `file` names it in messages. */
export function parseYamlText<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: YamlSchemaOptions,
): YamlDocument<z.output<S>> {
  const makeError =
    options.error ?? ((issues, fix) => new YamlFileError(options.kind, issues, fix));
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntaxFix = options.syntaxFix ?? options.fix;
  if (doc.errors.length > 0) {
    throw makeError(
      doc.errors.map((e) => {
        // Without prettyErrors the yaml package leaves linePos empty; the offset is always there.
        const { line, col } = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { file, line, col, field: 'YAML', message: e.message.split('\n')[0]! };
      }),
      syntaxFix,
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    // The yaml package throws a ReferenceError for an alias bomb ("billion laughs").
    const { line, col } = lineCounter.linePos(firstAliasOffset(doc));
    throw makeError(
      [
        {
          file,
          line,
          col,
          field: 'YAML',
          message: `aliases expand to too much (${(error as Error).message}); write the values out instead of nesting aliases`,
        },
      ],
      syntaxFix,
    );
  }
  const issueAt = (p: YamlPath, message: string): YamlIssue => ({
    file,
    ...positionOf(doc, lineCounter, p),
    field: formatPath(p),
    message,
  });
  const fail = (issues: readonly YamlIssue[]) => {
    if (issues.length > 0) throw makeError(issues, options.fix);
  };
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success)
    fail(parsed.error.issues.map((issue) => describeIssue(issue, issueAt, options)));
  return { data: parsed.data as z.output<S>, issueAt, fail };
}

/**
 * Reads and validates a YAML file. `shownAs` is how messages name it; `unreadableFix` ends the
 * message when it cannot be read.
 */
export function readYamlFile<S extends z.ZodType>(
  file: string,
  schema: S,
  options: YamlSchemaOptions & { shownAs?: string; unreadableFix: string },
): YamlDocument<z.output<S>> {
  const shownAs = options.shownAs ?? file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${options.kind} ${shownAs}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; ${options.unreadableFix}`,
    );
  }
  return parseYamlText(text, shownAs, schema, options);
}

function describeIssue(
  issue: z.core.$ZodIssue,
  issueAt: (p: YamlPath, message: string) => YamlIssue,
  options: YamlSchemaOptions,
): YamlIssue {
  const base = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const hint = options.allowedFields?.(base);
    return issueAt(
      [...base, issue.keys[0]!],
      `unknown field${hint ? ` (allowed here: ${hint})` : ''}`,
    );
  }
  if (issue.code === 'invalid_type') {
    // With reportInput the value is there for a wrong type; only a missing field has none.
    if (!('input' in issue) || issue.input === undefined)
      return issueAt(base, 'required field is missing');
    return issueAt(base, `expected ${issue.expected}, not ${describeValue(issue.input)}`);
  }
  return issueAt(base, issue.message);
}

function describeValue(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  const shown = JSON.stringify(value);
  const text = shown.length > 40 ? `${shown.slice(0, 40)}...` : shown;
  return `${typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : 'a string'} (${text})`;
}

/** The line and column of the deepest node on `p` that exists (a map key when the path ends in one). */
function positionOf(
  doc: Document,
  lineCounter: LineCounter,
  p: YamlPath,
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

function firstAliasOffset(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

/** `steps[2].focus.call` */
export function formatPath(p: YamlPath): string {
  let out = '';
  for (const part of p) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || '(top level)';
}
