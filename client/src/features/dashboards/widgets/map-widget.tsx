import { useCallback, useMemo } from 'react';
import { Trans } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useAlarmSummary } from '../../alarms/alarm-summary';
import {
  hasWebGl2,
  MapCanvas,
  placedAssets,
  useAllModels,
  useTilesUrl,
} from '../../devices/devices-map';
import { devicePaths } from '../../devices/paths';
import type { WidgetProps } from './widget-props';

/*
 * The map of assets widget: the asset overview's map (devices/devices-map.tsx: MapLibre,
 * clustered markers coloured by each asset's shown status, the shipped base layer, so it works
 * offline) in a grid cell. On an asset's dashboard, that asset alone. A chunk of its own:
 * MapLibre loads only with a dashboard that has a map.
 */

const ALL_ASSETS = { type: 'asset' } as const;

export default function MapWidget({ context }: WidgetProps) {
  const navigate = useNavigate();
  const assets = useAllModels(ALL_ASSETS);
  const { raisedByAsset } = useAlarmSummary();
  const placed = useMemo(
    () =>
      placedAssets(
        context.assetId === null
          ? assets.items
          : assets.items.filter((a) => a.id === context.assetId),
        raisedByAsset,
      ),
    [assets.items, raisedByAsset, context.assetId],
  );
  const tilesUrl = useTilesUrl();
  const webgl = useMemo(hasWebGl2, []);
  const open = useCallback(
    (id: string) => void navigate({ to: devicePaths.details(id) }),
    [navigate],
  );
  return (
    <Stack gap={0} h="100%" data-testid="widget-map" data-placed={placed.features.length}>
      {assets.feeds}
      {webgl ? (
        <MapCanvas data={placed} tilesUrl={tilesUrl} onOpen={open} height="100%" />
      ) : (
        <Text c="dimmed" size="sm">
          <Trans>This browser cannot draw the map (it needs WebGL 2).</Trans>
        </Text>
      )}
    </Stack>
  );
}
