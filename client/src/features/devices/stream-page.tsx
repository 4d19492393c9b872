import { lazy, Suspense, useCallback, useId, useMemo, useRef, useState } from 'react';
import { HelpLink } from '../../components/help-link';
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
import {
  dateRangeAtom,
  historicRange,
  relativeRange,
  type DateRange,
} from '../../state/date-range';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel } from '../../sync/hooks';
import { useHistory } from '../../sync/values';
import { syncWorker } from '../../sync/worker';
import { streamTypeLabel, textOf } from './asset-texts';
import { devicePaths } from './paths';
import { isStepped, stepFigures } from './stream-figures';
import { streamShapeOf, valueText, type StreamShape } from './stream-values';
import { Name } from '../../components/name';

/* The alarms' section (with its table and form) is its own chunk: the diagram shows without it. */
const AlarmsSection = lazy(() =>
  import('../alarms/alarms-section').then((m) => ({ default: m.AlarmsSection })),
);
/* The moment picked on the chart and its event inspection: the inspection's texts and chunk. */
const ChosenMoment = lazy(() => import('../inspection/chosen-moment'));
/* The stream's form opens on a click: its chunk (NumberInput and its number formatting) after the page. */
/**
 * The chart (uPlot, about a tenth of the page's first visit) is a chunk of its own, fetched with
 * the page's history: the page's first paint needs neither (issue 30: the bundle budget).
 */
const StreamChart = lazy(() => import('./stream-chart').then((m) => ({ default: m.StreamChart })));
const StreamForm = lazy(() => import('./stream-form').then((m) => ({ default: m.StreamForm })));

/**
 * /app/devices/{id}/input/{inputid}: one data stream over the shared date range (spec 000 §4,
 * spec 001 §2): a diagram (steps for booleans and states, the latest values for texts),
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
  // Another stream is a view of its own (its picked moment does not carry over).
  return <StreamView key={state.model.id} stream={state.model} assetId={id} />;
}

function sameRange(a: DateRange, b: DateRange): boolean {
  return a.mode === b.mode && a.from === b.from && a.to === b.to;
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
  // A moment picked on the chart, for its event inspection (issue 37 item 5).
  const [moment, setMoment] = useState<number | null>(null);
  const pickHint = useId();
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
  // The range shown (the history's once it answers); the picked moment while it holds it (a
  // zoom elsewhere puts it aside).
  const shownFrom = history?.from ?? range.from;
  const shownTo = history?.to ?? range.to;
  const chosen = moment !== null && moment >= shownFrom && moment <= shownTo ? moment : null;
  const onWidth = useCallback((w: number) => setWidth(Math.round(w / 100) * 100 || 100), []);
  // Zooming in (dragging across the chart) makes a fixed shared range; a double-click on the
  // chart goes back to the range chosen before (a relative one slides on from now), as long as
  // nothing else changed the range meanwhile.
  const zoomed = useRef<{ readonly before: DateRange; readonly zoomed: DateRange } | null>(null);
  const onZoom = useCallback(
    (a: number, b: number) => {
      const next = historicRange(a, b);
      const current = zoomed.current;
      const before = current !== null && sameRange(current.zoomed, range) ? current.before : range;
      zoomed.current = { before, zoomed: next };
      setRange(next);
    },
    [range, setRange],
  );
  const onReset = useCallback(() => {
    const current = zoomed.current;
    if (current === null || !sameRange(current.zoomed, range)) return;
    zoomed.current = null;
    const { before } = current;
    setRange(
      before.mode === 'relative' && before.relative !== undefined
        ? relativeRange(before.relative, Date.now())
        : before,
    );
  }, [range, setRange]);

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

      <HelpLink number={stream.attributes.help_article} />
      <Paper withBorder p="sm" radius="sm" pos="relative">
        {history === undefined || history.loading ? (
          <Group gap={6} pos="absolute" top={8} right={8} data-testid="stream-loading">
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              <Trans>Loading values…</Trans>
            </Text>
          </Group>
        ) : null}
        {shape.type === 'text' ? (
          <TextValues series={series} shape={shape} />
        ) : (
          <Suspense fallback={<Skeleton height={320} data-testid="stream-chart-loading" />}>
            <StreamChart
              series={series}
              from={shownFrom}
              to={shownTo}
              visMin={numberOrNull(stream.attributes.vis_min)}
              visMax={numberOrNull(stream.attributes.vis_max)}
              name={name}
              label={t`${{ name: isolate(name) }} over the chosen range`}
              shape={shape}
              onWidth={onWidth}
              onZoom={onZoom}
              onReset={onReset}
              moment={chosen}
              onPick={setMoment}
              describedBy={pickHint}
            />
          </Suspense>
        )}
        {series !== undefined && series.ts.length === 0 && history?.loading === false ? (
          <Text c="dimmed" ta="center" data-testid="stream-no-values">
            <Trans>No values in this range.</Trans>
          </Text>
        ) : null}
        {shape.type === 'text' ? null : (
          <Suspense fallback={null}>
            <ChosenMoment assetId={assetId} moment={chosen} hintId={pickHint} />
          </Suspense>
        )}
      </Paper>

      <Metrics series={series} shape={shape} end={shownTo} />
      <CsvDownload streamId={stream.id} name={name} from={shownFrom} to={shownTo} />
      {shape.type === 'number' || shape.type === 'state' ? (
        <Suspense fallback={null}>
          <AlarmsSection assetId={assetId} streamId={stream.id} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/**
 * The range's figures: for numbers min, max, average and last; for booleans and states (codes,
 * whose average means nothing) how long On was, how often the value changed, and the last value.
 */
