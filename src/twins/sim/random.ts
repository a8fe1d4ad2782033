/**
 * The seeded random source every twin takes instead of `Math.random`: mulberry32, a 32-bit
 * generator that is small, fast and good enough for jitter, host selection and fault injection.
 * Same seed, same sequence, on every machine; that is what makes `twin run --seed N` reproducible.
 *
 * Go's math/rand plays this role in Kubernetes (`rand.Intn` in selectHost, `rand.Float64` in
 * wait.Jitter); the twins do not reproduce Go's exact sequence, only its use.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1), as Go's `rand.Float64()`. */
  float64(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n), as Go's `rand.Intn(n)`. */
  intn(n: number): number {
    if (!(n > 0)) throw new RangeError(`intn: n must be positive, got ${n}`);
    return Math.floor(this.float64() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float64() < p;
  }

  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[this.intn(items.length)] as T;
  }
}
