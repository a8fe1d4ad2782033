/**
 * Shorter names for go/ssa symbols, for people. `(*k8s.io/kubernetes/pkg/scheduler.Scheduler)
 * .scheduleOne` is exact but drowns a diagram; `(*scheduler.Scheduler).scheduleOne` (the package
 * name, as Go source writes it) or `(*Scheduler).scheduleOne` (inside its own package) reads.
 */

import { symbolParts } from '../shared/go-symbol.js';

export interface SplitSymbol {
  /** Import path, `''` when the symbol carries none. */
  package: string;
  /** The symbol inside its package: `runCommand`, `(*Scheduler).scheduleOne`, `New$1`. */
  local: string;
  /** The receiver type without package, pointer or type parameters (`Scheduler`), or null. */
  receiver: string | null;
  /** The function or method name with its `$N` suffix: `scheduleOne`, `New$1`. */
  member: string;
}

/** Splits a go/ssa symbol into its package path and the rest; see DESIGN.md "Symbols". */
export function splitSymbol(symbol: string): SplitSymbol {
  const { package: pkg, local, receiver, name } = symbolParts(symbol);
  return { package: pkg, local, receiver, member: name };
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