function Metrics({
  series,
  shape,
  end,
}: {
  readonly series: HistorySeries | undefined;
  readonly shape: StreamShape;
  /** The range's end (the last value holds until then, or until now when that is earlier). */
  readonly end: number;
}) {
  const { t, i18n } = useLingui();
  const numbers = (series?.values ?? []).filter((v): v is number => typeof v === 'number');
  if (numbers.length === 0 || shape.type === 'text') return null;
  const format = (v: number | string) =>
    `${valueText(i18n, shape, v)}${shape.unit === '' || shape.type !== 'number' ? '' : ` ${shape.unit}`}`;
  const downsampled = series?.downsampled === true;
  let items: { key: string; label: string; value: string }[];
  if (isStepped(shape)) {
    const figures = stepFigures(series?.ts ?? [], series?.values ?? [], Math.min(end, Date.now()));
    items = [
      ...(shape.type === 'boolean' && figures.onShare !== null
        ? [
            {
              key: 'on',
              // From the points shown: over a downsampled range it is an estimate.
              label: downsampled ? t`Time On (about)` : t`Time On`,
              value: i18n.number(figures.onShare, { style: 'percent', maximumFractionDigits: 0 }),
            },
          ]
        : []),
      {
        key: 'changes',
        label: downsampled ? t`Changes (at least)` : t`Changes`,
        value: i18n.number(figures.changes),
      },
      {
        key: 'last',
        label: t`Last`,
        value: figures.last === undefined ? '–' : format(figures.last),
      },
    ];
  } else {
    const min = Math.min(...numbers);
    const max = Math.max(...numbers);
    const avg = numbers.reduce((a, b) => a + b, 0) / numbers.length;
    const last = numbers.at(-1) ?? 0;
    items = [
      { key: 'min', label: t`Minimum`, value: format(min) },
      { key: 'max', label: t`Maximum`, value: format(max) },
      {
        key: 'avg',
        // From the points shown: over a downsampled range it is an estimate.
        label: downsampled ? t`Average (about)` : t`Average`,
        value: `${i18n.number(avg, { maximumFractionDigits: 3 })}${shape.unit === '' ? '' : ` ${shape.unit}`}`,
      },
      { key: 'last', label: t`Last`, value: format(last) },
    ];
  }
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
