/**
 * Turns one parsed Go file into FileFacts. The queries in queries/go/*.scm find every construct
 * of interest in one pass (in native code, with the captured subtrees: see light-node.ts); this
 * file only reads the few fields of each captured node (and reduces expressions to tuples).
 */
import type {
  CallFact,
  Expr,
  FileFacts,
  FuncFact,
  LocalFact,
  Param,
  TypeFact,
  ValueFact,
} from './facts.js';
import { FACTS_VERSION } from './facts.js';
import { readCaptures, type DocSpans, type LightNode } from './light-node.js';
import type { NativeNames, NativeParse } from './native.js';

/** The longest string literal (quotes included) whose value the facts keep. */
const KEPT_STRING = 320;

type Node = LightNode;

interface FuncRange {
  index: number;
  start: number;
  end: number;
}

/**
 * Expressions nest deeply in generated code; past this depth they are kept as text. Steps along
 * a chain's spine (`b.For(x).Owns(y)...`: operands of selectors, called functions) do not count:
 * a fluent chain keeps its type to the last call, up to MAX_CHAIN steps.
 */
const MAX_EXPR_DEPTH = 12;
const MAX_CHAIN = 80;
/** Index keys up to this long keep their text (`controllers["replicaset"]`). */
const MAX_INDEX_KEY = 60;

export function extractFacts(parsed: NativeParse, names: NativeNames, source: string): FileFacts {
  const facts: FileFacts = {
    v: FACTS_VERSION,
    package: '',
    imports: [],
    funcs: [],
    types: [],
    values: [],
    locals: [],
    calls: [],
    assigns: [],
    composites: [],
    returns: [],
    sends: [],
    recvs: [],
    loops: [],
    blocks: [],
    clauses: [],
    switches: [],
    jumps: [],
    falls: [],
    elses: [],
    defaults: [],
    errors: [],
    lines: parsed.lines,
  };
  // Spans of the scopes locals are declared in, start and end in pairs (scopeEnds).
  const scopeSpans: number[] = [];
  const jumpSpans: number[] = [];
  const captures = readCaptures(parsed, names, source, scopeSpans, jumpSpans);
  // Leading tabs (or spaces) of the line a node starts on: gofmt indents one per block.
  const indentOf = (startIndex: number): number => {
    let start = startIndex;
    while (start > 0 && source.charCodeAt(start - 1) !== 10) start--;
    let end = start;
    while (end < startIndex && (source[end] === '\t' || source[end] === ' ')) end++;
    return end - start;
  };
  const docOf = (spans: DocSpans['own']) => docComment(spans, source);

  // Pass 1: functions, so that every other capture can be attributed to its innermost function;
  // and which calls stand in `go`/`defer` statements.
  const ranges: FuncRange[] = [];
  const funcNodes: Node[] = [];
  const funcDocs: (DocSpans | null)[] = [];
  // By span: `go New(x).Run(y)` starts its goroutine with Run, not with New, which begins where Run's
  // call does.
  const goCalls = new Set<string>();
  const deferCalls = new Set<string>();
  for (const { name, node, startIndex, endIndex, docs } of captures) {
    if (
      node &&
      (name === 'definition.function' ||
        name === 'definition.method' ||
        name === 'definition.closure')
    ) {
      ranges.push({ index: funcNodes.length, start: node.startIndex, end: node.endIndex });
      funcNodes.push(node);
      funcDocs.push(docs);
    } else if (name === 'reference.call.go') goCalls.add(`${startIndex}:${endIndex}`);
    else if (name === 'reference.call.defer') deferCalls.add(`${startIndex}:${endIndex}`);
  }
  const enclosing = makeEnclosingLookup(ranges);
  const literalCounters = new Map<number, number>();
  funcNodes.forEach((node, index) => {
    const parent = enclosing(node.startIndex, node.endIndex, index);
    const doc = funcDocs[index] ? docOf(funcDocs[index].own) : undefined;
    facts.funcs.push({
      ...readFunc(node, doc, parent, literalCounters),
      indent: indentOf(node.startIndex),
    });
  });
  const fnOf = (node: Node) => enclosing(node.startIndex, node.endIndex, -1);
  const funcIndexByStart = new Map<number, number>();
  funcNodes.forEach((node, index) => {
    if (node.type === 'func_literal') funcIndexByStart.set(node.startIndex, index);
  });
  const expr = (node: Node | null | undefined) => toExpr(node, funcIndexByStart, 0);
  // Offsets of each local's declaration and of each call (parallel to facts.locals and
  // facts.calls), and the right-hand sides of declarations, for scopeEnds and declLines.
  const localStarts: number[] = [];
  const callStarts: number[] = [];
  const rightSides: Span[] = [];
  /** The last const spec's type and values, which a spec of its group without either repeats. */
  const constGroup: ConstGroup = { type: null, values: [] };
  let anyNode: Node | undefined;
  const declared = (from: number, start: number) => {
    for (let i = from; i < facts.locals.length; i++) localStarts.push(start);
  };

  for (const capture of captures) {
    const name = capture.name;
    if (
      name.startsWith('definition.function') ||
      name === 'definition.method' ||
      name === 'definition.closure' ||
      name.startsWith('reference.call.')
    )
      continue;
    if (name === 'comment.build') {
      // Only comments before the package clause constrain the build.
      if (!facts.package)
        readBuildConstraint(source.slice(capture.startIndex, capture.endIndex), facts);
      continue;
    }
    if (name === 'package') {
      facts.package = source.slice(capture.startIndex, capture.endIndex);
      continue;
    }
    const node = capture.node;
    if (!node) continue;
    anyNode ??= node;
    // Each kind is read by a function of its own: a deoptimization in one (a kind the optimizer
    // had not seen yet, a node of a new shape) then recompiles that small function, not this loop
    // with every kind inlined (4 compiles of ~140 ms each a worker on v1.24, `--trace-opt`).
    switch (name) {
      case 'reference.import':
        readImport(node, facts);
        break;
      case 'definition.type':
        facts.types.push(readType(node, typeDoc(capture.docs, docOf)));
        break;
      case 'definition.var':
      case 'definition.const': {
        const fn = fnOf(node);
        const doc = fn >= 0 ? undefined : valueDoc(capture.docs, docOf);
        const from = facts.locals.length;
        readValueSpec(node, doc, name === 'definition.const', fn, facts, expr, constGroup);
        declared(from, node.startIndex);
        const value = fn >= 0 ? node.childForFieldName('value') : null;
        if (value) rightSides.push(spanOf(value, node));
        break;
      }
      case 'reference.call':
        callStarts.push(node.startIndex);
        facts.calls.push(
          readCall(
            node,
            fnOf(node),
            expr,
            goCalls.has(`${node.startIndex}:${node.endIndex}`),
            deferCalls.has(`${node.startIndex}:${node.endIndex}`),
          ),
        );
        break;
      case 'reference.composite':
        readComposite(node, fnOf(node), facts, expr);
        break;
      case 'local.short': {
        const left = node.childForFieldName('left')?.namedChildren ?? [];
        const rightNode = node.childForFieldName('right');
        const right = rightNode?.namedChildren ?? [];
        const from = facts.locals.length;
        bindNames(left, right, fnOf(node), facts, expr, indentOf(node.startIndex));
        declared(from, node.startIndex);
        if (rightNode) rightSides.push(spanOf(rightNode, node));
        break;
      }
      case 'local.range': {
        const from = facts.locals.length;
        readRange(node, fnOf(node), facts, expr);
        declared(from, node.startIndex);
        const right = node.childForFieldName('right');
        if (right && facts.locals.length > from) rightSides.push(spanOf(right, node));
        break;
      }
      case 'local.typeswitch':
        readTypeSwitch(node, fnOf(node), facts, expr, localStarts);
        break;
      case 'local.receive': {
        // `case v, ok := <-ch:` declares as `v, ok := <-ch` does, in the scope of its case;
        // `case v = <-ch:` assigns as `v = <-ch` does.
        const right = node.childForFieldName('right');
        if (!right) break;
        const left = node.childForFieldName('left')?.namedChildren ?? [];
        if (!node.children.some((c) => c.type === ':=')) {
          assignEach(node, left, [right], fnOf(node), facts, expr, indentOf);
          break;
        }
        const from = facts.locals.length;
        bindNames(left, [right], fnOf(node), facts, expr, indentOf(node.startIndex));
        declared(from, node.startIndex);
        rightSides.push(spanOf(right, node));
        break;
      }
      case 'assignment':
        readAssignment(node, fnOf(node), facts, expr, indentOf);
        break;
      case 'reference.send': {
        const value = node.childForFieldName('value');
        facts.sends.push({
          fn: fnOf(node),
          ch: expr(node.childForFieldName('channel')),
          ...(value ? { value: expr(value) } : {}),
          line: node.startPosition.row + 1,
        });
        break;
      }
      case 'reference.receive':
        facts.recvs.push({
          fn: fnOf(node),
          ch: expr(node.childForFieldName('operand')),
          line: node.startPosition.row + 1,
        });
        break;
      case 'reference.return':
        readReturn(node, fnOf(node), facts, expr);
        break;
      default:
        break;
    }
  }
  if (anyNode) {
    scopeEnds(facts.locals, localStarts, scopeSpans, anyNode);
    controlLines(facts, scopeSpans, jumpSpans, source, anyNode);
    declLines(facts.calls, callStarts, rightSides);
  }
  if (parsed.hasError) facts.errors.push(...parsed.errors);
  return facts;
}

