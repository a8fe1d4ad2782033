/**
 * The go/ssa symbol format (DESIGN.md "Symbols"), read the one way every folder needs:
 * `k8s.io/kubernetes/cmd/kube-scheduler/app.runCommand`,
 * `(*k8s.io/kubernetes/pkg/scheduler.Scheduler).scheduleOne`, `pkg.New$1` (a closure),
 * `(*k8s.io/client-go/util/workqueue.Typed[T]).Add` (generic code by its origin), and the
 * index's own `pkg.F#f` (parameter `f` of `F`, a slot for function values) and `pkg.F#opts[]`.
 */

export interface SymbolParts {
  /** Import path, `''` when the symbol carries none. */
  package: string;
  /** The receiver type without package, pointer or type parameters (`Scheduler`), or null. */
  receiver: string | null;
  /** Whether the receiver is a pointer. */
  pointer: boolean;
  /** The member inside its package: `runCommand`, `scheduleOne`, `New$1`, `F#f`. */
  name: string;
  /** The symbol inside its package: `runCommand`, `(*Scheduler).scheduleOne`. */
  local: string;
}

export function symbolParts(symbol: string): SymbolParts {
  if (symbol.startsWith('(')) {
    const close = matchingParen(symbol);
    if (close > 0 && symbol[close + 1] === '.') {
      const inner = symbol.slice(1, close);
      const pointer = inner.startsWith('*');
      const qualified = inner.slice(pointer ? 1 : 0);
      const [pkg, type] = splitQualified(qualified);
      const name = symbol.slice(close + 2);
      return {
        package: pkg,
        receiver: type.replace(/\[.*\]$/, ''),
        pointer,
        name,
        local: `(${pointer ? '*' : ''}${type}).${name}`,
      };
    }
  }
  const [pkg, name] = splitQualified(symbol);
  return { package: pkg, receiver: null, pointer: false, name, local: name };
}

/** `(*pkg.T).M` -> `pkg.T` (a generic receiver without its parameters), or undefined. */
export function receiverType(symbol: string | undefined): string | undefined {
  if (!symbol) return undefined;
  const p = symbolParts(symbol);
  return p.receiver === null ? undefined : `${p.package}.${p.receiver}`;
}

/** `pkg.F#f` -> `pkg.F`: the function whose parameter a slot is; undefined for other symbols. */
export function slotOwner(symbol: string | undefined): string | undefined {
  if (!symbol) return undefined;
  const hash = symbol.lastIndexOf('#');
  return hash > 0 && !/^#\d+$/.test(symbol.slice(hash)) ? symbol.slice(0, hash) : undefined;
}

/** `New$1$2` -> `New`: the name without its closure suffixes. */
export function baseName(name: string): string {
  return name.replace(/(?:\$\d+)+$/, '');
}

/** Test doubles (fakes, mocks, testing packages) are never the answer while a real type exists. */
const TEST_DOUBLE =
  /(^|\/)(fake|fakes|testing|testutil|testutils|mock|mocks)(\/|$)|\.(fake|Fake|mock|Mock|stub|Stub)[A-Z\w]*(\[[^\]]*\])?\)/;

export function isTestDouble(symbol: string, pkg: string): boolean {
  return TEST_DOUBLE.test(pkg) || TEST_DOUBLE.test(symbol);
}

/** `pkg/path.Name[...]` -> [`pkg/path`, `Name[...]`]: the first dot after the last slash splits,
 * looking only before any type arguments (they may hold paths of their own). */
function splitQualified(text: string): [string, string] {
  const bracket = text.indexOf('[');
  const head = bracket === -1 ? text : text.slice(0, bracket);
  const dot = head.indexOf('.', head.lastIndexOf('/') + 1);
  if (dot === -1) return ['', text];
  return [text.slice(0, dot), text.slice(dot + 1)];
}

function matchingParen(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Whether an import path is `prefix` or below it: `k8s.io/client-go` covers
 * `k8s.io/client-go/tools/cache`, not `k8s.io/client-gofoo`.
 */
export function underPackage(pkg: string, prefix: string): boolean {
  return pkg === prefix || pkg.startsWith(`${prefix}/`);
}
