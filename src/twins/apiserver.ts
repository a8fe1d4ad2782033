/**
 * A fake API server: typed objects with resource versions, list, watch streams, and the failure
 * modes clients are written against (410 Gone for a watch that resumes from a compacted resource
 * version, conflicts on stale updates, a broken connection, injected errors).
 *
 * Mirrors, at Kubernetes v1.24: the storage semantics of
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (one global revision, every write bumps
 * it; optimistic concurrency on resourceVersion), the watch cache of
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/{cacher.go,watch_cache.go} (a bounded history of
 * events; a watch from a version older than the history fails with "too old resource version",
 * 410 Expired; watches time out after timeoutSeconds), pod binding from
 * pkg/registry/core/pod/storage/storage.go, and name generation from
 * staging/src/k8s.io/apiserver/pkg/storage/names/generate.go.
 * Left out: HTTP, admission, validation, defaulting, field and label selectors on the server,
 * pagination, graceful deletion (deletes are immediate), finalizers, and bookmarks. A "disconnect"
 * breaks only the list/watch connection of the twin's clients; writes from the scenario (another
 * client, such as kubectl) still land.
 */
import { Chan, type VirtualClock } from './sim/clock.js';
import type { SeededRandom } from './sim/random.js';
import type { Timeline } from './sim/timeline.js';
import { RingGrowing } from './sim/buffer.js';
import { metaNamespaceKeyFunc, type KubeObject, type ObjectMeta, type Pod } from './objects.js';

/** A metav1.Status carried by an ERROR watch event or an error response. */
export interface ApiStatus {
  kind: 'Status';
  code: number;
  reason: string;
  message: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject | ApiStatus;
}

/**
 * An error response from the API server (or a refused connection, code 0).
 * @mirrors k8s.io/apimachinery/pkg/api/errors.StatusError
 * @mirrors k8s.io/apimachinery/pkg/api/errors.FromObject
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static fromStatus(status: ApiStatus): ApiError {
    return new ApiError(status.code, status.reason, status.message);
  }

  toStatus(): ApiStatus {
    return { kind: 'Status', code: this.code, reason: this.reason, message: this.message };
  }
}

/** @mirrors k8s.io/apimachinery/pkg/api/errors.IsNotFound */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'NotFound';
}

/** @mirrors k8s.io/apimachinery/pkg/api/errors.IsConflict */
export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'Conflict';
}

/** @mirrors k8s.io/apimachinery/pkg/api/errors.IsAlreadyExists */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'AlreadyExists';
}

/**
 * 410: the resource version asked for is older than what the server still remembers.
 * @mirrors k8s.io/apimachinery/pkg/api/errors.IsResourceExpired
 * @mirrors k8s.io/apimachinery/pkg/api/errors.IsGone
 */
export function isResourceExpired(err: unknown): boolean {
  return err instanceof ApiError && (err.reason === 'Expired' || err.reason === 'Gone');
}

/** @mirrors k8s.io/apimachinery/pkg/api/errors.IsTooManyRequests */
export function isTooManyRequests(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'TooManyRequests';
}

/** @mirrors k8s.io/apimachinery/pkg/util/net.IsConnectionRefused */
export function isConnectionRefused(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'ConnectionRefused';
}

/** What a client sends to create an object: the server fills in uid, versions and timestamps. */
export interface NewObject {
  kind: string;
  metadata: Partial<Pick<ObjectMeta, 'namespace' | 'name' | 'labels' | 'ownerReferences'>> & {
    generateName?: string;
  };
  spec?: object;
  status?: object;
}

export interface ListOptions {
  /** "" for a consistent read, "0" for any version, otherwise "not older than". */
  resourceVersion?: string;
  /** Close the watch after this many seconds (watch only). */
  timeoutSeconds?: number;
  /** Only objects of this namespace (all namespaces when absent). */
  namespace?: string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
}

/** A verb the fault plan can fail. */
export type Verb = 'create' | 'update' | 'delete' | 'bind' | 'list' | 'watch';

/** Where each verb lands in the real API server. */
export const verbMirrors: Record<Verb, string> = {
  create: '(*k8s.io/apiserver/pkg/storage/etcd3.store).Create',
  update: '(*k8s.io/apiserver/pkg/storage/etcd3.store).GuaranteedUpdate',
  delete: '(*k8s.io/apiserver/pkg/storage/etcd3.store).Delete',
  bind: '(*k8s.io/kubernetes/pkg/registry/core/pod/storage.BindingREST).Create',
  list: '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).GetList',
  watch: '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).Watch',
};

