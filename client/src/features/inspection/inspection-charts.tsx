import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { isolate } from '@plant/shared-schema';
import type { HistoryResult, LocalModel } from '@plant/sync-worker/api';
import { AXIS_FONT, axisNumberFormat, timeTickLabel } from '../devices/chart-axes';
import { isStepped, stepLevels } from '../devices/stream-figures';
import {
  streamShapeOf,
  valueText,
  valueWithUnit,
  type StreamShape,
} from '../devices/stream-values';
import { sendQueuedReads } from '../dashboards/widgets/shared-reads';
import { MARK_COLORS, type Mark } from './inspection-marks';
import styles from './inspection.module.css';

/*
 * Every stream of the asset on one time axis (issue 37 item 5): a uPlot chart per stream, all of
 * one width with value axes of one width, so a moment stands at the same x in each; the cursor
 * is shared (uPlot's cursor sync: each chart's legend shows its value at the pointer's time);
 * the moment is a dashed orange line, the alarm's transitions solid lines in their colours.
 * Numbers are lines, booleans and states steps (stream-chart.tsx's rules), texts a point per
 * value with the text in the legend.
 *
 * Made for the first paint of many charts at once (bench/event-inspection.bench.ts): the charts
 * are made empty, out of the page, as soon as the streams and the width are known (the making is
 * most of a chart's cost, and the page's thread has nothing else to do while the worker reads the
 * values); once every stream's first answer is here they are drawn, still out of the page (a
 * canvas in the page resolves its font against the page's styles: dashboards' line-widget.tsx
 * found that), and put in place together. Later answers go through setData, a new moment or
 * marks through a redraw, a new width through setSize. Nothing here is a React child of the
 * charts.
 */

/** The plot's height (CSS px), the legend below it. */
const PLOT_HEIGHT = 120;
/** The value axis's width: one for every chart, so their time axes line up. */
const Y_AXIS_SIZE = 76;

/** What a chart's scales and legend read as its points change. */
interface ChartState {
  /** A stepped stream's levels now (its axis's splits and range). */
  levels: number[];
  /** A text stream's texts by point (the legend's values). */
  texts: readonly (string | null)[];
}

/** A chart as made: its shape (a change makes it anew), the history it drew last, and whether
 * its root is in the page yet. */
interface Made {
  readonly plot: uPlot;
  readonly shapeKey: string;
  readonly shape: StreamShape;
  readonly state: ChartState;
  drawn: HistoryResult | undefined;
  shown: boolean;
}

/** What the charts' hooks read as it is now (a moment, marks and range set after they were made). */
interface Axis {
  from: number;
  to: number;
  at: number;
  marks: readonly Mark[];
}

