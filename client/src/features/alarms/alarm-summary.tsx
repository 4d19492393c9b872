import { useEffect, useMemo, useState } from 'react';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Badge, VisuallyHidden, type MantineColor } from '@mantine/core';
import type { AlarmSeverity } from '@plant/shared-schema';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { summarise, type RaisedAlarm } from './alarm-rows';

/*
 * What the always-loaded screens show of alarms (the menu's badge, the asset lists' and the asset
 * page's severity): one live query of the account's alarms for the whole screen, grouped here,
 * rather than a query per row. Kept small: the asset list's first paint loads it.
 */

/* Severities' words and colours (here, with the badge: the asset list's first paint needs them). */

const SEVERITY_LABELS: Record<AlarmSeverity, MessageDescriptor> = {
  info: msg`Info`,
  warning: msg`Warning`,
  critical: msg`Critical`,
};

const SEVERITY_COLORS: Record<AlarmSeverity, MantineColor> = {
  info: 'blue',
  warning: 'yellow',
  critical: 'red',
};

export function severityLabel(i18n: I18n, severity: AlarmSeverity): string {
  return i18n._(SEVERITY_LABELS[severity]);
}

export function severityColor(severity: AlarmSeverity): MantineColor {
  return SEVERITY_COLORS[severity];
}

/** The alarms a summary reads at most (an account's alarms are tens, not thousands). */
const SUMMARY_LIMIT = 1000;

export interface AlarmSummary {
  /** Per asset id, the worst severity of its raised alarms. */
  readonly worstByAsset: ReadonlyMap<string, AlarmSeverity>;
  /** Per asset id, its worst raised alarm (what its shown status reads: devices/asset-texts). */
  readonly raisedByAsset: ReadonlyMap<string, RaisedAlarm>;
  /** Raised, unacknowledged, not shelved. */
  readonly attention: number;
}

const NONE: AlarmSummary = { worstByAsset: new Map(), raisedByAsset: new Map(), attention: 0 };

/** The account's alarms, summarised live (nothing without alarm::view). */
export function useAlarmSummary(): AlarmSummary {
  const can = useCan();
  const result = useLiveQuery(can('alarm::view') ? { type: 'alarm', limit: SUMMARY_LIMIT } : null);
  // A shelf that runs out changes no model: the summary is taken again each minute too.
  const [minute, setMinute] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setMinute(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return useMemo(
    () => (result === undefined ? NONE : summarise(result.items, Math.max(minute, Date.now()))),
    [result, minute],
  );
}

/** The worst raised alarm of a list's model (an asset), if any. */
export function worstOf(
  worstByAsset: ReadonlyMap<string, AlarmSeverity>,
  asset: { readonly id: string } | undefined,
): AlarmSeverity | undefined {
  return asset === undefined ? undefined : worstByAsset.get(asset.id);
}

/** An asset's worst raised alarm as a badge (nothing when none is raised). */
export function AlarmSeverityBadge(props: {
  readonly severity: AlarmSeverity | undefined;
  readonly size?: 'xs' | 'sm' | 'md';
}) {
  const { t, i18n } = useLingui();
  if (props.severity === undefined) return null;
  const label = severityLabel(i18n, props.severity);
  return (
    <Badge
      color={severityColor(props.severity)}
      variant="filled"
      size={props.size ?? 'sm'}
      data-testid="asset-alarm-badge"
      data-severity={props.severity}
    >
      <span aria-hidden>{label}</span>
      <VisuallyHidden>{t`Alarm: ${label}`}</VisuallyHidden>
    </Badge>
  );
}
