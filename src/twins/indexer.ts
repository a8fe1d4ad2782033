/**
 * The informer's local cache: a map from key to object plus secondary indices, so a controller can
 * ask "every pod in namespace default" or "every pod on node-3" without scanning.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/{thread_safe_store.go,store.go,index.go} at
 * Kubernetes v1.24 (client-go v0.24): threadSafeMap with its indexers and indices, updateIndices
 * (skip when the single index value did not change; drop empty index sets so they do not leak),
 * the key-function wrapper `cache`, and MetaNamespaceIndexFunc.
 * Left out: the lock (one task runs at a time in a twin), Resync on the store (a no-op in Go too),
 * and the v0.27+ split of the index bookkeeping into storeIndex (tagged below for drift checks).
 */
import {
  deletionHandlingMetaNamespaceKeyFunc,
  type CacheEntry,
  type KubeObject,
} from './objects.js';

/** Computes the index values of an object, e.g. its namespace or node name. */
export type IndexFunc = (obj: CacheEntry) => readonly string[];

/** Index functions by index name. */
export type Indexers = Readonly<Record<string, IndexFunc>>;

/** The name of the namespace index every informer factory installs. */
export const NamespaceIndex = 'namespace';

/**
 * @mirrors k8s.io/client-go/tools/cache.MetaNamespaceIndexFunc
 */
export function metaNamespaceIndexFunc(obj: CacheEntry): readonly string[] {
  if (!('metadata' in obj)) return [];
  return [obj.metadata.namespace];
}

/**
 * @mirrors k8s.io/client-go/tools/cache.threadSafeMap
 * @mirrors k8s.io/client-go/tools/cache.NewThreadSafeStore
 */
