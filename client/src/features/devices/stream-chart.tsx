import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HistorySeries } from '@plant/sync-worker/api';
import { MARK_COLORS } from '../inspection/inspection-marks';
import { AXIS_FONT, axisNumberFormat, timeTickLabel } from './chart-axes';
import { isStepped, stepLevels } from './stream-figures';
import { valueText, valueWithUnit, type StreamShape } from './stream-values';

/**
 * A moment as picked: to the whole second (what the inspection's address and title say), within
 * the range shown (a second's rounding at its edges must not take it out).
 */
function withinRange(ms: number, from: number, to: number): number {
  const second = Math.round(ms / 1000) * 1000;
  return Math.min(Math.floor(to / 1000) * 1000, Math.max(Math.ceil(from / 1000) * 1000, second));
}

/* At least this much room per x label (CSS px): "00:00" and "29 Nov" with air between. */
const X_SPACE = 90;

/** A label as drawn on an axis: its text and where it starts and ends (CSS px in the chart). */
interface DrawnLabel {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** How many decimals an axis step needs (uPlot's steps are 1, 2, 2.5, 5 times powers of 10). */
function decimalsOf(step: number): number {
  const text = String(step);
  const dot = text.indexOf('.');
  return dot < 0 || text.includes('e') ? 0 : Math.min(6, text.length - dot - 1);
}

/**
 * A stream's history as a uPlot chart: the x axis is the range asked for (gaps stay gaps), the y
 * axis the stream's visualisation minimum and maximum when set. Booleans and states are steps
 * labelled On/Off or by their state texts. The value under the pointer shows in the legend below
 * (with its unit). Dragging across the chart picks a range (`onZoom`), which the page makes the
 * shared range; a double-click asks for the range before (`onReset`). A click (a tap) picks the
 * moment under it (`onPick`), drawn as a dashed line; a double-click keeps the moment it found.
 * Focused, the chart is a slider of the moment: the arrow keys move it (a hundredth of the range,
 * with Shift a tenth, a second at least), the first press picking the range's middle.
 */
export function StreamChart({
  series,
  from,
  to,
  visMin,
  visMax,
  name,
  label,
  shape,
  onWidth,
  onZoom,
  onReset,
  moment,
  onPick,
  describedBy,
}: {
  readonly series: HistorySeries | undefined;
  readonly from: number;
  readonly to: number;
  readonly visMin: number | null;
  readonly visMax: number | null;
  /** The stream's name (the legend's). */
  readonly name: string;
  /** The chart's accessible name. */
  readonly label: string;
  readonly shape: StreamShape;
  /** The chart's width in CSS pixels (the page asks for about twice as many points). */
  readonly onWidth: (width: number) => void;
  readonly onZoom: (from: number, to: number) => void;
  readonly onReset: () => void;
  /** The moment picked on the chart (ms, within the range), or none. */
  readonly moment: number | null;
  readonly onPick: (at: number | null) => void;
  /** The id of the text that says how to pick a moment. */
  readonly describedBy: string;
}) {
  const { t, i18n } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [width, setWidth] = useState(0);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const reset = useRef(onReset);
  reset.current = onReset;
  const pick = useRef(onPick);
  pick.current = onPick;
  // Read by the chart's draw hook (a new moment redraws, it does not make the chart anew).
  const picked = useRef(moment);
  picked.current = moment;
  const stepped = isStepped(shape);
  // A state stream's levels: its coded states and the codes in the range (a new one redraws).
  const levels = stepped ? stepLevels(shape, series?.values ?? []) : [];
  const levelsKey = levels.join(',');
  const shapeKey = `${shape.type}|${shape.unit}|${JSON.stringify(shape.stateTexts)}`;

  // The width follows the box (tablets turn, menus open).
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (width > 0) onWidth(width);
  }, [width, onWidth]);

  // The range the x scale reads when data is set: a moving range's window slides with every
  // answer (live values, the tail's refill), and a new uPlot for each slide lost a drag-zoom
  // under way (and redrew the axes from nothing).
  const rangeNow = useRef({ from, to });
  rangeNow.current = { from, to };

