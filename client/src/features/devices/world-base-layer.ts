import type { FeatureCollection } from 'geojson';
import type { Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';

/*
 * The map's base layer ships with the product (issue 16: no tile service is needed, offline
 * included): the countries of Natural Earth at 1:110m from the world-atlas package, TopoJSON
 * turned into GeoJSON here and drawn by MapLibre as land, borders and sea. No glyphs and no
 * sprite: the style names no URL at all, so nothing is fetched. A tile source configured on the
 * server (MAP_TILES_URL, /staticconf) adds detail over it when it can be reached.
 */

const SEA = '#dde9f2';
const LAND = '#f6f5f0';
const BORDER = '#b8b3a6';

let cached: FeatureCollection | undefined;

/** The world's countries as GeoJSON (made once: the conversion takes a few milliseconds). */
export function worldCountries(): FeatureCollection {
  cached ??= feature(
    countries as unknown as Topology<{ countries: GeometryCollection }>,
    (countries as unknown as Topology<{ countries: GeometryCollection }>).objects.countries,
  );
  return cached;
}

/** An XYZ raster tile address (`…/{z}/{x}/{y}.png`), the only detail source the map takes. */
export function isTileTemplate(url: string): boolean {
  return (
    /^https?:\/\//.test(url) && url.includes('{z}') && url.includes('{x}') && url.includes('{y}')
  );
}

/** The map's style: the shipped countries, nothing fetched. */
export function baseStyle(): StyleSpecification {
  return {
    version: 8,
    sources: { countries: { type: 'geojson', data: worldCountries() } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': SEA } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': LAND } },
      {
        id: 'borders',
        type: 'line',
        source: 'countries',
        paint: { 'line-color': BORDER, 'line-width': 0.7 },
      },
    ],
  };
}

/**
 * Adds the configured detail tiles over the countries (below `before`). Added once the map is
 * drawn, whenever /staticconf answers: the shipped layer never waits for the network, and tiles
 * that cannot be fetched (offline) leave it showing.
 */
export function addDetailTiles(map: MapLibreMap, url: string, before?: string): void {
  if (!isTileTemplate(url) || map.getSource('detail') !== undefined) return;
  map.addSource('detail', { type: 'raster', tiles: [url], tileSize: 256, maxzoom: 19 });
  map.addLayer({ id: 'detail', type: 'raster', source: 'detail' }, before);
}