export class ThreadSafeStore {
  private readonly items = new Map<string, CacheEntry>();
  private readonly indexers = new Map<string, IndexFunc>();
  /** index name -> index value -> keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers = {}) {
    for (const [name, fn] of Object.entries(indexers)) this.indexers.set(name, fn);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Add */
  add(key: string, obj: CacheEntry): void {
    this.update(key, obj);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Update */
  update(key: string, obj: CacheEntry): void {
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.updateIndices(old, obj, key);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Delete */
  delete(key: string): void {
    const old = this.items.get(key);
    if (old === undefined) return;
    this.updateIndices(old, undefined, key);
    this.items.delete(key);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Get */
  get(key: string): CacheEntry | undefined {
    return this.items.get(key);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).List */
  list(): CacheEntry[] {
    return [...this.items.values()];
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).ListKeys */
  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /**
   * Swaps the whole content and rebuilds every index.
   * @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Replace
   */
  replace(items: ReadonlyMap<string, CacheEntry>): void {
    this.items.clear();
    for (const [key, obj] of items) this.items.set(key, obj);
    this.indices.clear();
    for (const [key, obj] of this.items) this.updateIndices(undefined, obj, key);
  }

  /**
   * The objects that share an index value with `obj`.
   * @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).Index
   */
  index(indexName: string, obj: CacheEntry): CacheEntry[] {
    const fn = this.indexFunc(indexName);
    const keys = new Set<string>();
    const index = this.indices.get(indexName);
    for (const value of fn(obj)) for (const key of index?.get(value) ?? []) keys.add(key);
    return [...keys].map((key) => this.items.get(key)!);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).ByIndex */
  byIndex(indexName: string, indexedValue: string): CacheEntry[] {
    this.indexFunc(indexName);
    const keys = this.indices.get(indexName)?.get(indexedValue);
    return keys ? [...keys].map((key) => this.items.get(key)!) : [];
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).IndexKeys */
  indexKeys(indexName: string, indexedValue: string): string[] {
    this.indexFunc(indexName);
    return [...(this.indices.get(indexName)?.get(indexedValue) ?? [])];
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).ListIndexFuncValues */
  listIndexFuncValues(indexName: string): string[] {
    return [...(this.indices.get(indexName)?.keys() ?? [])];
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).GetIndexers */
  getIndexers(): Indexers {
    return Object.fromEntries(this.indexers);
  }

  /**
   * Adds index functions. Go refuses once items exist (`cannot add indexers to running index`);
   * so does the twin.
   * @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).AddIndexers
   */
  addIndexers(newIndexers: Indexers): void {
    if (this.items.size > 0) throw new Error('cannot add indexers to running index');
    for (const name of Object.keys(newIndexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
    }
    for (const [name, fn] of Object.entries(newIndexers)) this.indexers.set(name, fn);
  }

  /**
   * Moves `key` from the index values of `oldObj` to those of `newObj`, for every index.
   * @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).updateIndices
   * @mirrors (*k8s.io/client-go/tools/cache.storeIndex).updateIndices
   */
  private updateIndices(
    oldObj: CacheEntry | undefined,
    newObj: CacheEntry | undefined,
    key: string,
  ): void {
    for (const [name, fn] of this.indexers) {
      const oldValues = oldObj === undefined ? [] : fn(oldObj);
      const newValues = newObj === undefined ? [] : fn(newObj);
      let index = this.indices.get(name);
      if (!index) {
        index = new Map();
        this.indices.set(name, index);
      }
      // The common case, one unchanged value (a pod's namespace), costs nothing.
      if (oldValues.length === 1 && newValues.length === 1 && oldValues[0] === newValues[0])
        continue;
      for (const value of oldValues) this.deleteKeyFromIndex(key, value, index);
      for (const value of newValues) this.addKeyToIndex(key, value, index);
    }
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).addKeyToIndex */
  private addKeyToIndex(key: string, value: string, index: Map<string, Set<string>>): void {
    let set = index.get(value);
    if (!set) {
      set = new Set();
      index.set(value, set);
    }
    set.add(key);
  }

  /**
   * Removes the key, and the whole set when it empties: an index over high-churn values (say, one
   * per pod UID) would otherwise keep an empty set per value forever.
   * @mirrors (*k8s.io/client-go/tools/cache.threadSafeMap).deleteKeyFromIndex
   */
  private deleteKeyFromIndex(key: string, value: string, index: Map<string, Set<string>>): void {
    const set = index.get(value);
    if (!set) return;
    set.delete(key);
    if (set.size === 0) index.delete(value);
  }

  private indexFunc(indexName: string): IndexFunc {
    const fn = this.indexers.get(indexName);
    if (!fn) throw new Error(`Index with name ${indexName} does not exist`);
    return fn;
  }
}

/** A key function: how an object is named in a store. */
export type KeyFunc = (obj: CacheEntry) => string;

/**
 * A store keyed by a key function, with indices: what `informer.GetIndexer()` returns.
 * @mirrors k8s.io/client-go/tools/cache.cache
 * @mirrors k8s.io/client-go/tools/cache.NewIndexer
 */
export class Indexer {
  private readonly store: ThreadSafeStore;

  constructor(
    private readonly keyFunc: KeyFunc = deletionHandlingMetaNamespaceKeyFunc,
    indexers: Indexers = {},
  ) {
    this.store = new ThreadSafeStore(indexers);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Add */
  add(obj: CacheEntry): void {
    this.store.add(this.keyFunc(obj), obj);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Update */
  update(obj: CacheEntry): void {
    this.store.update(this.keyFunc(obj), obj);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Delete */
  delete(obj: CacheEntry): void {
    this.store.delete(this.keyFunc(obj));
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Get */
  get(obj: CacheEntry): CacheEntry | undefined {
    return this.store.get(this.keyFunc(obj));
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).GetByKey */
  getByKey(key: string): CacheEntry | undefined {
    return this.store.get(key);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).List */
  list(): CacheEntry[] {
    return this.store.list();
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).ListKeys */
  listKeys(): string[] {
    return this.store.listKeys();
  }

  get size(): number {
    return this.store.size;
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Replace */
  replace(list: readonly CacheEntry[], _resourceVersion: string): void {
    const items = new Map<string, CacheEntry>();
    for (const obj of list) items.set(this.keyFunc(obj), obj);
    this.store.replace(items);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Resync */
  resync(): void {
    // Nothing to do: a plain store has no queue to re-deliver into (Go's is a no-op too).
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).Index */
  index(indexName: string, obj: CacheEntry): CacheEntry[] {
    return this.store.index(indexName, obj);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).ByIndex */
  byIndex(indexName: string, indexedValue: string): CacheEntry[] {
    return this.store.byIndex(indexName, indexedValue);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).IndexKeys */
  indexKeys(indexName: string, indexedValue: string): string[] {
    return this.store.indexKeys(indexName, indexedValue);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).ListIndexFuncValues */
  listIndexFuncValues(indexName: string): string[] {
    return this.store.listIndexFuncValues(indexName);
  }

  /** @mirrors (*k8s.io/client-go/tools/cache.cache).AddIndexers */
  addIndexers(indexers: Indexers): void {
    this.store.addIndexers(indexers);
  }

  /** The live objects (tombstones are never stored, but the type allows them). */
  objects<T extends KubeObject = KubeObject>(): T[] {
    return this.store.list().filter((o): o is T => 'metadata' in o);
  }
}
