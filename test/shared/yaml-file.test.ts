/**
 * The one loader for YAML files checked by a schema (rules, tours, scenarios): positions for every
 * problem, a missing field told apart from a wrong one, and an alias bomb refused as a problem of
 * the file (issue 14, cases 5 and 8).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageError } from '../../src/errors.js';
import {
  parseYamlText,
  readYamlFile,
  YamlFileError,
  type YamlIssue,
} from '../../src/shared/yaml-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { aliasBomb } from '../helpers/yaml-bomb.js';

const tmp = useTempDir('k8s-read-yaml-');

const schema = z.strictObject({
  name: z.string(),
  count: z.number().int(),
  items: z.array(z.strictObject({ id: z.string() })).default([]),
});
const options = { kind: 'thing', fix: 'fix it (see things/example.yaml)' };

function issuesOf(text: string): YamlIssue[] {
  try {
    parseYamlText(text, 'things/a.yaml', schema, options);
  } catch (error) {
    if (error instanceof YamlFileError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('parseYamlText', () => {
  it('returns the validated data', () => {
    const doc = parseYamlText('name: x\ncount: 2\n', 'things/a.yaml', schema, options);
    expect(doc.data).toEqual({ name: 'x', count: 2, items: [] });
  });

  it('tells a field of the wrong type apart from a missing one', () => {
    expect(issuesOf('name: 42\nitems:\n  - id: [1, 2]\n')).toEqual([
      {
        file: 'things/a.yaml',
        line: 1,
        col: 1,
        field: 'name',
        message: 'expected string, not a number (42)',
      },
      {
        file: 'things/a.yaml',
        line: 1,
        col: 1,
        field: 'count',
        message: 'required field is missing',
      },
      {
        file: 'things/a.yaml',
        line: 3,
        col: 5,
        field: 'items[0].id',
        message: 'expected string, not a list',
      },
    ]);
  });

  it('points at an unknown field and names the allowed ones when told them', () => {
    const [issue] = (() => {
      try {
        parseYamlText('name: x\ncount: 1\ncuont: 2\n', 'things/a.yaml', schema, {
          ...options,
          allowedFields: () => 'name, count, items',
        });
      } catch (error) {
        return (error as YamlFileError).issues;
      }
      return [];
    })();
    expect(issue).toEqual({
      file: 'things/a.yaml',
      line: 3,
      col: 1,
      field: 'cuont',
      message: 'unknown field (allowed here: name, count, items)',
    });
  });

  it('refuses an alias bomb as a problem of the file, at the first alias', () => {
    const error = (() => {
      try {
        parseYamlText(aliasBomb, 'things/bomb.yaml', schema, options);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(YamlFileError);
    expect((error as YamlFileError).exitCode).toBe(2);
    expect((error as YamlFileError).message).toMatch(
      /^invalid thing:\n {2}things\/bomb\.yaml:2:8: YAML: aliases expand to too much \(.*\); write the values out instead of nesting aliases\nfix it \(see things\/example\.yaml\)$/,
    );
  });

  it('reports YAML syntax with its position and the syntax fix', () => {
    expect(() =>
      parseYamlText('name: [x\n', 'things/a.yaml', schema, {
        ...options,
        syntaxFix: 'fix the YAML syntax',
      }),
    ).toThrow(/^invalid thing:\n {2}things\/a\.yaml:\d+:\d+: YAML: .*\nfix the YAML syntax$/);
  });
});

describe('readYamlFile', () => {
  it('says a file cannot be read, with the fix, as a usage error', () => {
    const file = path.join(tmp, 'missing.yaml');
    expect(() =>
      readYamlFile(file, schema, { ...options, unreadableFix: 'check the path' }),
    ).toThrow(new UsageError(`cannot read thing ${file}: ENOENT; check the path`));
  });

  it('names the file as shown', () => {
    const file = path.join(tmp, 'shown.yaml');
    writeFileSync(file, 'name: x\n');
    expect(() =>
      readYamlFile(file, schema, { ...options, shownAs: 'shown.yaml', unreadableFix: '' }),
    ).toThrow(/shown\.yaml:1:1: count: required field is missing/);
  });
});
