/**
 * Per-file facts: what one Go file says, independent of where it sits in a tree. They are keyed by
 * the git blob id, so a file that two versions (or two checkouts) share is parsed once. Import
 * paths, symbols and types are worked out later, by src/resolve, from these plain rows.
 *
 * Expressions are kept as small tuples rather than objects: Kubernetes has ~10^6 of them and the
 * JSON size is what the database and the link phase pay for.
 */

/** Bump when the shape of facts (or what the extractor puts in them) changes. */
export const FACTS_VERSION = 34;

/**
 * An expression, reduced to what resolution needs.
 * - `['i', name]` identifier
 * - `['s', x, field, line, col]` selector `x.field` (position of `field`)
 * - `['c', fn, args]` call; `T(x)` conversions look the same and are told apart by the resolver.
 *   A call nested in an expression keeps its arguments only when it has one (a possible
 *   conversion) and sits near the top, or its first when that is a string (a format); builtins
 *   `new`/`make`/`append` keep their first
 * - `['l', type, fields, elements?]` composite literal: type text, keyed fields `[key, value]`,
 *   and the other element values (slice and map entries)
 * - `['f', funcIndex]` a function literal (index into `FileFacts.funcs`)
 * - `['u', op, x]` unary (`&x`, `*x`, `<-ch`); op `...` is a spread argument `f(xs...)`
 * - `['x', x, key?]` index `x[i]` (key text when short); `['g', x, typeArgs]` instantiation `F[T]`; `['sl', x]` slice `x[a:b]`
 * - `['a', x, type | null]` type assertion (`null` type for `.(type)`)
 * - `['n', kind, value?]` basic literal (`string`, `int`, `float`, `rune`, `imaginary`, `nil`,
 *   `bool`); a short string keeps its value
 * - `['b', op, x, y]` binary; `['?', text]` anything else
 */
export type Expr =
  | readonly ['i', string]
  | readonly ['s', Expr, string, number, number]
  | readonly ['c', Expr, readonly Expr[]]
  | readonly ['l', string | null, readonly (readonly [string, Expr])[]]
  | readonly ['l', string | null, readonly (readonly [string, Expr])[], readonly Expr[]]
  | readonly ['f', number]
  | readonly ['u', string, Expr]
  | readonly ['x', Expr, string?]
  | readonly ['g', Expr, readonly string[]]
  | readonly ['sl', Expr]
  | readonly ['a', Expr, string | null]
  | readonly ['n', string]
  | readonly ['n', string, string]
  | readonly ['b', string, Expr, Expr]
  | readonly ['?', string];

/** A parameter or result: name (null when unnamed) and type text. */
export type Param = readonly [string | null, string];

export interface FuncFact {
  /** `func` (top level), `method`, or `lit` (a function literal). */
  kind: 'func' | 'method' | 'lit';
  /** Name for func/method; for literals, the ordinal within the parent (1-based, source order). */
  name: string;
  /** Receiver of a method: variable name (may be null), base type name, pointer receiver. */
  recv?: { name: string | null; type: string; ptr: boolean; typeArgs?: string[] };
  /** For literals: index of the enclosing function in `funcs`, or -1 at package level (`init$N`). */
  parent?: number;
  typeParams?: Param[];
  params: Param[];
  results: Param[];
  variadic?: boolean;
  line: number;
  endLine: number;
  /** Column (0-based) of the name, or of `func` for literals. */
  col: number;
  /** Leading tabs of the line the function starts on: its body's statements are one deeper. */
  indent?: number;
  doc?: string;
}

export interface FieldFact {
  /** Field name, or null for an embedded field. */
  name: string | null;
  type: string;
  line: number;
}

export interface TypeFact {
  name: string;
  /** `struct`, `interface`, `alias` (`type A = B`) or `named` (any other underlying type). */
  kind: 'struct' | 'interface' | 'alias' | 'named';
  /** Underlying type text for `named`/`alias`. */
  underlying?: string;
  typeParams?: Param[];
  fields?: FieldFact[];
  /** Interface methods: name, params, results. */
  methods?: { name: string; params: Param[]; results: Param[]; variadic?: true; line: number }[];
  /** Embedded interfaces (type text). */
  embeds?: string[];
  line: number;
  endLine: number;
  col: number;
  doc?: string;
}