type ToExpr = (n: Node | null | undefined) => Expr;

function readImport(node: Node, facts: FileFacts): void {
  const pathNode = node.childForFieldName('path');
  const alias = node.childForFieldName('name');
  if (pathNode) {
    facts.imports.push({
      path: unquote(pathNode.text),
      alias: alias ? alias.text : null,
      line: node.startPosition.row + 1,
    });
  }
}

function readComposite(node: Node, fn: number, facts: FileFacts, expr: ToExpr): void {
  const typeNode = node.childForFieldName('type');
  readLiteral(node, typeNode ? typeText(typeNode) : null, fn, facts, expr, 0);
}

/**
 * One composite literal's fact, then those of the element literals whose type it elides
 * (`[]*Command{{Name: "x", Action: run}}`, `map[string]Handler{"a": {Fn: f}}`): each is of the
 * enclosing literal's element type, and stores into its fields as a typed literal does.
 */
function readLiteral(
  node: Node,
  type: string | null,
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  depth: number,
): void {
  const entries = literalEntries(node);
  // A loop, not `entries.fields.map`: the array map makes, tested below, sent the optimized code
  // back to the interpreter ~200 times a worker on v1.24 ("wrong map" on its length).
  const fields: [string, Expr, number][] = [];
  for (const f of entries.fields) fields.push([f.name, expr(f.value), f.line]);
  // `&timeoutHandler{h, timeoutFunc}`: a named type's fields in order, `#0`, `#1`, ...
  // (the resolver knows which struct, and so which field, each is); not a map's values.
  if (fields.length === 0 && type !== null && /^(?!map\[)[\w.]+(\[|$)/.test(type))
    entries.elements.forEach((value, i) =>
      fields.push([`#${i}`, expr(value), value.startPosition.row + 1]),
    );
  if (fields.length > 0) {
    facts.composites.push({ fn, type, fields, line: node.startPosition.row + 1 });
  }
  if (type === null || depth >= 4) return;
  const inner = elementType(type);
  if (inner === null) return;
  for (const value of entries.elements)
    if (value.type === 'literal_value') readLiteral(value, inner, fn, facts, expr, depth + 1);
  // A map keyed by names (`map[string]T{someConst: {...}}`) reads its keys as fields.
  if (type.startsWith('map['))
    for (const f of entries.fields)
      if (f.value.type === 'literal_value') readLiteral(f.value, inner, fn, facts, expr, depth + 1);
}

/**
 * The type of the elements of a slice, array or map type, as an elided element literal has it:
 * `[]*pkg.T` and `map[string]pkg.T` give `pkg.T` (an elided `&T` is a `T` literal); null for a
 * struct or a type that only names one.
 */
export function elementType(type: string): string | null {
  let rest: string;
  if (type.startsWith('map[')) {
    let level = 0;
    let i = 3;
    for (; i < type.length; i++) {
      if (type[i] === '[') level++;
      else if (type[i] === ']' && --level === 0) break;
    }
    rest = type.slice(i + 1);
  } else if (type.startsWith('[')) {
    rest = type.slice(type.indexOf(']') + 1);
  } else return null;
  rest = rest.replace(/^\*/, '');
  return rest === '' ? null : rest;
}

/** A span of the source; `line` is the declaration's, for a right-hand side. */
interface Span {
  start: number;
  end: number;
  line: number;
}

function spanOf(node: Node, decl: Node): Span {
  return { start: node.startIndex, end: node.endIndex, line: decl.startPosition.row + 1 };
}

/**
 * For each span at `starts[i]`, the innermost of `outer` around it (spans nest, as syntax does),
 * handed to `found` with i; spans sorted in place.
 */
function innermost(
  starts: readonly number[],
  outer: Span[],
  found: (i: number, inner: Span) => void,
): void {
  outer.sort((a, b) => a.start - b.start || b.end - a.end);
  const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
  const open: Span[] = [];
  let next = 0;
  for (const i of order) {
    const at = starts[i]!;
    while (next < outer.length && outer[next]!.start <= at) {
      const s = outer[next++]!;
      while (open.length > 0 && open[open.length - 1]!.end <= s.start) open.pop();
      open.push(s);
    }
    while (open.length > 0 && open[open.length - 1]!.end <= at) open.pop();
    const inner = open[open.length - 1];
    if (inner) found(i, inner);
  }
}

/** Each local's last line in scope: the end of the innermost scope around its declaration. */
function scopeEnds(locals: LocalFact[], starts: number[], spans: number[], lines: Node): void {
  // Parallel to the locals by construction; should a reader ever push one without its start,
  // no end is better than ends shifted onto other locals.
  if (locals.length === 0 || spans.length === 0 || starts.length !== locals.length) return;
  const scopes: Span[] = [];
  for (let i = 0; i < spans.length; i += 2)
    scopes.push({ start: spans[i]!, end: spans[i + 1]!, line: 0 });
  innermost(starts, scopes, (i, scope) => {
    locals[i]!.end = lines.lineAt(scope.end - 1);
  });
}

/**
 * The first and last lines of each `for` statement among the scopes (the one that starts `for`),
 * of each block and case clause (what runs straight through once entered), of each case clause
 * again and of each switch and select statement (a clause's assignments do not reach its
 * siblings); the first line of each plain `else` block and `default` clause; and the lines of
 * the jumps: break, continue and goto, and fallthrough apart.
 */
function controlLines(
  facts: FileFacts,
  spans: number[],
  jumps: number[],
  source: string,
  lines: Node,
): void {
  const word = (at: number, w: string) =>
    source.startsWith(w, at) && !/[\w$]/.test(source[at + w.length] ?? '');
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]!;
    const first = lines.lineAt(start);
    const last = lines.lineAt(spans[i + 1]! - 1);
    if (word(start, 'for')) facts.loops.push(first, last);
    else if (source[start] === '{') {
      facts.blocks.push(first, last);
      if (plainElse(source, start)) facts.elses.push(first);
    } else if (word(start, 'case') || word(start, 'default')) {
      facts.blocks.push(first, last);
      facts.clauses.push(first, last);
      if (source[start] === 'd') facts.defaults.push(first);
    } else if (word(start, 'switch') || word(start, 'select')) facts.switches.push(first, last);
  }
  for (let i = 0; i < jumps.length; i += 2) {
    const start = jumps[i]!;
    (word(start, 'fallthrough') ? facts.falls : facts.jumps).push(lines.lineAt(start));
  }
}

