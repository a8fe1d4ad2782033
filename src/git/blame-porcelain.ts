/**
 * Reads `git blame --porcelain`: a header `<sha> <orig-line> <final-line> [<group-size>]` per
 * line, the commit's details (author, author-time, author-tz, summary, filename, ...) only the
 * first time a commit appears, then the line itself after a tab. Smaller than --line-porcelain on
 * a long file, and the per-commit details are remembered here instead.
 */
import type { BlameLine } from './types.js';

const UNCOMMITTED = '0000000000000000000000000000000000000000';

interface CommitDetails {
  author?: string;
  authorTimeSeconds?: number;
  authorTz?: string;
  summary?: string;
  filename?: string;
}

export function parseBlamePorcelain(out: string, file: string): BlameLine[] {
  const lines: BlameLine[] = [];
  const commits = new Map<string, CommitDetails>();
  let current:
    { sha: string; originalLine: number; finalLine: number; details: CommitDetails } | undefined;
  for (const raw of out.split('\n')) {
    if (raw.startsWith('\t')) {
      if (!current) continue;
      lines.push(
        toBlameLine(
          current.sha,
          current.originalLine,
          current.finalLine,
          raw.slice(1).replace(/\r$/, ''),
          current.details,
          file,
        ),
      );
      current = undefined;
      continue;
    }
    const header = /^([0-9a-f]{40}) (\d+) (\d+)(?: \d+)?$/.exec(raw);
    if (header) {
      const sha = header[1] as string;
      let details = commits.get(sha);
      if (!details) {
        details = {};
        commits.set(sha, details);
      }
      current = { sha, originalLine: Number(header[2]), finalLine: Number(header[3]), details };
      continue;
    }
    if (!current) continue;
    const space = raw.indexOf(' ');
    const key = space === -1 ? raw : raw.slice(0, space);
    const value = space === -1 ? '' : raw.slice(space + 1);
    switch (key) {
      case 'author':
        current.details.author = value;
        break;
      case 'author-time':
        current.details.authorTimeSeconds = Number(value);
        break;
      case 'author-tz':
        current.details.authorTz = value;
        break;
      case 'summary':
        current.details.summary = value;
        break;
      case 'filename':
        current.details.filename = unquoteC(value);
        break;
    }
  }
  return lines;
}

function toBlameLine(
  sha: string,
  originalLine: number,
  finalLine: number,
  content: string,
  details: CommitDetails,
  file: string,
): BlameLine {
  if (sha === UNCOMMITTED) {
    return {
      line: finalLine,
      content,
      commit: null,
      author: null,
      authorTime: null,
      summary: null,
      originalLine,
    };
  }
  const line: BlameLine = {
    line: finalLine,
    content,
    commit: sha,
    author: details.author ?? null,
    authorTime:
      details.authorTimeSeconds === undefined
        ? null
        : isoInZone(details.authorTimeSeconds, details.authorTz ?? '+0000'),
    summary: details.summary ?? null,
    originalLine,
  };
  if (details.filename !== undefined && details.filename !== file)
    line.originalFile = details.filename;
  return line;
}

/** `1641031200` and `+0100` -> `2022-01-01T11:00:00+01:00`: the author's wall clock, as git shows it. */
export function isoInZone(seconds: number, tz: string): string {
  const match = /^([+-])(\d\d)(\d\d)$/.exec(tz) ?? ['', '+', '00', '00'];
  const offsetMinutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  const local = new Date((seconds + offsetMinutes * 60) * 1000)
    .toISOString()
    .replace(/\.\d{3}Z$/, '');
  return `${local}${match[1]}${match[2]}:${match[3]}`;
}

/** Git C-quotes a path only when it must ("a\"b", control characters); undo that. */
export function unquoteC(value: string): string {
  if (!value.startsWith('"') || !value.endsWith('"') || value.length < 2) return value;
  const bytes: number[] = [];
  const body = value.slice(1, -1);
  const simple: Record<string, number> = {
    n: 10,
    t: 9,
    r: 13,
    '"': 34,
    '\\': 92,
    a: 7,
    b: 8,
    f: 12,
    v: 11,
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
