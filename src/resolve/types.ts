/**
 * Go types as the resolver sees them, parsed from the type text the indexer stored. Named types
 * carry their package import path, so `framework.Framework` in one file and `Framework` in another
 * compare equal. Types from packages that are not in the index stay named (we know their path from
 * the import) but have no declaration: calls on them are "external", not "unresolved".
 */

export type GoType =
  | { k: 'named'; pkg: string; name: string; args?: GoType[] }
  | { k: 'ptr'; elem: GoType }
  | { k: 'slice'; elem: GoType }
  | { k: 'map'; key: GoType; elem: GoType }
  /** `dir`: `<-chan T` receives only, `chan<- T` sends only; none for `chan T`. */
  | { k: 'chan'; elem: GoType; dir?: 'recv' | 'send' }
  | { k: 'func'; params: GoType[]; results: GoType[]; variadic?: boolean }
  /**
   * `pkg`: for a struct type written out, the package whose text writes it; its fields' values are
   * told apart from another package's struct of the same shape (fieldOwnerKey).
   */
  | { k: 'struct'; fields: { name: string | null; type: GoType }[]; pkg?: string }
  | { k: 'iface'; methods: string[] }
  | { k: 'tuple'; items: GoType[] }
  /** A type parameter; `bound`: its constraint when that is a named interface (its methods). */
  | { k: 'typeparam'; name: string; bound?: GoType }
  | { k: 'unknown' };

export const UNKNOWN: GoType = { k: 'unknown' };

const BUILTIN_TYPES = new Set([
  'bool',
  'byte',
  'complex64',
  'complex128',
  'error',
  'float32',
  'float64',
  'int',
  'int8',
  'int16',
  'int32',
  'int64',
  'rune',
  'string',
  'uint',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'uintptr',
  'any',
  'comparable',
]);

export function builtin(name: string): GoType {
  return { k: 'named', pkg: '', name };
}

export function isBuiltinType(name: string): boolean {
  return BUILTIN_TYPES.has(name);
}

/** How a type name is looked up where the text appears. */
export interface TypeScope {
  /** Import path of the package the text appears in. */
  pkg: string;
  /** Import alias (or package name) -> import path, for this file. */
  imports: ReadonlyMap<string, string>;
  /** Type parameters in scope (generic functions and types). */
  typeParams?: ReadonlySet<string>;
  /** Their constraints, where those are named interfaces (`T objectWithMeta`). */
  bounds?: ReadonlyMap<string, GoType>;
}

export function parseType(text: string, scope: TypeScope): GoType {
  const p = new TypeParser(text, scope);
  try {
    const t = p.type();
    return t;
  } catch {
    return UNKNOWN;
  }
}