/** Whether the block opening at `start` is an `else` with no `if` of its own (`} else {`). */
function plainElse(source: string, start: number): boolean {
  let at = start - 1;
  while (at >= 0 && (source[at] === ' ' || source[at] === '\t')) at--;
  if (at < 4 || source.slice(at - 3, at + 1) !== 'else' || /[\w$]/.test(source[at - 4]!))
    return false;
  at -= 4;
  while (at >= 0 && (source[at] === ' ' || source[at] === '\t')) at--;
  return source[at] === '}';
}

/** Marks each call in a declaration's right-hand side with the declaration's line. */
function declLines(calls: CallFact[], starts: number[], sides: Span[]): void {
  if (calls.length === 0 || sides.length === 0 || starts.length !== calls.length) return;
  innermost(starts, sides, (i, side) => {
    calls[i]!.decl = side.line;
  });
}

function readRange(node: Node, fn: number, facts: FileFacts, expr: ToExpr): void {
  const left = node.childForFieldName('left')?.namedChildren ?? [];
  const right = node.childForFieldName('right');
  const isDefine = node.children.some((c) => c.type === ':=');
  if (!right) return;
  const ranged = expr(right);
  // Ranging over a channel receives from it; over anything else the linker drops the fact.
  facts.recvs.push({ fn, ch: ranged, line: node.startPosition.row + 1, range: true });
  // Loops here and in readAssignment, not `forEach`: `left` is either children or `[]`, arrays
  // of two kinds, and `forEach` on the other kind sent the optimized code back to the interpreter
  // each time it met it (`--trace-deopt`).
  for (let i = 0; i < left.length; i++) {
    const target = left[i]!;
    if (target.type === 'identifier' && target.text !== '_' && isDefine) {
      facts.locals.push({
        fn,
        name: target.text,
        value: ranged,
        index: i,
        range: true,
        line: target.startPosition.row + 1,
      });
    }
  }
}

