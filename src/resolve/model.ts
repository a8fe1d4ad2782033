/**
 * The program model the resolver works on: packages (by import path) with their files, types,
 * functions, methods and package-level values, every function named as go/ssa names it. Built in
 * memory from the stored facts of one tree.
 */
import type { Expr, FileFacts, FuncFact, LocalFact, TypeFact, ValueFact } from '../index/facts.js';
import type { ModuleLayout } from '../index/modules.js';
import { push } from '../shared/multimap.js';
import { dirOf } from '../shared/repo-path.js';
import type { TypeScope } from './types.js';

export interface FileModel {
  path: string;
  pkg: PackageModel;
  facts: FileFacts;
  /** alias -> import path (the alias defaults to the last path element, fixed later by name). */
  imports: Map<string, string>;
  scope: TypeScope;
  /** Global function ids, parallel to facts.funcs. */
  funcIds: number[];
  localsByFn?: Map<number, Map<string, LocalFact[]>>;
}

export interface PackageModel {
  path: string;
  name: string;
  dir: string;
  files: FileModel[];
  types: Map<string, TypeDecl>;
  funcs: Map<string, FuncRef>;
  values: Map<string, ValueDecl>;
  /** Base type name -> method name -> method. */
  methods: Map<string, Map<string, FuncRef>>;
}

export interface FuncRef {
  id: number;
  /** Mutable only while the model is built (init literals are renumbered in init order). */
  symbol: string;
  file: FileModel;
  index: number;
  fact: FuncFact;
  pkg: PackageModel;
  /** For literals: the enclosing function's id. */
  parentId?: number;
}

export interface TypeDecl {
  symbol: string;
  name: string;
  pkg: PackageModel;
  file: FileModel;
  fact: TypeFact;
}

export interface ValueDecl {
  symbol: string;
  pkg: PackageModel;
  file: FileModel;
  fact: ValueFact;
}

export interface ProgramModel {
  packages: Map<string, PackageModel>;
  funcs: FuncRef[];
  files: FileModel[];
  /** Files left out of resolution by build constraints (path -> reason). */
  excluded: Map<string, string>;
}

export interface ModelInput {
  path: string;
  facts: FileFacts;
}

/** The build context resolution assumes, as `go build` on linux/amd64 (and the VTA oracle) does. */
const GOOS = 'linux';
const GOARCH = 'amd64';
const KNOWN_OS = new Set([
  'aix',
  'android',
  'darwin',
  'dragonfly',
  'freebsd',
  'hurd',
  'illumos',
  'ios',
  'js',
  'linux',
  'nacl',
  'netbsd',
  'openbsd',
  'plan9',
  'solaris',
  'wasip1',
  'windows',
  'zos',
]);
const KNOWN_ARCH = new Set([
  '386',
  'amd64',
  'amd64p32',
  'arm',
  'armbe',
  'arm64',
  'arm64be',
  'loong64',
  'mips',
  'mipsle',
  'mips64',
  'mips64le',
  'mips64p32',
  'mips64p32le',
  'ppc',
  'ppc64',
  'ppc64le',
  'riscv',
  'riscv64',
  's390',
  's390x',
  'sparc',
  'sparc64',
  'wasm',
]);

export function buildModel(
  inputs: readonly ModelInput[],
  layout: ModuleLayout,
  tags: ReadonlySet<string> = new Set(),
): ProgramModel {
  const packages = new Map<string, PackageModel>();
  const files: FileModel[] = [];
  const excluded = new Map<string, string>();
  const sorted = [...inputs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const input of sorted) {
    const why = excludedByBuild(input.path, input.facts.build, tags);
    if (why) {
      excluded.set(input.path, why);
      continue;
    }
    const dir = dirOf(input.path);
    const importPath = layout.importPathOf(dir);
    if (!importPath || !input.facts.package) {
      excluded.set(input.path, 'outside every module');
      continue;
    }
    // `package foo_test` files beside `package foo` form another package.
    const pkgPath = input.facts.package.endsWith('_test') ? `${importPath}_test` : importPath;
    let pkg = packages.get(pkgPath);
    if (!pkg) {
      pkg = {
        path: pkgPath,
        name: input.facts.package,
        dir,
        files: [],
        types: new Map(),
        funcs: new Map(),
        values: new Map(),
        methods: new Map(),
      };
      packages.set(pkgPath, pkg);
    }
    const imports = new Map<string, string>();
    nameImports(imports, input.facts, defaultImportName);
    const file: FileModel = {
      path: input.path,
      pkg,
      facts: input.facts,
      imports,
      scope: { pkg: pkgPath, imports },
      funcIds: [],
    };
    pkg.files.push(file);
    files.push(file);
  }
  const model: ProgramModel = { packages, funcs: [], files, excluded };
  for (const file of files) declare(model, file);
  for (const pkg of packages.values()) numberInitLiterals(model, pkg);
  return model;
}

