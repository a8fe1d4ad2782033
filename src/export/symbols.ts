/**
 * Shorter names for go/ssa symbols, for people. `(*k8s.io/kubernetes/pkg/scheduler.Scheduler)
 * .scheduleOne` is exact but drowns a diagram; `(*scheduler.Scheduler).scheduleOne` (the package
 * name, as Go source writes it) or `(*Scheduler).scheduleOne` (inside its own package) reads.
 */

export interface SplitSymbol {
  /** Import path, `''` when the symbol carries none. */
  package: string;
  /** The symbol inside its package: `runCommand`, `(*Scheduler).scheduleOne`, `New$1`. */
  local: string;
  /** The receiver type without package and pointer (`Scheduler`), or null for a function. */
  receiver: string | null;
  /** The function or method name with its `$N` suffix: `scheduleOne`, `New$1`. */
  member: string;
}

/** Splits a go/ssa symbol into its package path and the rest; see DESIGN.md "Symbols". */
export function splitSymbol(symbol: string): SplitSymbol {
  if (symbol.startsWith('(')) {
    const close = matchingParen(symbol);
    if (close > 0 && symbol[close + 1] === '.') {
      const inner = symbol.slice(1, close);
      const pointer = inner.startsWith('*') ? '*' : '';
      const [pkg, type] = splitQualified(inner.slice(pointer.length));
      const member = symbol.slice(close + 2);
      return { package: pkg, local: `(${pointer}${type}).${member}`, receiver: type, member };
    }
  }
  const [pkg, name] = splitQualified(symbol);
  return { package: pkg, local: name, receiver: null, member: name };
}

/**
 * The symbol as a reader wants it: without its package when that is `relativeTo` (the caller's
 * package in a tree, the cluster in a diagram), else qualified by the package's name.
 */
export function shortSymbol(symbol: string, relativeTo?: string): string {
  const split = splitSymbol(symbol);
  if (split.package === '' || split.package === relativeTo) return split.local;
  const name = packageName(split.package);
  if (split.receiver === null) return `${name}.${split.local}`;
  return split.local.replace(/^\((\*?)/, `($1${name}.`);
}

/**
 * The name a reader knows a package by: the last element of its path, skipping a major-version
 * suffix (`k8s.io/klog/v2` is `klog`, `gopkg.in/yaml.v2` is `yaml`). For `main` packages the
 * directory (`kube-scheduler`) says more than `main` would.
 */
export function packageName(importPath: string): string {
  const parts = importPath.split('/');
  let last = parts.at(-1) ?? importPath;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts.at(-2) ?? last;
  return last.replace(/\.v\d+$/, '');
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

function matchingParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}
