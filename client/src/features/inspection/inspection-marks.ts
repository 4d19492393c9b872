import type { AlarmEvent, AlarmStatus } from '@plant/shared-schema';

/*
 * What the inspection marks on its time axis (issue 37 item 5): the moment, and the alarm's
 * transitions (raised, cleared, acknowledged) inside the window. The transitions come from the
 * alarm's history on the server (not synced: alarm-events.tsx says why); offline, from the
 * synced alarm's status (its last raise, clear and acknowledgement). Pure, unit-tested.
 */

export type MarkKind = AlarmEvent['kind'];

/** One transition on the axis. */
export interface Mark {
  readonly ts: number;
  readonly kind: MarkKind;
}

/** How each mark is drawn: the moment orange and dashed, the transitions by what they mean. */
export const MARK_COLORS: Readonly<Record<MarkKind | 'moment', string>> = {
  moment: '#f08c00',
  raised: '#e03131',
  cleared: '#2f9e44',
  acknowledged: '#1971c2',
};

/** The events inside [from, to], oldest first, each moment and kind once. */
export function marksWithin(
  events: readonly Pick<AlarmEvent, 'ts' | 'kind'>[],
  from: number,
  to: number,
): Mark[] {
  const seen = new Set<string>();
  const marks: Mark[] = [];
  for (const e of events) {
    if (e.ts < from || e.ts > to) continue;
    const key = `${e.ts}|${e.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    marks.push({ ts: e.ts, kind: e.kind });
  }
  return marks.sort((a, b) => a.ts - b.ts);
}

/** The transitions the synced status still tells (its latest of each), as history events. */
export function statusEvents(
  status: Pick<AlarmStatus, 'raised_at' | 'cleared_at' | 'acknowledged_at'> | null,
): Pick<AlarmEvent, 'ts' | 'kind'>[] {
  if (status === null) return [];
  const events: Pick<AlarmEvent, 'ts' | 'kind'>[] = [];
  if (status.raised_at !== null) events.push({ ts: status.raised_at, kind: 'raised' });
  if (status.cleared_at !== null) events.push({ ts: status.cleared_at, kind: 'cleared' });
  if (status.acknowledged_at !== null)
    events.push({ ts: status.acknowledged_at, kind: 'acknowledged' });
  return events;
}

/**
 * Whether the history pages read so far reach back past `from` (a page's `before` is the time
 * to ask the next with; null at the history's start).
 */
export function reachesBack(before: number | null, from: number): boolean {
  return before === null || before < from;
}