/**
 * go/ssa numbers the function literals of package-level initializers `init$N` in the order the
 * variables are initialized: declaration order, except that a variable waits for the package
 * variables its initializer refers to (inside its function literals too), as the Go spec says.
 */
function numberInitLiterals(model: ProgramModel, pkg: PackageModel): void {
  interface VarInit {
    name: string;
    file: FileModel;
    literals: number[];
    deps: Set<string>;
  }
  const vars: VarInit[] = [];
  for (const file of pkg.files) {
    const facts = file.facts;
    // The expressions of each function's body, gathered once a file: a scan of the whole file per
    // literal was quadratic in files of many initialized variables (generated tables).
    let bodies: Map<number, Expr[]> | undefined;
    const bodyOf = (fn: number): readonly Expr[] => {
      if (!bodies) bodies = bodyExprs(facts);
      return bodies.get(fn) ?? [];
    };
    for (const v of facts.values) {
      if (!v.value || v.const) continue;
      const literals: number[] = [];
      const idents = new Set<string>();
      collectRefs(v.value, literals, idents);
      // References inside the literals' bodies count too (and so do their nested literals).
      for (let i = 0; i < literals.length; i++)
        for (const e of bodyOf(literals[i]!)) collectRefs(e, literals, idents);
      const topLevel = literals.filter((i) => facts.funcs[i]?.parent === -1);
      if (topLevel.length === 0 && idents.size === 0) continue;
      vars.push({
        name: v.name,
        file,
        literals: [...new Set(topLevel)].sort((a, b) => a - b),
        deps: idents,
      });
    }
  }
  if (!vars.some((v) => v.literals.length > 0)) return;
  const pending = new Set(vars.map((v) => v.name));
  const order: VarInit[] = [];
  const remaining = [...vars];
  while (remaining.length > 0) {
    let i = remaining.findIndex((v) => !waitsFor(v, pending));
    if (i < 0) i = 0; // a cycle: the spec rejects it; keep declaration order
    const [next] = remaining.splice(i, 1);
    pending.delete(next!.name);
    order.push(next!);
  }
  let counter = 0;
  const renamed = new Map<number, string>();
  for (const v of order) {
    for (const index of v.literals) {
      const id = v.file.funcIds[index];
      if (id === undefined) continue;
      renamed.set(id, `${pkg.path}.init$${++counter}`);
    }
  }
  // Apply, then rename nested literals from their (new) parents, in declaration order (global
  // ids: the package's files were declared in turn, each function after the one enclosing it).
  const ids = pkg.files.flatMap((file) => file.funcIds).sort((a, b) => a - b);
  for (const id of ids) {
    const f = model.funcs[id]!;
    if (f.fact.kind !== 'lit') continue;
    const fresh = renamed.get(f.id);
    if (fresh) f.symbol = fresh;
    else if (f.parentId !== undefined) {
      const parent = model.funcs[f.parentId];
      if (parent && renamed.has(parent.id)) f.symbol = `${parent.symbol}$${f.fact.name}`;
      else if (parent && parent.fact.kind === 'lit' && f.symbol.startsWith(`${pkg.path}.init$`))
        f.symbol = `${parent.symbol}$${f.fact.name}`;
    }
  }
}

/** Whether a variable's initializer refers to another variable not yet initialized. */
function waitsFor(v: { name: string; deps: Set<string> }, pending: Set<string>): boolean {
  for (const d of v.deps) if (d !== v.name && pending.has(d)) return true;
  return false;
}

/** Each function's body expressions: its calls' callees and arguments, returns, assignments, locals. */
function bodyExprs(facts: FileFacts): Map<number, Expr[]> {
  const bodies = new Map<number, Expr[]>();
  for (const c of facts.calls) {
    push(bodies, c.fn, c.callee);
    for (const a of c.args) push(bodies, c.fn, a);
  }
  for (const r of facts.returns) for (const v of r.values) push(bodies, r.fn, v);
  for (const a of facts.assigns) {
    push(bodies, a.fn, a.lhs);
    push(bodies, a.fn, a.rhs);
  }
  for (const l of facts.locals) if (l.value) push(bodies, l.fn, l.value);
  return bodies;
}

