/**
 * The pieces of a symbol that `tour check` compares when it looks for where a vanished symbol went:
 * the package, the receiver type and the member name. (src/export has a fuller splitter for
 * display; the layering keeps src/tour from importing it.)
 */

export interface SymbolParts {
  /** `k8s.io/kubernetes/pkg/scheduler` */
  package: string;
  /** `Scheduler` for `(*...Scheduler).scheduleOne`, null for a function or a type. */
  receiver: string | null;
  /** `scheduleOne`, `New$1`, `Pod` */
  name: string;
}

export function symbolParts(symbol: string): SymbolParts {
  const method = /^\(\*?(.+)\.([^.()]+)\)\.(.+)$/u.exec(symbol);
  // A generic receiver's type parameters (`Controller[request]`) are not part of its name.
  if (method)
    return { package: method[1]!, receiver: method[2]!.replace(/\[.*\]$/, ''), name: method[3]! };
  const slash = symbol.lastIndexOf('/');
  const dot = symbol.indexOf('.', slash + 1);
  if (dot === -1) return { package: '', receiver: null, name: symbol };
  return { package: symbol.slice(0, dot), receiver: null, name: symbol.slice(dot + 1) };
}

/** The name without its closure suffix: `New$1` -> `New`. */
export function baseName(name: string): string {
  return name.replace(/(?:\$\d+)+$/, '');
}
