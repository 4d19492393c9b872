import type { Point, StreamMeta } from './report-content';

/**
 * A CSV cell: numbers as they are, texts quoted with their quotes doubled, and a text a
 * spreadsheet would take for a formula (=, +, -, @ first) led by an apostrophe (as values.csv).
 */
function cell(value: number | string): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** How many points per stream the CSV asks for: every raw point up to this, else M4 buckets. */
export const CSV_POINTS = 10_000;

/**
 * The CSV attachment (issue 31 item 4): the values of the streams one recipient sees over the
 * range, a row per point. A stream with more points than CSV_POINTS in the range comes as M4
 * buckets (each one's first, min, max and last point), as the charts read it.
 */
export function reportCsv(
  streams: readonly StreamMeta[],
  points: ReadonlyMap<string, readonly Point[]>,
): string {
  let out = 'stream,asset,unit,ts,time,value\n';
  for (const s of streams) {
    const prefix = `${cell(s.name)},${cell(s.assetName)},${cell(s.unit)}`;
    for (const [ts, value] of points.get(s.id) ?? []) {
      out += `${prefix},${ts},${new Date(ts).toISOString()},${cell(value)}\n`;
    }
  }
  return out;
}
