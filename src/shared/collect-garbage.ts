/**
 * A full garbage collection on demand, for the one moment an index knows most of its heap just
 * died: the link's model and memos once its rows are made (v1.24: 1.1 GB of heap, 173 MB of it
 * live). Left to itself V8 only scavenges the young generation there and grows the old one
 * through the write, so those pages were still held at the index's peak.
 *
 * Node offers `gc` only to a process started with --expose-gc; the flag set now exposes it to
 * contexts made afterwards, and a new context hands it back. Where that fails, nothing is done.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null | undefined;

/** Runs a full collection; false when this Node offers none. */
export function collectGarbage(): boolean {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const gc: unknown = vm.runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  if (!collect) return false;
  collect();
  return true;
}
