/**
 * The record of a twin run: one event per step a reader would want to see, each naming where it
 * happened (the component), what happened, the object key, a short detail, and the Go symbol the
 * step mirrors. `twin run -o json` prints these events as they are; the text renderer aligns them.
 *
 * Twins hold an optional timeline and emit through `timeline?.emit(...)`: optional chaining skips
 * building the arguments when nobody listens, so benchmarks pay nothing for the narration.
 */
import type { VirtualClock } from './clock.js';

export interface TimelineEvent {
  /** Virtual seconds since the start of the run, to the millisecond. */
  t: number;
  component: string;
  event: string;
  key: string;
  detail: string;
  /** The Go symbol this step mirrors, in DESIGN's symbol format. */
  mirrors: string;
}

export class Timeline {
  readonly events: TimelineEvent[] = [];

  constructor(private readonly clock: VirtualClock) {}

  emit(component: string, event: string, key: string, detail: string, mirrors: string): void {
    this.events.push({
      t: Math.round(this.clock.now()) / 1000,
      component,
      event,
      key,
      detail,
      mirrors,
    });
  }
}

/** `5ms`, `1.2s`: the durations in timeline details. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms * 10) / 10}ms`;
  return `${Math.round(ms) / 1000}s`;
}
