import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, VisuallyHidden } from '@mantine/core';
import { isolate } from '@plant/shared-schema';
import { severityLabel } from '../alarms/alarm-summary';
import { statusColor, statusLabel } from './asset-texts';
import type { ShownAssetStatus } from './asset-status-rule';

/**
 * An asset's shown status (`assetStatusOf`: stored status and raised alarms) as a badge. When a
 * raised alarm made it, the alarm's name is in a tooltip and, for screen readers, in the badge.
 */
export function AssetStatusBadge({
  shown,
  size,
  testId = 'asset-status',
}: {
  readonly shown: ShownAssetStatus;
  readonly size?: 'xs' | 'sm' | 'md';
  readonly testId?: string;
}) {
  const { t, i18n } = useLingui();
  const { status, alarm } = shown;
  const detail =
    alarm === undefined
      ? null
      : t`Alarm raised (${{ severity: severityLabel(i18n, alarm.severity) }}): ${{ name: isolate(alarm.name) }}`;
  const badge = (
    <Badge
      color={statusColor(status)}
      variant={alarm === undefined ? 'light' : 'filled'}
      size={size ?? 'sm'}
      data-testid={testId}
      data-status={status}
      {...(alarm === undefined ? {} : { 'data-alarm': alarm.name })}
    >
      {statusLabel(i18n, status)}
      {detail === null ? null : <VisuallyHidden>{`: ${detail}`}</VisuallyHidden>}
    </Badge>
  );
  return detail === null ? badge : <Tooltip label={detail}>{badge}</Tooltip>;
}
