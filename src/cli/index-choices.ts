/**
 * How a tree is indexed (vendor/, tests, the file size limit, extra rules, `--with` checkouts) is
 * kept with its index, and a later `index` that does not say otherwise indexes the same way. So a
 * re-index never drops, unasked, what the last one read: sample-controller's vendor/, which its
 * first index (by `trace`) takes in, or the client-go checkout given once with `--with`.
 *
 * With nothing given and nothing kept: vendor/ is indexed when the module keeps its libraries
 * there and has no staging/ (sample-controller, an operator: unreadable without them; Kubernetes
 * keeps its own in staging/), tests are not, files over 2 MiB are skipped, no extra rules.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface IndexChoices {
  includeVendor: boolean;
  includeTests: boolean;
  maxFileBytes: number;
  /** Extra rule files, absolute. */
  rules: string[];
  /** Checkouts of modules the tree imports, absolute. */
  with: string[];
}

/** What the command line said: a key left out was not given. */
export type GivenChoices = Partial<IndexChoices>;

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** A choice said as the flag that gives it, and the flag that undoes it. */
export interface ChoiceFlag {
  flag: string;
  undo: string;
}

export interface SettledChoices {
  choices: IndexChoices;
  /** The kept choices this run follows that differ from the defaults, as flags (`--include-vendor`). */
  kept: ChoiceFlag[];
  /** Kept paths that are gone (a `--with` checkout or a rules file removed since), left out. */
  gone: string[];
  /** vendor/ taken in by the default (a module that keeps its libraries there), not by a flag. */
  vendorByDefault: boolean;
}

/** Each choice from the command line, else as kept with the tree's index, else its default. */
export function settleChoices(
  given: GivenChoices,
  kept: Partial<IndexChoices> | undefined,
  root: string,
): SettledChoices {
  const gone: string[] = [];
  const vendorOnly = keepsLibrariesInVendor(root);
  const existing = (paths: string[]) => {
    const present = paths.filter((p) => existsSync(p));
    gone.push(...paths.filter((p) => !present.includes(p)));
    return present;
  };
  const stored: Partial<IndexChoices> = { ...kept };
  if (stored.rules) stored.rules = existing(stored.rules);
  if (stored.with) stored.with = existing(stored.with);
  /** What this run takes from the kept choices. */
  const used: Partial<IndexChoices> = {};
  const pick = <K extends keyof IndexChoices>(key: K, fallback: IndexChoices[K]) => {
    if (given[key] !== undefined) return given[key];
    const value = stored[key];
    if (value === undefined) return fallback;
    used[key] = value;
    return value;
  };
  const choices: IndexChoices = {
    includeVendor: pick('includeVendor', vendorOnly),
    includeTests: pick('includeTests', false),
    maxFileBytes: pick('maxFileBytes', DEFAULT_MAX_FILE_BYTES),
    rules: pick('rules', []),
    with: pick('with', []),
  };
  return {
    choices,
    kept: choiceFlags(used, root),
    gone,
    vendorByDefault:
      choices.includeVendor &&
      vendorOnly &&
      given.includeVendor === undefined &&
      !used.includeVendor,
  };
}

/** Choices that differ from the defaults for this tree, as the flags that give and undo them. */
export function choiceFlags(choices: Partial<IndexChoices>, root: string): ChoiceFlag[] {
  const flags: ChoiceFlag[] = [];
  if (choices.includeVendor !== undefined && choices.includeVendor !== keepsLibrariesInVendor(root))
    flags.push(
      choices.includeVendor
        ? { flag: '--include-vendor', undo: '--no-include-vendor' }
        : { flag: '--no-include-vendor', undo: '--include-vendor' },
    );
  if (choices.includeTests) flags.push({ flag: '--include-tests', undo: '--no-include-tests' });
  if (choices.maxFileBytes !== undefined && choices.maxFileBytes !== DEFAULT_MAX_FILE_BYTES)
    flags.push({
      flag: `--max-file-size ${choices.maxFileBytes}`,
      undo: '--max-file-size <bytes>',
    });
  for (const r of choices.rules ?? []) flags.push({ flag: `--rules ${r}`, undo: '--no-rules' });
  for (const w of choices.with ?? []) flags.push({ flag: `--with ${w}`, undo: '--no-with' });
  return flags;
}

/** A module that vendors its libraries and has no staging/. */
function keepsLibrariesInVendor(root: string): boolean {
  return existsSync(path.join(root, 'vendor')) && !existsSync(path.join(root, 'staging'));
}

/** The choices kept in a tree's summary (an index from before they were kept has none). */
export function keptChoices(summary: string | undefined): Partial<IndexChoices> | undefined {
  if (!summary) return undefined;
  try {
    return readChoices((JSON.parse(summary) as { choices?: unknown }).choices);
  } catch {
    return undefined;
  }
}

/** A summary's `choices`, each kept only when it is of its type. */
export function readChoices(parsed: unknown): Partial<IndexChoices> | undefined {
  if (!parsed || typeof parsed !== 'object') return undefined;
  const c = parsed as Record<string, unknown>;
  const strings = (v: unknown) =>
    Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined;
  const out: Partial<IndexChoices> = {};
  if (typeof c.includeVendor === 'boolean') out.includeVendor = c.includeVendor;
  if (typeof c.includeTests === 'boolean') out.includeTests = c.includeTests;
  if (typeof c.maxFileBytes === 'number' && c.maxFileBytes >= 1) out.maxFileBytes = c.maxFileBytes;
  const rules = strings(c.rules);
  if (rules) out.rules = rules;
  const checkouts = strings(c.with);
  if (checkouts) out.with = checkouts;
  return out;
}