/** One rule of injected failures: which calls fail, how often, with which status. */
export interface FaultRule {
  verb: Verb;
  kind?: string;
  /** Fail only calls for this `namespace/name`. */
  key?: string;
  /** Fail the next N matching calls (then the rule is spent). */
  times?: number;
  /** Fail each matching call with this probability (seeded). */
  probability?: number;
  /** @default 500 */
  code?: number;
  /** @default 'InternalError' */
  reason?: string;
}

/**
 * One open watch: a result channel the server writes to, and Stop.
 * @mirrors k8s.io/apimachinery/pkg/watch.Interface
 * @mirrors k8s.io/apiserver/pkg/storage/cacher.cacheWatcher
 */
export class FakeWatch {
  readonly resultChan = new Chan<WatchEvent>();
  private timer: { stop(): boolean } | undefined;

  constructor(
    readonly id: number,
    readonly kind: string,
    readonly namespace: string | undefined,
    private readonly onStop: (watch: FakeWatch) => void,
  ) {}

  setTimeout(timer: { stop(): boolean }): void {
    this.timer = timer;
  }

  /** @mirrors (*k8s.io/apimachinery/pkg/watch.FakeWatcher).Stop */
  stop(): void {
    if (this.resultChan.closed) return;
    this.timer?.stop();
    this.resultChan.close();
    this.onStop(this);
  }
}

interface HistoryEntry {
  rv: number;
  event: WatchEvent;
}

interface KindStore {
  objects: Map<string, KubeObject>;
  /** The watch cache's window of recent events, oldest first. */
  history: RingGrowing<HistoryEntry>;
  /** Events at or below this revision are gone from the history. */
  compactedRevision: number;
  watches: Set<FakeWatch>;
}

export interface FakeApiServerOptions {
  clock: VirtualClock;
  rand: SeededRandom;
  timeline?: Timeline;
  /**
   * How many events per kind the watch cache remembers; a watch resuming from before them gets
   * 410 Expired.
   * @default 1000
   */
  historySize?: number;
  faults?: readonly FaultRule[];
}

/** The list and watch calls a reflector makes, for one kind (as a typed client would). */
export interface KindListerWatcher {
  list(options: ListOptions): ListResult;
  watch(options: ListOptions): FakeWatch;
}

/**
 * @mirrors k8s.io/apiserver/pkg/storage/cacher.Cacher
 * @mirrors k8s.io/apiserver/pkg/storage/etcd3.store
 */
export class FakeApiServer {
  private revision = 1;
  private uidCounter = 0;
  private watchCounter = 0;
  private readonly kinds = new Map<string, KindStore>();
  private readonly clock: VirtualClock;
  private readonly rand: SeededRandom;
  private readonly timeline: Timeline | undefined;
  private readonly historySize: number;
  private faults: FaultRule[];
  private disconnectedUntil = -1;

  constructor(options: FakeApiServerOptions) {
    this.clock = options.clock;
    this.rand = options.rand;
    this.timeline = options.timeline;
    this.historySize = options.historySize ?? 1000;
    this.faults = (options.faults ?? []).map((rule) => ({ ...rule }));
  }

  /** The current etcd revision, as a resource version string. */
  get resourceVersion(): string {
    return String(this.revision);
  }

  /** Adds failure rules (a scenario's `fail` steps, a test's chaos). */
  injectFaults(rules: readonly FaultRule[]): void {
    this.faults.push(...rules.map((rule) => ({ ...rule })));
  }

  /** Ends every injected failure: the outage is over. */
  clearFaults(): void {
    this.faults = [];
  }

  /**
   * @mirrors (*k8s.io/apiserver/pkg/storage/etcd3.store).Create
   * @mirrors (k8s.io/apiserver/pkg/storage/names.simpleNameGenerator).GenerateName
   */
  create<T extends KubeObject = KubeObject>(input: NewObject): T {
    const store = this.store(input.kind);
    let name = input.metadata.name;
    if (!name) {
      if (!input.metadata.generateName)
        throw new ApiError(422, 'Invalid', 'name or generateName is required');
      name = input.metadata.generateName + this.randomSuffix();
    }
    const namespace = input.metadata.namespace ?? (input.kind === 'Node' ? '' : 'default');
    const key = namespace ? `${namespace}/${name}` : name;
    this.checkFault('create', input.kind, key);
    if (store.objects.has(key)) {
      throw new ApiError(
        409,
        'AlreadyExists',
        `${input.kind.toLowerCase()}s "${name}" already exists`,
      );
    }
    const rv = ++this.revision;
    const obj = {
      kind: input.kind,
      metadata: {
        namespace,
        name,
        uid: `uid-${++this.uidCounter}`,
        resourceVersion: String(rv),
        generation: 1,
        labels: { ...(input.metadata.labels ?? {}) },
        ...(input.metadata.ownerReferences
          ? { ownerReferences: input.metadata.ownerReferences }
          : {}),
        creationTimestamp: this.clock.now(),
      },
      spec: { ...(input.spec ?? {}) },
      status: { ...(input.status ?? {}) },
    } as KubeObject as T;
    store.objects.set(key, obj);
    this.timeline?.emit(
      'apiserver',
      'create',
      key,
      `${input.kind} rv=${rv}`,
      '(*k8s.io/apiserver/pkg/storage/etcd3.store).Create',
    );
    this.record(store, rv, { type: 'ADDED', object: obj });
    return obj;
  }

