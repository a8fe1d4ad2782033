/**
 * From what a user typed to a file git can blame: `path`, `path:line` or `path:start-end`, the
 * path relative to the current directory or to the repository root, never outside it. Each way to
 * get it wrong has its own message that says what to do instead.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';

export interface FileTarget {
  /** Relative to the repository root, with `/` separators. */
  file: string;
  start?: number;
  end?: number;
}

/** Splits `path:line` / `path:start-end`; the whole text is the path when it has no such suffix. */
export function splitLineSuffix(input: string): { path: string; start?: number; end?: number } {
  const match = /^(.+):(\d+)(?:-(\d+))?$/.exec(input);
  if (!match) return { path: input };
  const start = Number(match[2]);
  const end = match[3] === undefined ? start : Number(match[3]);
  return { path: match[1] as string, start, end };
}

/**
 * Where `input` names a path: first relative to `cwd`, then to `root`. Returns undefined when
 * neither exists; throws when the only match lies outside the repository.
 */
export function findRepoPath(
  root: string,
  cwd: string,
  input: string,
): { absolute: string; relative: string } | undefined {
  let outside: string | undefined;
  for (const base of [cwd, root]) {
    const absolute = path.resolve(base, input);
    if (!existsSync(absolute)) continue;
    const relative = path.relative(root, absolute);
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      outside ??= absolute;
      continue;
    }
    return { absolute, relative: relative.split(path.sep).join('/') };
  }
  if (outside !== undefined) {
    throw new UsageError(
      `${input} is outside the repository ${root}; pass a path inside it, or --repo PATH to the repository that holds it`,
    );
  }
  return undefined;
}

/** Resolves a file argument and checks it is a file; the line range is checked against its text later. */
export function resolveFileTarget(root: string, cwd: string, input: string): FileTarget {
  const whole = findRepoPath(root, cwd, input);
  const split = whole ? { path: input } : splitLineSuffix(input);
  const found = whole ?? findRepoPath(root, cwd, split.path);
  if (!found)
    throw new UsageError(
      `${split.path}: no such file in ${root}; check the path (relative to here or to the repository root)`,
    );
  if (found.relative === '')
    throw new UsageError(`${split.path} is the repository itself; name a file inside it`);
  if (statSync(found.absolute).isDirectory())
    throw new UsageError(`${split.path} is a directory; name a file inside it`);
  const target: FileTarget = { file: found.relative };
  if (split.start !== undefined) target.start = split.start;
  if (split.end !== undefined) target.end = split.end;
  return target;
}

/** A file's bytes by its root-relative path, with the same messages as for a typed path. */
export function readRepoFile(root: string, file: string): Buffer {
  const absolute = path.join(root, file);
  if (!existsSync(absolute))
    throw new UsageError(`${file}: no such file in ${root}; check the path`);
  if (statSync(absolute).isDirectory())
    throw new UsageError(`${file} is a directory; name a file inside it`);
  return readFileSync(absolute);
}

/** Checks `start..end` against a file's text (and that the text is not binary); returns the line count. */
export function checkLineRange(
  file: string,
  text: Buffer,
  start: number | undefined,
  end: number | undefined,
): number {
  // Git's own test for "binary": a NUL byte in the first 8000 bytes.
  if (text.subarray(0, 8000).includes(0))
    throw new UsageError(`${file} is a binary file; blame reads text files`);
  const count = countLines(text);
  if (start === undefined || end === undefined) return count;
  if (start < 1 || end < start) {
    throw new UsageError(
      `${start}-${end} is not a line range; write ${file}:LINE or ${file}:START-END with 1 <= START <= END`,
    );
  }
  if (end > count) {
    throw new UsageError(
      `line ${end} is out of range: ${file} has ${count} line${count === 1 ? '' : 's'}`,
    );
  }
  return count;
}

function countLines(text: Buffer): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) count++;
  return text[text.length - 1] === 10 ? count : count + 1;
}
