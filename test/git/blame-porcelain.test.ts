import { describe, expect, it } from 'vitest';
import { isoInZone, parseBlamePorcelain, unquoteC } from '../../src/git/blame-porcelain.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

const porcelain = [
  `${A} 1 1 2`,
  'author Ada Reader',
  'author-mail <ada@example.com>',
  'author-time 1641031200',
  'author-tz +0100',
  'committer Ada Reader',
  'summary Add the informer',
  'filename old/name.go',
  '\tpackage cache',
  `${A} 2 2`,
  '\t',
  `${B} 3 3 1`,
  'author Grace',
  'author-time 1641034800',
  'author-tz -0530',
  'summary Fix it',
  'previous ' + A + ' new/name.go',
  'filename new/name.go',
  '\tfunc Run() {}\r',
  `${ZERO} 4 4 1`,
  'author Not Committed Yet',
  'author-time 1700000000',
  'author-tz +0000',
  'summary Version of new/name.go from new/name.go',
  'filename new/name.go',
  '\t// local edit',
  '',
].join('\n');

describe('parseBlamePorcelain', () => {
  const lines = parseBlamePorcelain(porcelain, 'new/name.go');

  it('gives every line the details of its commit, even when porcelain printed them only once', () => {
    expect(lines[1]).toEqual({
      line: 2,
      content: '',
      commit: A,
      author: 'Ada Reader',
      authorTime: '2022-01-01T11:00:00+01:00',
      summary: 'Add the informer',
      originalFile: 'old/name.go',
      originalLine: 2,
    });
  });

  it('keeps the original path only when the line came from another one (a rename)', () => {
    expect(lines[0]?.originalFile).toBe('old/name.go');
    expect(lines[2]).not.toHaveProperty('originalFile');
  });

  it('drops the carriage return of a CRLF line and keeps negative time zones', () => {
    expect(lines[2]?.content).toBe('func Run() {}');
    expect(lines[2]?.authorTime).toBe('2022-01-01T05:30:00-05:30');
  });

  it('reports an uncommitted line with no commit, author or summary', () => {
    expect(lines[3]).toEqual({
      line: 4,
      content: '// local edit',
      commit: null,
      author: null,
      authorTime: null,
      summary: null,
      originalLine: 4,
    });
  });
});

describe('isoInZone', () => {
  it('writes the wall-clock time of the zone with its offset', () => {
    expect(isoInZone(0, '+0000')).toBe('1970-01-01T00:00:00+00:00');
    expect(isoInZone(0, '+0930')).toBe('1970-01-01T09:30:00+09:30');
  });
});

describe('unquoteC', () => {
  it('undoes git C-quoting, octal UTF-8 bytes included', () => {
    expect(unquoteC('"a\\"b\\tc"')).toBe('a"b\tc');
    expect(unquoteC('"caf\\303\\251.go"')).toBe('café.go');
    expect(unquoteC('plain name.go')).toBe('plain name.go');
  });
});
