import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { Feature, FeatureCollection, Point } from 'geojson';
import {
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  setWorkerUrl,
  type GeoJSONSource,
} from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import { apiPaths, staticConfSchema } from '@plant/shared-schema';
import type { LocalModel, QueryResult } from '@plant/sync-worker/api';
import { callApi } from '../../session/api';
import { useLiveQuery, type ListQuery } from '../../sync/hooks';
import { statusColor, type AssetStatus } from './asset-texts';
import { assetStatusOf } from './asset-status-rule';
import { useAlarmSummary } from '../alarms/alarm-summary';
import { useFillHeight } from './devices-table';
import classes from './devices.module.css';
import { devicePaths } from './paths';
import { addDetailTiles, baseStyle } from './world-base-layer';

/*
 * The asset overview's map (issue 16): the assets that have a position, clustered by MapLibre's
 * GeoJSON source, over a base layer that ships with the product (world-base-layer.ts), so it
 * works offline. Clusters and assets are HTML markers (buttons and links: focusable, named, and
 * few at a time, since clustering keeps them apart); a cluster zooms in, an asset opens. This
 * module is loaded only when the map is chosen: MapLibre is a chunk of its own.
 */

// MapLibre's worker is bundled by Vite as a module worker of the build (precached like the rest).
setWorkerUrl(workerUrl);

/** The worker answers at most this many models a query: the map reads the list in windows. */
const PAGE = 1000;
const CLUSTER_RADIUS = 50;
const CLUSTER_MAX_ZOOM = 14;
const MAX_ZOOM = 18;
/** Europe, where the demo's plants are; the whole world is a scroll away. */
const START = { center: [10, 48] as [number, number], zoom: 3 };

type AssetFeature = Feature<Point, { id: string; name: string; status: AssetStatus }>;

/** The assets that have a position, as the map's points (coloured by their shown status). */
export function placedAssets(
  items: readonly LocalModel<'asset'>[],
  raisedByAsset: ReturnType<typeof useAlarmSummary>['raisedByAsset'],
): FeatureCollection<Point, AssetFeature['properties']> {
  return {
    type: 'FeatureCollection',
    features: items.flatMap((m): AssetFeature[] => {
      const position = m.attributes.position;
      if (position === null) return [];
      return [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [position.lng, position.lat] },
          properties: {
            id: m.id,
            name: m.attributes.name,
            status: assetStatusOf(m.attributes, raisedByAsset.get(m.id)).status,
          },
        },
      ];
    }),
  };
}

interface DevicesMapProps {
  /** The list's search and tag: the map shows the same assets as the other views. */
  readonly query: ListQuery<'asset'>;
  readonly onShowTable: () => void;
}

export default function DevicesMap({ query, onShowTable }: DevicesMapProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const assets = useAllModels(query);
  const { raisedByAsset } = useAlarmSummary();
  const placed = useMemo(
    () => placedAssets(assets.items, raisedByAsset),
    [assets.items, raisedByAsset],
  );
  const tilesUrl = useTilesUrl();
  const webgl = useMemo(hasWebGl2, []);
  const open = useCallback(
    (id: string) => void navigate({ to: devicePaths.details(id) }),
    [navigate],
  );

  const count = placed.features.length;
  const unplaced = assets.items.length - count;
  return (
    <>
      {assets.feeds}
      <Group justify="space-between" align="center" wrap="wrap">
        <Text role="status" aria-live="polite" data-testid="devices-map-summary">
          {!assets.complete ? (
            <Trans>Placing the assets…</Trans>
          ) : (
            <>
              {t`${plural(count, { one: '# asset is on the map.', other: '# assets are on the map.' })}`}{' '}
              {unplaced === 0
                ? null
                : t`${plural(unplaced, { one: '# asset has no position and is not shown.', other: '# assets have no position and are not shown.' })}`}
            </>
          )}
        </Text>
        <Button variant="subtle" onClick={onShowTable}>
          <Trans>Show the assets as a table</Trans>
        </Button>
      </Group>
      {webgl ? (
        <MapCanvas data={placed} tilesUrl={tilesUrl} onOpen={open} />
      ) : (
        <div className={classes.mapLoading} data-testid="devices-map-unavailable">
          <Text c="dimmed" ta="center" maw={420}>
            <Trans>
              This browser cannot draw the map (it needs WebGL 2). The table shows every asset.
            </Trans>
          </Text>
        </div>
      )}
    </>
  );
}

/**
 * The map itself: made once, its clustered source fed with every change of the placed assets.
 * `data-state` says when it is drawn; `data-zoom` follows the view (both for tests and tools).
 */
