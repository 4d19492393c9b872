import { useMemo, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Group,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { ALARM_SEVERITIES, type AlarmSeverity } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { DataTable } from '../../components/data-table';
import { alarmRows, NO_FILTER, type AlarmFilter, type ShownState } from './alarm-rows';
import {
  AcknowledgedHere,
  AlarmValue,
  AssetName,
  DeliveryNote,
  StateBadge,
  StreamName,
  UserName,
} from './alarm-parts';
import { TimeAgo, useServerNow } from '../../components/time-ago';
import { useAcknowledgedHere } from '../../sync/pending';
import { alarmPaths } from './alarm-paths';
import { severityColor, severityLabel } from './alarm-texts';
import { Name } from '../../components/name';

const STATES: readonly ShownState[] = ['active', 'pending', 'normal', 'shelved'];

/** The state and severity filters, as labelled native selects (keyboard and screen readers). */
export function AlarmFilters(props: {
  readonly filter: AlarmFilter;
  readonly onChange: (filter: AlarmFilter) => void;
}) {
  const { t, i18n } = useLingui();
  const stateLabels: Record<ShownState, string> = {
    active: t`Active`,
    pending: t`Pending`,
    normal: t`Normal`,
    shelved: t`Shelved`,
  };
  return (
    <Group gap="sm" align="flex-end">
      <NativeSelect
        label={t`State`}
        value={props.filter.state}
        onChange={(e) => {
          const v = e.currentTarget.value;
          const state = STATES.find((s) => s === v) ?? 'all';
          props.onChange({ ...props.filter, state });
        }}
        data={[
          { value: 'all', label: t`All states` },
          ...STATES.map((s) => ({ value: s, label: stateLabels[s] })),
        ]}
        data-testid="alarm-filter-state"
      />
      <NativeSelect
        label={t`Severity`}
        value={props.filter.severity}
        onChange={(e) => {
          const v = e.currentTarget.value;
          const severity: AlarmSeverity | 'all' = ALARM_SEVERITIES.find((s) => s === v) ?? 'all';
          props.onChange({ ...props.filter, severity });
        }}
        data={[
          { value: 'all', label: t`All severities` },
          ...ALARM_SEVERITIES.map((s) => ({ value: s, label: severityLabel(i18n, s) })),
        ]}
        data-testid="alarm-filter-severity"
      />
    </Group>
  );
}

export interface AlarmsTableProps {
  /** The alarms (undefined while the store answers). */
  readonly alarms: readonly LocalModel<'alarm'>[] | undefined;
  /** The table's name for screen readers. */
  readonly caption: string;
  /** Leave out the asset column (an asset's page) and the stream column (a stream's page). */
  readonly withAsset?: boolean;
  readonly withStream?: boolean;
  /** Filters above the table (the account's list). */
  readonly withFilters?: boolean;
  /** What the empty list says. */
  readonly empty: ReactNode;
}

/**
 * Alarms as a real table: sorted as alarm-rows.ts says (raised and unacknowledged first, then by
 * severity, then the newest change), every alarm's name a link to its page.
 */
export function AlarmsTable(props: AlarmsTableProps) {
  const { t, i18n } = useLingui();
  const now = useServerNow();
  const acknowledgedHere = useAcknowledgedHere();
  const [filter, setFilter] = useState<AlarmFilter>(NO_FILTER);
  const rows = useMemo(
    () => (props.alarms === undefined ? undefined : alarmRows(props.alarms, filter, now)),
    [props.alarms, filter, now],
  );
  const withAsset = props.withAsset ?? true;
  const withStream = props.withStream ?? true;
  const filtered = filter.state !== 'all' || filter.severity !== 'all';

  if (rows === undefined) {
    return (
      <Stack gap={6} aria-busy role="status" data-testid="alarms-loading">
        <VisuallyHidden>
          <Trans>Loading the alarms…</Trans>
        </VisuallyHidden>
        <Skeleton height={32} aria-hidden />
        <Skeleton height={32} aria-hidden />
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      {props.withFilters === true ? <AlarmFilters filter={filter} onChange={setFilter} /> : null}
      <DataTable
        rows={rows}
        columns={[
          { id: 'name', header: t`Name`, rowHeader: true, cellProps: { fw: 500 }, cell: nameCell },
          withAsset && {
            id: 'asset',
            header: t`Asset`,
            cell: (m) => <AssetName id={m.attributes.asset_id} />,
          },
          withStream && {
            id: 'stream',
            header: t`Data stream`,
            cell: (m) => (
              <StreamName id={m.attributes.datastream_id} assetId={m.attributes.asset_id} />
            ),
          },
          {
            id: 'severity',
            header: t`Severity`,
            cell: (m) => (
              <Badge color={severityColor(m.attributes.severity)} variant="light" size="sm">
                {severityLabel(i18n, m.attributes.severity)}
              </Badge>
            ),
          },
          { id: 'state', header: t`State`, cell: (m) => <StateCell alarm={m} now={now} /> },
          {
            id: 'since',
            header: t`Since`,
            cell: (m) => <Since at={m.attributes.status?.since} now={now} />,
          },
          {
            id: 'value',
            header: t`Value`,
            cellProps: { style: { fontVariantNumeric: 'tabular-nums' } },
            cell: (m) => (
              <AlarmValue
                value={m.attributes.status?.value ?? null}
                streamId={m.attributes.datastream_id}
                unit={m.attributes.unit}
              />
            ),
          },
          {
            id: 'acknowledged',
            header: t`Acknowledged`,
            cell: (m) => (
              <Acknowledged
                status={m.attributes.status}
                here={acknowledgedHere.has(m.id)}
                now={now}
              />
            ),
          },
        ]}
        rowKey={(m) => m.id}
        rowData={(m) => ({ 'data-testid': 'alarm-row', 'data-id': m.id })}
        name={{ caption: props.caption }}
        minWidth={720}
        look={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
        testId="alarms-table"
        empty={
          <div data-testid="alarms-empty">
            <EmptyState
              title={filtered ? <Trans>No alarm matches these filters</Trans> : props.empty}
            />
          </div>
        }
      />
    </Stack>
  );
}

/** The name cell: a link to the alarm's page, with its disabled and not-synced marks. */
function nameCell(m: LocalModel<'alarm'>) {
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component={Link} to={alarmPaths.alarm(m.id)} size="sm">
        <Name>{m.attributes.name}</Name>
      </Anchor>
      {m.attributes.enabled ? null : (
        <Badge size="xs" variant="outline" color="gray">
          <Trans>Disabled</Trans>
        </Badge>
      )}
      {m.pending ? (
        <Badge size="xs" variant="light" color="orange">
          <Trans>Not synced yet</Trans>
        </Badge>
      ) : null}
    </Group>
  );
}

function StateCell(props: { readonly alarm: LocalModel<'alarm'>; readonly now: number }) {
  const s = props.alarm.attributes.status;
  const count = s?.count ?? 0;
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <StateBadge alarm={props.alarm.attributes} now={props.now} />
        {count > 1 ? (
          <Text span size="sm" fw={600} data-testid="alarm-count">
            ×{count}
          </Text>
        ) : null}
      </Group>
      <DeliveryNote status={s} />
    </>
  );
}

function Since(props: { readonly at: number | null | undefined; readonly now: number }) {
  return props.at === null || props.at === undefined ? (
    <Dash />
  ) : (
    <TimeAgo at={props.at} now={props.now} />
  );
}

function Dash() {
  return (
    <Text span c="dimmed" size="sm">
      –
    </Text>
  );
}

function Acknowledged(props: {
  readonly status: LocalModel<'alarm'>['attributes']['status'];
  /** Acknowledged on this device, not sent yet. */
  readonly here: boolean;
  readonly now: number;
}) {
  const s = props.status;
  if (s === null || s.raised_at === null) return <Dash />;
  if ((!s.acknowledged || s.acknowledged_by === null) && props.here) return <AcknowledgedHere />;
  if (!s.acknowledged || s.acknowledged_by === null) {
    return (
      <Text span size="sm" c="dimmed" data-testid="alarm-unacknowledged">
        <Trans>Not acknowledged</Trans>
      </Text>
    );
  }
  return (
    <Text span size="sm" data-testid="alarm-acknowledged">
      <UserName id={s.acknowledged_by} />
      {s.acknowledged_at === null ? null : (
        <>
          {', '}
          <TimeAgo at={s.acknowledged_at} now={props.now} />
        </>
      )}
    </Text>
  );
}