function readTypeSwitch(
  node: Node,
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  starts: number[],
): void {
  const alias = node.childForFieldName('alias')?.firstNamedChild;
  const value = node.childForFieldName('value');
  if (!alias || alias.type !== 'identifier') return;
  for (const clause of node.namedChildren) {
    if (clause.type !== 'type_case') continue;
    const types = clause.childrenForFieldName('type');
    const line = clause.startPosition.row + 1;
    // A case with one type binds the alias to that type; otherwise it keeps the operand's.
    // Each made whole at once (the same keys in the same order as ever): an object given its
    // last key afterwards has a map of its own, which deoptimized the code at the push.
    facts.locals.push(
      types.length === 1 && types[0]
        ? { fn, name: alias.text, line, type: typeText(types[0]) }
        : { fn, name: alias.text, line, value: expr(value) },
    );
    // Each case's alias is scoped to its clause.
    starts.push(clause.startIndex);
  }
}

function readAssignment(
  node: Node,
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  indentOf: (startIndex: number) => number,
): void {
  const left = node.childForFieldName('left')?.namedChildren ?? [];
  const right = node.childForFieldName('right')?.namedChildren ?? [];
  const op = node.childForFieldName('operator')?.text ?? '=';
  if (op !== '=') return;
  assignEach(node, left, right, fn, facts, expr, indentOf);
}

/** `a, b = x, y` (or `v, ok = <-ch`): what each target is assigned. */
function assignEach(
  node: Node,
  left: readonly Node[],
  right: readonly Node[],
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  indentOf: (startIndex: number) => number,
): void {
  for (let i = 0; i < left.length; i++) {
    const target = left[i]!;
    if (target.type === 'identifier' && target.text === '_') continue;
    const single = right.length === left.length;
    const source = single ? right[i] : right[0];
    if (!source) continue;
    const line = node.startPosition.row + 1;
    const endLine = node.endPosition.row + 1;
    facts.assigns.push({
      fn,
      lhs: expr(target),
      rhs: expr(source),
      ...(single ? {} : { index: i }),
      line,
      ...(target.type === 'identifier'
        ? { indent: indentOf(node.startIndex), ...(endLine > line ? { endLine } : {}) }
        : {}),
    });
  }
}

function readReturn(node: Node, fn: number, facts: FileFacts, expr: ToExpr): void {
  const list = node.firstNamedChild;
  const values = list ? (list.type === 'expression_list' ? list.namedChildren : [list]) : [];
  facts.returns.push({ fn, values: values.map((v) => expr(v)), line: node.startPosition.row + 1 });
}

/**
 * Innermost function containing [start, end). Ranges arrive in document order; a binary search
 * finds the last range starting at or before `start`, then parent links climb out of ranges that
 * end too early.
 */
function makeEnclosingLookup(
  ranges: FuncRange[],
): (start: number, end: number, self: number) => number {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const parent = new Array<number>(sorted.length).fill(-1);
  const stack: number[] = [];
  sorted.forEach((range, i) => {
    while (stack.length > 0 && sorted[stack[stack.length - 1]!]!.end <= range.start) stack.pop();
    parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    stack.push(i);
  });
  return (start, end, self) => {
    let lo = 0;
    let hi = sorted.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.start <= start) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    let i = found;
    while (i >= 0) {
      const range = sorted[i]!;
      if (range.index !== self && range.start <= start && range.end >= end) return range.index;
      i = parent[i]!;
    }
    return -1;
  };
}

function readFunc(
  node: Node,
  doc: string | undefined,
  parent: number,
  literalCounters: Map<number, number>,
): FuncFact {
  const params = readParams(node.childForFieldName('parameters'));
  const results = readResults(node.childForFieldName('result'));
  const base = {
    params: params.list,
    results,
    line: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    ...(params.variadic ? { variadic: true as const } : {}),
  };
  if (node.type === 'func_literal') {
    const ordinal = (literalCounters.get(parent) ?? 0) + 1;
    literalCounters.set(parent, ordinal);
    return { kind: 'lit', name: String(ordinal), parent, col: node.startPosition.column, ...base };
  }
  const nameNode = node.childForFieldName('name');
  const typeParams = node.childForFieldName('type_parameters');
  const fact: FuncFact = {
    kind: node.type === 'method_declaration' ? 'method' : 'func',
    name: nameNode?.text ?? '_',
    col: nameNode?.startPosition.column ?? 0,
    ...base,
    ...(doc ? { doc } : {}),
    ...(typeParams ? { typeParams: readTypeParams(typeParams) } : {}),
  };
  if (node.type === 'method_declaration') {
    const receiver = node.childForFieldName('receiver')?.firstNamedChild;
    const recvType = receiver?.childForFieldName('type');
    const recvName = receiver?.childForFieldName('name');
    if (recvType) {
      let t = recvType;
      const ptr = t.type === 'pointer_type';
      if (ptr && t.firstNamedChild) t = t.firstNamedChild;
      if (t.type === 'parenthesized_type' && t.firstNamedChild) t = t.firstNamedChild;
      let typeArgs: string[] | undefined;
      if (t.type === 'generic_type') {
        typeArgs = t.childForFieldName('type_arguments')?.namedChildren.map((a) => a.text) ?? [];
        t = t.childForFieldName('type') ?? t;
      }
      fact.recv = {
        name: recvName?.text ?? null,
        type: t.text,
        ptr,
        ...(typeArgs ? { typeArgs } : {}),
      };
    }
  }
  return fact;
}