export function MapCanvas({
  data,
  tilesUrl,
  onOpen,
  height: fixedHeight,
}: {
  readonly data: FeatureCollection<Point, AssetFeature['properties']>;
  readonly tilesUrl: string | null | undefined;
  readonly onOpen: (id: string) => void;
  /** The map's height (a dashboard's cell); default: down to the window's bottom. */
  readonly height?: number | string;
}) {
  const { t } = useLingui();
  const container = useRef<HTMLDivElement>(null);
  const fillHeight = useFillHeight(container);
  const height = fixedHeight ?? fillHeight;
  const mapRef = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  // The markers' texts and actions change with the language and the router; the map does not.
  const labels = useRef({
    cluster: (n: number) => String(n),
    open: onOpen,
  });
  labels.current = {
    cluster: (n: number) =>
      t`${plural(n, { one: '# asset here: zoom in', other: '# assets here: zoom in' })}`,
    open: onOpen,
  };

  useEffect(() => {
    const el = container.current;
    if (el === null) return;
    let map: MapLibreMap;
    try {
      map = new MapLibreMap({
        container: el,
        style: baseStyle(),
        center: START.center,
        zoom: START.zoom,
        maxZoom: MAX_ZOOM,
        attributionControl: false,
        locale: {
          'Map.Title': t`Map of the assets`,
          'NavigationControl.ZoomIn': t`Zoom in`,
          'NavigationControl.ZoomOut': t`Zoom out`,
          'NavigationControl.ResetBearing': t`Reset the map to north`,
        },
      });
    } catch {
      setFailed(true);
      return;
    }
    mapRef.current = map;
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    const markers = new Map<string, Marker>();
    let frame = 0;

    const update = () => {
      frame = 0;
      if (map.getSource('assets') === undefined) return;
      const seen = new Set<string>();
      for (const f of map.querySourceFeatures('assets')) {
        const props = f.properties as Record<string, unknown>;
        const geometry = f.geometry as Point;
        const clustered = props.cluster === true;
        // Everything a marker shows is in its key: after new data a cluster id may stand for
        // another cluster, and an asset may have moved or changed its name or state.
        const [lng, lat] = geometry.coordinates;
        const key = clustered
          ? `c${String(props.cluster_id)}|${String(props.point_count)}|${lng},${lat}`
          : `a${String(props.id)}|${String(props.name)}|${String(props.status)}|${lng},${lat}`;
        if (seen.has(key)) continue;
        seen.add(key);
        let marker = markers.get(key);
        if (marker === undefined) {
          const element = clustered
            ? clusterElement(Number(props.point_count), Number(props.cluster_id), key)
            : assetElement(String(props.id), String(props.name), props.status as AssetStatus);
          marker = new Marker({ element }).setLngLat(geometry.coordinates as [number, number]);
          markers.set(key, marker);
        }
        marker.addTo(map);
      }
      for (const [key, marker] of markers) {
        if (seen.has(key)) continue;
        marker.remove();
        markers.delete(key);
      }
      el.dataset.markers = String(markers.size);
      el.dataset.zoom = map.getZoom().toFixed(2);
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };

    const clusterElement = (count: number, clusterId: number, key: string) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = classes.cluster ?? '';
      const size = Math.round(28 + Math.min(28, Math.log10(count) * 10));
      button.style.width = `${size}px`;
      button.style.height = `${size}px`;
      button.textContent = count >= 1000 ? `${Math.round(count / 100) / 10}k` : String(count);
      button.setAttribute('aria-label', labels.current.cluster(count));
      button.dataset.testid = 'map-cluster';
      button.dataset.count = String(count);
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        const source = map.getSource<GeoJSONSource>('assets');
        void source
          ?.getClusterExpansionZoom(clusterId)
          .then((zoom) => {
            map.easeTo({
              center: (markers.get(key)?.getLngLat() ?? map.getCenter()).toArray(),
              zoom: Math.min(zoom, MAX_ZOOM),
            });
          })
          .catch(() => undefined);
      });
      return button;
    };
    const assetElement = (id: string, name: string, status: AssetStatus) => {
      const link = document.createElement('a');
      link.href = devicePaths.details(id);
      link.className = classes.point ?? '';
      link.style.background = `var(--mantine-color-${statusColor(status)}-filled)`;
      link.setAttribute('aria-label', name);
      link.title = name;
      link.dataset.testid = 'map-asset';
      link.dataset.id = id;
      link.addEventListener('click', (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        event.stopPropagation();
        labels.current.open(id);
      });
      return link;
    };

    map.on('load', () => {
      map.addSource('assets', {
        type: 'geojson',
        data: { type: 'FeatureCollection', features: [] },
        cluster: true,
        clusterRadius: CLUSTER_RADIUS,
        clusterMaxZoom: CLUSTER_MAX_ZOOM,
      });
      // Nothing drawn by the GPU: the layer keeps the source's tiles loaded for the markers.
      map.addLayer({
        id: 'assets-anchor',
        type: 'circle',
        source: 'assets',
        paint: { 'circle-radius': 1, 'circle-opacity': 0 },
      });
      setReady(true);
    });
    map.on('sourcedata', (e) => {
      if (e.sourceId === 'assets' && e.isSourceLoaded) schedule();
    });
    map.on('move', schedule);
    map.on('moveend', schedule);
    map.on('idle', () => {
      el.dataset.state = 'idle';
    });
    map.on('movestart', () => {
      el.dataset.state = 'moving';
    });
    return () => {
      cancelAnimationFrame(frame);
      for (const marker of markers.values()) marker.remove();
      map.remove();
      mapRef.current = null;
    };
    // The map is made once; the texts it was given are read again through `labels`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (ready && map !== null && typeof tilesUrl === 'string') {
      addDetailTiles(map, tilesUrl, 'assets-anchor');
    }
  }, [ready, tilesUrl]);

  useEffect(() => {
    if (!ready) return;
    const source = mapRef.current?.getSource<GeoJSONSource>('assets');
    // A map removed meanwhile rejects: nothing to show then.
    source?.setData(data).catch(() => undefined);
  }, [ready, data]);

  if (failed) {
    return (
      <div className={classes.mapLoading} data-testid="devices-map-unavailable">
        <Text c="dimmed" ta="center" maw={420}>
          <Trans>This browser cannot draw the map. The table shows every asset.</Trans>
        </Text>
      </div>
    );
  }
  return (
    <div
      ref={container}
      className={classes.map}
      style={{ height }}
      data-testid="devices-map"
      data-ready={ready}
    />
  );
}