function collectRefs(e: Expr, literals: number[], idents: Set<string>, depth = 0): void {
  if (depth > 12) return;
  switch (e[0]) {
    case 'i':
      idents.add(e[1]);
      return;
    case 'f':
      literals.push(e[1]);
      return;
    case 's':
      collectRefs(e[1], literals, idents, depth + 1);
      return;
    case 'c':
      collectRefs(e[1], literals, idents, depth + 1);
      for (const a of e[2]) collectRefs(a, literals, idents, depth + 1);
      return;
    case 'l':
      for (const [, v] of e[2]) collectRefs(v, literals, idents, depth + 1);
      for (const v of e[3] ?? []) collectRefs(v, literals, idents, depth + 1);
      return;
    case 'u':
      collectRefs(e[2], literals, idents, depth + 1);
      return;
    case 'b':
      collectRefs(e[2], literals, idents, depth + 1);
      collectRefs(e[3], literals, idents, depth + 1);
      return;
    case 'x':
    case 'g':
    case 'sl':
    case 'a':
      collectRefs(e[1], literals, idents, depth + 1);
      return;
    default:
      return;
  }
}

/**
 * The name a package is imported under when no alias is given: the last path element, minus a
 * major-version suffix (`k8s.io/klog/v2` -> `klog`) or a `go-`/`.go` decoration. The package clause
 * of the imported package, when indexed, wins (see fixImportNames).
 */
export function defaultImportName(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1] ?? path;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2] ?? last;
  if (last.startsWith('go-')) last = last.slice(3);
  return last
    .replace(/\.v\d+$/, '')
    .replace(/\.go$/, '')
    .replace(/[-.]/g, '_');
}

/** Names a package of this path may have besides defaultImportName's: joined, or without `-go`. */
function otherImportNames(path: string): string[] {
  const base = defaultImportName(path);
  const out = new Set<string>();
  if (base.includes('_')) out.add(base.replace(/_/g, ''));
  const trimmed = /^(.+)_go$/.exec(base)?.[1];
  if (trimmed) out.add(trimmed);
  out.delete(base);
  return [...out].filter((n) => /^[A-Za-z][A-Za-z0-9_]*$/.test(n));
}

/**
 * Where an import's package is indexed, its package clause is its default name. A file whose
 * guesses were wrong has its names made again, all at once: a guess can have hidden another import
 * (`.../apis/abac/v0`, guessed `abac`, over `.../apis/abac`, whose name `abac` is), and putting the
 * right name in its place must bring the hidden one back.
 */
export function fixImportNames(model: ProgramModel): void {
  for (const file of model.files) {
    const wrong = file.facts.imports.some((imp) => {
      if (imp.alias) return false;
      const pkg = model.packages.get(imp.path);
      return pkg !== undefined && pkg.name !== defaultImportName(imp.path);
    });
    if (wrong) {
      file.imports.clear();
      nameImports(
        file.imports,
        file.facts,
        (path) => model.packages.get(path)?.name ?? defaultImportName(path),
      );
    }
    // A package the index does not hold may be named otherwise than its path says
    // (`github.com/evanphx/json-patch` is `jsonpatch`, `gettext-go` is `gettext`): those names
    // too, where nothing else in the file is called so.
    for (const imp of file.facts.imports) {
      if (imp.alias || model.packages.has(imp.path)) continue;
      for (const name of otherImportNames(imp.path))
        if (!file.imports.has(name)) file.imports.set(name, imp.path);
    }
  }
}

/** A file's imports by the name each is used under: its alias, else `nameOf` its path. */
function nameImports(
  into: Map<string, string>,
  facts: FileFacts,
  nameOf: (path: string) => string,
): void {
  for (const imp of facts.imports) {
    if (imp.alias === '_' || imp.alias === '.') continue;
    into.set(imp.alias ?? nameOf(imp.path), imp.path);
  }
}