function readParams(list: Node | null): { list: Param[]; variadic: boolean } {
  const out: Param[] = [];
  let variadic = false;
  if (!list) return { list: out, variadic };
  for (const decl of list.namedChildren) {
    if (decl.type !== 'parameter_declaration' && decl.type !== 'variadic_parameter_declaration')
      continue;
    const typeNode = decl.childForFieldName('type');
    let type = typeNode ? typeText(typeNode) : '?';
    if (decl.type === 'variadic_parameter_declaration') {
      variadic = true;
      type = `[]${type}`;
    }
    const names = decl.childrenForFieldName('name');
    if (names.length === 0) out.push([null, type]);
    for (const n of names) out.push([n.text, type]);
  }
  return { list: out, variadic };
}

function readResults(result: Node | null): Param[] {
  if (!result) return [];
  if (result.type === 'parameter_list') return readParams(result).list;
  return [[null, typeText(result)]];
}

function readTypeParams(list: Node): Param[] {
  const out: Param[] = [];
  for (const decl of list.namedChildren) {
    const constraint = decl.childForFieldName('type');
    for (const n of decl.childrenForFieldName('name'))
      out.push([n.text, constraint ? typeText(constraint) : 'any']);
  }
  return out;
}

/** A type's doc sits above `type X ...`, or above its spec inside a `type ( ... )` group. */
function typeDoc(
  docs: DocSpans | null,
  docOf: (spans: DocSpans['own']) => string | undefined,
): string | undefined {
  if (!docs) return undefined;
  return docOf(
    docs.parentType === 'type_declaration' && docs.parentNamedChildCount === 1
      ? docs.parent
      : docs.own,
  );
}

/** A package-level var/const's doc: above its declaration, else above its spec in a group. */
function valueDoc(
  docs: DocSpans | null,
  docOf: (spans: DocSpans['own']) => string | undefined,
): string | undefined {
  if (!docs) return undefined;
  const grouped = docs.parentType === 'var_declaration' || docs.parentType === 'const_declaration';
  return docOf(grouped ? docs.parent : docs.own) ?? docOf(docs.own);
}

function readType(node: Node, doc: string | undefined): TypeFact {
  const nameNode = node.childForFieldName('name');
  const typeNode = node.childForFieldName('type');
  const typeParams = node.childForFieldName('type_parameters');
  const base = {
    name: nameNode?.text ?? '_',
    line: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    col: nameNode?.startPosition.column ?? 0,
    ...(doc ? { doc } : {}),
    ...(typeParams ? { typeParams: readTypeParams(typeParams) } : {}),
  };
  if (node.type === 'type_alias')
    return { ...base, kind: 'alias', underlying: typeNode ? typeText(typeNode) : '?' };
  if (typeNode?.type === 'struct_type') {
    const fields: TypeFact['fields'] = [];
    const list = typeNode.firstNamedChild;
    for (const decl of list?.namedChildren ?? []) {
      if (decl.type !== 'field_declaration') continue;
      const t = decl.childForFieldName('type');
      const names = decl.childrenForFieldName('name');
      const type = t ? typeText(t) : '?';
      const line = decl.startPosition.row + 1;
      if (names.length === 0) {
        // Embedded: `T`, `*T`, `pkg.T`; the grammar puts a leading `*` outside the type node.
        const star = decl.children.some((c) => c.type === '*');
        fields.push({ name: null, type: star && !type.startsWith('*') ? `*${type}` : type, line });
      } else for (const n of names) fields.push({ name: n.text, type, line });
    }
    return { ...base, kind: 'struct', fields };
  }
  if (typeNode?.type === 'interface_type') {
    const methods: NonNullable<TypeFact['methods']> = [];
    const embeds: string[] = [];
    for (const el of typeNode.namedChildren) {
      if (el.type === 'method_elem') {
        const params = readParams(el.childForFieldName('parameters'));
        methods.push({
          name: el.childForFieldName('name')?.text ?? '_',
          params: params.list,
          results: readResults(el.childForFieldName('result')),
          ...(params.variadic ? { variadic: true as const } : {}),
          line: el.startPosition.row + 1,
        });
      } else if (el.type === 'type_elem') {
        // Only single-type elements embed an interface; unions and ~T are constraints.
        if (el.namedChildCount === 1 && el.firstNamedChild)
          embeds.push(typeText(el.firstNamedChild));
      }
    }
    return { ...base, kind: 'interface', methods, embeds };
  }
  return { ...base, kind: 'named', underlying: typeNode ? typeText(typeNode) : '?' };
}

interface ConstGroup {
  type: Node | null;
  values: Node[];
}

