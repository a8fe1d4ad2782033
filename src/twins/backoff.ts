/**
 * Backoff and retry loops: how a reflector waits between relists and between refused watch
 * connections, jittered so that a thousand clients do not reconnect in lockstep.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go at Kubernetes v1.24: Jitter,
 * Backoff.Step, the exponential backoff manager (reset after a quiet period), and BackoffUntil.
 * Left out: panics recovered by HandleCrash, the jittered (non-exponential) manager, and the
 * "drain the timer" dance Go needs because a timer and a stop channel can fire together.
 */
import { sleepUntilStopped, type Proc, type StopChannel, type VirtualClock } from './sim/clock.js';
import type { SeededRandom } from './sim/random.js';

/**
 * A duration between `duration` and `duration * (1 + maxFactor)`.
 * @mirrors k8s.io/apimachinery/pkg/util/wait.Jitter
 */
export function jitter(duration: number, maxFactor: number, rand: SeededRandom): number {
  const factor = maxFactor <= 0 ? 1 : maxFactor;
  return duration + rand.float64() * factor * duration;
}

export interface ExponentialBackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Start again from `initialMs` when no backoff was asked for during this long. */
  resetMs: number;
  factor: number;
  jitter: number;
}

/**
 * @mirrors k8s.io/apimachinery/pkg/util/wait.NewExponentialBackoffManager
 * @mirrors k8s.io/apimachinery/pkg/util/wait.exponentialBackoffManagerImpl
 */
export class ExponentialBackoffManager {
  private duration: number;
  private capped = false;
  private lastBackoffStart: number;

  constructor(
    private readonly options: ExponentialBackoffOptions,
    private readonly clock: VirtualClock,
    private readonly rand: SeededRandom,
  ) {
    this.duration = options.initialMs;
    this.lastBackoffStart = clock.now();
  }

  /** The reflector's settings: 800ms doubling to 30s, reset after 2 quiet minutes, jitter 1.0. */
  static forReflector(clock: VirtualClock, rand: SeededRandom): ExponentialBackoffManager {
    return new ExponentialBackoffManager(
      { initialMs: 800, maxMs: 30_000, resetMs: 120_000, factor: 2, jitter: 1 },
      clock,
      rand,
    );
  }

  /**
   * How long to wait now.
   * @mirrors (*k8s.io/apimachinery/pkg/util/wait.exponentialBackoffManagerImpl).getNextBackoff
   * @mirrors (*k8s.io/apimachinery/pkg/util/wait.Backoff).Step
   */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastBackoffStart > this.options.resetMs) {
      this.duration = this.options.initialMs;
      this.capped = false;
    }
    this.lastBackoffStart = now;
    const current = this.duration;
    if (!this.capped) {
      this.duration = current * this.options.factor;
      if (this.duration > this.options.maxMs) {
        this.duration = this.options.maxMs;
        this.capped = true;
      }
    }
    return this.options.jitter > 0 ? jitter(current, this.options.jitter, this.rand) : current;
  }
}

/**
 * Runs `body` until `stop` closes, waiting a backoff after each run (sliding: the wait starts
 * when the run ends).
 * @mirrors k8s.io/apimachinery/pkg/util/wait.BackoffUntil
 */
export function* backoffUntil(
  clock: VirtualClock,
  body: () => Proc,
  backoff: ExponentialBackoffManager,
  stop: StopChannel,
  onWait?: (ms: number) => void,
): Proc {
  while (!stop.closed) {
    yield* body();
    if (stop.closed) return;
    const ms = backoff.next();
    onWait?.(ms);
    if (!(yield* sleepUntilStopped(clock, ms, stop))) return;
  }
}
