import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Text } from '@mantine/core';
import {
  templateStreamPlace,
  type AlarmSeverity,
  type HotspotMetadata,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../components/name';
import { useServerNow } from '../../components/time-ago';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { isRaised, worse } from '../alarms/alarm-rows';
import { severityColor } from '../alarms/alarm-summary';
import { useLatest } from '../dashboards/widgets/latest';
import { streamShapeOf, valueWithUnit } from '../devices/stream-values';
import { HotspotGlyph } from './hotspot-icons';
import { useSceneOwner } from './owner';

/*
 * A hotspot as the scene shows it (issue 32 item 4): its icon in a disc, its name, and the live
 * value of its first data stream, coloured by that stream's raised alarms (critical red, warning
 * yellow, info blue) like the alarm screens colour them.
 */

/** The first stream a hotspot's metadata names, if any. */
export function firstStream(metadata: readonly HotspotMetadata[]): string | null {
  for (const entry of metadata) if (entry.kind === 'stream') return entry.datastream_id;
  return null;
}

/** The worst severity of a stream's raised alarms, live; null when none is raised. */
export function useStreamAlarm(streamId: string | null): AlarmSeverity | null {
  const can = useCan();
  const alarms = useLiveQuery(
    streamId !== null && can('alarm::view')
      ? { type: 'alarm', parent: { type: 'datastream', id: streamId }, limit: 100 }
      : null,
  );
  const now = useServerNow(5_000);
  let worst: AlarmSeverity | undefined;
  for (const alarm of alarms?.items ?? [])
    if (isRaised(alarm.attributes, now)) worst = worse(alarm.attributes.severity, worst);
  return worst ?? null;
}

/** The marker over the canvas: icon, name and the first stream's value. */
export function HotspotMarker(props: {
  readonly hotspot: LocalModel<'hotspot'>;
  readonly selected: boolean;
}) {
  const { name, icon, metadata } = props.hotspot.attributes;
  const streamId = firstStream(metadata);
  const severity = useStreamAlarm(streamId);
  const tone = severity === null ? 'blue' : severityColor(severity);
  return (
    <Box
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 6,
        padding: '2px 8px 2px 2px',
        borderRadius: 999,
        background: 'rgba(255,255,255,0.92)',
        boxShadow: props.selected
          ? `0 0 0 2px var(--mantine-color-${tone}-7)`
          : '0 1px 3px rgba(0,0,0,0.3)',
        color: '#1a1b1e',
        whiteSpace: 'nowrap',
      }}
      data-alarm={severity ?? 'none'}
    >
      <Box
        component="span"
        style={{
          display: 'inline-flex',
          borderRadius: 999,
          padding: 4,
          background: `var(--mantine-color-${tone}-filled)`,
          color: '#fff',
        }}
      >
        <HotspotGlyph icon={icon} size={16} />
      </Box>
      <Text span size="xs" fw={600}>
        <Name>{name}</Name>
      </Text>
      {streamId === null ? null : <StreamValue id={streamId} />}
    </Box>
  );
}

/**
 * A stream's latest value with its unit, live; coloured by its raised alarms. A template's
 * stream (its key) has a name and no values.
 */
export function StreamValue(props: { readonly id: string; readonly withName?: boolean }) {
  const templateName = useSceneOwner()?.templateStreams.get(props.id);
  if (templateStreamPlace(props.id) !== null)
    return <TemplateStream name={templateName ?? null} withName={props.withName ?? false} />;
  return <AssetStreamValue id={props.id} withName={props.withName ?? false} />;
}

function TemplateStream(props: { readonly name: string | null; readonly withName: boolean }) {
  return (
    <>
      {props.withName && props.name !== null ? (
        <Text span size="sm">
          <Name>{props.name}</Name>
          {': '}
        </Text>
      ) : null}
      <Text span size="xs" c="dimmed" data-testid="hotspot-value" data-empty>
        {props.name === null ? (
          <Trans>Not available</Trans>
        ) : (
          <Trans>Live in each asset made from the template</Trans>
        )}
      </Text>
    </>
  );
}

function AssetStreamValue(props: { readonly id: string; readonly withName: boolean }) {
  const state = useLiveModel('datastream', props.id);
  if (state.name !== 'found')
    return state.name === 'missing' ? (
      <Text span size="xs" c="dimmed" data-testid="hotspot-value" data-empty>
        <Trans>Not available</Trans>
      </Text>
    ) : null;
  return <LiveValue stream={state.model} withName={props.withName} />;
}

function LiveValue(props: {
  readonly stream: LocalModel<'datastream'>;
  readonly withName: boolean;
}) {
  const { i18n } = useLingui();
  const latest = useLatest(props.stream);
  const severity = useStreamAlarm(props.stream.id);
  const shape = streamShapeOf(props.stream.attributes);
  const point = latest.point;
  const stale = latest.freshness.state !== 'fresh';
  return (
    <>
      {latest.watches}
      {props.withName ? (
        <Text span size="sm">
          <Name>{props.stream.attributes.name}</Name>
          {': '}
        </Text>
      ) : null}
      <Text
        span
        size="xs"
        fw={700}
        dir="auto"
        {...(severity !== null ? { c: severityColor(severity) } : stale ? { c: 'dimmed' } : {})}
        data-testid="hotspot-value"
        data-alarm={severity ?? 'none'}
        data-ts={point?.[0] ?? ''}
        data-freshness={latest.freshness.state}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {point === undefined ? <Trans>No value yet</Trans> : valueWithUnit(i18n, shape, point[1])}
      </Text>
    </>
  );
}