function readValueSpec(
  node: Node,
  doc: string | undefined,
  isConst: boolean,
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  group: ConstGroup,
): void {
  const names = node.childrenForFieldName('name');
  let typeNode = node.childForFieldName('type');
  let values = node.childForFieldName('value')?.namedChildren ?? [];
  if (isConst) {
    // `const ( ControlPlane EgressType = iota; Etcd; Cluster )`: a spec with neither type nor
    // values repeats the type and values of the one before it (the Go spec's textual
    // substitution), so Etcd and Cluster are EgressTypes. Specs come in document order, and only
    // one of the same group can precede such a spec.
    if (!typeNode && values.length === 0) {
      typeNode = group.type;
      values = group.values;
    } else {
      group.type = typeNode;
      group.values = values;
    }
  }
  const type = typeNode ? typeText(typeNode) : undefined;
  if (fn >= 0) {
    // A `var` inside a function is a local binding.
    names.forEach((n, i) => {
      if (n.text === '_') return;
      const local: LocalFact = { fn, name: n.text, line: n.startPosition.row + 1 };
      if (type) local.type = type;
      // The value is kept even with a declared type: `var s Store = &MemStore{}` ranks MemStore.
      if (values.length === names.length && values[i]) local.value = expr(values[i]);
      else if (values.length === 1 && values[0]) {
        local.value = expr(values[0]);
        local.index = i;
      } else if (values.length === 0) local.zero = true;
      facts.locals.push(local);
    });
    return;
  }
  names.forEach((n, i) => {
    const value: ValueFact = {
      name: n.text,
      line: n.startPosition.row + 1,
      col: n.startPosition.column,
    };
    if (isConst) value.const = true;
    if (type) value.type = type;
    if (values.length === names.length && values[i]) value.value = expr(values[i]);
    else if (values.length === 1 && values[0] && names.length > 1) {
      value.value = expr(values[0]);
      value.index = i;
    }
    if (doc) value.doc = doc;
    facts.values.push(value);
  });
}

function bindNames(
  left: Node[],
  right: Node[],
  fn: number,
  facts: FileFacts,
  expr: ToExpr,
  indent: number,
): void {
  left.forEach((target, i) => {
    if (target.type !== 'identifier' || target.text === '_') return;
    const local: LocalFact = {
      fn,
      name: target.text,
      line: target.startPosition.row + 1,
      indent,
    };
    if (right.length === left.length) local.value = expr(right[i]);
    else if (right[0]) {
      local.value = expr(right[0]);
      local.index = i;
    }
    facts.locals.push(local);
  });
}

function readCall(node: Node, fn: number, expr: ToExpr, isGo: boolean, isDefer: boolean): CallFact {
  // `F[T](x)` parses as a conversion to a generic type (calls.scm captures those as calls too).
  const conversion = node.type === 'type_conversion_expression';
  const callee = node.childForFieldName(conversion ? 'type' : 'function');
  const operand = conversion ? node.childForFieldName('operand') : null;
  const args = conversion
    ? operand
      ? [operand]
      : []
    : (node.childForFieldName('arguments')?.namedChildren ?? []);
  // The site is where the called name is: in a chain split over lines (`b.\n  For(x).\n  Complete(r)`)
  // each call sits on its own line, not on the line the chain starts.
  const at = calleeNode(callee);
  const call: CallFact = {
    fn,
    callee: expr(callee),
    args: args.map((a) => expr(a)),
    line: (at ?? node).startPosition.row + 1,
    col: (at ?? node).startPosition.column,
  };
  if (isGo) call.go = true;
  if (isDefer) call.defer = true;
  return call;
}

/** The identifier a reader points at: `Add` in `q.Add(x)`, `f` in `f()`. */
function calleeNode(node: Node | null): Node | undefined {
  let n = node;
  while (n) {
    if (n.type === 'selector_expression') return n.childForFieldName('field') ?? n;
    if (n.type === 'qualified_type') return n.childForFieldName('name') ?? n;
    if (n.type === 'identifier') return n;
    if (
      n.type === 'parenthesized_expression' ||
      n.type === 'generic_type' ||
      n.type === 'index_expression'
    ) {
      n = n.firstNamedChild;
      continue;
    }
    return n;
  }
  return undefined;
}

const BASIC_LITERALS: Record<string, string> = {
  interpreted_string_literal: 'string',
  raw_string_literal: 'string',
  int_literal: 'int',
  float_literal: 'float64',
  rune_literal: 'rune',
  imaginary_literal: 'complex128',
  nil: 'nil',
  true: 'bool',
  false: 'bool',
  iota: 'int',
};

