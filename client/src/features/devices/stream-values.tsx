import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { HistorySeries, Point } from '@plant/sync-worker/api';
import { isolate, type DatastreamAttributes, type Freshness } from '@plant/shared-schema';
import { useAtomValue } from 'jotai';
import { serverReachableAtom } from '../../sync/status';

/**
 * How a stream's values read on screen (spec 001 §3, §4): numbers with their unit, state
 * streams through their state texts, booleans as on and off, a mark on values whose source is
 * failing, silent longer than expected, or behind an offline gateway (whether is decided by
 * shared-schema's `streamFreshness`, the rule the "no data" alarm follows too).
 */

const ON = msg`On`;
const OFF = msg`Off`;

export interface StreamShape {
  readonly type: DatastreamAttributes['type'];
  readonly unit: string;
  readonly stateTexts: Readonly<Record<string, string>>;
}

export function streamShapeOf(
  attributes: Pick<DatastreamAttributes, 'type' | 'unit' | 'state_texts'>,
): StreamShape {
  return { type: attributes.type, unit: attributes.unit, stateTexts: attributes.state_texts };
}

/** One value as text, without its unit. */
export function valueText(i18n: I18n, shape: StreamShape, value: number | string): string {
  const mapped = shape.stateTexts[String(value)];
  if ((shape.type === 'state' || shape.type === 'boolean') && typeof mapped === 'string') {
    return mapped;
  }
  if (shape.type === 'boolean' && typeof value === 'number') return i18n._(value ? ON : OFF);
  if (typeof value === 'number') return i18n.number(value, { maximumFractionDigits: 3 });
  return value;
}

/**
 * One value as text with its unit (numbers only), the two isolated together: beside a name or in
 * a right-to-left page the unit stays with its number.
 */
export function valueWithUnit(i18n: I18n, shape: StreamShape, value: number | string): string {
  const text = valueText(i18n, shape, value);
  return shape.type === 'number' && shape.unit !== '' && typeof value === 'number'
    ? isolate(`${text} ${shape.unit}`)
    : text;
}

/** The latest value with its unit and, when its source is not to be believed, a mark saying so. */
export function LatestValue({
  shape,
  point,
  freshness,
}: {
  readonly shape: StreamShape;
  readonly point: Point | undefined;
  readonly freshness: Freshness;
}) {
  const { i18n } = useLingui();
  // While this page does not hear the server, a value that looked fresh is only the last known.
  const reachable = useAtomValue(serverReachableAtom);
  if (point === undefined) {
    return (
      <Text span c="dimmed" size="sm" data-testid="stream-value" data-empty>
        <Trans>No value yet</Trans>
      </Text>
    );
  }
  const [ts, value] = point;
  const marked = freshness.state !== 'fresh';
  const when = i18n.date(new Date(ts), { dateStyle: 'medium', timeStyle: 'medium' });
  const showUnit = shape.unit !== '' && typeof value === 'number' && shape.type === 'number';
  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label={when}>
        <Text
          span
          fw={600}
          {...(marked ? { c: 'dimmed' } : {})}
          data-testid="stream-value"
          // Isolated with its own direction (issue 30 item 11): a number and its unit read in
          // their order on a right-to-left page too ("68.25 °C", not "C° 68.25").
          dir="auto"
          data-ts={ts}
          data-stale={marked}
          data-freshness={freshness.state}
          style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
        >
          {valueText(i18n, shape, value)}
          {showUnit ? ` ${shape.unit}` : ''}
        </Text>
      </Tooltip>
      {freshness.state === 'fresh' && !reachable ? (
        <LastKnownMark />
      ) : (
        <FreshnessMark freshness={freshness} />
      )}
    </Group>
  );
}