class TypeParser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly scope: TypeScope,
  ) {}

  private peek(str: string): boolean {
    this.ws();
    return this.s.startsWith(str, this.i);
  }

  private eat(str: string): boolean {
    if (this.peek(str)) {
      this.i += str.length;
      return true;
    }
    return false;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private ident(): string {
    this.ws();
    const m = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(this.s.slice(this.i));
    if (!m) throw new Error(`identifier expected at ${this.i} in ${this.s}`);
    this.i += m[0].length;
    return m[0];
  }

  type(): GoType {
    this.ws();
    if (this.eat('(')) {
      const t = this.type();
      this.eat(')');
      return t;
    }
    if (this.eat('*')) return { k: 'ptr', elem: this.type() };
    if (this.eat('...')) return { k: 'slice', elem: this.type() };
    if (this.eat('[]')) return { k: 'slice', elem: this.type() };
    if (this.peek('[')) {
      // Array: `[N]T` — the length does not matter to resolution.
      const close = this.s.indexOf(']', this.i);
      this.i = close + 1;
      return { k: 'slice', elem: this.type() };
    }
    if (this.eat('<-')) {
      this.eat('chan');
      return { k: 'chan', elem: this.type(), dir: 'recv' };
    }
    if (this.peekKeyword('chan')) {
      this.eat('chan');
      if (this.eat('<-')) return { k: 'chan', elem: this.type(), dir: 'send' };
      return { k: 'chan', elem: this.type() };
    }
    if (this.peekKeyword('map')) {
      this.eat('map');
      this.eat('[');
      const key = this.type();
      this.eat(']');
      return { k: 'map', key, elem: this.type() };
    }
    if (this.peekKeyword('func')) {
      this.eat('func');
      return this.signature();
    }
    if (this.peekKeyword('struct')) {
      this.eat('struct');
      return this.structBody();
    }
    if (this.peekKeyword('interface')) {
      this.eat('interface');
      return this.interfaceBody();
    }
    const first = this.ident();
    let t: GoType;
    if (this.s[this.i] === '.') {
      this.i++;
      const name = this.ident();
      const pkg = this.scope.imports.get(first);
      t = pkg === undefined ? UNKNOWN : { k: 'named', pkg, name };
    } else if (this.scope.typeParams?.has(first)) {
      const bound = this.scope.bounds?.get(first);
      t = bound ? { k: 'typeparam', name: first, bound } : { k: 'typeparam', name: first };
    } else if (BUILTIN_TYPES.has(first)) {
      t = builtin(first);
    } else {
      t = { k: 'named', pkg: this.scope.pkg, name: first };
    }
    if (this.peek('[') && !this.peek('[]')) {
      this.eat('[');
      const args: GoType[] = [this.type()];
      while (this.eat(',')) args.push(this.type());
      this.eat(']');
      if (t.k === 'named') t = { ...t, args };
    }
    return t;
  }

  private peekKeyword(word: string): boolean {
    this.ws();
    if (!this.s.startsWith(word, this.i)) return false;
    const next = this.s[this.i + word.length];
    return next === undefined || !/[\p{L}\p{N}_]/u.test(next);
  }

  private signature(): GoType {
    const params = this.paramList();
    let results: GoType[] = [];
    this.ws();
    if (this.peek('(')) results = this.paramList().types;
    else if (this.i < this.s.length && !/^[,)\]};]/.test(this.s[this.i]!)) results = [this.type()];
    return {
      k: 'func',
      params: params.types,
      results,
      ...(params.variadic ? { variadic: true } : {}),
    };
  }

  /** `(a, b int, c string)` or `(int, error)`: names are told apart from types by lookahead. */
  private paramList(): { types: GoType[]; variadic: boolean } {
    this.eat('(');
    const groups: string[] = [];
    let depth = 0;
    let start = this.i;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i]!;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) {
        groups.push(this.s.slice(start, this.i).trim());
        start = this.i + 1;
      }
    }
    const last = this.s.slice(start, this.i).trim();
    if (last) groups.push(last);
    this.eat(')');
    const types: GoType[] = [];
    let variadic = false;
    // In `(a, b int)` every group is "name [type]"; in `(int, error)` every group is a type. The
    // stored text has no space before `*`, `[` or `...`: `(req*http.Request,ok bool)`,
    // `(format string,args...interface{})` name their parameters; `(List[int])` does not.
    const named = groups.some((g) => namedGroup(g) !== undefined);
    let pending = 0;
    for (const g of groups) {
      if (named) {
        const text = namedGroup(g);
        if (text === undefined) {
          pending++;
          continue;
        }
        if (text.startsWith('...')) variadic = true;
        const t = parseType(text, this.scope);
        for (let n = 0; n <= pending; n++) types.push(t);
        pending = 0;
      } else {
        if (g.startsWith('...')) variadic = true;
        types.push(parseType(g, this.scope));
      }
    }
    return { types, variadic };
  }

  private structBody(): GoType {
    const body = this.braced();
    const fields: { name: string | null; type: GoType }[] = [];
    for (const line of members(body)) {
      const text = line.replace(/`[^`]*`|"[^"]*"$/g, '').trim();
      if (!text) continue;
      // Stored type text has no space before `*` or `[`: `rand*rand.Rand`, `xs[]string` are
      // fields; `Base[T]`, with nothing after its brackets, embeds a generic type.
      const m =
        /^([\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*)(?:\s+|(?=\*)|(?=\[[^\]]*\].))(.+)$/u.exec(
          text,
        );
      if (m && !/^\*|\./.test(m[1]!)) {
        const t = parseType(m[2]!, this.scope);
        for (const name of m[1]!.split(',')) fields.push({ name: name.trim(), type: t });
      } else fields.push({ name: null, type: parseType(text, this.scope) });
    }
    return { k: 'struct', fields, pkg: this.scope.pkg };
  }

  private interfaceBody(): GoType {
    const body = this.braced();
    const methods: string[] = [];
    for (const line of members(body)) {
      const m = /^\s*([\p{L}_][\p{L}\p{N}_]*)\s*\(/u.exec(line);
      if (m) methods.push(m[1]!);
    }
    return { k: 'iface', methods };
  }

  private braced(): string {
    this.ws();
    if (this.s[this.i] !== '{') return '';
    let depth = 0;
    const start = this.i + 1;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          this.i++;
          return this.s.slice(start, this.i - 1);
        }
      }
    }
    return this.s.slice(start);
  }
}

/**
 * The type of a parameter group that names its parameter (`r*http.Request`, `args...string`,
 * `xs[]int`, `ctx context.Context`), or undefined for a type alone (`*T`, `List[int]`,
 * `chan int`, `pkg.T`).
 */
function namedGroup(group: string): string | undefined {
  const m = /^([\p{L}_][\p{L}\p{N}_]*)(?:\s+|(?=\*)|(?=\.\.\.)|(?=\[[^\]]*\].))(.+)$/su.exec(group);
  if (!m || /^(func|chan|map|struct|interface)$/.test(m[1]!)) return undefined;
  return m[2]!.trim();
}

/**
 * The members of a struct or interface body, split where a `;` (or a line break) ends one at the
 * body's own depth: a nested `struct{a int;b int}` stays one member.
 */
function members(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if ((c === ';' || c === '\n') && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** `*T` -> T; anything else unchanged. */
export function deref(t: GoType): GoType {
  return t.k === 'ptr' ? t.elem : t;
}

/** A type's identity by origin: `pkg.List` for every instantiation of `List` (symbols, owners). */
export function typeKey(t: GoType): string {
  return keyOf(t, false);
}

/**
 * Whose field a selected field is, as value flow keys what is stored there: a named type's key;
 * for a struct type written out (`var cache struct{ sync.RWMutex; m map[reflect.Type]encoderFunc }`),
 * its package and its fields' names and types, so that two packages' copies of the same code
 * (encoding/json forked twice in vendor/) keep their stores apart.
 */
export function fieldOwnerKey(t: GoType): string {
  if (t.k !== 'struct') return typeKey(t);
  const fields = t.fields.map((f) => `${f.name ?? ''} ${fieldOwnerKey(f.type)}`).join(';');
  return `${t.pkg ?? ''}.struct{${fields}}`;
}

/** typeKey with the type arguments of instantiations: `pkg.List[*pkg.Item]` (memo keys). */
export function instanceKey(t: GoType): string {
  return keyOf(t, true);
}

function keyOf(t: GoType, args: boolean): string {
  const key = (x: GoType) => keyOf(x, args);
  switch (t.k) {
    case 'named': {
      const base = t.pkg ? `${t.pkg}.${t.name}` : t.name;
      return args && t.args ? `${base}[${t.args.map(key).join(',')}]` : base;
    }
    case 'ptr':
      return `*${key(t.elem)}`;
    case 'slice':
      return `[]${key(t.elem)}`;
    case 'map':
      return `map[${key(t.key)}]${key(t.elem)}`;
    case 'chan':
      // The direction is part of the type: `Run(chan struct{})` does not implement an interface's
      // `Run(<-chan struct{})`.
      return `${t.dir === 'recv' ? '<-chan' : t.dir === 'send' ? 'chan<-' : 'chan'} ${key(t.elem)}`;
    case 'func': {
      const results = args && t.results.length > 0 ? ` (${t.results.map(key).join(', ')})` : '';
      return `func(${t.params.map(key).join(', ')})${results}`;
    }
    case 'tuple':
      return `(${t.items.map(key).join(', ')})`;
    case 'struct':
      return 'struct{...}';
    case 'iface':
      // Memo keys tell two anonymous interfaces apart by their methods (the first asked answered
      // for every other: `interface{ Field(...) }` took the implementations of another).
      return args ? `interface{${t.methods.join('; ')}}` : 'interface{...}';
    case 'typeparam':
      return t.name;
    case 'unknown':
      return '?';
  }
}

/** Type-parameter name -> the type argument it stands for in one instantiation. */
export type TypeArgs = ReadonlyMap<string, GoType>;

/** Binds declared type-parameter names to the arguments of an instantiation, pairwise. */
export function bindTypeArgs(
  names: readonly (string | null)[],
  args: readonly GoType[] | undefined,
): TypeArgs | undefined {
  if (!args?.length || names.length === 0) return undefined;
  const bound = new Map<string, GoType>();
  names.forEach((n, i) => {
    const a = args[i];
    if (n && a) bound.set(n, a);
  });
  return bound.size > 0 ? bound : undefined;
}

/** `t` with every type parameter bound in `args` replaced by its argument. */
export function substitute(t: GoType, args: TypeArgs | undefined): GoType {
  if (!args || args.size === 0) return t;
  switch (t.k) {
    case 'typeparam':
      return args.get(t.name) ?? t;
    case 'named':
      return t.args ? { ...t, args: t.args.map((a) => substitute(a, args)) } : t;
    case 'ptr':
    case 'slice':
    case 'chan':
      return { ...t, elem: substitute(t.elem, args) };
    case 'map':
      return { k: 'map', key: substitute(t.key, args), elem: substitute(t.elem, args) };
    case 'func':
      return {
        ...t,
        params: t.params.map((p) => substitute(p, args)),
        results: t.results.map((r) => substitute(r, args)),
      };
    case 'tuple':
      return { k: 'tuple', items: t.items.map((i) => substitute(i, args)) };
    case 'struct':
      return {
        k: 'struct',
        fields: t.fields.map((f) => ({ name: f.name, type: substitute(f.type, args) })),
      };
    default:
      return t;
  }
}

/** Whether a type mentions a type parameter or a type the text did not resolve. */
export function isOpen(t: GoType): boolean {
  switch (t.k) {
    case 'typeparam':
    case 'unknown':
      return true;
    case 'named':
      return t.args?.some(isOpen) ?? false;
    case 'ptr':
    case 'slice':
    case 'chan':
      return isOpen(t.elem);
    case 'map':
      return isOpen(t.key) || isOpen(t.elem);
    case 'func':
      return t.params.some(isOpen) || t.results.some(isOpen);
    case 'tuple':
      return t.items.some(isOpen);
    case 'struct':
      return t.fields.some((f) => isOpen(f.type));
    default:
      return false;
  }
}

/**
 * Binds type parameters by matching a parameter's declared type against the type of the argument
 * passed (function argument type inference, for the shapes that matter here: `T`, `*T`, `[]T`,
 * `map[K]V`, `func(T) U`, `List[T]`). Bindings already made are kept.
 */
export function unify(param: GoType, arg: GoType, into: Map<string, GoType>, depth = 0): void {
  if (depth > 8 || arg.k === 'unknown') return;
  switch (param.k) {
    case 'typeparam':
      if (!into.has(param.name) && arg.k !== 'tuple') into.set(param.name, arg);
      return;
    case 'ptr':
    case 'slice':
    case 'chan':
      if (arg.k === param.k) unify(param.elem, arg.elem, into, depth + 1);
      return;
    case 'map':
      if (arg.k === 'map') {
        unify(param.key, arg.key, into, depth + 1);
        unify(param.elem, arg.elem, into, depth + 1);
      }
      return;
    case 'func':
      if (arg.k === 'func') {
        param.params.forEach((p, i) => arg.params[i] && unify(p, arg.params[i]!, into, depth + 1));
        param.results.forEach(
          (r, i) => arg.results[i] && unify(r, arg.results[i]!, into, depth + 1),
        );
      }
      return;
    case 'named':
      if (param.args && arg.k === 'named' && arg.args && typeKey(arg) === typeKey(param))
        param.args.forEach((p, i) => arg.args![i] && unify(p, arg.args![i]!, into, depth + 1));
      return;
    default:
      return;
  }
}