function toExpr(
  node: Node | null | undefined,
  lits: Map<number, number>,
  depth: number,
  chain = 0,
): Expr {
  if (!node) return ['?', ''];
  if (depth - chain > MAX_EXPR_DEPTH || chain > MAX_CHAIN) return ['?', node.text.slice(0, 80)];
  const d = depth + 1;
  // One step further along the spine of a chain.
  const spine = (n: Node | null | undefined) => toExpr(n, lits, d, chain + 1);
  switch (node.type) {
    case 'identifier':
    case 'type_identifier':
    case 'field_identifier':
    case 'package_identifier':
      return ['i', node.text];
    case 'selector_expression': {
      const field = node.childForFieldName('field');
      return [
        's',
        spine(node.childForFieldName('operand')),
        field?.text ?? '?',
        (field ?? node).startPosition.row + 1,
        (field ?? node).startPosition.column,
      ];
    }
    case 'qualified_type': {
      const pkg = node.childForFieldName('package');
      const name = node.childForFieldName('name');
      return [
        's',
        ['i', pkg?.text ?? '?'],
        name?.text ?? '?',
        node.startPosition.row + 1,
        (name ?? node).startPosition.column,
      ];
    }
    case 'call_expression': {
      const fn = node.childForFieldName('function');
      const typeArgs = node.childForFieldName('type_arguments');
      const callee = spine(fn);
      // Arguments of a nested call do not matter to its type, so they are not walked (walking them
      // was most of the indexing time). Builtins that take a type or give their argument's type
      // are the exception. Call sites keep their own arguments (readCall).
      if (
        fn?.type === 'identifier' &&
        (fn.text === 'new' || fn.text === 'make' || fn.text === 'append')
      ) {
        const first = node.childForFieldName('arguments')?.firstNamedChild;
        if (!first) return ['c', callee, []];
        return [
          'c',
          callee,
          [fn.text === 'append' ? toExpr(first, lits, d) : ['?', typeText(first)]],
        ];
      }
      // A single argument is kept near the top of an expression: the call may be a conversion
      // (`PopProcessFunc(c.config.Process)`, `HandlerFunc(fn)`), through which the value flows.
      // So is a first argument that is a string (a format: `fmt.Sprintf("get [%s] ...", x)`).
      const only = depth < 3 ? node.childForFieldName('arguments')?.namedChildren : undefined;
      const first = only?.[0];
      const kept: Expr[] =
        only?.length === 1 && !typeArgs
          ? [toExpr(only[0], lits, d)]
          : first &&
              (first.type === 'interpreted_string_literal' || first.type === 'raw_string_literal')
            ? [toExpr(first, lits, d)]
            : [];
      return [
        'c',
        typeArgs ? ['g', callee, typeArgs.namedChildren.map((a) => a.text)] : callee,
        kept,
      ];
    }
    case 'type_conversion_expression': {
      // `F[T](x)` parses as a conversion to an instantiated type; it is a call of a generic
      // function as often (`builder.TypedControllerManagedBy[request](mgr)`). The resolver tells
      // them apart, as it does for `T(x)`.
      const t = node.childForFieldName('type');
      const operand = node.childForFieldName('operand');
      const kept: Expr[] = depth < 3 && operand ? [toExpr(operand, lits, d)] : [];
      if (t?.type === 'generic_type') return ['c', spine(t), kept];
      return ['c', ['?', `type:${t ? typeText(t) : '?'}`], kept];
    }
    case 'composite_literal':
      return compositeExpr(node, lits, d, depth);
    case 'func_literal': {
      const index = lits.get(node.startIndex);
      return index === undefined ? ['?', 'func'] : ['f', index];
    }
    case 'unary_expression':
      return [
        'u',
        node.childForFieldName('operator')?.text ?? '?',
        toExpr(node.childForFieldName('operand'), lits, d),
      ];
    case 'parenthesized_expression':
      return spine(node.firstNamedChild);
    case 'variadic_argument':
      // `f(opts...)`: the slice is passed as the variadic parameter itself, not as one element.
      return ['u', '...', toExpr(node.firstNamedChild, lits, d)];
    case 'index_expression': {
      // The key text is kept when short: `controllers["replicaset"] = startReplicaSetController`
      // is how a controller manager names its controllers.
      const index = node.childForFieldName('index');
      const key =
        index && index.endIndex - index.startIndex <= MAX_INDEX_KEY ? index.text : undefined;
      return key === undefined
        ? ['x', spine(node.childForFieldName('operand'))]
        : ['x', spine(node.childForFieldName('operand')), key];
    }
    case 'generic_type':
      return [
        'g',
        spine(node.childForFieldName('type')),
        node.childForFieldName('type_arguments')?.namedChildren.map((a) => a.text) ?? [],
      ];
    case 'type_instantiation_expression':
      return instantiationExpr(node, spine);
    case 'slice_expression':
      return ['sl', toExpr(node.childForFieldName('operand'), lits, d)];
    case 'type_assertion_expression': {
      const t = node.childForFieldName('type');
      return ['a', spine(node.childForFieldName('operand')), t ? typeText(t) : null];
    }
    case 'binary_expression':
      return [
        'b',
        node.childForFieldName('operator')?.text ?? '?',
        toExpr(node.childForFieldName('left'), lits, d),
        toExpr(node.childForFieldName('right'), lits, d),
      ];
    case 'pointer_type':
    case 'slice_type':
    case 'array_type':
    case 'map_type':
    case 'channel_type':
    case 'function_type':
    case 'struct_type':
    case 'interface_type':
      return ['?', `type:${typeText(node)}`];
    default:
      return otherExpr(node);
  }
}

/**
 * `m[a.b][c.d]` parses as the type `m[a.b]` (a generic type, `c.d` its argument) instantiated
 * again: no instantiation is indexed or instantiated twice in Go, so it is an index of an index
 * (descheduler's `mc.nodes[node.Name][v1.ResourceCPU].SetMilli(...)`). `F[A, B]` used as a value
 * stays an instantiation.
 */
function instantiationExpr(node: Node, spine: ToExpr): Expr {
  const type = node.childForFieldName('type');
  const args: string[] = [];
  for (const c of node.namedChildren) if (c.startIndex !== type?.startIndex) args.push(c.text);
  let inner = type;
  while (inner?.type === 'parenthesized_type') inner = inner.firstNamedChild;
  if (inner?.type !== 'generic_type') return ['g', spine(type), args];
  let e = spine(inner.childForFieldName('type'));
  const keys = inner.childForFieldName('type_arguments')?.namedChildren ?? [];
  for (const key of [...keys.map((k) => k.text), ...args])
    e = key.length <= MAX_INDEX_KEY ? ['x', e, key] : ['x', e];
  return e;
}

/**
 * toExpr of a composite literal. Keyed fields matter where a literal is a value being passed or
 * bound; deeper ones only contribute their type (and are recorded on their own as composite facts).
 * Elements of slices and maps (`map[string]func(){"a": handleA}`) flow into `range` values; basic
 * literals among them carry nothing and are left out, but for short strings (aliases).
 * Loops, not `map` and `filter`: arrays of two kinds met there sent the optimized toExpr back to
 * the interpreter (`--trace-deopt`, "wrong map").
 */
