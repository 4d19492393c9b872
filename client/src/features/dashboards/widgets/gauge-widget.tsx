import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Text } from '@mantine/core';
import { isolate, widgetOptions } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../../components/name';
import { FreshnessMark, streamShapeOf } from '../../devices/stream-values';
import { gaugeAngle, gaugeBounds } from './gauge-math';
import { formatValue, useLatest } from './latest';
import { useStreamModels } from './shared-reads';
import { NotAvailable, StreamsGate } from './widget-parts';
import type { WidgetProps } from './widget-props';

/*
 * The gauge widget: its stream's latest value on a dial (SVG) from the stream's vis_min to its
 * vis_max (or the widget's own bounds), the number and unit in its middle.
 */

const SIZE = 200;
const R = 80;
const CX = SIZE / 2;
const CY = SIZE / 2 + 10;
/** The dial spans 240 degrees, from bottom left to bottom right. */
const START = -210;
const SWEEP = 240;

function polar(angle: number): [number, number] {
  const rad = (angle * Math.PI) / 180;
  return [CX + R * Math.cos(rad), CY + R * Math.sin(rad)];
}

function arc(from: number, to: number): string {
  const [x1, y1] = polar(from);
  const [x2, y2] = polar(to);
  const large = to - from > 180 ? 1 : 0;
  return `M${x1.toFixed(2)},${y1.toFixed(2)} A${R},${R} 0 ${large} 1 ${x2.toFixed(2)},${y2.toFixed(2)}`;
}

export function GaugeWidget({ widget }: WidgetProps) {
  const states = useStreamModels(widget.streams.slice(0, 1));
  const state = states[0];
  return (
    <StreamsGate states={states}>
      {state?.name === 'found' ? <Gauge stream={state.model} widget={widget} /> : <NotAvailable />}
    </StreamsGate>
  );
}

function Gauge({
  stream,
  widget,
}: {
  readonly stream: LocalModel<'datastream'>;
  readonly widget: WidgetProps['widget'];
}) {
  const { i18n, t } = useLingui();
  const options = widgetOptions('gauge', widget.options);
  const latest = useLatest(stream);
  const shape = streamShapeOf(stream.attributes);
  const { min, max } = gaugeBounds(options, stream.attributes);
  const value = latest.point?.[1];
  const numeric = typeof value === 'number' ? value : null;
  const share = numeric === null ? 0 : gaugeAngle(numeric, min, max);
  const text = value === undefined ? '–' : formatValue(i18n, shape, value, options.decimals);
  const unit = shape.type === 'number' ? shape.unit : '';
  const minText = i18n.number(min);
  const maxText = i18n.number(max);
  const label =
    value === undefined
      ? t`No value yet`
      : isolate(`${text}${unit === '' ? '' : ` ${unit}`}`) + ` (${minText} – ${maxText})`;
  return (
    <Stack gap={0} align="center" h="100%" justify="center" data-testid="widget-gauge">
      {latest.watches}
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE - 20}`}
        role="img"
        aria-label={label}
        style={{ width: '100%', maxHeight: 'calc(100% - 28px)', minHeight: 60 }}
        data-testid="widget-gauge-dial"
        data-value={numeric ?? ''}
        data-min={min}
        data-max={max}
      >
        <path
          d={arc(START, START + SWEEP)}
          fill="none"
          stroke="var(--mantine-color-gray-3)"
          strokeWidth={14}
          strokeLinecap="round"
        />
        {numeric === null || share <= 0 ? null : (
          <path
            d={arc(START, START + SWEEP * share)}
            fill="none"
            stroke="var(--mantine-color-blue-filled)"
            strokeWidth={14}
            strokeLinecap="round"
            data-testid="widget-gauge-arc"
          />
        )}
        <text
          x={CX}
          y={CY}
          textAnchor="middle"
          fontSize={28}
          fontWeight={700}
          fill="currentColor"
          data-testid="widget-gauge-value"
        >
          {text}
        </text>
        {unit === '' ? null : (
          <text
            x={CX}
            y={CY + 24}
            textAnchor="middle"
            fontSize={14}
            fill="var(--mantine-color-dimmed)"
          >
            {unit}
          </text>
        )}
        <text
          x={polar(START)[0]}
          y={polar(START)[1] + 22}
          textAnchor="middle"
          fontSize={12}
          fill="var(--mantine-color-dimmed)"
        >
          {minText}
        </text>
        <text
          x={polar(START + SWEEP)[0]}
          y={polar(START + SWEEP)[1] + 22}
          textAnchor="middle"
          fontSize={12}
          fill="var(--mantine-color-dimmed)"
        >
          {maxText}
        </text>
      </svg>
      <Group gap={6} justify="center">
        <Text size="sm" c="dimmed">
          <Name>{stream.attributes.name}</Name>
        </Text>
        {latest.point === undefined ? (
          <Text size="xs" c="dimmed">
            <Trans>No value yet</Trans>
          </Text>
        ) : (
          <FreshnessMark freshness={latest.freshness} />
        )}
      </Group>
    </Stack>
  );
}