  /**
   * Replaces an object. A non-empty resourceVersion must match the stored one (optimistic
   * concurrency); the generation moves only when the spec changes.
   * @mirrors (*k8s.io/apiserver/pkg/storage/etcd3.store).GuaranteedUpdate
   */
  update<T extends KubeObject = KubeObject>(obj: KubeObject): T {
    const store = this.store(obj.kind);
    const key = metaNamespaceKeyFunc(obj);
    this.checkFault('update', obj.kind, key);
    const current = store.objects.get(key);
    if (!current)
      throw new ApiError(
        404,
        'NotFound',
        `${obj.kind.toLowerCase()}s "${obj.metadata.name}" not found`,
      );
    if (
      obj.metadata.resourceVersion &&
      obj.metadata.resourceVersion !== current.metadata.resourceVersion
    ) {
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${obj.kind.toLowerCase()}s "${obj.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    const rv = ++this.revision;
    const specChanged = JSON.stringify(obj.spec) !== JSON.stringify(current.spec);
    const updated = {
      ...obj,
      metadata: {
        ...obj.metadata,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        resourceVersion: String(rv),
        generation: current.metadata.generation + (specChanged ? 1 : 0),
      },
    } as T;
    store.objects.set(key, updated);
    this.timeline?.emit(
      'apiserver',
      'update',
      key,
      `${obj.kind} rv=${rv}`,
      '(*k8s.io/apiserver/pkg/storage/etcd3.store).GuaranteedUpdate',
    );
    this.record(store, rv, { type: 'MODIFIED', object: updated });
    return updated;
  }

  /** @mirrors (*k8s.io/apiserver/pkg/storage/etcd3.store).Delete */
  delete(kind: string, namespace: string, name: string): KubeObject {
    const store = this.store(kind);
    const key = namespace ? `${namespace}/${name}` : name;
    this.checkFault('delete', kind, key);
    const current = store.objects.get(key);
    if (!current) throw new ApiError(404, 'NotFound', `${kind.toLowerCase()}s "${name}" not found`);
    store.objects.delete(key);
    const rv = ++this.revision;
    // The DELETED event carries the last state at the revision of the deletion, as etcd3 watch does.
    const deleted = { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } };
    this.timeline?.emit(
      'apiserver',
      'delete',
      key,
      `${kind} rv=${rv}`,
      '(*k8s.io/apiserver/pkg/storage/etcd3.store).Delete',
    );
    this.record(store, rv, { type: 'DELETED', object: deleted });
    return deleted;
  }

  get<T extends KubeObject = KubeObject>(kind: string, namespace: string, name: string): T {
    const key = namespace ? `${namespace}/${name}` : name;
    const obj = this.store(kind).objects.get(key);
    if (!obj) throw new ApiError(404, 'NotFound', `${kind.toLowerCase()}s "${name}" not found`);
    return obj as T;
  }

  /** Every stored object of a kind, in key order (for checks and tests; clients use list). */
  objectsOf<T extends KubeObject = KubeObject>(kind: string): T[] {
    return [...this.store(kind).objects.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => o as T);
  }