/** Package-level `var`/`const` (one row per name). */
export interface ValueFact {
  name: string;
  const?: true;
  type?: string;
  value?: Expr;
  /** Position in a multi-value right-hand side (`var a, b = f()`). */
  index?: number;
  line: number;
  col: number;
  doc?: string;
}

/** A local binding inside a function (parameters and receivers live on FuncFact). */
export interface LocalFact {
  /** Enclosing function index. */
  fn: number;
  name: string;
  type?: string;
  value?: Expr;
  /** Position in a multi-value right-hand side, or for `range`: 0 key, 1 value. */
  index?: number;
  /** `range` over `value`. */
  range?: true;
  /**
   * `var x T` with no value: x starts as T's zero value (nil for a function). A type switch's
   * alias, which also has a type and no value, holds the switched value instead.
   */
  zero?: true;
  line: number;
  /** For `x := v`: leading tabs of the statement's line (the block it is declared in). */
  indent?: number;
  /**
   * Last line of the scope it is declared in (the innermost block, `if`/`for`/`switch` statement
   * or case clause around it): past it, the name is another binding.
   */
  end?: number;
}

export interface CallFact {
  fn: number;
  callee: Expr;
  args: Expr[];
  /** Line of the called name (in a chain split over lines, each call's own line). */
  line: number;
  /** Column of the callee's last identifier (what a caret points at). */
  col: number;
  go?: true;
  defer?: true;
  /**
   * In the right-hand side of a declaration (`h := logged(h)`, `for _, f := range f.list()`): the
   * declaration's line, whose names are not in scope yet where the call reads them.
   */
  decl?: number;
}

export interface AssignFact {
  fn: number;
  lhs: Expr;
  rhs: Expr;
  /** Position in a multi-value right-hand side. */
  index?: number;
  line: number;
  /** For `x = v` to a plain identifier: leading tabs of the line (which block it stands in)... */
  indent?: number;
  /** ...and its last line when it spans several. */
  endLine?: number;
}

export interface CompositeFact {
  fn: number;
  type: string | null;
  /** Keyed fields `[name, value, line]`; a named type's unkeyed literal gives `#0`, `#1`, ... */
  fields: (readonly [string, Expr, number])[];
  line: number;
}

export interface ReturnFact {
  fn: number;
  values: Expr[];
  line: number;
}

/** `ch <- v`: a send on a channel. */
export interface SendFact {
  fn: number;
  ch: Expr;
  /** What is sent: a receive or a range over the channel gives it. */
  value?: Expr;
  line: number;
}

/** `<-ch`, or `for ... range ch` (`range` set; the linker keeps it only when `ch` is a channel). */
export interface RecvFact {
  fn: number;
  ch: Expr;
  line: number;
  range?: true;
}

export interface ImportFact {
  path: string;
  alias: string | null;
  line: number;
}

export interface FileFacts {
  v: number;
  package: string;
  /** `//go:build` expression (or `// +build` lines joined with `&&`), when present. */
  build?: string;
  imports: ImportFact[];
  funcs: FuncFact[];
  types: TypeFact[];
  values: ValueFact[];
  locals: LocalFact[];
  calls: CallFact[];
  assigns: AssignFact[];
  composites: CompositeFact[];
  returns: ReturnFact[];
  sends: SendFact[];
  recvs: RecvFact[];
  /**
   * The lines of each `for` statement, first and last in pairs: an assignment below a read
   * reaches it only through a loop around both.
   */
  loops: number[];
  /**
   * The lines of each block and case clause, first and last in pairs: an assignment dominates
   * what follows it in the innermost one around it.
   */
  blocks: number[];
  /**
   * The lines of each case clause (also in `blocks`) and of each switch and select statement,
   * first and last in pairs: what one clause assigns does not reach the clauses beside it.
   */
  clauses: number[];
  switches: number[];
  /**
   * The lines of break, continue and goto statements: an assignment below one in a block need not
   * run after what the block assigned above it.
   */
  jumps: number[];
  /** The lines of fallthrough statements: the clause that ends in one runs into the next. */
  falls: number[];
  /**
   * The first line of each block that is a plain `else` (`} else {`, not `} else if c {`): an
   * if-else chain that ends in one runs one of its branches whatever the conditions.
   */
  elses: number[];
  /** The first line of each `default` clause: a switch or select with one runs a clause. */
  defaults: number[];
  /** Syntax errors tree-sitter recovered from (line numbers). */
  errors: number[];
  lines: number;
}
