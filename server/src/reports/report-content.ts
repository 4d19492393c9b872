import {
  type AlarmAttributes,
  type AssetAttributes,
  type DashboardAttributes,
  type DashboardWidget,
  type DatastreamAttributes,
  type WidgetType,
} from '@plant/shared-schema';

/**
 * What a report shows (issue 31 item 5), in two steps: the run reads the dashboard's data once
 * (`ReportData`: every stream's M4 read over the range, the same `store.range` the screen's
 * values read calls, and the latest values, alarms and assets), then each recipient's
 * `ReportContent` keeps only what that recipient may see (`Viewer`, from its access decision).
 */

/** How many points a chart's M4 read asks for: about one bucket per point of its width. */
export const CHART_POINTS = 500;

export interface StreamMeta {
  readonly id: string;
  readonly name: string;
  readonly unit: string;
  readonly type: DatastreamAttributes['type'];
  readonly assetId: string;
  readonly assetName: string;
}

export type Point = readonly [number, number | string];

export interface ReportData {
  readonly title: string;
  readonly reportName: string;
  readonly from: number;
  readonly to: number;
  /** The time zone the range is written in (the schedule's, else UTC). */
  readonly tz: string;
  /** The dashboard's widgets in reading order (top to bottom, left to right). */
  readonly widgets: readonly DashboardWidget[];
  readonly streams: ReadonlyMap<string, StreamMeta>;
  /** Each stream's M4 points over the range. */
  readonly series: ReadonlyMap<string, readonly Point[]>;
  readonly latest: ReadonlyMap<string, { ts: number; value: number | string }>;
  readonly alarms: readonly {
    readonly name: string;
    readonly severity: string;
    readonly state: string;
    readonly assetId: string;
    readonly assetName: string;
    readonly streamId: string;
  }[];
  readonly assets: readonly {
    readonly id: string;
    readonly name: string;
    readonly position: { lat: number; lng: number } | null;
  }[];
  /** The asset whose dashboard it is (its widgets' alarms and map keep to it), else null. */
  readonly assetId: string | null;
}

/** What one recipient may see (DESIGN.md §10: the decision of that user, or the outside rule). */
export interface Viewer {
  seesAsset(assetId: string): boolean;
  readonly streams: boolean;
  readonly alarms: boolean;
  readonly assets: boolean;
}

export interface SeriesContent {
  readonly id: string;
  readonly name: string;
  readonly unit: string;
  readonly points: readonly Point[];
}

export interface LatestRow {
  readonly name: string;
  readonly unit: string;
  readonly value: number | string | null;
  readonly ts: number | null;
}

export type WidgetContent =
  | {
      readonly kind: 'series';
      readonly type: 'line' | 'bar' | 'state';
      readonly title: string;
      readonly series: readonly SeriesContent[];
      readonly hidden: number;
    }
  | {
      readonly kind: 'latest';
      readonly type: 'value' | 'gauge' | 'table';
      readonly title: string;
      readonly rows: readonly LatestRow[];
      readonly min: number;
      readonly max: number;
      readonly hidden: number;
    }
  | {
      readonly kind: 'alarms';
      readonly title: string;
      readonly rows: readonly { name: string; severity: string; state: string; asset: string }[];
    }
  | {
      readonly kind: 'map';
      readonly title: string;
      readonly rows: readonly { name: string; position: { lat: number; lng: number } | null }[];
    }
  | { readonly kind: 'text'; readonly title: string; readonly text: string };

export interface ReportContent {
  readonly title: string;
  readonly reportName: string;
  readonly from: number;
  readonly to: number;
  readonly tz: string;
  readonly widgets: readonly WidgetContent[];
  /** The streams it shows (the CSV's), and their assets (a download needs them all seen). */
  readonly streams: readonly StreamMeta[];
  readonly assets: readonly string[];
}

const TYPE_TITLES: Record<WidgetType, string> = {
  line: 'Line chart',
  value: 'Value',
  gauge: 'Gauge',
  state: 'State timeline',
  bar: 'Bar chart',
  table: 'Table of latest values',
  alarms: 'Alarms',
  map: 'Map of assets',
  text: 'Text',
};