  /**
   * Sets spec.nodeName of a pending pod: the Binding subresource the scheduler posts.
   * @mirrors (*k8s.io/kubernetes/pkg/registry/core/pod/storage.BindingREST).Create
   * @mirrors (*k8s.io/kubernetes/pkg/registry/core/pod/storage.BindingREST).assignPod
   */
  bind(namespace: string, name: string, nodeName: string): Pod {
    const key = `${namespace}/${name}`;
    this.checkFault('bind', 'Pod', key);
    const pod = this.get<Pod>('Pod', namespace, name);
    if (pod.spec.nodeName) {
      throw new ApiError(
        409,
        'Conflict',
        `pod ${name} is already assigned to node "${pod.spec.nodeName}"`,
      );
    }
    const store = this.store('Pod');
    const rv = ++this.revision;
    const bound: Pod = {
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: String(rv) },
      spec: { ...pod.spec, nodeName },
    };
    store.objects.set(key, bound);
    this.timeline?.emit(
      'apiserver',
      'bind',
      key,
      `-> ${nodeName} rv=${rv}`,
      '(*k8s.io/kubernetes/pkg/registry/core/pod/storage.BindingREST).Create',
    );
    this.record(store, rv, { type: 'MODIFIED', object: bound });
    return bound;
  }

  /**
   * @mirrors (*k8s.io/apiserver/pkg/storage/cacher.Cacher).GetList
   * @mirrors (*k8s.io/apiserver/pkg/storage/cacher.cacherListerWatcher).List
   */
  list(kind: string, options: ListOptions = {}): ListResult {
    this.checkConnection(kind, 'list');
    this.checkFault('list', kind, undefined);
    const rv = options.resourceVersion ?? '';
    if (rv !== '' && rv !== '0' && Number(rv) > this.revision) {
      throw new ApiError(
        504,
        'Timeout',
        `Too large resource version: ${rv}, current: ${this.revision}`,
      );
    }
    const items: KubeObject[] = [];
    for (const obj of this.store(kind).objects.values()) {
      if (options.namespace === undefined || obj.metadata.namespace === options.namespace)
        items.push(obj);
    }
    this.timeline?.emit(
      'apiserver',
      'list',
      kind,
      `${items.length} items at rv=${this.revision}`,
      '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).GetList',
    );
    return { items, resourceVersion: String(this.revision) };
  }

  /**
   * Opens a watch from a resource version. Events after it are replayed from the watch cache's
   * history; if that history no longer reaches back far enough, the watch delivers a single ERROR
   * event with a 410 Expired status and closes, exactly what forces a reflector to relist.
   * @mirrors (*k8s.io/apiserver/pkg/storage/cacher.Cacher).Watch
   * @mirrors (*k8s.io/apiserver/pkg/storage/cacher.watchCache).getAllEventsSinceLocked
   */
  watch(kind: string, options: ListOptions = {}): FakeWatch {
    this.checkConnection(kind, 'watch');
    this.checkFault('watch', kind, undefined);
    const store = this.store(kind);
    const watch = new FakeWatch(++this.watchCounter, kind, options.namespace, (w) =>
      store.watches.delete(w),
    );
    const from = Number(options.resourceVersion ?? '0');
    if (
      options.resourceVersion &&
      options.resourceVersion !== '0' &&
      from < store.compactedRevision
    ) {
      const status = new ApiError(
        410,
        'Expired',
        `too old resource version: ${from} (${store.compactedRevision})`,
      ).toStatus();
      this.timeline?.emit(
        'apiserver',
        'watch 410 Gone',
        kind,
        status.message,
        '(*k8s.io/apiserver/pkg/storage/cacher.watchCache).getAllEventsSinceLocked',
      );
      watch.resultChan.send({ type: 'ERROR', object: status });
      watch.resultChan.close();
      return watch;
    }
    if (!options.resourceVersion || options.resourceVersion === '0') {
      // resourceVersion 0 (or unset) means "from now" and, for compatibility, the current state first.
      for (const obj of store.objects.values()) {
        if (options.namespace === undefined || obj.metadata.namespace === options.namespace) {
          watch.resultChan.send({ type: 'ADDED', object: obj });
        }
      }
    } else {
      for (const entry of store.history) {
        if (entry.rv > from && this.visible(watch, entry.event)) watch.resultChan.send(entry.event);
      }
    }
    store.watches.add(watch);
    if (options.timeoutSeconds && options.timeoutSeconds > 0) {
      watch.setTimeout(this.clock.after(options.timeoutSeconds * 1000, () => watch.stop()));
    }
    this.timeline?.emit(
      'apiserver',
      'watch',
      kind,
      `from rv=${options.resourceVersion || 'now'}`,
      '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).Watch',
    );
    return watch;
  }

  /** The list/watch pair a reflector for `kind` uses. */
  listerWatcher(kind: string, namespace?: string): KindListerWatcher {
    return {
      list: (options) =>
        this.list(kind, { ...options, ...(namespace === undefined ? {} : { namespace }) }),
      watch: (options) =>
        this.watch(kind, { ...options, ...(namespace === undefined ? {} : { namespace }) }),
    };
  }

  /**
   * Forgets the watch cache's history up to now: a watch that resumes from any earlier version
   * gets 410. (etcd compaction plus a watch cache that has moved on.)
   */
  compact(): void {
    for (const [kind, store] of this.kinds) {
      while (store.history.length > 0) store.history.readOne();
      store.compactedRevision = this.revision;
      this.timeline?.emit(
        'apiserver',
        'compact',
        kind,
        `history forgotten up to rv=${this.revision}`,
        '(*k8s.io/apiserver/pkg/storage/cacher.watchCache).getAllEventsSinceLocked',
      );
    }
  }

  /**
   * Ends every open watch with a 410 ERROR event and compacts: every watcher must relist.
   * @mirrors (*k8s.io/apiserver/pkg/storage/cacher.Cacher).terminateAllWatchers
   */
  expireWatches(): void {
    this.compact();
    for (const store of this.kinds.values()) {
      for (const watch of [...store.watches]) {
        const status = new ApiError(
          410,
          'Expired',
          `too old resource version: watch expired at rv=${this.revision}`,
        ).toStatus();
        watch.resultChan.send({ type: 'ERROR', object: status });
        watch.stop();
      }
    }
  }

  /** Drops every open watch and refuses list and watch calls for `ms` virtual milliseconds. */
  disconnect(ms: number): void {
    this.disconnectedUntil = this.clock.now() + ms;
    this.timeline?.emit(
      'apiserver',
      'disconnect',
      '-',
      `list/watch refused for ${ms}ms`,
      'k8s.io/apimachinery/pkg/util/net.IsConnectionRefused',
    );
    for (const store of this.kinds.values()) for (const watch of [...store.watches]) watch.stop();
  }

  /** How many watches are open for a kind (tests use it to see a reflector reconnect). */
  openWatches(kind: string): number {
    return this.store(kind).watches.size;
  }

  private store(kind: string): KindStore {
    let store = this.kinds.get(kind);
    if (!store) {
      store = {
        objects: new Map(),
        history: new RingGrowing(64),
        compactedRevision: 0,
        watches: new Set(),
      };
      this.kinds.set(kind, store);
    }
    return store;
  }

  /** Appends to the history (evicting the oldest beyond its size) and dispatches to watchers. */
  private record(store: KindStore, rv: number, event: WatchEvent): void {
    store.history.writeOne({ rv, event });
    if (store.history.length > this.historySize)
      store.compactedRevision = store.history.readOne()!.rv;
    if (store.watches.size === 0) return;
    let delivered = 0;
    for (const watch of store.watches) {
      if (!this.visible(watch, event)) continue;
      watch.resultChan.send(event);
      delivered++;
    }
    if (delivered > 0) {
      this.timeline?.emit(
        'apiserver',
        `watch ${event.type}`,
        metaNamespaceKeyFunc(event.object as KubeObject),
        `rv=${rv} -> ${delivered} watcher(s)`,
        '(*k8s.io/apiserver/pkg/storage/cacher.Cacher).dispatchEvent',
      );
    }
  }

  private visible(watch: FakeWatch, event: WatchEvent): boolean {
    return (
      watch.namespace === undefined ||
      (event.object as KubeObject).metadata?.namespace === watch.namespace
    );
  }

  private checkConnection(kind: string, verb: Verb): void {
    if (this.clock.now() < this.disconnectedUntil) {
      throw new ApiError(
        0,
        'ConnectionRefused',
        `${verb} ${kind}: dial tcp 127.0.0.1:6443: connect: connection refused`,
      );
    }
  }

  private checkFault(verb: Verb, kind: string, key: string | undefined): void {
    for (const rule of this.faults) {
      if (rule.verb !== verb || (rule.kind !== undefined && rule.kind !== kind)) continue;
      if (rule.key !== undefined && rule.key !== key) continue;
      if (rule.times !== undefined) {
        if (rule.times <= 0) continue;
        rule.times--;
      } else if (rule.probability !== undefined && !this.rand.chance(rule.probability)) {
        continue;
      }
      const error = new ApiError(
        rule.code ?? 500,
        rule.reason ?? 'InternalError',
        `injected failure: ${verb} ${kind}${key ? ` ${key}` : ''}`,
      );
      this.timeline?.emit(
        'apiserver',
        `${verb} failed`,
        key ?? kind,
        `${error.code} ${error.reason}`,
        verbMirrors[verb],
      );
      throw error;
    }
  }

  /** Five characters from the apiserver's alphabet (no vowels, no confusable digits). */
  private randomSuffix(): string {
    const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (let i = 0; i < 5; i++) out += alphanums[this.rand.intn(alphanums.length)];
    return out;
  }
}