function compositeExpr(node: Node, lits: Map<number, number>, d: number, depth: number): Expr {
  const t = node.childForFieldName('type');
  const entries = depth <= 1 ? literalEntries(node) : { fields: [], elements: [] };
  // A map's keys are never fields, even where they are names (`map[string]F{apiServer: f}`).
  const map = t !== null && t.type === 'map_type';
  // Elements that are collections themselves (`map[string][]F`, `[][]F`), whose elided literals
  // are kept below; an elided struct literal (`[]*cipherSuite{{...}}`) is read from its own
  // composite fact, by the element type the link works out.
  const nested = COLLECTION.has(t?.childForFieldName(map ? 'value' : 'element')?.type ?? '');
  const fields: [string, Expr][] = [];
  const kept: Expr[] = [];
  const element = (value: Node) => {
    // An element that is a literal itself, its type elided (`map[string][]F{"api": {a, b}}`):
    // kept where it holds elements of its own, for `range m[k]` to reach them.
    if (value.type !== 'literal_value') keep(kept, toExpr(value, lits, d));
    else if (nested) {
      const inner = compositeExpr(value, lits, d + 1, d);
      if (inner[3]) kept.push(inner);
    }
  };
  for (const f of entries.fields) {
    if (map) element(f.value);
    else fields.push([f.name, toExpr(f.value, lits, d)]);
  }
  for (const value of entries.elements) element(value);
  return kept.length
    ? ['l', t ? typeText(t) : null, fields, kept]
    : ['l', t ? typeText(t) : null, fields];
}

const COLLECTION = new Set(['slice_type', 'array_type', 'implicit_length_array_type', 'map_type']);

/** Keeps an element's value where it can carry something: not a basic literal but a short string. */
function keep(kept: Expr[], e: Expr): void {
  if (e[0] !== '?' && (e[0] !== 'n' || e[2] !== undefined)) kept.push(e);
}

/** toExpr of a basic literal, or of what the facts keep as text. */
function otherExpr(node: Node): Expr {
  const basic = BASIC_LITERALS[node.type];
  // A string up to a line long keeps its value: registries name their entries with string
  // constants (`names.ReplicaSetController = "replicaset-controller"`), cobra commands by the
  // first word of a Use that lists every flag (kubectl v1.14's `get` takes 225 characters).
  if (basic === 'string' && node.endIndex - node.startIndex <= KEPT_STRING) {
    const value = unquoteString(node.text);
    if (value !== undefined) return ['n', basic, value];
  }
  if (basic) return ['n', basic];
  return ['?', node.text.length > 80 ? `${node.text.slice(0, 77)}...` : node.text];
}

/** The value of a Go string literal (raw or interpreted), or undefined when it cannot be read. */
function unquoteString(text: string): string | undefined {
  if (text.startsWith('`')) return text.slice(1, -1);
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

/** A composite literal's entries: fields keyed by an identifier, and every other element's value. */
function literalEntries(literal: Node): {
  fields: { name: string; value: Node; line: number }[];
  elements: Node[];
} {
  const fields: { name: string; value: Node; line: number }[] = [];
  const elements: Node[] = [];
  // An elided element literal is its own body.
  const body = literal.type === 'literal_value' ? literal : literal.childForFieldName('body');
  for (const element of body?.namedChildren ?? []) {
    if (element.type === 'keyed_element') {
      const key = element.childForFieldName('key')?.firstNamedChild;
      const value = element.childForFieldName('value')?.firstNamedChild;
      if (!value) continue;
      if (key?.type === 'identifier')
        fields.push({ name: key.text, value, line: element.startPosition.row + 1 });
      else elements.push(value);
    } else if (element.type === 'literal_element' && element.firstNamedChild) {
      elements.push(element.firstNamedChild);
    }
  }
  return { fields, elements };
}

/** Type text with whitespace folded, so `map[string] *T` and `map[string]*T` read the same. */
function typeText(node: Node): string {
  const text = node.text;
  if (!/[\s]/.test(text)) return text;
  return (
    text
      .replace(/\/\/[^\n]*\n/g, '\n')
      // A line break ends a field or a method where Go would end a statement (after a name, a
      // literal or a closing bracket): `struct {\n\tsync.Mutex\n\trand *rand.Rand\n}` keeps
      // its two fields apart, `struct{sync.Mutex;rand*rand.Rand;}`. Inside parentheses a line
      // ends after a comma or an opening bracket, and the break is only space.
      .replace(/([\p{L}\p{N}_)\]}`"])[ \t]*\r?\n/gu, '$1;')
      .replace(/\s+/g, ' ')
      .replace(/\s*([[\](){},;*.])\s*/g, '$1')
      // `struct {` is `struct{`; but `chan Job` keeps its space: `chanJob` would read as a name.
      .replace(/\b(func|chan|map|struct|interface)\b\s*(?![\p{L}\p{N}_])/gu, '$1')
      .replace(/([\w\])])\s+(?=[\w*[])/g, '$1 ')
      // The separator a last line keeps before the closing bracket: `n int,\n)` is `n int)`.
      .replace(/[;,](?=[)\]}])/g, '')
      .trim()
  );
}

function unquote(text: string): string {
  return text.replace(/^["`]|["`]$/g, '');
}

/** The comment lines directly above a declaration, joined, without `//`. */
function docComment(spans: DocSpans['own'], source: string): string | undefined {
  if (spans.length === 0) return undefined;
  const lines = spans.map(([start, end]) =>
    source.slice(start, end).replace(/^\/\/ ?|^\/\*|\*\/$/g, ''),
  );
  const doc = lines.join('\n').trim();
  return doc.length > 2000 ? `${doc.slice(0, 2000)}…` : doc;
}

function readBuildConstraint(text: string, facts: FileFacts): void {
  const goBuild = /^\/\/go:build\s+(.+)$/.exec(text);
  if (goBuild?.[1]) {
    facts.build = goBuild[1].trim();
    return;
  }
  const plusBuild = /^\/\/\s*\+build\s+(.+)$/.exec(text);
  if (plusBuild?.[1] && facts.build === undefined) {
    // `// +build a,b c` means (a && b) || c.
    facts.build = plusBuild[1]
      .trim()
      .split(/\s+/)
      .map((alt) => `(${alt.split(',').join(' && ')})`)
      .join(' || ');
  }
}
