import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { isolate, widgetOptions } from '@plant/shared-schema';
import type { HistoryResult, LocalModel } from '@plant/sync-worker/api';
import { appStore } from '../../../state/store';
import { sessionEpochAtom } from '../../../sync/status';
import { AXIS_FONT, axisNumberFormat, timeTickLabel } from '../../devices/chart-axes';
import { isStepped, stepLevels } from '../../devices/stream-figures';
import {
  streamShapeOf,
  valueText,
  valueWithUnit,
  type StreamShape,
} from '../../devices/stream-values';
import { useStreamLabels, type useWidgetHistories } from './shared-reads';
import { CoverageNote, NotAvailable, StreamsGate } from './widget-parts';
import { KeptCharts } from './kept-charts';
import type { WidgetContext, WidgetProps } from './widget-props';

/*
 * The line chart widget (issue 31 item 2): several streams over the dashboard's range in one
 * uPlot, with the stream page's rules (devices/stream-chart.tsx): booleans and states as steps
 * labelled by their texts, the value under the pointer in the legend, dragging across picks a
 * range that becomes the dashboard's (every widget follows), a double-click takes it back. A
 * chunk of its own: uPlot loads only with a dashboard that has a chart.
 */

const COLORS = [
  '#228be6',
  '#fa5252',
  '#40c057',
  '#fab005',
  '#7950f2',
  '#15aabf',
  '#fd7e14',
  '#e64980',
  '#82c91e',
  '#4c6ef5',
  '#be4bdb',
  '#12b886',
];

export default function LineWidget({
  widget,
  context,
  data,
}: WidgetProps & {
  /** The streams and their histories, read by index.tsx while this chunk loads. */
  readonly data: ReturnType<typeof useWidgetHistories>;
}) {
  const { states, found, histories } = data;
  const missing = states.filter((s) => s.name === 'missing').length;
  return (
    <StreamsGate states={states}>
      <div
        data-testid="widget-line-box"
        style={{ display: 'flex', flexDirection: 'column', gap: 2, height: '100%' }}
      >
        <CoverageNote results={histories} />
        <LineChart widget={widget} context={context} streams={found} histories={histories} />
        {missing > 0 ? <NotAvailable /> : null}
      </div>
    </StreamsGate>
  );
}

