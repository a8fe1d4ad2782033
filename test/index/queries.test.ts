/**
 * Every query file compiles against the pinned tree-sitter-go, opens with its header, and
 * captures what it says it does (plain rows compared with toEqual).
 */
import Parser from 'tree-sitter';
import { describe, expect, it } from 'vitest';
import {
  compileQueries,
  createGoParser,
  goLanguage,
  readQuerySources,
} from '../../src/index/queries.js';

const source = `package app

import (
	"context"
	alias "k8s.io/client-go/tools/cache"
)

var registry = map[string]func(){}

func Run(ctx context.Context) {
	go loop(ctx)
	defer stop()
	x := &Config{Name: "a"}
	x.Handle = func() {}
	for _, f := range registry {
		f()
	}
	alias.Wait(ctx)
	return
}
`;

/** A select whose cases receive into names declared there, into a variable, and into nothing. */
const selectCases = `package p

func pump(in chan int, stop chan struct{}) {
	var last int
	select {
	case v, ok := <-in:
		_, _ = v, ok
	case last = <-in:
	case <-stop:
	}
}
`;

function rows(query: Parser.Query, text = source) {
  const tree = createGoParser().parse(text);
  return query.captures(tree.rootNode).map((c) => ({
    capture: c.name,
    line: c.node.startPosition.row + 1,
    text: c.node.text.split('\n')[0],
  }));
}

