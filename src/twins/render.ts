/**
 * The text form of a twin's timeline: one aligned line per event, time first, the Go symbol last,
 * so that a reader's eye runs down the columns "when, where, what, which object".
 */
import type { TimelineEvent } from './sim/timeline.js';

/** Columns wider than this are not padded further (a long key would push everything right). */
const maxWidth = { component: 24, event: 18, key: 22 };

/** One line per event: `t=1.250s  reflector  watch ADDED  default/web-1  detail  [mirrors ...]`. */
export function renderTimelineLines(events: readonly TimelineEvent[]): string[] {
  const width = { component: 0, event: 0, key: 0, t: 0 };
  for (const e of events) {
    width.component = Math.min(maxWidth.component, Math.max(width.component, e.component.length));
    width.event = Math.min(maxWidth.event, Math.max(width.event, e.event.length));
    width.key = Math.min(maxWidth.key, Math.max(width.key, e.key.length));
    width.t = Math.max(width.t, formatTime(e.t).length);
  }
  return events.map((e) =>
    [
      formatTime(e.t).padEnd(width.t),
      e.component.padEnd(width.component),
      e.event.padEnd(width.event),
      e.key.padEnd(width.key),
      `${e.detail}  [mirrors ${e.mirrors}]`,
    ].join('  '),
  );
}

/** `t=1.250s` */
export function formatTime(seconds: number): string {
  return `t=${seconds.toFixed(3)}s`;
}
