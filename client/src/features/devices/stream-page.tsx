import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue, useSetAtom } from 'jotai';
import { isolate, apiPaths } from '@plant/shared-schema';
import type { HistoryQuery, HistorySeries, LocalModel } from '@plant/sync-worker/api';
import { DateRangeControl } from '../../components/date-range-control';
import { EmptyState } from '../../components/empty-state';
import { translateServerText } from '../../i18n/server-texts';
import { dateRangeAtom, historicRange } from '../../state/date-range';
import { useMayEdit } from '../../permissions/permissions';
import { useLiveModel } from '../../sync/hooks';
import { useHistory } from '../../sync/values';
import { syncWorker } from '../../sync/worker';
import { streamTypeLabel, textOf } from './asset-texts';
import { devicePaths } from './paths';
import { StreamChart } from './stream-chart';
import { streamShapeOf, valueText, type StreamShape } from './stream-values';
import { Name } from '../../components/name';

/* The alarms' section (with its table and form) is its own chunk: the diagram shows without it. */
const AlarmsSection = lazy(() =>
  import('../alarms/alarms-section').then((m) => ({ default: m.AlarmsSection })),
);
/* The stream's form opens on a click: its chunk (NumberInput and its number formatting) after the page. */
const StreamForm = lazy(() => import('./stream-form').then((m) => ({ default: m.StreamForm })));

/**
 * /app/devices/{id}/input/{inputid}: one data stream over the shared date range (spec 000 §4,
 * spec 001 §2): a diagram (a state timeline for state streams, the latest values for texts),
 * the range's metrics, and its CSV. The values come from the worker's cache first, so the page
 * works offline over what this device has seen, and says so.
 */
export function StreamPage() {
  const { id = '', inputid = '' }: { id?: string; inputid?: string } = useParams({
    strict: false,
  });
  const state = useLiveModel('datastream', inputid);
  if (state.name === 'loading') return <Skeleton height={360} />;
  if (state.name === 'missing' || state.model.attributes.asset_id !== id) {
    return (
      <EmptyState title={<Trans>There is no such data stream on this asset</Trans>}>
        <Button component={Link} to={devicePaths.details(id)} variant="light">
          <Trans>Back to the asset</Trans>
        </Button>
      </EmptyState>
    );
  }
  return <StreamView stream={state.model} assetId={id} />;
}

function numberOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

