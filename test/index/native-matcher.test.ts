/**
 * The native matcher (src/native/capture-walk.c) finds the captures of queries/go in one pass over
 * the tree instead of on tree-sitter's query cursor: it must know every pattern, and hand back
 * exactly what the cursor does (the same captures in the same order, so the same walked nodes and
 * doc comments) on every fixture and on the orders the cursor has rules for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkRules } from '../../src/index/light-node.js';
import { nativeParser, type NativeParse } from '../../src/index/native.js';

const fixturesDir = path.resolve(import.meta.dirname, '..', '..', 'fixtures');

function goFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return goFiles(p);
    return e.name.endsWith('.go') ? [p] : [];
  });
}

const plain = (p: NativeParse) => ({
  nodes: [...p.nodes],
  captures: [...p.captures],
  docs: [...p.docs],
  errors: [...p.errors],
  lines: p.lines,
  hasError: p.hasError,
});

// Orders the cursor decides by pattern index or by depth: a send whose channel is a call (the call
// starts where the send does), chained calls starting at one byte, closures called in place,
// composite literals keyed after unkeyed elements, generic calls in go and defer, comments.
const tricky = `// Package p is tricky.
//go:build linux

package p

import (
	"fmt"
	ctrl "sigs.k8s.io/controller-runtime"
)

// T is documented.
type (
	// A is in a group.
	A struct{ F func() }
	B = A
)

const c, d = 1, 2

var (
	// v is documented.
	v = map[string]func(){"a": func() {}}
	w = []A{{F: nil}, A{F: func() {}}}
)

func (a *A) Out() chan int { return nil }

func run[T any](x T) {}

func f(a *A, ch chan int, x interface{}) {
	a.Out() <- 1
	_ = !func() bool { a.Out() <- 2; return true }()
	switch x.(type) {
	case int:
		a.Out() <- 3
	}
	<-a.Out()
	fmt.Sprintf("%d", 1).String().Len()
	func() { defer a.F() }()
	go run[int](1)
	defer run[string]("x")
	go func() { ch <- <-ch }()
	switch y := x.(type) {
	case int:
		_ = y
	}
	for k, v := range map[int]int{1: 2} {
		_, _ = k, v
	}
	s := []interface{}{1, 2: A{F: a.F}}
	a.F, s[0] = nil, ctrl.Log
	_ = fmt.Errorf
	return
}
`;

describe('native matcher', () => {
  const { parse, names } = nativeParser(walkRules);

  it('knows every pattern of queries/go', () => {
    expect(names.matcher).toBe(true);
  });

  it("names the ERROR nodes of a syntax error, whose symbol lies outside the grammar's table", () => {
    // tree-sitter gives ERROR nodes the symbol 65535: read as an index into the grammar's arrays,
    // it read freed memory (a crash one index run in four on a file with a syntax error).
    const bytes = Buffer.from('package main\n\nvar x = []int{1, 2,, 3}\n', 'utf8');
    const parsed = parse(bytes);
    expect(parsed.hasError).toBe(true);
    const types: string[] = [];
    for (let i = 0; i < parsed.nodes.length; i += 5) {
      expect(parsed.nodes[i]!).toBeLessThan(names.typeNames.length);
      types.push(names.typeNames[parsed.nodes[i]!]!);
    }
    expect(types).toContain('ERROR');
    expect(plain(parsed)).toEqual(plain(parse(bytes, true)));
  });

  it('hands back what the query cursor does on every fixture', () => {
    const files = goFiles(fixturesDir);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect({ file, ...plain(parse(bytes)) }).toEqual({ file, ...plain(parse(bytes, true)) });
    }
  });

  it('reads doc comments as the query cursor does, wherever the comments stand', () => {
    // The matcher reads the comments just before each node as it passes them: runs broken by a
    // blank line or by code, comments deep in a body before a return to the top level, a comment
    // ending a line of code or starting one (not w's doc: code stands between), a group's and its spec's, and a file's last comment.
    const source = [
      '// Package docs.',
      'package docs',
      '',
      '// Not a doc: a blank line follows.',
      '',
      '// Three lines',
      '// of doc',
      '// for A.',
      'type A struct {',
      '\t// F is a field.',
      '\tF int // trailing',
      '\t// G too.',
      '\tG func()',
      '}',
      '',
      'var x = 1 // ends a line',
      'var y = 2',
      '/* on the line of code */ var z = 3',
      'var w = 4',
      '',
      '// Group doc.',
      'const (',
      '\t// c1 doc.',
      '\tc1 = 1',
      '',
      '\t// c2 after a blank line.',
      '\tc2 = 2',
      ')',
      '',
      'func (a *A) m() {',
      '\tfor {',
      '\t\tif true {',
      '\t\t\t// deep comment',
      '\t\t\tf := func() {}',
      '\t\t\t_ = f',
      '\t\t}',
      '\t}',
      '}',
      '// m2 doc right after the closing brace.',
      'func (a *A) m2() {}',
      '',
      '/* block',
      '   doc */',
      'func g() {}',
      '// the end',
      '',
    ].join('\n');
    const bytes = Buffer.from(source, 'utf8');
    const fast = parse(bytes);
    expect(plain(fast)).toEqual(plain(parse(bytes, true)));
    // Docs were found at all: A's three lines (above its declaration, the spec's parent), m2's.
    const docTexts: string[] = [];
    const read = (at: number) => {
      for (let k = 0; k < fast.docs[at]!; k++)
        docTexts.push(source.slice(fast.docs[at + 1 + 2 * k]!, fast.docs[at + 2 + 2 * k]!));
      return at + 1 + 2 * fast.docs[at]!;
    };
    for (let i = 0; i < fast.captures.length; i += 5) {
      const at = fast.captures[i + 4]!;
      if (at >= 0) read(read(at) + 2); // own, then the parent's type and children, its own
    }
    expect(docTexts).toEqual(
      expect.arrayContaining([
        '// Three lines',
        '// for A.',
        '// m2 doc right after the closing brace.',
      ]),
    );
    expect(docTexts).not.toContain('// Not a doc: a blank line follows.');
  });

  it('hands out many captures held behind one unfinished match in the cursor order', () => {
    // A type switch with no alias holds every capture inside it till its closing brace: here a
    // table of nested literals, as aws-sdk-go's endpoints (11,786 captures behind one match).
    const entries = Array.from(
      { length: 60 },
      (_, i) =>
        `\t\t\t"svc${i}": service{Endpoints: endpoints{"r${i}": endpoint{Hostname: host(${i}), Protocols: []string{"https"}}}},`,
    ).join('\n');
    const source = [
      'package endpoints',
      '',
      'type endpoint struct{ Hostname string; Protocols []string }',
      'type endpoints map[string]endpoint',
      'type service struct{ Endpoints endpoints }',
      'type services map[string]service',
      '',
      'func host(i int) string { return "h" }',
      '',
      'func table(v interface{}) services {',
      '\tswitch v.(type) {',
      '\tcase int:',
      '\t\treturn services{',
      entries,
      '\t\t}',
      '\t}',
      '\treturn nil',
      '}',
      '',
    ].join('\n');
    const bytes = Buffer.from(source, 'utf8');
    const fast = parse(bytes);
    expect(plain(fast)).toEqual(plain(parse(bytes, true)));
    let composites = 0;
    for (let i = 0; i < fast.captures.length; i += 5)
      if (names.captureNames[fast.captures[i]!] === 'reference.composite') composites++;
    expect(composites).toBeGreaterThanOrEqual(4 * 60);
  });

  it('orders captures as the query cursor does where nodes start together', () => {
    const bytes = Buffer.from(tricky, 'utf8');
    const fast = parse(bytes);
    expect(plain(fast)).toEqual(plain(parse(bytes, true)));
    const captured = [];
    for (let i = 0; i < fast.captures.length; i += 5)
      captured.push(names.captureNames[fast.captures[i]!]);
    // A send whose channel is a call starting at the same byte: the cursor hands out the send as
    // soon as it is entered (also under \`!\`, a unary expression whose operator already says it is
    // no receive); but inside a type switch with no alias (a match unfinished till its closing
    // brace) both wait, and come out by pattern index: the call first.
    const sends = captured.flatMap((c, i) => (c === 'reference.send' ? [i] : []));
    expect(sends).toHaveLength(4); // the last in `go func() { ch <- <-ch }()`
    expect(captured.slice(sends[0], sends[0]! + 2)).toEqual(['reference.send', 'reference.call']);
    expect(captured.slice(sends[1], sends[1]! + 2)).toEqual(['reference.send', 'reference.call']);
    expect(captured.slice(sends[2]! - 1, sends[2]! + 1)).toEqual([
      'reference.call',
      'reference.send',
    ]);
    expect(captured.filter((c) => c === 'reference.call.go')).toHaveLength(2);
    // Keyed literals, and those with unkeyed elements (the slice literal `[]A{{F: nil}, ...}`).
    expect(captured.filter((c) => c === 'reference.composite')).toHaveLength(7);
  });
});
