/**
 * A binary heap with keyed access: add (or update in place), delete and get by key, pop the
 * least. The scheduler's activeQ and backoffQ and the delaying work queue's waiting list all need
 * "priority order, but find and move one item by its key", in O(log n).
 *
 * Mirrors pkg/scheduler/internal/heap/heap.go at Kubernetes v1.24 (a heap.Interface over a slice
 * plus a key -> index map) and the waitForPriorityQueue of client-go's delaying queue.
 * Left out: metrics.
 */

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/heap.New
 */
export class KeyedHeap<T, K = string> {
  private readonly items: T[] = [];
  private readonly index = new Map<K, number>();

  constructor(
    private readonly keyOf: (item: T) => K,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /**
   * Inserts the item, or replaces the item with the same key and restores the order.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap).Add
   */
  add(item: T): void {
    const key = this.keyOf(item);
    const at = this.index.get(key);
    if (at !== undefined) {
      this.items[at] = item;
      this.fix(at);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap).GetByKey */
  get(key: K): T | undefined {
    const at = this.index.get(key);
    return at === undefined ? undefined : this.items[at];
  }

  has(key: K): boolean {
    return this.index.has(key);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap).Delete */
  delete(key: K): T | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    const item = this.items[at]!;
    this.removeAt(at);
    return item;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap).Peek */
  peek(): T | undefined {
    return this.items[0];
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/heap.Heap).Pop */
  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0]!;
    this.removeAt(0);
    return top;
  }

  /** Restores the order after the item with this key changed its priority in place. */
  update(key: K): void {
    const at = this.index.get(key);
    if (at !== undefined) this.fix(at);
  }

  /** The items in no particular order. */
  values(): readonly T[] {
    return this.items;
  }

  private removeAt(at: number): void {
    const last = this.items.length - 1;
    const removedKey = this.keyOf(this.items[at]!);
    if (at !== last) this.swap(at, last);
    this.items.pop();
    this.index.delete(removedKey);
    if (at < this.items.length) this.fix(at);
  }

  private fix(at: number): void {
    if (!this.down(at)) this.up(at);
  }

  private up(start: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(start: number): boolean {
    let i = start;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let m = l;
      const r = l + 1;
      if (r < n && this.less(this.items[r]!, this.items[l]!)) m = r;
      if (!this.less(this.items[m]!, this.items[i]!)) break;
      this.swap(i, m);
      i = m;
    }
    return i > start;
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    const x = items[a]!;
    const y = items[b]!;
    items[a] = y;
    items[b] = x;
    this.index.set(this.keyOf(y), a);
    this.index.set(this.keyOf(x), b);
  }
}
