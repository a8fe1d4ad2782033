/**
 * One file through the native parser and the extractor: Go 1.26's `new(expr)`, facts kept around
 * a syntax error, offsets in lines with non-ASCII text, and doc comments.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFacts } from '../../src/index/facts-codec.js';
import type { FileFacts } from '../../src/index/facts.js';
import { parseFile } from '../../src/index/parse-file.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('k8s-read-parse-file-');
let n = 0;

function parse(source: string) {
  const abs = path.join(tmp, `f${++n}.go`);
  writeFileSync(abs, source);
  const result = parseFile({ abs }, 1 << 20);
  return { ...result, facts: decodeFacts(result.facts!) };
}

const calls = (facts: FileFacts) =>
  facts.calls.map((c) => ({ callee: c.callee, args: c.args, line: c.line, col: c.col }));

describe('parseFile', () => {
  it('parses Go 1.26 new(expr) as a call of new, with the facts around it', () => {
    const { status, facts } = parse(
      [
        'package opts',
        '',
        'func defaults(d bool) *Options {',
        '\tsize := new(1024)',
        '\tflag := new(bool(d))',
        '\tplain := new(Options)',
        '\treturn &Options{Size: size, Flag: flag, Next: plain}',
        '}',
        '',
      ].join('\n'),
    );
    expect(status).toBe('ok');
    expect(facts.errors).toEqual([]);
    expect(calls(facts)).toEqual([
      { callee: ['i', 'new'], args: [['n', 'int']], line: 4, col: 9 },
      { callee: ['i', 'new'], args: [['c', ['i', 'bool'], [['i', 'd']]]], line: 5, col: 9 },
      { callee: ['i', 'bool'], args: [['i', 'd']], line: 5, col: 13 },
      { callee: ['i', 'new'], args: [['i', 'Options']], line: 6, col: 10 },
    ]);
    expect(facts.locals.map((l) => l.name)).toEqual(['size', 'flag', 'plain']);
    expect(facts.composites.map((c) => c.fields.map((f) => f[0]))).toEqual([
      ['Size', 'Flag', 'Next'],
    ]);
  });

  it('parses new of an index expression, which reads like a generic type, beside one', () => {
    const { status, facts } = parse(
      [
        'package dns',
        '',
        'func record(e *Endpoint) *RecordSet {',
        '\tttl := new(e.TTL)',
        '\ttarget := new(e.Targets[0])',
        '\tlist := new(List[int])',
        '\treturn &RecordSet{TTL: ttl, Target: target, List: list}',
        '}',
        '',
      ].join('\n'),
    );
    expect(status).toBe('ok');
    expect(facts.errors).toEqual([]);
    expect(calls(facts).map((c) => [c.callee, c.line])).toEqual([
      [['i', 'new'], 4],
      [['i', 'new'], 5],
      [['i', 'new'], 6],
    ]);
    expect(facts.locals.map((l) => l.name)).toEqual(['ttl', 'target', 'list']);
  });

  it('keeps the facts outside a syntax error and says where the error is', () => {
    const { status, message, facts } = parse(
      [
        'package broken',
        '',
        'func before() { helper() }',
        '',
        'func broken() {',
        '\tx := )(',
        '}',
        '',
        'func after() { helper() }',
        '',
        'func helper() {}',
        '',
      ].join('\n'),
    );
    expect(status).toBe('syntax');
    expect(message).toMatch(/^syntax errors near line 6/);
    expect(facts.funcs.map((f) => f.name)).toEqual(['before', 'broken', 'after', 'helper']);
    expect(calls(facts).map((c) => c.line)).toEqual([3, 9]);
  });

  it('counts columns in UTF-16 code units after non-ASCII text, as JavaScript strings do', () => {
    const { facts } = parse(
      [
        'package u',
        '',
        'func f() { g("héllo 🙂"); h() }',
        'func g(string) {}',
        'func h() {}',
        '',
      ].join('\n'),
    );
    const line = 'func f() { g("héllo 🙂"); h() }';
    expect(calls(facts).map((c) => c.col)).toEqual([line.indexOf('g('), line.indexOf('h()')]);
  });

  it('reads doc comments above declarations, grouped or not', () => {
    const { facts } = parse(
      [
        'package d',
        '',
        '// Run starts the loop.',
        '// It never returns.',
        'func Run() {}',
        '',
        '// Config holds settings.',
        'type Config struct{}',
        '',
        'var (',
        '\t// Verbose turns on logging.',
        '\tVerbose = false',
        ')',
        '',
      ].join('\n'),
    );
    expect(facts.funcs.map((f) => f.doc)).toEqual(['Run starts the loop.\nIt never returns.']);
    expect(facts.types.map((t) => t.doc)).toEqual(['Config holds settings.']);
    expect(facts.values.map((v) => v.doc)).toEqual(['Verbose turns on logging.']);
  });

  it("keeps a string's value up to a line long: a cobra Use that lists every flag", () => {
    // Registries name a command by the first word of its Use (kubectl v1.14's `get` is 225 long).
    const use = `get [(-o|--output=)${'json|yaml|wide|'.repeat(12)}] (TYPE [NAME | -l label]) [flags]`;
    const essay = 'word '.repeat(80);
    const { facts } = parse(
      [
        'package get',
        '',
        'func NewCmdGet() *Command {',
        `	return &Command{Use: "${use}", Long: "${essay}"}`,
        '}',
        '',
      ].join('\n'),
    );
    expect(use.length).toBeGreaterThan(200);
    expect(facts.composites.map((c) => c.fields.map(([name, value]) => [name, value]))).toEqual([
      [
        ['Use', ['n', 'string', use]],
        // Longer than a line: only its kind.
        ['Long', ['n', 'string']],
      ],
    ]);
  });
  it('reads the keyed fields of a composite literal with their lines, else its elements by position', () => {
    const { facts } = parse(
      [
        'package handlers',
        '',
        'func build(h Handler, f func()) {',
        '\t_ = &timeoutHandler{',
        '\t\thandler: h,',
        '\t\tonTimeout: f,',
        '\t}',
        '\t_ = &timeoutHandler{h,',
        '\t\tf}',
        '\t_ = []string{"a", "b"}',
        '}',
        '',
      ].join('\n'),
    );
    expect(facts.composites.map((c) => [c.type, c.line, c.fields])).toEqual([
      [
        'timeoutHandler',
        4,
        [
          ['handler', ['i', 'h'], 5],
          ['onTimeout', ['i', 'f'], 6],
        ],
      ],
      [
        'timeoutHandler',
        8,
        [
          ['#0', ['i', 'h'], 8],
          ['#1', ['i', 'f'], 9],
        ],
      ],
    ]);
  });

  it('reads element literals whose type is elided as literals of the element type', () => {
    const { facts } = parse(
      [
        'package cli',
        '',
        'var commands = []*cli.Command{',
        '\t{Name: "a", Action: runA},',
        '\t&cli.Command{Name: "b"},',
        '}',
        '',
        'var handlers = map[string]Handler{"x": {Fn: fx}, "y": {fy}}',
        '',
        'var grid = [2][]Cell{{{Draw: d}}}',
        '',
      ].join('\n'),
    );
    expect(facts.composites.map((c) => [c.type, c.line, c.fields])).toEqual([
      [
        'cli.Command',
        4,
        [
          ['Name', ['n', 'string', 'a'], 4],
          ['Action', ['i', 'runA'], 4],
        ],
      ],
      ['cli.Command', 5, [['Name', ['n', 'string', 'b'], 5]]],
      ['Handler', 8, [['Fn', ['i', 'fx'], 8]]],
      ['Handler', 8, [['#0', ['i', 'fy'], 8]]],
      ['Cell', 10, [['Draw', ['i', 'd'], 10]]],
    ]);
  });
});