export function InspectionCharts(props: {
  readonly streams: readonly LocalModel<'datastream'>[];
  readonly histories: readonly (HistoryResult | undefined)[];
  readonly from: number;
  readonly to: number;
  readonly at: number;
  readonly marks: readonly Mark[];
  /** The charts' cursor group: one per inspection. */
  readonly syncKey: string;
}) {
  const { t, i18n } = useLingui();
  const { streams, histories, from, to, at, marks, syncKey } = props;
  const box = useRef<HTMLDivElement>(null);
  const slots = useRef(new Map<string, HTMLDivElement>());
  const charts = useRef(new Map<string, Made>());
  const axis = useRef<Axis>({ from, to, at, marks });
  axis.current = { from, to, at, marks };
  const [width, setWidth] = useState(0);

  // The width as the page lays out (one read), then from the observer's entries.
  useLayoutEffect(() => {
    const el = box.current;
    if (el === null) return;
    const w = Math.floor(el.getBoundingClientRect().width);
    if (w > 0) setWidth(w);
    const observer = new ResizeObserver((entries) => {
      const rect = entries.at(-1)?.contentRect;
      if (rect !== undefined && rect.width > 0) setWidth(Math.floor(rect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Fed once every stream's first answer is here, then as answers come: drawn while still out of
  // the page the first time (a canvas in the page resolves its font against the page's styles, a
  // style recalculation per chart: dashboards' line-widget.tsx found that), then put in place
  // together, before the frame that shows them. Read through a ref: the charts' making below
  // feeds them too when the answers came first.
  const ready = histories.length === streams.length && histories.every(Boolean);
  const latest = useRef({ ready, streams, histories });
  latest.current = { ready, streams, histories };
  const feed = useCallback(() => {
    const { ready: all, streams: shown, histories: answers } = latest.current;
    if (!all) return;
    shown.forEach((stream, i) => {
      const history = answers[i];
      const chart = charts.current.get(stream.id);
      const slot = slots.current.get(stream.id);
      if (history === undefined || chart === undefined || slot === undefined) return;
      if (chart.drawn !== history) {
        chart.drawn = history;
        const series = history.series[0];
        const data = pointsOf(series?.ts ?? [], series?.values ?? [], chart.shape);
        chart.state.texts = data.texts;
        if (isStepped(chart.shape))
          chart.state.levels = stepLevels(chart.shape, series?.values ?? []);
        chart.plot.batch(() => chart.plot.setData(data.aligned));
      }
      if (!chart.shown) {
        slot.replaceChildren(chart.plot.root);
        chart.shown = true;
      }
    });
  }, []);
  useLayoutEffect(feed, [feed, ready, streams, histories, width]);

  // Made as soon as the width and the streams are known, empty and out of the page: a chart's
  // making (its canvas's first clear allocates it, its legend, its axes) is most of its cost, and
  // the page's thread has nothing else to do while the worker reads the values. The reads the
  // render opened go to the worker first: this effect may run in the render's own task (the
  // streams come from a live query, a synchronous update), before their microtask would send
  // them.
  useEffect(() => {
    sendQueuedReads();
    if (width === 0) return;
    const made = charts.current;
    const wanted = new Set(streams.map((s) => s.id));
    for (const [id, chart] of made) {
      if (wanted.has(id)) continue;
      chart.plot.destroy();
      made.delete(id);
    }
    for (const stream of streams) {
      const shape = streamShapeOf(stream.attributes);
      const shapeKey = JSON.stringify([
        shape,
        stream.attributes.vis_min,
        stream.attributes.vis_max,
        stream.attributes.name,
      ]);
      const chart = made.get(stream.id);
      if (chart?.shapeKey === shapeKey) continue;
      chart?.plot.destroy();
      const state: ChartState = { levels: [], texts: [] };
      const opts = chartOptions({
        i18n,
        timeLabel: t`Time`,
        name: stream.attributes.name,
        shape,
        visMin: stream.attributes.vis_min,
        visMax: stream.attributes.vis_max,
        width,
        syncKey,
        axis,
        state,
      });
      const plot = new uPlot(opts, [[], []], (u, init) => u.batch(() => (init as () => void)()));
      made.set(stream.id, { plot, shapeKey, shape, state, drawn: undefined, shown: false });
    }
    feed();
    // A new width is set below, not by making the charts anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [streams, width > 0, syncKey, i18n, t, feed]);

  // A new width: every chart resized (made ones only; the pass above makes new ones at it).
  useEffect(() => {
    for (const chart of charts.current.values())
      if (chart.plot.width !== width && width > 0)
        chart.plot.setSize({ width, height: PLOT_HEIGHT });
  }, [width]);

  // A new range (the window moved), moment or marks: the charts' scales and marks again.
  useEffect(() => {
    for (const chart of charts.current.values()) {
      chart.plot.setScale('x', { min: from / 1000, max: to / 1000 });
    }
  }, [from, to]);
  const marksKey = JSON.stringify([at, marks]);
  useEffect(() => {
    for (const chart of charts.current.values()) chart.plot.redraw(false, false);
  }, [marksKey]);

  useEffect(() => {
    const made = charts.current;
    return () => {
      for (const chart of made.values()) chart.plot.destroy();
      made.clear();
    };
  }, []);

  return (
    <div ref={box} className={styles.charts} data-testid="inspection-charts">
      {streams.map((stream, i) => {
        const series = histories[i]?.series[0];
        const name = stream.attributes.name;
        return (
          <section
            key={stream.id}
            className={styles.chart}
            data-testid="inspection-chart"
            data-stream={stream.id}
            data-points={series?.ts.length ?? 0}
            data-first={series?.ts[0]}
            data-last={series?.ts.at(-1)}
            data-moment={at}
            data-marks={marks.length}
          >
            <div
              ref={(el) => {
                if (el === null) slots.current.delete(stream.id);
                else slots.current.set(stream.id, el);
              }}
              role="img"
              aria-label={t`Diagram of ${isolate(name)}`}
              style={{ minHeight: PLOT_HEIGHT }}
            />
          </section>
        );
      })}
    </div>
  );
}

/** A stream's points for uPlot: numbers as they are, texts as points on one line. */
function pointsOf(
  ts: readonly number[],
  values: readonly (number | string)[],
  shape: StreamShape,
): { aligned: uPlot.AlignedData; texts: readonly (string | null)[] } {
  const xs = new Array<number>(ts.length);
  const ys = new Array<number | null>(ts.length);
  const texts: (string | null)[] = shape.type === 'text' ? new Array<string | null>(ts.length) : [];
  for (let k = 0; k < ts.length; k++) {
    const v = values[k];
    xs[k] = (ts[k] ?? 0) / 1000;
    if (shape.type === 'text') {
      ys[k] = v === undefined ? null : 0;
      texts[k] = v === undefined ? null : String(v);
    } else ys[k] = typeof v === 'number' ? v : null;
  }
  return { aligned: [xs, ys], texts };
}

/** Everything a chart is made with. */
interface ChartSpec {
  readonly i18n: I18n;
  readonly timeLabel: string;
  readonly name: string;
  readonly shape: StreamShape;
  readonly visMin: number | null;
  readonly visMax: number | null;
  readonly width: number;
  readonly syncKey: string;
  readonly axis: { readonly current: Axis };
  readonly state: ChartState;
}

function chartOptions(spec: ChartSpec): uPlot.Options {
  const { i18n, shape, state, axis } = spec;
  const stepped = isStepped(shape);
  const text = shape.type === 'text';
  const xLabel = timeTickLabel(i18n);
  const axisNumber = axisNumberFormat(i18n, 3);
  const yScale: uPlot.Scale = stepped
    ? {
        range: () => [
          Math.min(...state.levels, 0) - 0.3,
          Math.max(...state.levels, shape.type === 'boolean' ? 1 : 0) + 0.3,
        ],
      }
    : text
      ? { range: () => [-1, 1] }
      : spec.visMin !== null || spec.visMax !== null
        ? { range: (_u, min, max) => [spec.visMin ?? min, spec.visMax ?? max] }
        : { auto: true };
  const steps = uPlot.paths.stepped?.({ align: 1 });
  const line: uPlot.Series = text
    ? { paths: () => null, points: { show: true, size: 7, fill: '#228be6' } }
    : {
        points: { show: false },
        ...(stepped && steps !== undefined ? { paths: steps } : {}),
      };
  return {
    width: spec.width,
    height: PLOT_HEIGHT,
    cursor: {
      sync: { key: spec.syncKey, setSeries: false },
      drag: { x: false, y: false },
    },
    scales: {
      x: { time: true, range: () => [axis.current.from / 1000, axis.current.to / 1000] },
      y: yScale,
    },
    axes: [
      {
        font: AXIS_FONT,
        space: 90,
        values: (_u, splits, _a, _s, step) => splits.map((s) => xLabel(s, step)),
      },
      {
        font: AXIS_FONT,
        size: Y_AXIS_SIZE,
        ...(stepped ? { splits: () => state.levels } : text ? { splits: () => [] } : {}),
        values: (_u, splits) =>
          splits.map((v) => (stepped ? valueText(i18n, shape, v) : axisNumber.format(v))),
      },
    ],
    series: [
      {
        label: spec.timeLabel,
        value: (_u, v) =>
          v === null
            ? '–'
            : i18n.date(new Date(v * 1000), { dateStyle: 'short', timeStyle: 'medium' }),
      },
      {
        label: isolate(spec.name),
        stroke: '#228be6',
        width: 1.5,
        spanGaps: false,
        ...line,
        value: (_u, v, _s, idx) => {
          if (text) return idx === null ? '–' : (state.texts[idx] ?? '–');
          return v === null ? '–' : valueWithUnit(i18n, shape, v);
        },
      },
    ],
    legend: { show: true, live: true },
    hooks: { draw: [(u) => drawMarks(u, axis.current)] },
  };
}

/**
 * The moment (dashed) and the transitions (solid), across the plot, in their colours. Where each
 * was drawn (CSS px from the canvas's left) goes on the chart's root for the browser tests, which
 * read the canvas's pixels there.
 */
function drawMarks(u: uPlot, axis: Axis): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const drawn: { kind: string; x: number }[] = [];
  const line = (ts: number, color: string, dashed: boolean, kind: string) => {
    const x = Math.round(u.valToPos(ts / 1000, 'x', true));
    if (x < left || x > left + width) return;
    drawn.push({ kind, x: x / uPlot.pxRatio });
    ctx.strokeStyle = color;
    ctx.setLineDash(dashed ? [6 * uPlot.pxRatio, 4 * uPlot.pxRatio] : []);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
  };
  ctx.save();
  ctx.lineWidth = 2 * uPlot.pxRatio;
  for (const mark of axis.marks) line(mark.ts, MARK_COLORS[mark.kind], false, mark.kind);
  line(axis.at, MARK_COLORS.moment, true, 'moment');
  ctx.restore();
  u.root.dataset.marks = JSON.stringify(drawn);
}
