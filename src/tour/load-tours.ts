/**
 * Reads tour files and validates them. A bad tour is reported as `file:line:col: field: problem`
 * for every problem found (positions from the YAML document through its LineCounter), so a tour
 * author fixes the file without guessing where the schema looked.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../errors.js';
import {
  parseYamlText,
  readYamlFile,
  YamlFileError,
  type YamlDocument,
  type YamlIssue,
  type YamlPath,
} from '../shared/yaml-file.js';
import { allowedFields, tourSchema, type Tour } from './schema.js';

export type TourIssue = YamlIssue;

const TOUR_FIX = 'fix the field(s) above (guides/kube-scheduler.yaml is a working example)';

/** One or more tour files are not valid tours; `issues` holds each problem with its position. */
export class TourFileError extends YamlFileError {
  constructor(issues: readonly TourIssue[]) {
    super('tour', issues, TOUR_FIX, 'E_TOUR');
  }
}

export interface LoadOptions {
  /** When given, a step's `twin.name` must be one of these. @default not checked */
  twinNames?: readonly string[];
}

const yamlOptions = {
  kind: 'tour',
  fix: TOUR_FIX,
  allowedFields: (parent: YamlPath) => allowedHere(parent).join(', '),
  error: (issues: readonly YamlIssue[]) => new TourFileError(issues),
};

/** Validates tour text; `file` names it in messages and must end in `<name>.yaml`. */
export function parseTour(text: string, file: string, options: LoadOptions = {}): Tour {
  return checkTour(parseYamlText(text, file, tourSchema, yamlOptions), file, options);
}

function checkTour(
  doc: YamlDocument<z.output<typeof tourSchema>>,
  file: string,
  options: LoadOptions,
): Tour {
  const tour = doc.data;
  const issues: TourIssue[] = [];
  const expected = path.basename(file).replace(/\.ya?ml$/, '');
  if (tour.name !== expected)
    issues.push(
      doc.issueAt(
        ['name'],
        `the name must be the file's name, ${JSON.stringify(expected)} (it is what \`k8s-read tour <name>\` takes)`,
      ),
    );
  if (options.twinNames) {
    tour.steps.forEach((step, i) => {
      const name = step.twin?.name;
      if (name !== undefined && !options.twinNames!.includes(name)) {
        issues.push(
          doc.issueAt(
            ['steps', i, 'twin', 'name'],
            `no twin named ${JSON.stringify(name)}; the twins are: ${options.twinNames!.join(', ')}`,
          ),
        );
      }
    });
  }
  doc.fail(issues);
  return { ...tour, file };
}

/** Reads one tour file; `shownAs` is how messages name it. */
export function loadTourFile(file: string, shownAs = file, options: LoadOptions = {}): Tour {
  const doc = readYamlFile(file, tourSchema, {
    ...yamlOptions,
    shownAs,
    unreadableFix: 'check the path',
  });
  return checkTour(doc, shownAs, options);
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

function allowedHere(p: YamlPath): readonly string[] {
  const last = [...p].reverse().find((x) => typeof x === 'string');
  if (p.length === 0) return allowedFields.tour;
  if (last === 'steps') return allowedFields.step;
  if (last === 'focus' || last === 'twin' || last === 'cite') return allowedFields[last];
  return [];
}
