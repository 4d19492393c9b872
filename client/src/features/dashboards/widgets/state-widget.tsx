import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { isolate, widgetOptions } from '@plant/shared-schema';
import type { HistoryResult, LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../../components/name';
import { streamShapeOf, valueText, valueWithUnit } from '../../devices/stream-values';
import { barsFromHours, barsOf, segmentsOf } from './segments';
import {
  useStreamHours,
  useStreamLabels,
  useWidgetHistories,
  type HoursRead,
} from './shared-reads';
import { CoverageNote, NotAvailable, StreamsGate } from './widget-parts';
import type { WidgetProps } from './widget-props';

/*
 * The state timeline (each stream a band of its states over the range, labelled by the stream's
 * state texts) and the bar chart (a stream's values per hour, day or week). Both read the same
 * shared history as the line charts: no read of their own.
 */

const PALETTE = [
  'teal',
  'orange',
  'blue',
  'red',
  'grape',
  'yellow',
  'cyan',
  'pink',
  'lime',
  'indigo',
];

function colorOf(value: number | string, order: readonly string[]): string {
  const i = order.indexOf(String(value));
  return `var(--mantine-color-${PALETTE[(i < 0 ? 0 : i) % PALETTE.length]}-filled)`;
}

export function StateWidget({ widget, context }: WidgetProps) {
  const { states, found, histories } = useWidgetHistories(widget.streams, context);
  const labelOf = useStreamLabels(found);
  return (
    <StreamsGate states={states}>
      <Stack gap={6} data-testid="widget-state">
        <CoverageNote results={histories} />
        {states.map((s, i) =>
          s.name === 'found' ? (
            <StateBand
              key={s.model.id}
              stream={s.model}
              label={labelOf(s.model)}
              history={histories[found.indexOf(s.model)]}
              range={context.range}
            />
          ) : (
            <NotAvailable key={widget.streams[i] ?? i} />
          ),
        )}
      </Stack>
    </StreamsGate>
  );
}

function StateBand({
  stream,
  label,
  history,
  range,
}: {
  readonly stream: LocalModel<'datastream'>;
  /** Its name, with its asset's where another stream of the widget has the same. */
  readonly label: string;
  readonly history: HistoryResult | undefined;
  readonly range: { readonly from: number; readonly to: number };
}) {
  const { i18n } = useLingui();
  const shape = streamShapeOf(stream.attributes);
  const series = history?.series[0];
  const { from, to } = range;
  const segments = segmentsOf(
    series?.ts ?? [],
    series?.values ?? [],
    from,
    to,
    Math.min(to, Date.now()),
  );
  const order = [...Object.keys(shape.stateTexts), ...segments.map((s) => String(s.value))].filter(
    (v, i, all) => all.indexOf(v) === i,
  );
  const span = Math.max(1, to - from);
  const time = (ts: number) => i18n.date(new Date(ts), { dateStyle: 'short', timeStyle: 'short' });
  const shown = [...new Set(segments.map((s) => String(s.value)))];
  return (
    <Stack
      gap={2}
      data-testid="widget-state-band"
      data-stream={stream.id}
      data-segments={segments.length}
    >
      <Text size="xs" fw={500}>
        <Name>{label}</Name>
      </Text>
      <Box
        pos="relative"
        h={20}
        bg="var(--mantine-color-gray-1)"
        style={{ borderRadius: 3, overflow: 'hidden' }}
        role="list"
        aria-label={isolate(label)}
      >
        {segments.map((s) => {
          const text = valueText(i18n, shape, s.value);
          const label = `${text}: ${time(s.from)} – ${time(s.to)}`;
          return (
            <Tooltip key={s.from} label={label}>
              <Box
                role="listitem"
                aria-label={label}
                tabIndex={0}
                pos="absolute"
                top={0}
                bottom={0}
                left={`${((s.from - from) / span) * 100}%`}
                w={`${((s.to - s.from) / span) * 100}%`}
                bg={colorOf(s.value, order)}
                data-value={String(s.value)}
              />
            </Tooltip>
          );
        })}
      </Box>
      <Group gap={8}>
        {shown.map((v) => (
          <Group key={v} gap={4} wrap="nowrap">
            <Box w={10} h={10} bg={colorOf(v, order)} style={{ borderRadius: 2 }} aria-hidden />
            <Text size="xs">
              {valueWithUnit(i18n, shape, Number.isNaN(Number(v)) ? v : Number(v))}
            </Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

export function BarWidget({ widget, context }: WidgetProps) {
  // The server's exact hourly sums; the cached history when they cannot be read (offline).
  const { states, found, histories } = useWidgetHistories(widget.streams, context);
  const hours = useStreamHours(
    found.map((m) => m.id),
    context,
  );
  const labelOf = useStreamLabels(found);
  return (
    <StreamsGate states={states}>
      <Stack gap={6} h="100%" data-testid="widget-bar">
        <CoverageNote results={histories} />
        {states.map((s, i) =>
          s.name === 'found' ? (
            <Bars
              key={s.model.id}
              stream={s.model}
              label={labelOf(s.model)}
              history={histories[found.indexOf(s.model)]}
              hours={hours[found.indexOf(s.model)]}
              widget={widget}
              range={context.range}
            />
          ) : (
            <NotAvailable key={widget.streams[i] ?? i} />
          ),
        )}
      </Stack>
    </StreamsGate>
  );
}

function Bars({
  stream,
  label,
  history,
  hours,
  widget,
  range,
}: {
  readonly stream: LocalModel<'datastream'>;
  readonly label: string;
  readonly history: HistoryResult | undefined;
  readonly hours: HoursRead | null | undefined;
  readonly widget: WidgetProps['widget'];
  readonly range: { readonly from: number; readonly to: number };
}) {
  const { i18n, t } = useLingui();
  const options = widgetOptions('bar', widget.options);
  const shape = streamShapeOf(stream.attributes);
  const series = history?.series[0];
  const exact = hours !== null && hours !== undefined;
  const bars = exact
    ? barsFromHours(hours.hours, range.from, range.to, options.bucket, options.aggregate, 60)
    : barsOf(
        series?.ts ?? [],
        series?.values ?? [],
        range.from,
        range.to,
        options.bucket,
        options.aggregate,
        60,
      );
  const numbers = bars.flatMap((b) => (b.value === null ? [] : [b.value]));
  const top = Math.max(0, ...numbers);
  const bottom = Math.min(0, ...numbers);
  const span = top - bottom || 1;
  const barLabel = (ts: number) =>
    options.bucket === 'hour'
      ? i18n.date(new Date(ts), { hour: '2-digit', minute: '2-digit' })
      : i18n.date(new Date(ts), { day: 'numeric', month: 'short' });
  const aggregateText = { avg: t`average`, min: t`minimum`, max: t`maximum` }[options.aggregate];
  return (
    <Stack
      gap={2}
      style={{ flex: 1, minHeight: 60 }}
      data-testid="widget-bar-stream"
      data-bars={bars.length}
      data-exact={exact}
    >
      <Text size="xs" fw={500}>
        <Name>{label}</Name>{' '}
        <Text span c="dimmed" size="xs">
          ({aggregateText}
          {!exact && series?.downsampled === true && options.aggregate === 'avg' ? (
            <>
              , <Trans>an estimate</Trans>
            </>
          ) : null}
          )
        </Text>
      </Text>
      <Group
        gap={2}
        align="flex-end"
        wrap="nowrap"
        style={{ flex: 1 }}
        role="list"
        aria-label={isolate(label)}
      >
        {bars.map((b) => {
          const text =
            b.value === null ? '–' : valueWithUnit(i18n, shape, Math.round(b.value * 1000) / 1000);
          const name = `${barLabel(b.from)}: ${text}`;
          return (
            <Tooltip key={b.from} label={name}>
              <Box
                role="listitem"
                aria-label={name}
                tabIndex={0}
                style={{
                  flex: 1,
                  minWidth: 2,
                  height:
                    b.value === null ? 0 : `${Math.max(2, ((b.value - bottom) / span) * 100)}%`,
                  background: 'var(--mantine-color-blue-filled)',
                  borderRadius: '2px 2px 0 0',
                }}
                data-value={b.value ?? ''}
              />
            </Tooltip>
          );
        })}
      </Group>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {bars[0] === undefined ? '' : barLabel(bars[0].from)}
        </Text>
        <Text size="xs" c="dimmed">
          {bars.at(-1) === undefined ? '' : barLabel(bars.at(-1)?.from ?? 0)}
        </Text>
      </Group>
    </Stack>
  );
}
