import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HistorySeries } from '@plant/sync-worker/api';

/**
 * A stream's history as a uPlot line: the x axis is the range asked for (gaps stay gaps), the y
 * axis the stream's visualisation minimum and maximum when set. Dragging across the chart picks
 * a range (`onZoom`), which the page makes the shared range.
 */
export function StreamChart({
  series,
  from,
  to,
  visMin,
  visMax,
  label,
  onWidth,
  onZoom,
}: {
  readonly series: HistorySeries | undefined;
  readonly from: number;
  readonly to: number;
  readonly visMin: number | null;
  readonly visMax: number | null;
  readonly label: string;
  /** The chart's width in CSS pixels (the page asks for about twice as many points). */
  readonly onWidth: (width: number) => void;
  readonly onZoom: (from: number, to: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [width, setWidth] = useState(0);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;

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

  // One uPlot per shape of scale; data changes go through setData.
  useEffect(() => {
    const el = box.current;
    if (el === null || width === 0) return;
    const opts: uPlot.Options = {
      width,
      height: 320,
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: {
        x: { time: true, range: () => [from / 1000, to / 1000] },
        y:
          visMin !== null || visMax !== null
            ? {
                range: (_u, min, max) => [visMin ?? min, visMax ?? max],
              }
            : { auto: true },
      },
      axes: [{}, { size: 60 }],
      series: [
        {},
        { label, stroke: '#228be6', width: 1.5, spanGaps: false, points: { show: false } },
      ],
      legend: { show: false },
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
      },
    };
    const made = new uPlot(opts, [[], []], el);
    plot.current = made;
    return () => {
      made.destroy();
      plot.current = null;
    };
  }, [width, from, to, visMin, visMax, label]);

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
  }, [series, width, from, to, visMin, visMax, label]);

  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid="stream-chart"
      data-points={series?.ts.length ?? 0}
      style={{ width: '100%', minHeight: 320 }}
    />
  );
}
