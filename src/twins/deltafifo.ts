/**
 * The queue between a reflector and an informer: for every key, the list of things that happened
 * to the object (its deltas) since it was last popped, and the keys in arrival order.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/delta_fifo.go at Kubernetes v1.24 (client-go
 * v0.24): Added/Updated/Deleted/Replaced/Sync deltas; a key is queued once however many deltas
 * pile up; two consecutive deletes collapse into one (keeping the one with more information);
 * Delete of a key nobody knows is ignored; Replace (a relist) queues Replaced deltas and, for every
 * known key missing from the new list, a Deleted delta carrying a DeletedFinalStateUnknown
 * tombstone; Resync queues Sync deltas for known keys with nothing pending; Pop hands the deltas
 * to a process function and re-adds them on ErrRequeue; HasSynced turns true once the first
 * Replace's items have all been popped.
 * Left out: the lock and condition variable's real concurrency (a twin goroutine waits on the same
 * shape of condition), trace logging of slow pops, and the transformer.
 */
import { Cond, type Proc } from './sim/clock.js';
import { RingGrowing } from './sim/buffer.js';
import type { Timeline } from './sim/timeline.js';
import {
  DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  describeObject,
  type CacheEntry,
} from './objects.js';
import type { KeyFunc } from './indexer.js';

/** @mirrors k8s.io/client-go/tools/cache.DeltaType */
export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/** @mirrors k8s.io/client-go/tools/cache.Delta */
export interface Delta {
  type: DeltaType;
  object: CacheEntry;
}

/** Oldest first. @mirrors k8s.io/client-go/tools/cache.Deltas */
export type Deltas = Delta[];

/** What a DeltaFIFO asks of the informer's store to detect deletions and resync. */
export interface KeyListerGetter {
  listKeys(): string[];
  getByKey(key: string): CacheEntry | undefined;
}

/**
 * Returned by a pop process function to put the item back (as AddIfNotPresent would).
 * @mirrors k8s.io/client-go/tools/cache.ErrRequeue
 */
export class ErrRequeue extends Error {
  constructor(readonly err: Error) {
    super(`requeue: ${err.message}`);
    this.name = 'ErrRequeue';
  }
}

/** @mirrors k8s.io/client-go/tools/cache.ErrFIFOClosed */
export const ErrFIFOClosed = new Error('DeltaFIFO: manipulating with closed queue');

/** @mirrors k8s.io/client-go/tools/cache.PopProcessFunc */
export type PopProcessFunc = (deltas: Deltas) => Error | undefined;

/** @mirrors k8s.io/client-go/tools/cache.DeltaFIFOOptions */
export interface DeltaFIFOOptions {
  /** @default deletionHandlingMetaNamespaceKeyFunc */
  keyFunction?: KeyFunc;
  /** The informer's indexer: what "already exists" means for Delete, Replace and Resync. */
  knownObjects?: KeyListerGetter;
  /**
   * Use the Replaced delta type for relists (informers do); Sync otherwise, for old clients.
   * @default false
   */
  emitDeltaTypeReplaced?: boolean;
  timeline?: Timeline;
}

/**
 * @mirrors k8s.io/client-go/tools/cache.DeltaFIFO
 * @mirrors k8s.io/client-go/tools/cache.NewDeltaFIFOWithOptions
 */
export class DeltaFIFO {
  private readonly items = new Map<string, Deltas>();
  private readonly queue = new RingGrowing<string>(64);
  private readonly cond = new Cond();
  private populated = false;
  private initialPopulationCount = 0;
  private closed = false;
  private readonly keyFunc: KeyFunc;
  private readonly knownObjects: KeyListerGetter | undefined;
  private readonly emitDeltaTypeReplaced: boolean;
  private readonly timeline: Timeline | undefined;