const numberOption = (w: DashboardWidget, key: string, fallback: number): number => {
  const v = w.options[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
};

const textOption = (w: DashboardWidget): string => {
  for (const key of ['text', 'markdown', 'content', 'body']) {
    const v = w.options[key];
    if (typeof v === 'string') return v;
  }
  return '';
};

/** The widgets in reading order: by row, then column (the grid's order on a screen). */
export function readingOrder(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  return [...widgets].sort((a, b) => a.y - b.y || a.x - b.x);
}

/** Every stream the dashboard's widgets name. */
export function streamsOf(dashboard: DashboardAttributes): string[] {
  return [...new Set(dashboard.widgets.flatMap((w) => w.streams))];
}

/** The report as one recipient may see it: null when it may see none of its streams. */
export function contentFor(data: ReportData, viewer: Viewer): ReportContent | null {
  const sees = (id: string) => {
    const s = data.streams.get(id);
    return viewer.streams && s !== undefined && viewer.seesAsset(s.assetId);
  };
  const named = new Set(data.widgets.flatMap((w) => w.streams));
  const shown = [...named].filter(sees);
  if (named.size > 0 && shown.length === 0) return null;
  // On an account's dashboard streams of many assets meet: each is named with its asset's name.
  const label = (s: StreamMeta) =>
    data.assetId !== null || s.assetName === '' ? s.name : `${s.assetName} · ${s.name}`;
  const inScope = (assetId: string) =>
    viewer.seesAsset(assetId) && (data.assetId === null || data.assetId === assetId);
  const widgets = data.widgets.map((w): WidgetContent => {
    const title = w.title ?? TYPE_TITLES[w.type];
    const visible = w.streams.filter(sees);
    const hidden = w.streams.length - visible.length;
    const meta = visible.flatMap((id) => {
      const s = data.streams.get(id);
      return s === undefined ? [] : [s];
    });
    switch (w.type) {
      case 'line':
      case 'bar':
      case 'state':
        return {
          kind: 'series',
          type: w.type,
          title,
          hidden,
          series: meta.map((s) => ({
            id: s.id,
            name: label(s),
            unit: s.unit,
            points: data.series.get(s.id) ?? [],
          })),
        };
      case 'value':
      case 'gauge':
      case 'table':
        return {
          kind: 'latest',
          type: w.type,
          title,
          hidden,
          min: numberOption(w, 'min', 0),
          max: numberOption(w, 'max', 100),
          rows: meta.map((s) => {
            const v = data.latest.get(s.id);
            return {
              name: label(s),
              unit: s.unit,
              value: v?.value ?? null,
              ts: v?.ts ?? null,
            };
          }),
        };
      case 'alarms': {
        const only = new Set(w.streams);
        return {
          kind: 'alarms',
          title,
          rows: viewer.alarms
            ? data.alarms
                .filter((a) => inScope(a.assetId) && (only.size === 0 || only.has(a.streamId)))
                .map((a) => ({
                  name: a.name,
                  severity: a.severity,
                  state: a.state,
                  asset: a.assetName,
                }))
            : [],
        };
      }
      case 'map':
        return {
          kind: 'map',
          title,
          rows: viewer.assets
            ? data.assets
                .filter((a) => inScope(a.id))
                .map((a) => ({ name: a.name, position: a.position }))
            : [],
        };
      case 'text':
        return { kind: 'text', title, text: textOption(w) };
    }
  });
  const streams = shown.flatMap((id) => {
    const s = data.streams.get(id);
    return s === undefined ? [] : [s];
  });
  return {
    title: data.title,
    reportName: data.reportName,
    from: data.from,
    to: data.to,
    tz: data.tz,
    widgets,
    streams,
    assets: [...new Set(streams.map((s) => s.assetId))],
  };
}

/** Rows of the models a report reads, parsed (the run reads them once). */
export interface ModelRows {
  readonly streams: readonly {
    id: string;
    asset_id: string | null;
    attributes: DatastreamAttributes;
  }[];
  readonly assets: readonly { id: string; attributes: AssetAttributes }[];
  readonly alarms: readonly { id: string; attributes: AlarmAttributes }[];
}