describe('queries/go', () => {
  const sources = readQuerySources();

  it.each(sources.map((s) => [s.file, s.source] as const))(
    '%s compiles against tree-sitter-go and documents its captures',
    (file, text) => {
      expect(() => new Parser.Query(goLanguage(), text)).not.toThrow();
      expect(text.split('\n')[0]).toMatch(new RegExp(`^; ${file.replace('.', '\\.')} — `));
      const declared = [...text.matchAll(/^;\s+(@[\w.]+)/gm)].map((m) => m[1]);
      const used = [
        ...new Set([...text.replace(/^;.*$/gm, '').matchAll(/(@[\w.]+)/g)].map((m) => m[1])),
      ];
      expect(declared.sort()).toEqual(used.sort());
    },
  );

  it('calls.scm captures every call and marks those of go and defer statements', () => {
    const q = new Parser.Query(goLanguage(), sources.find((s) => s.file === 'calls.scm')!.source);
    expect(rows(q)).toEqual([
      { capture: 'reference.call.go', line: 11, text: 'loop(ctx)' },
      { capture: 'reference.call', line: 11, text: 'loop(ctx)' },
      { capture: 'reference.call.defer', line: 12, text: 'stop()' },
      { capture: 'reference.call', line: 12, text: 'stop()' },
      { capture: 'reference.call', line: 16, text: 'f()' },
      { capture: 'reference.call', line: 18, text: 'alias.Wait(ctx)' },
    ]);
  });

  it('calls.scm takes a generic function called with one argument for the call it may be', () => {
    // `F[T](x)` parses as a conversion to a generic type: only the resolver can tell which it is.
    const q = new Parser.Query(goLanguage(), sources.find((s) => s.file === 'calls.scm')!.source);
    const text = `package p

func f() {
	b := builder.TypedControllerManagedBy[request](mgr)
	go run[int](1)
	_ = []byte(s)
}
`;
    expect(rows(q, text)).toEqual([
      {
        capture: 'reference.call',
        line: 4,
        text: 'builder.TypedControllerManagedBy[request](mgr)',
      },
      { capture: 'reference.call.go', line: 5, text: 'run[int](1)' },
      { capture: 'reference.call', line: 5, text: 'run[int](1)' },
    ]);
  });

  it('imports.scm captures each import spec and the package name', () => {
    const q = new Parser.Query(goLanguage(), sources.find((s) => s.file === 'imports.scm')!.source);
    expect(rows(q)).toEqual([
      { capture: 'package', line: 1, text: 'app' },
      { capture: 'reference.import', line: 4, text: '"context"' },
      { capture: 'reference.import', line: 5, text: 'alias "k8s.io/client-go/tools/cache"' },
    ]);
  });

  it('literals.scm captures function literals and keyed composite literals only', () => {
    const q = new Parser.Query(
      goLanguage(),
      sources.find((s) => s.file === 'literals.scm')!.source,
    );
    expect(rows(q)).toEqual(
      [
        { capture: 'definition.closure', line: 14, text: 'func() {}' },
        { capture: 'reference.composite', line: 13, text: 'Config{Name: "a"}' },
      ].sort((a, b) => a.line - b.line),
    );
  });

  it('assignments.scm captures short declarations, ranges, assignments and returns', () => {
    const q = new Parser.Query(
      goLanguage(),
      sources.find((s) => s.file === 'assignments.scm')!.source,
    );
    expect(rows(q).map((r) => `${r.capture}:${r.line}`)).toEqual([
      'local.short:13',
      'assignment:14',
      'local.range:15',
      'reference.return:19',
    ]);
  });

  it('assignments.scm captures what a select case receives into, declared or assigned', () => {
    const q = new Parser.Query(
      goLanguage(),
      sources.find((s) => s.file === 'assignments.scm')!.source,
    );
    expect(rows(q, selectCases).filter((r) => r.capture === 'local.receive')).toEqual([
      { capture: 'local.receive', line: 6, text: 'v, ok := <-in' },
      { capture: 'local.receive', line: 8, text: 'last = <-in' },
    ]);
  });

  it('the extractor stores a type written over several lines as it stores it on one line', async () => {
    const { extractText } = await import('../../src/index/parse-file.js');
    const text = `package p

var rng = struct {
	sync.Mutex // guards rand
	rand *rand.Rand
}{}

var one = struct{ sync.Mutex; rand *rand.Rand }{}

var hook func(
	name string,
	n int,
) error

var hook1 func(name string, n int) error
`;
    const facts = extractText(text);
    const typeOf = (name: string) => {
      const v = facts.values.find((x) => x.name === name)!;
      return v.type ?? (v.value as [string, string])[1];
    };
    expect(typeOf('rng')).toBe('struct{sync.Mutex;rand*rand.Rand}');
    expect(typeOf('one')).toBe(typeOf('rng'));
    expect(typeOf('hook')).toBe(typeOf('hook1'));
  });

  it('the extractor makes locals of a select case receive, scoped to its case', async () => {
    const { extractText } = await import('../../src/index/parse-file.js');
    const facts = extractText(selectCases);
    const received = facts.locals.filter((l) => l.name === 'v' || l.name === 'ok');
    expect(received.map(({ name, line, index, end }) => ({ name, line, index, end }))).toEqual([
      { name: 'v', line: 6, index: 0, end: 7 },
      { name: 'ok', line: 6, index: 1, end: 7 },
    ]);
    expect(
      received.every((l) => JSON.stringify(l.value) === JSON.stringify(['u', '<-', ['i', 'in']])),
    ).toBe(true);
    expect(facts.assigns.map(({ lhs, rhs, line }) => ({ lhs, rhs, line }))).toEqual([
      { lhs: ['i', 'last'], rhs: ['u', '<-', ['i', 'in']], line: 8 },
    ]);
  });

  it('channels.scm captures sends and receives, select cases included', () => {
    const q = new Parser.Query(
      goLanguage(),
      sources.find((s) => s.file === 'channels.scm')!.source,
    );
    const text = `package p

func pump(in <-chan int, out chan<- int, stop chan struct{}) {
	for {
		select {
		case v := <-in:
			out <- v
		case <-stop:
			return
		}
	}
}
`;
    expect(rows(q, text)).toEqual([
      { capture: 'reference.receive', line: 6, text: '<-in' },
      { capture: 'reference.send', line: 7, text: 'out <- v' },
      { capture: 'reference.receive', line: 8, text: '<-stop' },
    ]);
  });

  it('the extractor records channel sends (with what they send) and receives, and ranges that may receive', async () => {
    const { extractText } = await import('../../src/index/parse-file.js');
    const text = `package p

type loop struct{ updates chan int }

func (l *loop) run(done chan bool) {
	for u := range l.updates {
		_ = u
	}
	l.updates <- 1
	<-done
}
`;
    const facts = extractText(text);
    expect(facts.sends).toEqual([
      { fn: 0, ch: ['s', ['i', 'l'], 'updates', 9, 3], value: ['n', 'int'], line: 9 },
    ]);
    expect(facts.recvs).toEqual([
      { fn: 0, ch: ['s', ['i', 'l'], 'updates', 6, 18], line: 6, range: true },
      { fn: 0, ch: ['i', 'done'], line: 10 },
    ]);
  });

  it('the extractor keeps a fluent chain whole, however long, and F[T](x) as a call', async () => {
    const { extractText } = await import('../../src/index/parse-file.js');
    const links = Array.from({ length: 30 }, (_, i) => `M${i}()`).join('.\n\t\t');
    const text = `package p

func f() {
	r := b.\n\t\t${links}
	_ = r
	c := builder.TypedControllerManagedBy[request](mgr)
	_ = c
}
`;
    const facts = extractText(text);
    // The last call's operand is the whole chain down to \`b\`, nothing of it cut to text.
    let callee = facts.calls.find((c) => c.callee[0] === 's' && c.callee[2] === 'M29')!.callee;
    let depth = 0;
    while (callee[0] === 's' || callee[0] === 'c') {
      callee = callee[1];
      depth++;
    }
    expect(callee).toEqual(['i', 'b']);
    expect(depth).toBe(30 + 29); // thirty selectors, the twenty-nine calls before the last
    const generic = facts.calls.find((c) => c.line === 36)!;
    expect(generic).toMatchObject({
      callee: ['g', ['s', ['i', 'builder'], 'TypedControllerManagedBy', 36, 14], ['request']],
      args: [['i', 'mgr']],
      line: 36,
      col: 14,
    });
  });

  it('all query files compile together into the one query the indexer runs', () => {
    const names = new Set(rows(compileQueries()).map((r) => r.capture));
    expect([...names].sort()).toEqual(
      [
        'assignment',
        'definition.closure',
        'definition.function',
        'definition.var',
        'local.range',
        'local.short',
        'package',
        'reference.call',
        'reference.call.defer',
        'reference.call.go',
        'reference.composite',
        'reference.import',
        'reference.return',
        'scope',
      ].sort(),
    );
  });
});