/**
 * Every model of a query, live, read in windows of the most the worker answers at once (one
 * subscription each; the first says how many there are). The feeds render nothing.
 */
export function useAllModels(query: ListQuery<'asset'>): {
  readonly items: readonly LocalModel<'asset'>[];
  readonly complete: boolean;
  readonly feeds: ReactNode;
} {
  const key = JSON.stringify(query);
  const [pages, setPages] = useState<{
    readonly key: string;
    readonly results: ReadonlyMap<number, QueryResult<'asset'>>;
  }>({ key, results: new Map() });
  const results = pages.key === key ? pages.results : new Map<number, QueryResult<'asset'>>();
  const total = results.get(0)?.total;
  const offsets =
    total === undefined
      ? [0]
      : Array.from({ length: Math.max(1, Math.ceil(total / PAGE)) }, (_, i) => i * PAGE);
  const onResult = useCallback(
    (offset: number, result: QueryResult<'asset'>) =>
      setPages((p) => {
        const next = new Map(p.key === key ? p.results : []);
        next.set(offset, result);
        return { key, results: next };
      }),
    [key],
  );
  const items = useMemo(
    () => offsets.flatMap((o) => results.get(o)?.items ?? []),
    // `offsets` follows from `results`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results],
  );
  const complete = offsets.every((o) => results.get(o)?.complete === true);
  const feeds = offsets.map((offset) => (
    <WindowFeed key={`${key}|${offset}`} query={query} offset={offset} onResult={onResult} />
  ));
  return { items, complete, feeds };
}

function WindowFeed({
  query,
  offset,
  onResult,
}: {
  readonly query: ListQuery<'asset'>;
  readonly offset: number;
  readonly onResult: (offset: number, result: QueryResult<'asset'>) => void;
}) {
  const result = useLiveQuery({ ...query, offset, limit: PAGE });
  useEffect(() => {
    if (result !== undefined) onResult(offset, result);
  }, [result, offset, onResult]);
  return null;
}

/**
 * The detail tiles configured on the server (/staticconf's map_tiles_url), null when there are
 * none or the server cannot be reached (offline: the shipped base layer alone), undefined while
 * asking.
 */
export function useTilesUrl(): string | null | undefined {
  const [url, setUrl] = useState<string | null>();
  useEffect(() => {
    let current = true;
    void callApi('GET', apiPaths.staticconf(), staticConfSchema, {
      envelope: false,
      quiet: true,
    }).then((answer) => {
      if (current) setUrl('error' in answer ? null : (answer.data.map_tiles_url ?? null));
    });
    return () => {
      current = false;
    };
  }, []);
  return url;
}

export function hasWebGl2(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    // Given back at once: a page may hold only a few WebGL contexts.
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  } catch {
    return false;
  }
}
