import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { widgetOptions } from '@plant/shared-schema';
import { Name } from '../../../components/name';
import { useServerNow } from '../../../components/time-ago';
import { useCan } from '../../../permissions/permissions';
import { useLiveQuery } from '../../../sync/hooks';
import { StateBadge, AssetName } from '../../alarms/alarm-parts';
import { alarmPaths } from '../../alarms/alarm-paths';
import { alarmRows, isRaised, NO_FILTER } from '../../alarms/alarm-rows';
import { severityColor, severityLabel } from '../../alarms/alarm-summary';
import type { WidgetProps } from './widget-props';

/*
 * The alarms widget: the account's alarms (or, on an asset's dashboard, the asset's) live from
 * the local store, in the alarm list's order (raised and unacknowledged first), each linked to
 * its page. Offline it shows the last known states, as the alarm screens do.
 */

const LIMIT = 1000;
const SHOWN = 50;

export function AlarmsWidget({ widget, context }: WidgetProps) {
  const { i18n } = useLingui();
  const can = useCan();
  const allowed = can('alarm::view');
  const options = widgetOptions('alarms', widget.options);
  const now = useServerNow();
  const alarms = useLiveQuery(
    !allowed
      ? null
      : context.assetId === null
        ? { type: 'alarm', limit: LIMIT }
        : { type: 'alarm', search: { text: context.assetId, fields: ['asset_id'] }, limit: LIMIT },
  );
  if (!allowed) {
    return (
      <Text c="dimmed" size="sm" data-testid="widget-not-available">
        <Trans>Not available</Trans>
      </Text>
    );
  }
  if (alarms === undefined) return <Stack aria-busy data-testid="widget-loading" />;
  // The search is a substring match: keep exactly this asset's.
  const mine = alarms.items.filter(
    (a) =>
      (context.assetId === null || a.attributes.asset_id === context.assetId) &&
      (!options.raised_only || isRaised(a.attributes, now)),
  );
  const rows = alarmRows(mine, NO_FILTER, now).slice(0, SHOWN);
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="widget-alarms-empty">
        {options.raised_only ? <Trans>No alarm is raised.</Trans> : <Trans>No alarms.</Trans>}
      </Text>
    );
  }
  return (
    <Stack
      gap={4}
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      data-testid="widget-alarms"
    >
      {rows.map((a) => (
        <Group
          key={a.id}
          component="li"
          gap={6}
          wrap="nowrap"
          justify="space-between"
          data-testid="widget-alarm"
          data-id={a.id}
        >
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate>
              <Link to={alarmPaths.alarm(a.id)}>
                <Name>{a.attributes.name}</Name>
              </Link>
            </Text>
            {context.assetId === null ? (
              <Text size="xs" c="dimmed" truncate>
                <AssetName id={a.attributes.asset_id} />
              </Text>
            ) : null}
          </Stack>
          <Group gap={4} wrap="nowrap">
            <Badge color={severityColor(a.attributes.severity)} variant="light" size="sm" tt="none">
              {severityLabel(i18n, a.attributes.severity)}
            </Badge>
            <StateBadge alarm={a.attributes} now={now} />
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
