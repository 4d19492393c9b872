import type { AlarmSeverity } from '@plant/shared-schema';
import type { RaisedAlarm } from '../alarms/alarm-rows';
import type { AssetStatus } from './asset-texts';

/** What an asset shows as its status, and the raised alarm that made it so (if one did). */
export interface ShownAssetStatus {
  readonly status: AssetStatus;
  readonly alarm: RaisedAlarm | undefined;
}

/* The status a raised alarm of each severity means at least (info changes nothing). */
const ALARM_STATUS: Record<AlarmSeverity, AssetStatus | null> = {
  critical: 'alarm',
  warning: 'warning',
  info: null,
};

/* Which of two statuses shows: the higher. A raised critical alarm outranks every stored one. */
const STATUS_RANK: Record<AssetStatus, number> = {
  ok: 0,
  unknown: 1,
  warning: 2,
  offline: 3,
  alarm: 4,
};

/**
 * An asset's shown status (issue 30 item 8): its stored status, raised to what its worst raised
 * alarm means (critical: 'alarm', warning: at least 'warning'), so an asset with a raised critical
 * alarm never shows 'OK'. Every place that shows an asset's status (its page, the table, the
 * cards, the map) reads this, with `useAlarmSummary().raisedByAsset`.
 */
export function assetStatusOf(
  attributes: { readonly status: AssetStatus },
  raised: RaisedAlarm | undefined,
): ShownAssetStatus {
  const stored = attributes.status;
  const fromAlarm = raised === undefined ? null : ALARM_STATUS[raised.severity];
  if (fromAlarm === null || STATUS_RANK[fromAlarm] < STATUS_RANK[stored]) {
    return { status: stored, alarm: undefined };
  }
  return { status: fromAlarm, alarm: raised };
}