function declare(model: ProgramModel, file: FileModel): void {
  const pkg = file.pkg;
  const facts = file.facts;
  facts.funcs.forEach((fact, index) => {
    const id = model.funcs.length;
    file.funcIds.push(id);
    let symbol: string;
    let parentId: number | undefined;
    if (fact.kind === 'lit') {
      if (fact.parent !== undefined && fact.parent >= 0) {
        parentId = file.funcIds[fact.parent];
        const parent = parentId === undefined ? undefined : model.funcs[parentId];
        symbol = `${parent?.symbol ?? `${pkg.path}.?`}$${fact.name}`;
      } else {
        // Literals in package-level initializers belong to the package's init, numbered across
        // the package's files in file-name order (as go/ssa does).
        const counter = (initLiteralCounters.get(pkg) ?? 0) + 1;
        initLiteralCounters.set(pkg, counter);
        symbol = `${pkg.path}.init$${counter}`;
      }
    } else if (fact.kind === 'method' && fact.recv) {
      const typeArgs = fact.recv.typeArgs?.length ? `[${fact.recv.typeArgs.join(',')}]` : '';
      const recvType = `${pkg.path}.${fact.recv.type}${typeArgs}`;
      symbol = fact.recv.ptr ? `(*${recvType}).${fact.name}` : `(${recvType}).${fact.name}`;
    } else if (fact.name === 'init') {
      const counter = (initFuncCounters.get(pkg) ?? 0) + 1;
      initFuncCounters.set(pkg, counter);
      symbol = `${pkg.path}.init#${counter}`;
    } else {
      symbol = `${pkg.path}.${fact.name}`;
    }
    const ref: FuncRef = {
      id,
      symbol,
      file,
      index,
      fact,
      pkg,
      ...(parentId !== undefined ? { parentId } : {}),
    };
    model.funcs.push(ref);
    if (fact.kind === 'func' && fact.name !== 'init' && fact.name !== '_')
      pkg.funcs.set(fact.name, ref);
    if (fact.kind === 'method' && fact.recv) {
      let byName = pkg.methods.get(fact.recv.type);
      if (!byName) pkg.methods.set(fact.recv.type, (byName = new Map()));
      byName.set(fact.name, ref);
    }
  });
  for (const fact of facts.types) {
    pkg.types.set(fact.name, {
      symbol: `${pkg.path}.${fact.name}`,
      name: fact.name,
      pkg,
      file,
      fact,
    });
  }
  for (const fact of facts.values) {
    if (fact.name === '_') continue;
    pkg.values.set(fact.name, { symbol: `${pkg.path}.${fact.name}`, pkg, file, fact });
  }
}

const initLiteralCounters = new WeakMap<PackageModel, number>();
const initFuncCounters = new WeakMap<PackageModel, number>();

/** Why a file is not part of a linux/amd64 build, or null when it is. */
export function excludedByBuild(
  path: string,
  build: string | undefined,
  tags: ReadonlySet<string>,
): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.go$/, '');
  const parts = base.split('_');
  if (parts[parts.length - 1] === 'test') parts.pop();
  const last = parts[parts.length - 1];
  const prev = parts[parts.length - 2];
  if (parts.length > 1 && last !== undefined) {
    if (KNOWN_ARCH.has(last)) {
      if (last !== GOARCH) return `file name says GOARCH=${last}`;
      if (parts.length > 2 && prev !== undefined && KNOWN_OS.has(prev) && prev !== GOOS)
        return `file name says GOOS=${prev}`;
    } else if (KNOWN_OS.has(last) && last !== GOOS) return `file name says GOOS=${last}`;
  }
  if (build && !evalBuild(build, tags)) return `build constraint: ${build}`;
  return null;
}

function evalBuild(expr: string, tags: ReadonlySet<string>): boolean {
  const tokens = expr.match(/!|&&|\|\||\(|\)|[\w.\-/]+/g) ?? [];
  let i = 0;
  const isTrue = (tag: string) =>
    tag === GOOS ||
    tag === GOARCH ||
    tag === 'unix' ||
    tag === 'gc' ||
    tag === 'cgo' ||
    /^go1\.\d+$/.test(tag) ||
    tags.has(tag);
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === '||') {
      i++;
      const r = and();
      v = v || r;
    }
    return v;
  };
  const and = (): boolean => {
    let v = not();
    while (tokens[i] === '&&') {
      i++;
      const r = not();
      v = v && r;
    }
    return v;
  };
  const not = (): boolean => {
    if (tokens[i] === '!') {
      i++;
      return !not();
    }
    if (tokens[i] === '(') {
      i++;
      const v = or();
      i++;
      return v;
    }
    const tag = tokens[i++] ?? '';
    return isTrue(tag);
  };
  try {
    return or();
  } catch {
    return true;
  }
}

/** Locals of one function, by name (built on first use). */
export function localsOf(file: FileModel, fn: number): Map<string, LocalFact[]> | undefined {
  if (!file.localsByFn) {
    file.localsByFn = new Map();
    for (const local of file.facts.locals) {
      let byName = file.localsByFn.get(local.fn);
      if (!byName) file.localsByFn.set(local.fn, (byName = new Map()));
      const list = byName.get(local.name);
      if (list) list.push(local);
      else byName.set(local.name, [local]);
    }
  }
  return file.localsByFn.get(fn);
}
