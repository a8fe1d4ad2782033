/**
 * The facts Go's scoping needs: the last line of the scope each local is declared in (a block,
 * a statement with a header, a case clause), and for a call in a declaration's right-hand side
 * the declaration's line.
 */
import { describe, expect, it } from 'vitest';
import { factsOfSource } from '../../src/index/parse-file.js';

const source = [
  'package p', //                                    1
  '', //                                             2
  'func f(h func() error, x interface{}) error {', // 3
  '\tn := 1', //                                     4
  '\tif v, ok := x.(int); ok {', //                  5
  '\t\tn = v', //                                    6
  '\t} else {', //                                   7
  '\t\tm := 2', //                                   8
  '\t\t_ = m', //                                    9
  '\t}', //                                          10
  '\tfor i, s := range []string{} {', //             11
  '\t\t_, _ = i, s', //                              12
  '\t}', //                                          13
  '\tswitch t := x.(type) {', //                     14
  '\tcase int:', //                                  15
  '\t\t_ = t', //                                    16
  '\tcase string:', //                               17
  '\t\t_ = t', //                                    18
  '\t}', //                                          19
  '\th := wrap(h)', //                               20
  '\tg := func() error {', //                        21
  '\t\treturn check(h)', //                          22
  '\t}', //                                          23
  '\t_ = n', //                                      24
  '\treturn g()', //                                 25
  '}', //                                            26
  '',
].join('\n');

describe('scope facts', () => {
  const facts = factsOfSource(source);
  const local = (name: string, line: number) =>
    facts.locals.find((l) => l.name === name && l.line === line);
  const call = (name: string) =>
    facts.calls.find((c) => c.callee[0] === 'i' && c.callee[1] === name);

  it('ends a local with the innermost block, statement or case clause around it', () => {
    expect(local('n', 4)?.end).toBe(26); // the function's body
    expect(local('v', 5)?.end).toBe(10); // the if statement, else branch included
    expect(local('ok', 5)?.end).toBe(10);
    expect(local('m', 8)?.end).toBe(10); // the else block
    expect(local('i', 11)?.end).toBe(13); // the for statement
    expect(local('s', 11)?.end).toBe(13);
    expect(local('t', 15)?.end).toBe(16); // each case clause
    expect(local('t', 17)?.end).toBe(18);
    expect(local('h', 20)?.end).toBe(26);
  });

  it('keeps the first line of each plain else, not of an else if', () => {
    expect(facts.elses).toEqual([7]);
  });

  it("marks a call in a declaration's right-hand side with the declaration's line", () => {
    expect(call('wrap')?.decl).toBe(20);
    // Inside a closure that is a declaration's value: the declaration's names are not in scope.
    expect(call('check')?.decl).toBe(21);
    expect(call('g')?.decl).toBeUndefined();
  });
});

describe('control facts', () => {
  const control = factsOfSource(
    [
      'package p', //                               1
      '', //                                        2
      'func g(xs []int, ch chan int) (n int) {', // 3
      '\tfor _, x := range xs {', //                4
      '\t\tif x < 0 {', //                          5
      '\t\t\tcontinue', //                          6
      '\t\t} else if x > 9 {', //                   7
      '\t\t\tbreak', //                             8
      '\t\t}', //                                   9
      '\t\tswitch x {', //                          10
      '\t\tcase 1:', //                             11
      '\t\t\tn = 1', //                             12
      '\t\t\tfallthrough', //                       13
      '\t\tdefault:', //                            14
      '\t\t\tn++', //                               15
      '\t\t}', //                                   16
      '\t}', //                                     17
      '\tselect {', //                              18
      '\tcase v := <-ch:', //                       19
      '\t\tn = v', //                               20
      '\t\tgoto done', //                           21
      '\t}', //                                     22
      'done:', //                                   23
      '\treturn n', //                              24
      '}', //                                       25
      '',
    ].join('\n'),
  );

  it('keeps the lines of loops, blocks, case clauses and switches, first and last in pairs', () => {
    expect(control.loops).toEqual([4, 17]);
    // The body, the loop's, both branches, the three clauses.
    expect(pairs(control.blocks)).toEqual(
      expect.arrayContaining([
        [3, 25],
        [4, 17],
        [5, 7],
        [7, 9],
        [11, 13],
        [14, 15],
        [19, 21],
      ]),
    );
    expect(pairs(control.clauses)).toEqual([
      [11, 13],
      [14, 15],
      [19, 21],
    ]);
    expect(pairs(control.switches)).toEqual([
      [10, 16],
      [18, 22],
    ]);
  });

  it('keeps the lines of break, continue and goto, and of fallthrough apart', () => {
    expect(control.jumps).toEqual([6, 8, 21]);
    expect(control.falls).toEqual([13]);
    expect(control.elses).toEqual([]); // line 7 is an else if
    expect(control.defaults).toEqual([14]);
  });
});

function pairs(lines: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < lines.length; i += 2) out.push([lines[i]!, lines[i + 1]!]);
  return out;
}