function LineChart({
  widget,
  context,
  streams,
  histories,
}: WidgetProps & {
  readonly streams: readonly LocalModel<'datastream'>[];
  readonly histories: readonly (HistoryResult | undefined)[];
}) {
  const { t, i18n } = useLingui();
  const epoch = useAtomValue(sessionEpochAtom);
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const options = widgetOptions('line', widget.options);
  const { from, to } = context.range;
  // The range before a zoom, for the double-click back.
  const beforeZoom = useRef<{ from: number; to: number } | null>(null);
  const handlers = useRef(context);
  handlers.current = context;

  const shapes = useMemo(() => streams.map((s) => streamShapeOf(s.attributes)), [streams]);
  const labelOf = useStreamLabels(streams);
  const names = streams.map(labelOf);
  const shapeKey = JSON.stringify([
    shapes,
    streams.map((s) => [s.attributes.vis_min, s.attributes.vis_max]),
  ]);
  // The names are not the chart's shape: a name that changes (the assets' names arriving for
  // same-named streams) relabels the legend, it does not make the chart anew.
  const namesKey = JSON.stringify(names);
  const namesNow = useRef(names);
  namesNow.current = names;
  // The steps' levels: their state codes and the codes in the range (a new one redraws).
  const levels = shapes.map((shape, i) =>
    isStepped(shape) ? stepLevels(shape, histories[i]?.series[0]?.values ?? []) : [],
  );
  const levelsKey = JSON.stringify(levels);

  // The cell's size as the grid mounts (the grid's charts read theirs one after another before
  // any is made: one layout for all), then from the observer's entries (a read while other
  // charts are being made would force a layout per chart).
  useLayoutEffect(() => {
    const el = box.current;
    if (el === null) return;
    const rect = el.getBoundingClientRect();
    if (rect.width > 0) setSize({ width: Math.floor(rect.width), height: Math.floor(rect.height) });
    const observer = new ResizeObserver((entries) => {
      const rect = entries.at(-1)?.contentRect;
      if (rect === undefined) return;
      const next = { width: Math.floor(rect.width), height: Math.floor(rect.height) };
      setSize((was) => (was.width === next.width && was.height === next.height ? was : next));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The chart is made once its cell has a size and every stream's first answer is here (made
  // with its points: one drawing, not an empty one and then the points); a new size or range
  // only resizes or redraws it.
  const ready =
    size.width > 0 &&
    histories.length === streams.length &&
    histories.every((h) => h !== undefined);
  const sizeNow = useRef(size);
  sizeNow.current = size;
  const rangeNow = useRef({ from, to });
  rangeNow.current = { from, to };
  const data = useMemo(() => alignSeries(histories, streams.length), [histories, streams.length]);
  const dataNow = useRef(data);
  dataNow.current = data;
  const drawn = useRef<uPlot.AlignedData | null>(null);
  const drawnRange = useRef('');
  // What the chart's handlers read: this widget's refs (a kept chart changes hands).
  const owner = useMemo<ChartOwner>(
    () => ({ range: rangeNow, context: handlers, beforeZoom, size: sizeNow }),
    [],
  );

  useEffect(() => {
    const el = box.current;
    if (el === null || !ready || streams.length === 0) return;
    // Everything the chart is made from, but its size, range, names and points (set on a kept
    // one as it is taken): a chart kept by another widget with the same makings fits this one.
    const kind = [
      epoch,
      shapeKey,
      levelsKey,
      options.min ?? '',
      options.max ?? '',
      i18n.locale,
    ].join('|');
    const widgetKey = `${context.dashboardId}|${widget.id}`;
    let chart = keptCharts.take(kind, widgetKey);
    if (chart === undefined) {
      chart = makeLineChart({
        shapes,
        streams,
        levels,
        min: options.min,
        max: options.max,
        i18n,
        timeLabel: t`Time`,
        names: namesNow.current,
        data: dataNow.current.aligned,
        owner,
      });
    } else {
      // Redrawn before it joins the page, as a new one is drawn, and as new: every series shown
      // (a legend click hides one), no pointer over it.
      const made = chart.plot;
      chart.owner = owner;
      made.batch(() => {
        fitPlot(made, sizeNow.current, streams.length);
        relabel(made, namesNow.current, t`Time`);
        made.series.forEach((series, i) => {
          if (i > 0 && series.show === false) made.setSeries(i, { show: true }, false);
        });
        made.setCursor({ left: -10, top: -10 }, false);
        made.setData(dataNow.current.aligned);
      });
    }
    el.appendChild(chart.plot.root);
    drawn.current = dataNow.current.aligned;
    drawnRange.current = `${rangeNow.current.from}-${rangeNow.current.to}`;
    el.dataset.ready = 'true';
    drewPoints(el, chart.plot);
    plot.current = chart.plot;
    const mine = chart;
    return () => {
      plot.current = null;
      mine.plot.root.remove();
      // Nothing of a session is kept past it (a sign-out, another account).
      if (appStore.get(sessionEpochAtom) !== epoch) {
        mine.destroy();
        return;
      }
      const canvas = mine.plot.ctx.canvas;
      keptCharts.keep(kind, widgetKey, mine, canvas.width * canvas.height);
    };
    // `shapes`, `streams` and `levels` are read through shapeKey and levelsKey; the size, range
    // and points through their refs (they change the chart below, not make it anew).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    ready,
    epoch,
    context.dashboardId,
    widget.id,
    shapeKey,
    levelsKey,
    options.min,
    options.max,
    i18n,
    t,
  ]);

  useEffect(() => {
    const made = plot.current;
    if (made !== null) fitPlot(made, size, streams.length);
  }, [size, streams.length]);

  useEffect(() => {
    const made = plot.current;
    if (made !== null) relabel(made, namesNow.current);
  }, [namesKey]);

  useEffect(() => {
    const made = plot.current;
    if (made === null) return;
    // New points, or the same points over a moved range (setData scales x anew).
    if (drawn.current !== data.aligned || drawnRange.current !== `${from}-${to}`) {
      drawn.current = data.aligned;
      drawnRange.current = `${from}-${to}`;
      made.setData(data.aligned);
      if (box.current !== null) drewPoints(box.current, made);
    }
  }, [data, from, to]);

  const label = t`Line chart of ${names.map((n) => isolate(n)).join(', ')}`;
  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid="widget-line"
      data-points={data.points}
      data-series={streams.length}
      style={{ width: '100%', flex: 1, minHeight: 80, overflow: 'hidden' }}
    />
  );
}

/** What a chart's handlers read: the refs of the widget showing it now. */
interface ChartOwner {
  readonly range: { readonly current: { from: number; to: number } };
  readonly context: { readonly current: WidgetContext };
  readonly beforeZoom: { current: { from: number; to: number } | null };
  readonly size: { readonly current: { width: number; height: number } };
}

/** A line chart and who shows it (kept-charts.ts hands it to the next widget). */
interface LineChartMade {
  readonly plot: uPlot;
  owner: ChartOwner;
  destroy(): void;
}

/**
 * The line charts of widgets that left the page, for a while: at most 2 minutes, and 8 M canvas
 * pixels (32 MB; a dashboard of twelve charts at 1024x768 is about 1.5 M).
 */
const keptCharts = new KeptCharts<LineChartMade>(120_000, 8_000_000);
// A new session (a sign-in, a sign-out, another account) keeps nothing of the last one's.
appStore.sub(sessionEpochAtom, () => keptCharts.clear());

/** Makes a line widget's chart, drawn with `data` (not yet in the page). */
function makeLineChart({
  shapes,
  streams,
  levels,
  min,
  max,
  i18n,
  timeLabel,
  names,
  data,
  owner,
}: {
  readonly shapes: readonly StreamShape[];
  readonly streams: readonly LocalModel<'datastream'>[];
  readonly levels: readonly number[][];
  readonly min: number | null | undefined;
  readonly max: number | null | undefined;
  readonly i18n: I18n;
  readonly timeLabel: string;
  readonly names: readonly string[];
  readonly data: uPlot.AlignedData;
  readonly owner: ChartOwner;
}): LineChartMade {
  const chart: { owner: ChartOwner } = { owner };
  const steps = uPlot.paths.stepped?.({ align: 1 });
  const units = [...new Set(shapes.filter((s) => !isStepped(s)).map((s) => s.unit))];
  const onlySteps = units.length === 0;
  const scaleOf = (i: number) => {
    const shape = shapes[i] as StreamShape;
    return isStepped(shape) ? `steps${i}` : `unit:${shape.unit}`;
  };
  const scales: uPlot.Scales = {
    x: {
      time: true,
      range: () => [chart.owner.range.current.from / 1000, chart.owner.range.current.to / 1000],
    },
  };
  shapes.forEach((shape, i) => {
    const key = scaleOf(i);
    if (isStepped(shape)) {
      const ls = levels[i] ?? [];
      scales[key] = {
        range: () => [
          Math.min(...ls, 0) - 0.3,
          Math.max(...ls, shape.type === 'boolean' ? 1 : 0) + 0.3,
        ],
      };
    } else if (scales[key] === undefined) {
      // The widget's bounds, else the one stream's visualisation range, else automatic.
      const same = streams.filter((_s, j) => scaleOf(j) === key);
      const vis = same.length === 1 ? same[0]?.attributes : undefined;
      const lo = min ?? vis?.vis_min ?? null;
      const hi = max ?? vis?.vis_max ?? null;
      scales[key] =
        lo === null && hi === null
          ? { auto: true }
          : { range: (_u, min, max) => [lo ?? min, hi ?? max] };
    }
  });
  const xLabel = timeTickLabel(i18n);
  const axisNumber = axisNumberFormat(i18n, 3);
  const axes: uPlot.Axis[] = [
    {
      font: AXIS_FONT,
      space: 90,
      values: (_u, splits, _a, _s, step) => splits.map((s) => xLabel(s, step)),
    },
  ];
  if (onlySteps) {
    // One stepped stream: its levels labelled by their texts.
    const ls = levels[0] ?? [];
    const shape = shapes[0] as StreamShape;
    axes.push({
      scale: scaleOf(0),
      font: AXIS_FONT,
      splits: () => ls,
      values: (_u, splits) => splits.map((v) => valueText(i18n, shape, v)),
      size: 80,
    });
  } else {
    units.slice(0, 2).forEach((unit, k) => {
      axes.push({
        scale: `unit:${unit}`,
        font: AXIS_FONT,
        side: k === 0 ? 3 : 1,
        grid: { show: k === 0 },
        ...(unit === '' ? {} : { label: unit, labelSize: 18 }),
        values: (_u, splits) => splits.map((s) => axisNumber.format(s)),
        size: 56,
      });
    });
  }
  const opts: uPlot.Options = {
    width: chart.owner.size.current.width,
    height: plotHeight(chart.owner.size.current.height, streams.length),
    cursor: { drag: { x: true, y: false, setScale: false } },
    scales,
    axes,
    series: [
      {
        label: timeLabel,
        value: (_u, v) =>
          v === null
            ? '–'
            : i18n.date(new Date(v * 1000), { dateStyle: 'short', timeStyle: 'medium' }),
      },
      ...streams.map((s, i): uPlot.Series => {
        const shape = shapes[i] as StreamShape;
        return {
          label: isolate(names[i] ?? s.attributes.name),
          scale: scaleOf(i),
          stroke: COLORS[i % COLORS.length] ?? '#228be6',
          width: 1.5,
          spanGaps: false,
          points: { show: false },
          ...(isStepped(shape) && steps !== undefined ? { paths: steps } : {}),
          value: (_u, v) => (v === null ? '–' : valueWithUnit(i18n, shape, v)),
        };
      }),
    ],
    legend: { show: true, live: true },
    hooks: {
      setSelect: [
        (u) => {
          if (u.select.width < 4) return;
          const a = Math.round(u.posToVal(u.select.left, 'x') * 1000);
          const b = Math.round(u.posToVal(u.select.left + u.select.width, 'x') * 1000);
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          const ctx = chart.owner.context.current;
          if (ctx.onRangeChange === undefined || b <= a) return;
          chart.owner.beforeZoom.current ??= { ...ctx.range };
          ctx.onRangeChange({ from: a, to: b });
        },
      ],
    },
  };
  // Drawn before it joins the page: a canvas in the page resolves its font against the page's
  // styles, so each chart drawn in place recalculated the styles of all the DOM made since.
  const made = new uPlot(opts, data, (u, init) => u.batch(() => (init as () => void)()));
  // The legend (the values under the pointer) sits below the plot, inside the cell: the plot
  // takes the rest. Its height is known once laid out (uPlot's stylesheet, loaded with this
  // chunk, may come after): the observer's entry gives it without forcing a layout, and the
  // next chart of as many streams starts from it. Not while kept out of the page (no size).
  const legend = made.root.querySelector<HTMLElement>('.u-legend');
  const legendSize = new ResizeObserver((entries) => {
    const entry = entries.at(-1);
    if (entry === undefined || !made.root.isConnected) return;
    const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
    legendHeights.set(streams.length, Math.ceil(height));
    fitPlot(made, chart.owner.size.current, streams.length);
  });
  if (legend !== null) legendSize.observe(legend);
  // A double-click goes back to the range before zooming in.
  const onDoubleClick = () => {
    const { context, beforeZoom } = chart.owner;
    if (context.current.onRangeReset !== undefined) context.current.onRangeReset();
    else if (beforeZoom.current !== null) context.current.onRangeChange?.(beforeZoom.current);
    beforeZoom.current = null;
  };
  made.over.addEventListener('dblclick', onDoubleClick);
  return Object.assign(chart, {
    plot: made,
    destroy() {
      legendSize.disconnect();
      made.over.removeEventListener('dblclick', onDoubleClick);
      made.destroy();
    },
  });
}

/** Says on the chart's box how many moments the chart itself holds (tests read it). */
function drewPoints(box: HTMLElement, made: uPlot): void {
  box.dataset.drawnPoints = String(made.data[0]?.length ?? 0);
}

/**
 * Gives the chart's series these names, in the legend too (its rows follow the series), and the
 * time's row `time` when given.
 */
function relabel(made: uPlot, names: readonly string[], time?: string): void {
  const rows = made.root.querySelectorAll('.u-legend .u-series');
  const label = (index: number, text: string) => {
    const series = made.series[index];
    if (series === undefined || series.label === text) return;
    series.label = text;
    const cell = rows[index]?.querySelector('.u-label');
    if (cell) cell.textContent = text;
  };
  if (time !== undefined) label(0, time);
  names.forEach((name, i) => label(i + 1, isolate(name)));
}

/** The legend's height by its streams' count, as last laid out (the next chart starts from it). */
const legendHeights = new Map<number, number>();

/** The plot's height in a cell: the cell less its legend (at least 80 px). */
function plotHeight(cellHeight: number, series: number): number {
  return Math.max(80, cellHeight - (legendHeights.get(series) ?? 0) - 4);
}

function fitPlot(made: uPlot, size: { width: number; height: number }, series: number): void {
  const height = plotHeight(size.height, series);
  if (made.width !== size.width || made.height !== height) {
    made.setSize({ width: size.width, height });
  }
}

/**
 * The streams' points on one time axis for uPlot (each stream's values where it has a point,
 * null elsewhere; texts are not drawn). Answers the total of points drawn too.
 */
export function alignSeries(
  histories: readonly (HistoryResult | undefined)[],
  count: number,
): { aligned: uPlot.AlignedData; points: number } {
  const tables: uPlot.AlignedData[] = [];
  let points = 0;
  for (let i = 0; i < count; i++) {
    const s = histories[i]?.series[0];
    const xs: number[] = [];
    const ys: (number | null)[] = [];
    for (let k = 0; k < (s?.ts.length ?? 0); k++) {
      const v = s?.values[k];
      xs.push((s?.ts[k] ?? 0) / 1000);
      ys.push(typeof v === 'number' ? v : null);
    }
    points += xs.length;
    tables.push([xs, ys]);
  }
  if (tables.length === 0) return { aligned: [[]], points };
  if (tables.length === 1) return { aligned: tables[0] as uPlot.AlignedData, points };
  return { aligned: uPlot.join(tables), points };
}
