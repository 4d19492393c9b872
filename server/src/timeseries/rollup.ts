export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/**
 * The summary of the numeric points of one series over one span: a row of `ts_minute` or
 * `ts_hour`. Of equal minima (maxima) the earliest counts, so that any order of arrival gives
 * the same row.
 */
export interface Rollup {
  min: number;
  minTs: number;
  max: number;
  maxTs: number;
  sum: number;
  count: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
}

export function rollupOf(ts: number, value: number): Rollup {
  return {
    min: value,
    minTs: ts,
    max: value,
    maxTs: ts,
    sum: value,
    count: 1,
    first: value,
    firstTs: ts,
    last: value,
    lastTs: ts,
  };
}

/** Folds one point into `r`. */
export function addPoint(r: Rollup, ts: number, value: number): void {
  if (value < r.min || (value === r.min && ts < r.minTs)) {
    r.min = value;
    r.minTs = ts;
  }
  if (value > r.max || (value === r.max && ts < r.maxTs)) {
    r.max = value;
    r.maxTs = ts;
  }
  r.sum += value;
  r.count += 1;
  if (ts < r.firstTs) {
    r.first = value;
    r.firstTs = ts;
  }
  if (ts > r.lastTs) {
    r.last = value;
    r.lastTs = ts;
  }
}

/** Folds `b` into `a` (the spans may overlap in time or come in any order). */
export function combine(a: Rollup, b: Rollup): void {
  if (b.min < a.min || (b.min === a.min && b.minTs < a.minTs)) {
    a.min = b.min;
    a.minTs = b.minTs;
  }
  if (b.max > a.max || (b.max === a.max && b.maxTs < a.maxTs)) {
    a.max = b.max;
    a.maxTs = b.maxTs;
  }
  a.sum += b.sum;
  a.count += b.count;
  if (b.firstTs < a.firstTs) {
    a.first = b.first;
    a.firstTs = b.firstTs;
  }
  if (b.lastTs > a.lastTs) {
    a.last = b.last;
    a.lastTs = b.lastTs;
  }
}

/** Rollup columns in the order of the statements below. */
export const ROLLUP_COLUMNS =
  'series, bucket, "min", min_ts, "max", max_ts, "sum", "count", "first", first_ts, "last", last_ts';

export type RollupRow = [
  series: number,
  bucket: number,
  min: number,
  minTs: number,
  max: number,
  maxTs: number,
  sum: number,
  count: number,
  first: number,
  firstTs: number,
  last: number,
  lastTs: number,
];

export function rowOf(series: number, bucket: number, r: Rollup): RollupRow {
  return [
    series,
    bucket,
    r.min,
    r.minTs,
    r.max,
    r.maxTs,
    r.sum,
    r.count,
    r.first,
    r.firstTs,
    r.last,
    r.lastTs,
  ];
}

export function rollupOfRow(row: readonly unknown[]): Rollup {
  const n = (i: number) => row[i] as number;
  return {
    min: n(2),
    minTs: n(3),
    max: n(4),
    maxTs: n(5),
    sum: n(6),
    count: n(7),
    first: n(8),
    firstTs: n(9),
    last: n(10),
    lastTs: n(11),
  };
}

/**
 * Adds a span's summary to the stored row, or stores it: the same fold as `combine`, in SQL
 * (SQLite evaluates every SET expression against the row as it was before the update).
 */
export function upsertSql(table: 'ts_minute' | 'ts_hour'): string {
  const lower = `(excluded."min" < "min" or (excluded."min" = "min" and excluded.min_ts < min_ts))`;
  const higher = `(excluded."max" > "max" or (excluded."max" = "max" and excluded.max_ts < max_ts))`;
  return `insert into ${table} (${ROLLUP_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    on conflict (series, bucket) do update set
      "min" = case when ${lower} then excluded."min" else "min" end,
      min_ts = case when ${lower} then excluded.min_ts else min_ts end,
      "max" = case when ${higher} then excluded."max" else "max" end,
      max_ts = case when ${higher} then excluded.max_ts else max_ts end,
      "sum" = "sum" + excluded."sum",
      "count" = "count" + excluded."count",
      "first" = case when excluded.first_ts < first_ts then excluded."first" else "first" end,
      first_ts = min(first_ts, excluded.first_ts),
      "last" = case when excluded.last_ts > last_ts then excluded."last" else "last" end,
      last_ts = max(last_ts, excluded.last_ts)`;
}

export function bucketOf(ts: number, width: number): number {
  return Math.floor(ts / width) * width;
}
