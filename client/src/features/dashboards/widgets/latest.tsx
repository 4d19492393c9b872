import { useMemo } from 'react';
import type { I18n } from '@lingui/core';
import { streamFreshness, type Freshness } from '@plant/shared-schema';
import type { LocalModel, Point } from '@plant/sync-worker/api';
import { useServerNow } from '../../../components/time-ago';
import { useLiveModel } from '../../../sync/hooks';
import { useStreamSources } from '../../devices/stream-sources';
import { valueText, type StreamShape } from '../../devices/stream-values';
import { useAssetsValues } from './shared-reads';

/*
 * A stream's latest value as the value, gauge and table widgets show it, with the asset page's
 * rules: the shared freshness rule (shared-schema `streamFreshness`: failing source, no data,
 * gateway offline) over the stream's source, and 'Last known' while this page does not hear
 * the server (devices/stream-values.tsx's marks).
 */

/** How often "now" moves on: a silent source is marked stale this late at most. */
const NOW_EVERY_MS = 5_000;

export interface Latest {
  readonly point: Point | undefined;
  readonly freshness: Freshness;
  /** The source's datapoint watches: render them anywhere (they render nothing). */
  readonly watches: React.ReactNode;
}

/** The latest value and its freshness of one stream (live, shared per asset). */
export function useLatest(stream: LocalModel<'datastream'>): Latest {
  const assetId = stream.attributes.asset_id;
  const [values] = useAssetsValues([assetId]);
  const asset = useLiveModel('asset', assetId);
  const gatewayId = asset.name === 'found' ? asset.model.attributes.gateway_id : null;
  const gateway = useLiveModel('gateway', gatewayId ?? '');
  const gatewayOffline =
    gatewayId !== null &&
    gateway.name === 'found' &&
    gateway.model.attributes.connection !== 'online';
  const { sources, watches } = useStreamSources(gatewayId, !gatewayOffline);
  const now = useServerNow(NOW_EVERY_MS);
  const point = values?.latest[stream.id];
  return useMemo(() => {
    const lastValueAt = point === undefined ? null : point[0];
    const fresh = streamFreshness({ now, lastValueAt, source: sources.get(stream.id) ?? null });
    // A stream no visible datapoint feeds still says when the asset's gateway is offline.
    const freshness: Freshness =
      fresh.state === 'fresh' && gatewayOffline
        ? { ...fresh, state: 'offline', since: lastValueAt, staleAt: null }
        : fresh;
    return { point, freshness, watches };
  }, [point, now, sources, stream.id, gatewayOffline, watches]);
}

/** One value as text with the widget's decimals (numbers), else as the asset page shows it. */
export function formatValue(
  i18n: I18n,
  shape: StreamShape,
  value: number | string,
  decimals: number | null,
): string {
  if (typeof value === 'number' && shape.type === 'number' && decimals !== null) {
    return i18n.number(value, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  }
  return valueText(i18n, shape, value);
}
