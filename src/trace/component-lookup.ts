/**
 * Which component a name on the command line means. A component is named after its main
 * package (store-graph.ts componentName), which is usually its directory (`cmd/kube-scheduler`);
 * a main package that is a module of its own may be named otherwise (cert-manager's
 * `cmd/controller` is the module `.../controller-binary`). The reader types what they see in the
 * tree, so the directory answers too: `cmd/controller`, or `controller` for `cmd/controller`.
 */
import { dirOf } from '../shared/repo-path.js';
import type { ComponentEntry } from './trace-component.js';

export interface ComponentMatch {
  entry: ComponentEntry;
  /** What followed the component in the name (`replicaset` of `kube-controller-manager/replicaset`). */
  rest?: string;
}

export function lookupComponent(
  components: readonly ComponentEntry[],
  target: string,
): ComponentMatch | undefined {
  const slash = target.indexOf('/');
  const name = slash < 0 ? target : target.slice(0, slash);
  const rest = slash < 0 ? undefined : target.slice(slash + 1);
  const named = components.find((c) => c.name === name);
  if (named) return rest === undefined ? { entry: named } : { entry: named, rest };
  // The main package's directory, whole (`cmd/controller`, `server`).
  const atDir = components.filter((c) => dirOf(c.main.file) === target.replace(/\/+$/, ''));
  if (atDir.length === 1) return { entry: atDir[0]! };
  // The last element of a `cmd/<name>` directory.
  const inCmd = components.filter((c) => cmdName(c) === name);
  if (inCmd.length === 1)
    return rest === undefined ? { entry: inCmd[0]! } : { entry: inCmd[0]!, rest };
  return undefined;
}

/** Components as an error lists them: a name its directory does not say shows the directory. */
export function componentListing(components: readonly ComponentEntry[]): string {
  const lines = [...components]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((c) => {
      const dir = dirOf(c.main.file);
      const last = dir.slice(dir.lastIndexOf('/') + 1);
      return last === c.name || dir === '' ? c.name : `${c.name}  (${dir})`;
    });
  return lines.length ? lines.join('\n  ') : '(none: no main packages found)';
}

function cmdName(c: ComponentEntry): string | undefined {
  const dir = dirOf(c.main.file);
  const m = /(?:^|\/)cmd\/([^/]+)$/.exec(dir);
  return m?.[1];
}
