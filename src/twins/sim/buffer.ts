/**
 * A growable ring buffer: O(1) push at the back and shift at the front. Go code slices
 * (`q.queue = q.queue[1:]`) where JavaScript's `Array.prototype.shift` would copy the whole array,
 * so every FIFO in the twins (work queue, DeltaFIFO queue, listener buffers, watch channels) sits
 * on this one structure to keep 100k-event runs linear.
 *
 * Mirrors k8s.io/utils/buffer/ring_growing.go (as vendored in Kubernetes v1.24), which is exactly
 * the buffer a processorListener keeps its pending notifications in.
 * Left out: nothing of substance; `peek`, `at` and iteration are conveniences for the twins.
 */

/**
 * @mirrors k8s.io/utils/buffer.RingGrowing
 * @mirrors k8s.io/utils/buffer.NewRingGrowing
 */
export class RingGrowing<T> implements Iterable<T> {
  private data: (T | undefined)[];
  private beg = 0;
  private readable = 0;

  constructor(initialSize = 16) {
    this.data = new Array<T | undefined>(Math.max(1, initialSize));
  }

  get length(): number {
    return this.readable;
  }

  /** @mirrors (*k8s.io/utils/buffer.RingGrowing).WriteOne */
  writeOne(item: T): void {
    if (this.readable === this.data.length) {
      // Full: double the capacity and unroll the ring into the new array, as the Go version does.
      const grown = new Array<T | undefined>(this.data.length * 2);
      for (let i = 0; i < this.readable; i++)
        grown[i] = this.data[(this.beg + i) % this.data.length];
      this.data = grown;
      this.beg = 0;
    }
    this.data[(this.beg + this.readable) % this.data.length] = item;
    this.readable++;
  }

  /** @mirrors (*k8s.io/utils/buffer.RingGrowing).ReadOne */
  readOne(): T | undefined {
    if (this.readable === 0) return undefined;
    const item = this.data[this.beg] as T;
    this.data[this.beg] = undefined; // let the garbage collector have it, as Go's `r.data[r.beg] = nil`
    this.beg = (this.beg + 1) % this.data.length;
    this.readable--;
    return item;
  }

  peek(): T | undefined {
    return this.readable === 0 ? undefined : this.data[this.beg];
  }

  at(index: number): T | undefined {
    if (index < 0 || index >= this.readable) return undefined;
    return this.data[(this.beg + index) % this.data.length];
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.readable; i++) yield this.data[(this.beg + i) % this.data.length] as T;
  }

  toArray(): T[] {
    return [...this];
  }
}