function StreamView({
  stream,
  assetId,
}: {
  readonly stream: LocalModel<'datastream'>;
  readonly assetId: string;
}) {
  const { t, i18n } = useLingui();
  const range = useAtomValue(dateRangeAtom);
  const setRange = useSetAtom(dateRangeAtom);
  const [width, setWidth] = useState(800);
  const [editing, setEditing] = useState(false);
  const mayEdit = useMayEdit('datastream', stream);
  const name = textOf(stream.attributes, 'name');
  const shape = streamShapeOf(stream.attributes);
  // About twice the chart's pixel width in points: more is not seen, only paid for.
  const points = Math.min(10_000, Math.max(100, width * 2));
  const query: HistoryQuery = useMemo(
    () => ({
      streams: [stream.id],
      range:
        range.mode === 'relative' ? { last: range.duration } : { from: range.from, to: range.to },
      points,
    }),
    [stream.id, range, points],
  );
  const history = useHistory(query);
  const series = history?.series[0];
  const onWidth = useCallback((w: number) => setWidth(Math.round(w / 100) * 100 || 100), []);
  const onZoom = useCallback((a: number, b: number) => setRange(historicRange(a, b)), [setRange]);

  return (
    <Stack gap="md" data-testid="stream-page" data-id={stream.id}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={1}>
              <Name>{name}</Name>
            </Title>
            {stream.pending ? (
              <Badge color="orange" variant="light" data-testid="stream-pending">
                <Trans>Not synced yet</Trans>
              </Badge>
            ) : null}
          </Group>
          <Group gap="xs">
            <Badge variant="light" color="gray">
              {streamTypeLabel(i18n, shape.type)}
            </Badge>
            {shape.unit === '' ? null : <Text c="dimmed">{shape.unit}</Text>}
            <Anchor component={Link} to={devicePaths.details(assetId)} size="sm">
              <Trans>Back to the asset</Trans>
            </Anchor>
            {mayEdit && !editing ? (
              <Button size="xs" variant="light" onClick={() => setEditing(true)}>
                <Trans>Edit definition</Trans>
              </Button>
            ) : null}
          </Group>
        </Stack>
        <DateRangeControl />
      </Group>

      {editing ? (
        <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}>
          <StreamForm stream={stream} onDone={() => setEditing(false)} />
        </Suspense>
      ) : null}

      {history?.offline === true ? (
        <Alert color="yellow" data-testid="stream-offline" title={t`No connection to the server`}>
          <Trans>
            This shows the values stored on this device. Missing times fill in once the connection
            is back.
          </Trans>
        </Alert>
      ) : null}

      <Paper withBorder p="sm" radius="sm" pos="relative">
        {history === undefined || history.loading ? (
          <Group gap={6} pos="absolute" top={8} right={8} data-testid="stream-loading">
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              <Trans>Loading values…</Trans>
            </Text>
          </Group>
        ) : null}
        {shape.type === 'state' ? (
          <StateTimeline
            series={series}
            shape={shape}
            from={history?.from ?? range.from}
            to={history?.to ?? range.to}
          />
        ) : shape.type === 'text' ? (
          <TextValues series={series} shape={shape} />
        ) : (
          <StreamChart
            series={series}
            from={history?.from ?? range.from}
            to={history?.to ?? range.to}
            visMin={numberOrNull(stream.attributes.vis_min)}
            visMax={numberOrNull(stream.attributes.vis_max)}
            label={t`${{ name: isolate(name) }} over the chosen range`}
            onWidth={onWidth}
            onZoom={onZoom}
          />
        )}
        {series !== undefined && series.ts.length === 0 && history?.loading === false ? (
          <Text c="dimmed" ta="center" data-testid="stream-no-values">
            <Trans>No values in this range.</Trans>
          </Text>
        ) : null}
      </Paper>

      <Metrics series={series} shape={shape} />
      <CsvDownload
        streamId={stream.id}
        name={name}
        from={history?.from ?? range.from}
        to={history?.to ?? range.to}
      />
      {shape.type === 'number' || shape.type === 'state' ? (
        <Suspense fallback={null}>
          <AlarmsSection assetId={assetId} streamId={stream.id} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/** Min, max, average and last of the range (numbers and booleans). */
function Metrics({
  series,
  shape,
}: {
  readonly series: HistorySeries | undefined;
  readonly shape: StreamShape;
}) {
  const { t, i18n } = useLingui();
  const numbers = (series?.values ?? []).filter((v): v is number => typeof v === 'number');
  if (numbers.length === 0 || shape.type === 'text') return null;
  const format = (v: number) =>
    `${valueText(i18n, shape, v)}${shape.unit === '' || shape.type !== 'number' ? '' : ` ${shape.unit}`}`;
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const avg = numbers.reduce((a, b) => a + b, 0) / numbers.length;
  const last = numbers.at(-1) ?? 0;
  const items = [
    { key: 'min', label: t`Minimum`, value: format(min) },
    { key: 'max', label: t`Maximum`, value: format(max) },
    {
      key: 'avg',
      // From the points shown: over a downsampled range it is an estimate.
      label: series?.downsampled === true ? t`Average (about)` : t`Average`,
      value: `${i18n.number(avg, { maximumFractionDigits: 3 })}${shape.unit === '' || shape.type !== 'number' ? '' : ` ${shape.unit}`}`,
    },
    { key: 'last', label: t`Last`, value: format(last) },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0} data-testid="stream-metrics">
      {items.map((item) => (
        <Paper key={item.key} withBorder p="sm" radius="sm" data-metric={item.key}>
          <Text component="dt" size="sm" c="dimmed">
            {item.label}
          </Text>
          <Text component="dd" m={0} fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {item.value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

const STATE_COLORS = [
  '#228be6',
  '#40c057',
  '#fab005',
  '#fa5252',
  '#7950f2',
  '#15aabf',
  '#fd7e14',
  '#868e96',
];

/** A state stream as bands of time, one colour per state, with the state texts as legend. */
function StateTimeline({
  series,
  shape,
  from,
  to,
}: {
  readonly series: HistorySeries | undefined;
  readonly shape: StreamShape;
  readonly from: number;
  readonly to: number;
}) {
  const { t, i18n } = useLingui();
  const ts = series?.ts ?? [];
  const values = series?.values ?? [];
  const states = [...new Set(values.map(String))];
  const color = (v: number | string) =>
    STATE_COLORS[states.indexOf(String(v)) % STATE_COLORS.length];
  const x = (time: number) => ((time - from) / Math.max(1, to - from)) * 1000;
  return (
    <Stack gap="xs">
      <svg
        viewBox="0 0 1000 40"
        preserveAspectRatio="none"
        width="100%"
        height={40}
        role="img"
        aria-label={t`States over the chosen range`}
        data-testid="state-timeline"
        data-points={ts.length}
      >
        {ts.map((time, i) => {
          const end = ts[i + 1] ?? to;
          const v = values[i] ?? '';
          return (
            <rect
              key={time}
              x={x(time)}
              width={Math.max(0.5, x(end) - x(time))}
              y={0}
              height={40}
              fill={color(v)}
            />
          );
        })}
      </svg>
      <Group gap="md">
        {states.map((s) => (
          <Group key={s} gap={6}>
            <span
              aria-hidden
              style={{ display: 'inline-block', width: 12, height: 12, background: color(s) }}
            />
            <Text size="sm">{valueText(i18n, shape, Number.isNaN(Number(s)) ? s : Number(s))}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

/** A text stream: its values in the range, newest first. */
function TextValues({
  series,
  shape,
}: {
  readonly series: HistorySeries | undefined;
  readonly shape: StreamShape;
}) {
  const { t, i18n } = useLingui();
  const rows = (series?.ts ?? [])
    .map((ts, i) => ({ ts, value: series?.values[i] ?? '' }))
    .reverse()
    .slice(0, 200);
  return (
    <Table aria-label={t`Values`} data-testid="text-values">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">
            <Trans>Time</Trans>
          </Table.Th>
          <Table.Th scope="col">
            <Trans>Value</Trans>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.ts}>
            <Table.Td>
              {i18n.date(new Date(r.ts), { dateStyle: 'short', timeStyle: 'medium' })}
            </Table.Td>
            <Table.Td>{valueText(i18n, shape, r.value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The range's raw values as CSV, read from the server (it needs the connection). */
function CsvDownload({
  streamId,
  name,
  from,
  to,
}: {
  readonly streamId: string;
  readonly name: string;
  readonly from: number;
  readonly to: number;
}) {
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    const answer = await syncWorker().http.call(
      'GET',
      apiPaths.streamValuesCsv(streamId, Math.floor(from), Math.ceil(to)),
      undefined,
      { text: true, quiet: true },
    );
    setBusy(false);
    if ('error' in answer) {
      setError(translateServerText(i18n, answer.error.message));
      return;
    }
    const blob = new Blob([String(answer.data)], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name.replace(/[^\p{L}\p{N} _-]+/gu, '_')}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Group gap="sm">
      <Button
        variant="default"
        onClick={() => void download()}
        loading={busy}
        data-testid="stream-csv"
      >
        <Trans>Download CSV</Trans>
      </Button>
      {error === null ? null : (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Group>
  );
}
