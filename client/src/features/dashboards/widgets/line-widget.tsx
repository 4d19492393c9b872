import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { isolate, widgetOptions } from '@plant/shared-schema';
import type { HistoryResult, LocalModel } from '@plant/sync-worker/api';
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
import type { WidgetProps } from './widget-props';

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

  useEffect(() => {
    const el = box.current;
    if (el === null || !ready || streams.length === 0) return;
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
        range: () => [rangeNow.current.from / 1000, rangeNow.current.to / 1000],
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
        const lo = options.min ?? vis?.vis_min ?? null;
        const hi = options.max ?? vis?.vis_max ?? null;
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
      width: sizeNow.current.width,
      height: plotHeight(sizeNow.current.height, streams.length),
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales,
      axes,
      series: [
        {
          label: t`Time`,
          value: (_u, v) =>
            v === null
              ? '–'
              : i18n.date(new Date(v * 1000), { dateStyle: 'short', timeStyle: 'medium' }),
        },
        ...streams.map((s, i): uPlot.Series => {
          const shape = shapes[i] as StreamShape;
          return {
            label: isolate(namesNow.current[i] ?? s.attributes.name),
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
            const ctx = handlers.current;
            if (ctx.onRangeChange === undefined || b <= a) return;
            beforeZoom.current ??= { ...ctx.range };
            ctx.onRangeChange({ from: a, to: b });
          },
        ],
      },
    };
    // Drawn before it joins the page: a canvas in the page resolves its font against the page's
    // styles, so each chart drawn in place recalculated the styles of all the DOM made since.
    const made = new uPlot(opts, dataNow.current.aligned, (u, init) =>
      u.batch(() => (init as () => void)()),
    );
    el.appendChild(made.root);
    drawn.current = dataNow.current.aligned;
    drawnRange.current = `${rangeNow.current.from}-${rangeNow.current.to}`;
    // The legend (the values under the pointer) sits below the plot, inside the cell: the plot
    // takes the rest. Its height is known once laid out (uPlot's stylesheet, loaded with this
    // chunk, may come after): the observer's entry gives it without forcing a layout, and the
    // next chart of as many streams starts from it.
    const legend = made.root.querySelector<HTMLElement>('.u-legend');
    const legendSize = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      if (entry === undefined) return;
      const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
      legendHeights.set(streams.length, Math.ceil(height));
      fitPlot(made, sizeNow.current, streams.length);
    });
    if (legend !== null) legendSize.observe(legend);
    el.dataset.ready = 'true';
    // A double-click goes back to the range before zooming in.
    const onDoubleClick = () => {
      const ctx = handlers.current;
      if (ctx.onRangeReset !== undefined) ctx.onRangeReset();
      else if (beforeZoom.current !== null) ctx.onRangeChange?.(beforeZoom.current);
      beforeZoom.current = null;
    };
    made.over.addEventListener('dblclick', onDoubleClick);
    plot.current = made;
    return () => {
      legendSize.disconnect();
      made.over.removeEventListener('dblclick', onDoubleClick);
      made.destroy();
      plot.current = null;
    };
    // `shapes`, `streams` and `levels` are read through shapeKey and levelsKey; the size, range
    // and points through their refs (they change the chart below, not make it anew).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, shapeKey, levelsKey, options.min, options.max, i18n, t]);

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

/** Gives the chart's series these names, in the legend too (its rows follow the series). */
function relabel(made: uPlot, names: readonly string[]): void {
  const rows = made.root.querySelectorAll('.u-legend .u-series');
  names.forEach((name, i) => {
    const series = made.series[i + 1];
    const label = isolate(name);
    if (series === undefined || series.label === label) return;
    series.label = label;
    const text = rows[i + 1]?.querySelector('.u-label');
    if (text) text.textContent = label;
  });
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