/** A value this device can no longer follow (issue 30 item 14): the last known, not the live. */
export function LastKnownMark() {
  const { t } = useLingui();
  const detail = t`This device is offline: the value may have changed since.`;
  return (
    <Tooltip label={detail}>
      <Badge
        size="xs"
        color="gray"
        variant="light"
        data-testid="stream-value-last-known"
        tabIndex={0}
      >
        <Trans>Last known</Trans>
        <VisuallyHidden>{`: ${detail}`}</VisuallyHidden>
      </Badge>
    </Tooltip>
  );
}

/**
 * The mark of a value not to be believed: a badge with the state's word, and since when (with
 * the connection's error) in its tooltip and, for screen readers, inside the badge.
 */
export function FreshnessMark({ freshness }: { readonly freshness: Freshness }) {
  const { i18n, t } = useLingui();
  if (freshness.state === 'fresh') return null;
  const since =
    freshness.since === null
      ? null
      : i18n.date(new Date(freshness.since), { dateStyle: 'medium', timeStyle: 'medium' });
  const { error } = freshness;
  let label: string;
  let detail: string | null;
  let color: string;
  let testId: string;
  if (freshness.state === 'failing') {
    label = t`Source failing`;
    color = 'red';
    testId = 'stream-value-failing';
    detail =
      since === null
        ? error
        : error === null
          ? t`Failing since ${since}`
          : t`Failing since ${since}: ${error}`;
  } else if (freshness.state === 'stale') {
    label = t`No data`;
    color = 'yellow';
    testId = 'stream-value-stale';
    detail = since === null ? null : t`Nothing heard since ${since}`;
  } else {
    label = t`Gateway offline`;
    color = 'gray';
    testId = 'stream-value-offline';
    detail = since === null ? null : t`Nothing heard since ${since}`;
  }
  const badge = (
    <Badge
      size="xs"
      color={color}
      variant="light"
      data-testid={testId}
      data-since={freshness.since ?? undefined}
      {...(detail === null ? {} : { tabIndex: 0 })}
    >
      {label}
      {detail === null ? null : <VisuallyHidden>{`: ${detail}`}</VisuallyHidden>}
    </Badge>
  );
  return detail === null ? badge : <Tooltip label={detail}>{badge}</Tooltip>;
}

/**
 * A small line of a stream's recent history (numbers, and booleans and states as steps).
 * SVG, not a chart library: one per row of a table must cost next to nothing.
 */
export function Sparkline({
  series,
  from,
  to,
  label,
  stepped = false,
}: {
  readonly series: HistorySeries | undefined;
  readonly from: number;
  readonly to: number;
  readonly label: string;
  /** Booleans and states: each value holds until the next (steps, no slopes). */
  readonly stepped?: boolean;
}) {
  const width = 120;
  const height = 28;
  const numeric: [number, number][] = [];
  for (let i = 0; i < (series?.ts.length ?? 0); i++) {
    const v = series?.values[i];
    const t = series?.ts[i];
    if (typeof v === 'number' && typeof t === 'number') numeric.push([t, v]);
  }
  if (numeric.length < 2) {
    return (
      <svg width={width} height={height} aria-hidden data-testid="sparkline" data-points={0} />
    );
  }
  const values = numeric.map((p) => p[1]);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const x = (t: number) => ((t - from) / Math.max(1, to - from)) * (width - 2) + 1;
  const y = (v: number) => height - 2 - ((v - min) / span) * (height - 4);
  const d = numeric
    .map(([t, v], i) => {
      const point = `${x(t).toFixed(1)},${y(v).toFixed(1)}`;
      if (i === 0) return `M${point}`;
      return stepped ? `H${x(t).toFixed(1)}L${point}` : `L${point}`;
    })
    .join('');
  return (
    <svg
      width={width}
      height={height}
      role="img"
      aria-label={label}
      data-testid="sparkline"
      data-points={numeric.length}
      data-stepped={stepped}
    >
      <path d={d} fill="none" stroke="var(--mantine-color-blue-filled)" strokeWidth={1.5} />
    </svg>
  );
}