  constructor(options: DeltaFIFOOptions = {}) {
    this.keyFunc = options.keyFunction ?? deletionHandlingMetaNamespaceKeyFunc;
    this.knownObjects = options.knownObjects;
    this.emitDeltaTypeReplaced = options.emitDeltaTypeReplaced ?? false;
    this.timeline = options.timeline;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).KeyOf */
  keyOf(obj: CacheEntry | Deltas): string {
    if (Array.isArray(obj)) {
      const newest = obj[obj.length - 1];
      if (!newest) throw new Error("0 length Deltas object; can't get key");
      return this.keyFunc(newest.object);
    }
    return this.keyFunc(obj);
  }

  /**
   * True once the items of the first Replace (or the first Add/Update/Delete) have been popped.
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).HasSynced
   */
  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Add */
  add(obj: CacheEntry): void {
    this.populated = true;
    this.queueActionLocked('Added', obj);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Update */
  update(obj: CacheEntry): void {
    this.populated = true;
    this.queueActionLocked('Updated', obj);
  }

  /**
   * Queues a Deleted delta, unless nobody knows the key: neither the known objects nor the
   * pending items (a relist already reported that deletion).
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Delete
   */
  delete(obj: CacheEntry): void {
    const id = this.keyOf(obj);
    this.populated = true;
    const known = this.knownObjects ? this.knownObjects.getByKey(id) !== undefined : false;
    if (!known && !this.items.has(id)) {
      this.timeline?.emit(
        'deltafifo',
        'Delete ignored',
        id,
        'not known and nothing pending',
        '(*k8s.io/client-go/tools/cache.DeltaFIFO).Delete',
      );
      return;
    }
    this.queueActionLocked('Deleted', obj);
  }

  /**
   * Puts popped deltas back unless newer ones arrived meanwhile (then those win).
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).AddIfNotPresent
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).addIfNotPresent
   */
  addIfNotPresent(deltas: Deltas): void {
    const id = this.keyOf(deltas);
    this.populated = true;
    if (this.items.has(id)) return;
    this.queue.writeOne(id);
    this.items.set(id, deltas);
    this.cond.broadcast();
  }

  /**
   * Appends a delta, collapses a duplicate delete, and queues the key if it was not queued.
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).queueActionLocked
   */
  private queueActionLocked(type: DeltaType, obj: CacheEntry): void {
    const id = this.keyOf(obj);
    const old = this.items.get(id);
    const appended = old ? [...old, { type, object: obj }] : [{ type, object: obj }];
    const length = appended.length;
    const deltas = dedupDeltas(appended);
    if (!old) this.queue.writeOne(id);
    this.items.set(id, deltas);
    this.timeline?.emit(
      'deltafifo',
      `delta ${type}`,
      id,
      `${describeObject(obj)}; pending [${deltas.map((d) => d.type).join(', ')}]${deltas.length < length ? ' (two deletes collapsed into one)' : ''}`,
      '(*k8s.io/client-go/tools/cache.DeltaFIFO).queueActionLocked',
    );
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).List */
  list(): CacheEntry[] {
    return [...this.items.values()].map((deltas) => deltas[deltas.length - 1]!.object);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).ListKeys */
  listKeys(): string[] {
    return this.queue.toArray();
  }

  /** A copy of the deltas pending for a key. @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).GetByKey */
  getByKey(key: string): Deltas | undefined {
    const deltas = this.items.get(key);
    return deltas ? [...deltas] : undefined;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Close */
  close(): void {
    this.closed = true;
    this.cond.broadcast();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).IsClosed */
  isClosed(): boolean {
    return this.closed;
  }

  get length(): number {
    return this.queue.length;
  }

  /**
   * Waits for a key, removes it with its deltas, and hands them to `process`. An ErrRequeue from
   * `process` puts the deltas back (unless newer ones arrived); any other error is returned.
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Pop
   */
  *pop(process: PopProcessFunc): Proc<{ deltas: Deltas | undefined; err: Error | undefined }> {
    for (;;) {
      while (this.queue.length === 0) {
        if (this.closed) return { deltas: undefined, err: ErrFIFOClosed };
        yield* this.cond.wait();
      }
      const id = this.queue.readOne()!;
      if (this.initialPopulationCount > 0) this.initialPopulationCount--;
      const deltas = this.items.get(id);
      if (!deltas) continue; // "Inconceivable!" in Go: a queued key always has deltas
      this.items.delete(id);
      this.timeline?.emit(
        'deltafifo',
        'Pop',
        id,
        `[${deltas.map((d) => d.type).join(', ')}]`,
        '(*k8s.io/client-go/tools/cache.DeltaFIFO).Pop',
      );
      let err = process(deltas);
      if (err instanceof ErrRequeue) {
        this.timeline?.emit(
          'deltafifo',
          'requeue',
          id,
          err.err.message,
          '(*k8s.io/client-go/tools/cache.DeltaFIFO).addIfNotPresent',
        );
        this.addIfNotPresent(deltas);
        err = err.err;
      }
      return { deltas, err };
    }
  }

  /**
   * A relist: every listed object gets a Replaced (or Sync) delta; every known key not listed
   * gets a Deleted delta with a tombstone, because its delete event was missed.
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Replace
   */
  replace(list: readonly CacheEntry[], _resourceVersion: string): void {
    const keys = new Set<string>();
    const action: DeltaType = this.emitDeltaTypeReplaced ? 'Replaced' : 'Sync';
    for (const item of list) {
      keys.add(this.keyOf(item));
      this.queueActionLocked(action, item);
    }
    let queuedDeletions = 0;
    if (!this.knownObjects) {
      // Deletion detection against our own pending items.
      for (const [key, deltas] of [...this.items]) {
        if (keys.has(key)) continue;
        const newest = deltas[deltas.length - 1];
        const last = newest?.object;
        queuedDeletions++;
        this.queueActionLocked(
          'Deleted',
          new DeletedFinalStateUnknown(
            key,
            last instanceof DeletedFinalStateUnknown ? last.obj : last,
          ),
        );
      }
    } else {
      for (const key of this.knownObjects.listKeys()) {
        if (keys.has(key)) continue;
        const known = this.knownObjects.getByKey(key);
        queuedDeletions++;
        this.timeline?.emit(
          'deltafifo',
          'tombstone',
          key,
          'known but missing from the relist: its delete was missed',
          '(*k8s.io/client-go/tools/cache.DeltaFIFO).Replace',
        );
        this.queueActionLocked(
          'Deleted',
          new DeletedFinalStateUnknown(
            key,
            known instanceof DeletedFinalStateUnknown ? known.obj : known,
          ),
        );
      }
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = keys.size + queuedDeletions;
    }
  }

  /**
   * Queues a Sync delta for every known object with nothing pending: the periodic resync that
   * re-delivers the cache to handlers.
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).Resync
   * @mirrors (*k8s.io/client-go/tools/cache.DeltaFIFO).syncKeyLocked
   */
  resync(): void {
    if (!this.knownObjects) return;
    for (const key of this.knownObjects.listKeys()) {
      const obj = this.knownObjects.getByKey(key);
      if (obj === undefined) continue;
      // A pending event would deliver a newer state than the cache has; skip the stale resync.
      if ((this.items.get(this.keyOf(obj))?.length ?? 0) > 0) continue;
      this.queueActionLocked('Sync', obj);
    }
  }
}

/**
 * Combines the last two deltas when they describe the same event (two deletes).
 * @mirrors k8s.io/client-go/tools/cache.dedupDeltas
 */
export function dedupDeltas(deltas: Deltas): Deltas {
  const n = deltas.length;
  if (n < 2) return deltas;
  const kept = isDeletionDup(deltas[n - 1]!, deltas[n - 2]!);
  if (!kept) return deltas;
  deltas[n - 2] = kept;
  deltas.length = n - 1;
  return deltas;
}

/**
 * Of two deletes, keep the one with the most information: a real final state beats a tombstone.
 * @mirrors k8s.io/client-go/tools/cache.isDeletionDup
 */
export function isDeletionDup(a: Delta, b: Delta): Delta | undefined {
  if (b.type !== 'Deleted' || a.type !== 'Deleted') return undefined;
  if (b.object instanceof DeletedFinalStateUnknown) return a;
  return b;
}
