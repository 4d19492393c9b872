import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { HistorySeries, Point } from '@plant/sync-worker/api';
import type { DatastreamAttributes } from '@plant/shared-schema';

/**
 * How a stream's values read on screen (spec 001 §3, §4): numbers with their unit, state
 * streams through their state texts, booleans as on and off, a mark on values that are old or
 * come from a gateway that is offline.
 */

/** A value older than this is marked stale (the simulator sends every 10 s, devices faster). */
export const STALE_AFTER_MS = 5 * 60_000;

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

/** The latest value with its unit and, when it is old or its gateway offline, a mark saying so. */
export function LatestValue({
  shape,
  point,
  now,
  gatewayOffline,
}: {
  readonly shape: StreamShape;
  readonly point: Point | undefined;
  readonly now: number;
  readonly gatewayOffline: boolean;
}) {
  const { i18n } = useLingui();
  if (point === undefined) {
    return (
      <Text span c="dimmed" size="sm" data-testid="stream-value" data-empty>
        <Trans>No value yet</Trans>
      </Text>
    );
  }
  const [ts, value] = point;
  const stale = now - ts > STALE_AFTER_MS;
  const when = i18n.date(new Date(ts), { dateStyle: 'medium', timeStyle: 'medium' });
  const showUnit = shape.unit !== '' && typeof value === 'number' && shape.type === 'number';
  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label={when}>
        <Text
          span
          fw={600}
          {...(stale || gatewayOffline ? { c: 'dimmed' } : {})}
          data-testid="stream-value"
          data-ts={ts}
          data-stale={stale}
          style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
        >
          {valueText(i18n, shape, value)}
          {showUnit ? ` ${shape.unit}` : ''}
        </Text>
      </Tooltip>
      {gatewayOffline ? (
        <Badge size="xs" color="gray" variant="light" data-testid="stream-value-offline">
          <Trans>Gateway offline</Trans>
        </Badge>
      ) : stale ? (
        <Badge size="xs" color="yellow" variant="light" data-testid="stream-value-stale">
          <Trans>Stale</Trans>
        </Badge>
      ) : null}
    </Group>
  );
}

/**
 * A small line of a stream's recent history (numbers only; states and texts have no line).
 * SVG, not a chart library: one per row of a table must cost next to nothing.
 */
export function Sparkline({
  series,
  from,
  to,
  label,
}: {
  readonly series: HistorySeries | undefined;
  readonly from: number;
  readonly to: number;
  readonly label: string;
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
    .map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`)
    .join('');
  return (
    <svg
      width={width}
      height={height}
      role="img"
      aria-label={label}
      data-testid="sparkline"
      data-points={numeric.length}
    >
      <path d={d} fill="none" stroke="var(--mantine-color-blue-filled)" strokeWidth={1.5} />
    </svg>
  );
}
