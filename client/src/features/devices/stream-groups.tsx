import { lazy, Suspense, useMemo, useState, type DragEvent } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Collapse,
  Group,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
  useDirection,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { AssetValues, HistoryResult, LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { isStepped } from './stream-figures';
import { DataTable } from '../../components/data-table';
import { useMayEdit } from '../../permissions/may-edit';
import {
  GROUP_DRAG_TYPE,
  GroupTools,
  MoveStreamSelect,
  moveGroup,
  NewGroupForm,
} from './group-tools';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { useAssetValues, useHistory } from '../../sync/values';
import { streamTypeLabel, textOf } from './asset-texts';
import { devicePaths } from './paths';
import { LatestValue, Sparkline, streamShapeOf } from './stream-values';
import { Name } from '../../components/name';
import { isolate, streamFreshness, type Freshness, type StreamSource } from '@plant/shared-schema';
import { useStreamSources } from './stream-sources';
import { useServerNow } from '../../components/time-ago';

/** The sparklines show this much history, in about this many points. */
/* A group's settings (its switches, rename, delete) load as the panel opens. */
const GroupSettings = lazy(() =>
  import('./group-settings').then((m) => ({ default: m.GroupSettings })),
);

const SPARK_MS = 2 * 3_600_000;
const SPARK_POINTS = 60;

/** How often "now" moves on: a silent source is marked stale this late at most. */
const NOW_EVERY_MS = 5_000;

/** What the rows show of the asset's values: latest, what feeds them, the time now. */
interface LiveContext {
  readonly values: AssetValues | undefined;
  readonly gatewayOffline: boolean;
  readonly sources: ReadonlyMap<string, StreamSource>;
  readonly now: number;
}

/** Whether a stream's latest value is to be believed (the shared rule) and, if not, why. */
function freshnessOf(live: LiveContext, streamId: string): Freshness {
  const point = live.values?.latest[streamId];
  const lastValueAt = point === undefined ? null : point[0];
  const fresh = streamFreshness({
    now: live.now,
    lastValueAt,
    source: live.sources.get(streamId) ?? null,
  });
  // A stream no visible datapoint feeds still says when the asset's gateway is offline.
  if (fresh.state === 'fresh' && live.gatewayOffline)
    return { ...fresh, state: 'offline', since: lastValueAt, staleAt: null };
  return fresh;
}

/**
 * An asset's data streams in their folders (spec 001 §2, §3): groups in their order, each with
 * its streams. A collapsible group opens and closes (open at first when its open_by_default says
 * so, after that as the user leaves it); a group that is not collapsible is always open.
 */
export function StreamGroups({
  assetId,
  gatewayId,
}: {
  readonly assetId: string;
  readonly gatewayId: string | null;
}) {
  const values = useAssetValues(assetId);
  const gateway = useLiveModel('gateway', gatewayId ?? '');
  const gatewayOffline =
    gatewayId !== null &&
    gateway.name === 'found' &&
    gateway.model.attributes.connection !== 'online';
  const { sources, watches } = useStreamSources(gatewayId, !gatewayOffline);
  // The server's now: the values' times are the server's and its gateways'.
  const now = useServerNow(NOW_EVERY_MS);
  const live = useMemo(
    () => ({ values, gatewayOffline, sources, now }),
    [values, gatewayOffline, sources, now],
  );
  const groups = useLiveQuery({
    type: 'datastreamgroup',
    parent: { type: 'asset', id: assetId },
    limit: 1000,
  });
  // The user's own choices; a group nobody toggled follows its open_by_default, live.
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());

  if (groups === undefined) {
    return (
      <Stack gap={10} aria-busy data-testid="stream-groups-loading">
        <Skeleton height={48} />
        <Skeleton height={48} />
      </Stack>
    );
  }
  if (groups.items.length === 0) {
    return (
      <Stack gap="sm">
        <EmptyState title={<Trans>No data streams yet</Trans>}>
          <Text c="dimmed" ta="center">
            <Trans>This asset has no data stream groups.</Trans>
          </Text>
        </EmptyState>
        <NewGroupForm assetId={assetId} count={0} />
      </Stack>
    );
  }
  const dropOn = (targetIndex: number) => (e: DragEvent) => {
    const id = e.dataTransfer.getData(GROUP_DRAG_TYPE);
    if (id === '') return;
    e.preventDefault();
    void moveGroup(groups.items, id, targetIndex);
  };
  return (
    <Stack gap="sm" data-testid="stream-groups">
      {watches}
      {groups.items.map((group, index) => {
        const collapsible = group.attributes.collapsible !== false;
        const open =
          !collapsible || (toggled.get(group.id) ?? group.attributes.open_by_default !== false);
        return (
          <GroupSection
            key={group.id}
            group={group}
            groups={groups.items}
            index={index}
            onDrop={dropOn(index)}
            collapsible={collapsible}
            open={open}
            onToggle={() => setToggled((m) => new Map(m).set(group.id, !open))}
            live={live}
          />
        );
      })}
      <NewGroupForm assetId={assetId} count={groups.items.length} />
    </Stack>
  );
}