  // One uPlot per shape of scale; data and range changes go through setData.
  useEffect(() => {
    const el = box.current;
    if (el === null || width === 0) return;
    const texts = (v: number) => valueText(i18n, shape, v);
    const xLabel = timeTickLabel(i18n);
    const steps = uPlot.paths.stepped?.({ align: 1 });
    const yLevels = levelsKey === '' ? [] : levelsKey.split(',').map(Number);
    // What each axis drew last, for the data attributes the layout checks read.
    const drawn: { x: number[]; xText: string[]; y: number[]; yText: string[] } = {
      x: [],
      xText: [],
      y: [],
      yText: [],
    };
    const measure = (u: uPlot, text: string) => {
      u.ctx.save();
      u.ctx.font = AXIS_FONT;
      const w = u.ctx.measureText(text).width;
      u.ctx.restore();
      return w;
    };
    const yScale: uPlot.Scale = stepped
      ? {
          range: () => [
            Math.min(...yLevels, 0) - 0.3,
            Math.max(...yLevels, stepped && shape.type === 'boolean' ? 1 : 0) + 0.3,
          ],
        }
      : visMin !== null || visMax !== null
        ? { range: (_u, min, max) => [visMin ?? min, visMax ?? max] }
        : { auto: true };
    const opts: uPlot.Options = {
      width,
      height: 320,
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: {
        x: { time: true, range: () => [rangeNow.current.from / 1000, rangeNow.current.to / 1000] },
        y: yScale,
      },
      axes: [
        {
          font: AXIS_FONT,
          space: X_SPACE,
          values: (_u, splits, _axis, _space, step) => {
            const out = splits.map((s) => xLabel(s, step));
            drawn.x = splits;
            drawn.xText = out;
            return out;
          },
        },
        {
          font: AXIS_FONT,
          ...(stepped ? { splits: () => yLevels } : {}),
          values: (_u, splits, _axis, _space, step) => {
            const out = stepped
              ? splits.map(texts)
              : splits.map((s) => axisNumberFormat(i18n, decimalsOf(step)).format(s));
            drawn.y = splits;
            drawn.yText = out;
            return out;
          },
          // As wide as its longest label (a state text, a long number) plus the ticks.
          size: (u, values) => {
            const longest = Math.max(0, ...(values ?? []).map((v) => measure(u, v)));
            return Math.ceil(Math.min(200, longest) + 18);
          },
        },
      ],
      series: [
        {
          label: t`Time`,
          value: (_u, v) =>
            v === null
              ? '–'
              : i18n.date(new Date(v * 1000), { dateStyle: 'medium', timeStyle: 'medium' }),
        },
        {
          label: name,
          stroke: '#228be6',
          width: 1.5,
          spanGaps: false,
          points: { show: false },
          ...(stepped && steps !== undefined ? { paths: steps } : {}),
          value: (_u, v) => (v === null ? '–' : valueWithUnit(i18n, shape, v)),
        },
      ],
      legend: { show: true, live: true },
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const a = u.posToVal(u.select.left, 'x') * 1000;
            const b = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            zoom.current(Math.round(a), Math.round(b));
          },
        ],
        // The labels as drawn, for the layout checks (e2e): where each starts and ends.
        draw: [
          (u) => {
            const at = picked.current;
            const { from: start, to: end } = rangeNow.current;
            if (at !== null && at >= start && at <= end) {
              // Canvas pixels: valToPos adds the plot's left edge itself.
              const x = Math.round(u.valToPos(at / 1000, 'x', true));
              u.ctx.save();
              u.ctx.strokeStyle = MARK_COLORS.moment;
              u.ctx.lineWidth = 2 * uPlot.pxRatio;
              u.ctx.setLineDash([6 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
              u.ctx.beginPath();
              u.ctx.moveTo(x, u.bbox.top);
              u.ctx.lineTo(x, u.bbox.top + u.bbox.height);
              u.ctx.stroke();
              u.ctx.restore();
              u.root.dataset.momentX = String(x / uPlot.pxRatio);
            } else {
              delete u.root.dataset.momentX;
            }
            const left = u.bbox.left / uPlot.pxRatio;
            const top = u.bbox.top / uPlot.pxRatio;
            const xs: DrawnLabel[] = drawn.x.map((s, i) => {
              const text = drawn.xText[i] ?? '';
              const mid = left + u.valToPos(s, 'x');
              const w = measure(u, text);
              return { text, start: mid - w / 2, end: mid + w / 2 };
            });
            const ys: DrawnLabel[] = drawn.y.map((s, i) => {
              const mid = top + u.valToPos(s, 'y');
              return { text: drawn.yText[i] ?? '', start: mid - 7, end: mid + 7 };
            });
            u.root.dataset.xLabels = JSON.stringify(xs);
            u.root.dataset.yLabels = JSON.stringify(ys);
            u.root.dataset.plotWidth = String(Math.round(u.width));
          },
        ],
      },
    };
    const made = new uPlot(opts, [[], []], el);
    // A click picks the moment under it; the end of a drag (a zoom) does not.
    let downAt: number | null = null;
    // The moment before a double-click's first click, which it keeps.
    let beforeClick: number | null = null;
    const onDown = (e: PointerEvent) => {
      downAt = e.clientX;
    };
    const onClick = (e: MouseEvent) => {
      const start = downAt;
      downAt = null;
      if (start === null || Math.abs(e.clientX - start) >= 4 || e.detail > 1) return;
      beforeClick = picked.current;
      const left = e.clientX - made.over.getBoundingClientRect().left;
      const { from: first, to: last } = rangeNow.current;
      pick.current(withinRange(made.posToVal(left, 'x') * 1000, first, last));
    };
    // A double-click goes back to the range chosen before zooming in.
    const onDoubleClick = () => {
      pick.current(beforeClick);
      reset.current();
    };
    made.over.addEventListener('dblclick', onDoubleClick);
    made.over.addEventListener('pointerdown', onDown);
    made.over.addEventListener('click', onClick);
    plot.current = made;
    return () => {
      made.over.removeEventListener('dblclick', onDoubleClick);
      made.over.removeEventListener('pointerdown', onDown);
      made.over.removeEventListener('click', onClick);
      made.destroy();
      plot.current = null;
    };
    // `shape` is read through shapeKey; `levels` through levelsKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [width, visMin, visMax, name, shapeKey, levelsKey, stepped, i18n, t]);

  useEffect(() => {
    const u = plot.current;
    if (u === null) return;
    const xs: number[] = [];
    const ys: (number | null)[] = [];
    for (let i = 0; i < (series?.ts.length ?? 0); i++) {
      const v = series?.values[i];
      xs.push((series?.ts[i] ?? 0) / 1000);
      ys.push(typeof v === 'number' ? v : null);
    }
    u.setData([xs, ys]);
  }, [series, width, from, to, visMin, visMax, name, shapeKey, levelsKey, i18n, t]);

  // A moment picked (or moved) redraws the chart with its line.
  useEffect(() => {
    plot.current?.redraw(false, false);
  }, [moment]);

  // The arrow keys move the picked moment within the range (with another modifier than Shift
  // they are the browser's or the screen reader's).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const step = Math.max(1000, (to - from) / (e.shiftKey ? 10 : 100));
    const next =
      moment === null ? (from + to) / 2 : moment + (e.key === 'ArrowLeft' ? -step : step);
    onPick(withinRange(next, from, to));
  };

  return (
    <div
      ref={box}
      // A slider of the moment for the keyboard and screen readers (the page says how in
      // `describedBy`); its picture is the chart.
      role="slider"
      aria-label={label}
      aria-describedby={describedBy}
      aria-valuemin={from}
      aria-valuemax={to}
      aria-valuenow={moment ?? undefined}
      aria-valuetext={
        moment === null
          ? undefined
          : i18n.date(new Date(moment), { dateStyle: 'medium', timeStyle: 'medium' })
      }
      aria-orientation="horizontal"
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="stream-chart"
      data-points={series?.ts.length ?? 0}
      data-stepped={stepped}
      style={{ width: '100%', minHeight: 320 }}
    />
  );
}
