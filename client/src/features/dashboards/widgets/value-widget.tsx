import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { widgetOptions } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../../components/name';
import { serverReachableAtom } from '../../../sync/status';
import { FreshnessMark, LastKnownMark, streamShapeOf } from '../../devices/stream-values';
import { formatValue, useLatest } from './latest';
import { useStreamLabels, useStreamModels } from './shared-reads';
import { NotAvailable, StreamsGate } from './widget-parts';
import type { WidgetProps } from './widget-props';

/*
 * The value widget (its stream's latest value, big, with unit and marks) and the table of latest
 * values (one row per stream). Live: the asset's values arrive as on the asset page.
 */

export function ValueWidget({ widget }: WidgetProps) {
  const states = useStreamModels(widget.streams.slice(0, 1));
  const options = widgetOptions('value', widget.options);
  const state = states[0];
  return (
    <StreamsGate states={states}>
      {state?.name === 'found' ? (
        <BigValue stream={state.model} decimals={options.decimals} />
      ) : (
        <NotAvailable />
      )}
    </StreamsGate>
  );
}

/** Marks of a value: the freshness rule's, or 'Last known' while the server is out of reach. */
function Marks({ latest }: { readonly latest: ReturnType<typeof useLatest> }) {
  const reachable = useAtomValue(serverReachableAtom);
  if (latest.point === undefined) return null;
  return latest.freshness.state === 'fresh' && !reachable ? (
    <LastKnownMark />
  ) : (
    <FreshnessMark freshness={latest.freshness} />
  );
}

function BigValue({
  stream,
  decimals,
}: {
  readonly stream: LocalModel<'datastream'>;
  readonly decimals: number | null;
}) {
  const { i18n } = useLingui();
  const latest = useLatest(stream);
  const shape = streamShapeOf(stream.attributes);
  const point = latest.point;
  const marked = latest.freshness.state !== 'fresh';
  const showUnit = point !== undefined && typeof point[1] === 'number' && shape.type === 'number';
  return (
    <Stack gap={4} align="center" justify="center" h="100%" data-testid="widget-value">
      {latest.watches}
      {point === undefined ? (
        <Text c="dimmed" data-testid="widget-value-text" data-empty>
          <Trans>No value yet</Trans>
        </Text>
      ) : (
        <Tooltip
          label={i18n.date(new Date(point[0]), { dateStyle: 'medium', timeStyle: 'medium' })}
        >
          <Text
            fz={32}
            fw={700}
            lh={1.1}
            dir="auto"
            {...(marked ? { c: 'dimmed' } : {})}
            data-testid="widget-value-text"
            data-ts={point[0]}
            data-freshness={latest.freshness.state}
            style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
          >
            {formatValue(i18n, shape, point[1], decimals)}
            {showUnit && shape.unit !== '' ? (
              <Text span fz={18} fw={500} c="dimmed">{` ${shape.unit}`}</Text>
            ) : null}
          </Text>
        </Tooltip>
      )}
      <Group gap={6} justify="center">
        <Text size="sm" c="dimmed">
          <Name>{stream.attributes.name}</Name>
        </Text>
        <Marks latest={latest} />
      </Group>
    </Stack>
  );
}

export function TableWidget({ widget }: WidgetProps) {
  const { t } = useLingui();
  const states = useStreamModels(widget.streams);
  const options = widgetOptions('table', widget.options);
  const found = useMemo(
    () => states.flatMap((s) => (s.name === 'found' ? [s.model] : [])),
    [states],
  );
  const labelOf = useStreamLabels(found);
  return (
    <StreamsGate states={states}>
      <Table
        striped
        verticalSpacing={4}
        fz="sm"
        data-testid="widget-table"
        aria-label={widget.title ?? t`Latest values`}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <Trans>Data stream</Trans>
            </Table.Th>
            <Table.Th scope="col" ta="end">
              <Trans>Value</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Time</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {states.map((s, i) =>
            s.name === 'found' ? (
              <TableRow
                key={s.model.id}
                stream={s.model}
                label={labelOf(s.model)}
                decimals={options.decimals}
              />
            ) : (
              <Table.Tr key={widget.streams[i] ?? i} data-testid="widget-table-row">
                <Table.Th scope="row" colSpan={3}>
                  <NotAvailable />
                </Table.Th>
              </Table.Tr>
            ),
          )}
        </Table.Tbody>
      </Table>
    </StreamsGate>
  );
}

function TableRow({
  stream,
  label,
  decimals,
}: {
  readonly stream: LocalModel<'datastream'>;
  /** Its name, with its asset's where another row has the same. */
  readonly label: string;
  readonly decimals: number | null;
}) {
  const { i18n } = useLingui();
  const latest = useLatest(stream);
  const shape = streamShapeOf(stream.attributes);
  const point = latest.point;
  return (
    <Table.Tr data-testid="widget-table-row" data-stream={stream.id}>
      <Table.Th scope="row" fw={500}>
        {latest.watches}
        <Name>{label}</Name>
      </Table.Th>
      <Table.Td
        ta="end"
        dir="auto"
        style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        {point === undefined ? (
          '–'
        ) : (
          <Group gap={6} justify="flex-end" wrap="nowrap">
            <span data-testid="widget-table-value">
              {formatValue(i18n, shape, point[1], decimals)}
              {shape.type === 'number' && shape.unit !== '' && typeof point[1] === 'number'
                ? ` ${shape.unit}`
                : ''}
            </span>
            <Marks latest={latest} />
          </Group>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {point === undefined ? '' : i18n.date(new Date(point[0]), { timeStyle: 'medium' })}
      </Table.Td>
    </Table.Tr>
  );
}
