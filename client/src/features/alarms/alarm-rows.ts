import type { AlarmAttributes, AlarmSeverity } from '@plant/shared-schema';

/*
 * Pure rules of the alarm lists: the state a row shows, the order of the rows, the filters, and
 * what an asset's badge shows. The list page, the sections on asset and stream pages, the menu's
 * badge and the asset lists all read these, so they never disagree.
 */

/** What a row shows as its state: the server's, or shelved while a shelf runs. */
export type ShownState = 'normal' | 'pending' | 'active' | 'shelved';

type Alarmish = Pick<
  AlarmAttributes,
  'status' | 'shelved_until' | 'severity' | 'enabled' | 'name' | 'asset_id'
>;

export function isShelved(a: Pick<AlarmAttributes, 'shelved_until'>, now: number): boolean {
  return a.shelved_until !== null && a.shelved_until > now;
}

export function shownState(a: Alarmish, now: number): ShownState {
  if (isShelved(a, now)) return 'shelved';
  return a.status?.state ?? 'normal';
}

/** Raised, not acknowledged, not shelved, enabled: what needs someone now (the menu's count). */
export function needsAttention(a: Alarmish, now: number): boolean {
  return a.enabled && !isShelved(a, now) && a.status?.state === 'active' && !a.status.acknowledged;
}

/** Raised and not shelved: what colours its asset (acknowledged or not). */
export function isRaised(a: Alarmish, now: number): boolean {
  return a.enabled && !isShelved(a, now) && a.status?.state === 'active';
}

const SEVERITY_RANK: Record<AlarmSeverity, number> = { critical: 0, warning: 1, info: 2 };

/** The worse of two severities (critical > warning > info). */
export function worse(a: AlarmSeverity, b: AlarmSeverity | undefined): AlarmSeverity {
  return b === undefined || SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b;
}

/**
 * The list's order: raised and unacknowledged first, then by severity (critical first), then the
 * newest state change first (alarms never evaluated last), then by name.
 */
export function compareAlarms(a: Alarmish, b: Alarmish, now: number): number {
  const attention = Number(needsAttention(b, now)) - Number(needsAttention(a, now));
  if (attention !== 0) return attention;
  const severity = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  if (severity !== 0) return severity;
  const since = (b.status?.since ?? -Infinity) - (a.status?.since ?? -Infinity);
  if (since !== 0 && !Number.isNaN(since)) return since;
  return a.name.localeCompare(b.name);
}

export interface AlarmFilter {
  readonly state: ShownState | 'all';
  readonly severity: AlarmSeverity | 'all';
}

export const NO_FILTER: AlarmFilter = { state: 'all', severity: 'all' };

export function matches(a: Alarmish, filter: AlarmFilter, now: number): boolean {
  if (filter.severity !== 'all' && a.severity !== filter.severity) return false;
  return filter.state === 'all' || shownState(a, now) === filter.state;
}

/** The rows to show: filtered, in the list's order. */
export function alarmRows<T extends { readonly attributes: Alarmish }>(
  alarms: readonly T[],
  filter: AlarmFilter,
  now: number,
): T[] {
  return alarms
    .filter((m) => matches(m.attributes, filter, now))
    .sort((x, y) => compareAlarms(x.attributes, y.attributes, now));
}

/** An asset's worst raised alarm: what its shown status and badges read. */
export interface RaisedAlarm {
  readonly severity: AlarmSeverity;
  readonly name: string;
}

/**
 * Per asset, its worst raised alarm (the worst severity; among equals the first by name) and that
 * severity; and how many alarms need attention.
 */
export function summarise(
  alarms: readonly { readonly attributes: Alarmish }[],
  now: number,
): {
  readonly worstByAsset: ReadonlyMap<string, AlarmSeverity>;
  readonly raisedByAsset: ReadonlyMap<string, RaisedAlarm>;
  readonly attention: number;
} {
  const raisedByAsset = new Map<string, RaisedAlarm>();
  let attention = 0;
  for (const { attributes: a } of alarms) {
    if (needsAttention(a, now)) attention += 1;
    if (!isRaised(a, now)) continue;
    const known = raisedByAsset.get(a.asset_id);
    const rank =
      known === undefined ? 1 : SEVERITY_RANK[known.severity] - SEVERITY_RANK[a.severity];
    if (rank > 0 || (rank === 0 && known !== undefined && a.name.localeCompare(known.name) < 0))
      raisedByAsset.set(a.asset_id, { severity: a.severity, name: a.name });
  }
  const worstByAsset = new Map<string, AlarmSeverity>();
  for (const [asset, alarm] of raisedByAsset) worstByAsset.set(asset, alarm.severity);
  return { worstByAsset, raisedByAsset, attention };
}