function GroupSection({
  group,
  groups,
  index,
  onDrop,
  collapsible,
  open,
  onToggle,
  live,
}: {
  readonly group: LocalModel<'datastreamgroup'>;
  readonly groups: readonly LocalModel<'datastreamgroup'>[];
  readonly index: number;
  readonly onDrop: (e: DragEvent) => void;
  readonly collapsible: boolean;
  readonly open: boolean;
  readonly onToggle: () => void;
  readonly live: LiveContext;
}) {
  const streams = useLiveQuery({
    type: 'datastream',
    parent: { type: 'datastreamgroup', id: group.id },
    limit: 1000,
  });
  const ids = streams?.items.map((s) => s.id) ?? [];
  const history = useHistory(
    open && ids.length > 0
      ? { streams: ids, range: { last: SPARK_MS }, points: SPARK_POINTS }
      : null,
  );
  const name = textOf(group.attributes, 'name');
  const panelId = `stream-group-${group.id}`;
  const { t } = useLingui();
  const [settings, setSettings] = useState(false);
  const mayEdit = useMayEdit('datastreamgroup', group);
  const count =
    streams === undefined ? null : (
      <Badge variant="light" color="gray" size="sm">
        <Plural value={streams.total} one="# stream" other="# streams" />
      </Badge>
    );
  return (
    <Paper
      withBorder
      radius="sm"
      data-testid="stream-group"
      data-name={name}
      data-open={open}
      data-collapsible={collapsible}
      // Drop a group's header onto another group to put it there (the arrows do the same).
      onDragOver={(e) => {
        if (mayEdit) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      <Group
        wrap="nowrap"
        gap={0}
        draggable={mayEdit}
        onDragStart={(e) => e.dataTransfer.setData(GROUP_DRAG_TYPE, group.id)}
        data-testid="stream-group-header"
      >
        <Title order={3} size="h5" m={0} style={{ flex: 1 }}>
          {collapsible ? (
            <UnstyledButton
              onClick={onToggle}
              aria-expanded={open}
              aria-controls={panelId}
              w="100%"
              p="sm"
              data-testid="stream-group-toggle"
            >
              <Group justify="space-between" wrap="nowrap">
                <Group gap="xs">
                  <Chevron open={open} />
                  <Name>{name}</Name>
                </Group>
                {count}
              </Group>
            </UnstyledButton>
          ) : (
            <Group justify="space-between" wrap="nowrap" p="sm">
              <Name>{name}</Name>
              {count}
            </Group>
          )}
        </Title>
        <GroupTools
          group={group}
          groups={groups}
          index={index}
          settingsOpen={settings}
          onSettings={() => setSettings((o) => !o)}
        />
      </Group>
      {settings ? (
        <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}>
          <GroupSettings group={group} onClose={() => setSettings(false)} />
        </Suspense>
      ) : null}
      <Collapse expanded={open} id={panelId} keepMountedMode="display-none">
        <div style={{ padding: '0 var(--mantine-spacing-sm) var(--mantine-spacing-sm)' }}>
          <Streams streams={streams?.items} live={live} history={history} groups={groups} />
        </div>
      </Collapse>
    </Paper>
  );
}

function Streams({
  streams,
  live,
  history,
  groups,
}: {
  readonly groups: readonly LocalModel<'datastreamgroup'>[];
  readonly streams: readonly LocalModel<'datastream'>[] | undefined;
  readonly live: LiveContext;
  readonly history: HistoryResult | undefined;
}) {
  const { t, i18n } = useLingui();
  const movable = useMayEdit('datastreamgroup', groups[0]) && groups.length > 1;
  return (
    <DataTable
      rows={streams}
      columns={[
        {
          id: 'name',
          header: t`Name`,
          cell: (stream) => (
            <Anchor
              component={Link}
              to={devicePaths.stream(textOf(stream.attributes, 'asset_id'), stream.id)}
            >
              <Name>{textOf(stream.attributes, 'name')}</Name>
            </Anchor>
          ),
        },
        {
          id: 'unit',
          header: t`Unit`,
          cell: (stream) => <Unit unit={textOf(stream.attributes, 'unit')} />,
        },
        {
          id: 'type',
          header: t`Type`,
          cell: (stream) => streamTypeLabel(i18n, stream.attributes.type),
        },
        {
          id: 'value',
          header: t`Value`,
          cell: (stream) => (
            <LatestValue
              shape={streamShapeOf(stream.attributes)}
              point={live.values?.latest[stream.id]}
              freshness={freshnessOf(live, stream.id)}
            />
          ),
        },
        {
          id: 'history',
          header: t`Last 2 hours`,
          cell: (stream) => (
            <Sparkline
              series={history?.series.find((x) => x.stream === stream.id)}
              from={history?.from ?? live.now - SPARK_MS}
              to={history?.to ?? live.now}
              stepped={isStepped(stream.attributes)}
              label={t`${{ name: isolate(textOf(stream.attributes, 'name')) }}: the last 2 hours`}
            />
          ),
        },
        movable && {
          id: 'group',
          header: t`Group`,
          cell: (stream) => <MoveStreamSelect stream={stream} groups={groups} />,
        },
      ]}
      rowKey={(stream) => stream.id}
      rowData={(stream) => ({ 'data-testid': 'stream-row', 'data-id': stream.id })}
      name={{ label: t`Data streams` }}
      look={{ striped: true, highlightOnHover: true, verticalSpacing: 6 }}
      loading={<Skeleton height={32} />}
      empty={
        <Text c="dimmed" size="sm">
          <Trans>No data streams in this group.</Trans>
        </Text>
      }
    />
  );
}

function Unit({ unit }: { readonly unit: string }) {
  return unit === '' ? (
    <Text span c="dimmed" size="sm">
      —
    </Text>
  ) : (
    unit
  );
}

function Chevron({ open }: { readonly open: boolean }) {
  const { dir } = useDirection();
  const closed = dir === 'rtl' ? 'scaleX(-1)' : 'none';
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      style={{
        transform: open ? 'rotate(90deg)' : closed,
        transition: 'transform 150ms ease',
      }}
    >
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}
