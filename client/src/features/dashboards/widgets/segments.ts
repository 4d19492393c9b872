/*
 * Pure pieces of the state timeline and the bar chart (unit-tested): a stepped stream's points as
 * spans of one value (each value holds until the next point), and points summed up per hour, day
 * or week.
 */

export interface Segment {
  readonly from: number;
  readonly to: number;
  readonly value: number | string;
}

/**
 * The spans of one value within [from, to]: each point's value holds until the next point; the
 * last until `end` (the range's end, or now when that is earlier). Equal neighbours join.
 */
export function segmentsOf(
  ts: readonly number[],
  values: readonly (number | string)[],
  from: number,
  to: number,
  end = to,
): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < ts.length; i++) {
    const start = Math.max(from, ts[i] ?? from);
    const stop = Math.min(to, i + 1 < ts.length ? (ts[i + 1] ?? to) : Math.max(start, end));
    const value = values[i];
    if (value === undefined || stop <= start) continue;
    const last = out.at(-1);
    if (last !== undefined && String(last.value) === String(value) && last.to >= start) {
      out[out.length - 1] = { ...last, to: stop };
    } else {
      out.push({ from: start, to: stop, value });
    }
  }
  return out;
}

export type Bucket = 'hour' | 'day' | 'week';
export type Aggregate = 'avg' | 'min' | 'max';

const HOUR = 3_600_000;

/**
 * The start of the bucket a time falls in, in the browser's time zone: the hour, the day
 * (midnight), the week (Monday, ISO 8601).
 */
export function bucketStart(ts: number, bucket: Bucket): number {
  const d = new Date(ts);
  if (bucket === 'hour') {
    d.setMinutes(0, 0, 0);
    return d.getTime();
  }
  d.setHours(0, 0, 0, 0);
  if (bucket === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d.getTime();
}

function nextBucket(start: number, bucket: Bucket): number {
  const d = new Date(start);
  if (bucket === 'hour') return start + HOUR;
  d.setDate(d.getDate() + (bucket === 'day' ? 1 : 7));
  return d.getTime();
}

export interface Bar {
  readonly from: number;
  readonly to: number;
  readonly value: number | null;
}

/**
 * The bars of [from, to]: one per bucket the range touches, each the aggregate of the numeric
 * points within it (null without any). At most `max` bars: the newest are kept.
 */
export function barsOf(
  ts: readonly number[],
  values: readonly (number | string)[],
  from: number,
  to: number,
  bucket: Bucket,
  aggregate: Aggregate,
  max = 400,
): Bar[] {
  const starts: number[] = [];
  for (
    let b = bucketStart(from, bucket);
    b <= to && starts.length < 10_000;
    b = nextBucket(b, bucket)
  ) {
    starts.push(b);
  }
  const kept = starts.slice(-max);
  const stats = kept.map(() => ({ n: 0, sum: 0, min: Infinity, max: -Infinity }));
  let k = 0;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] ?? 0;
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || t < from || t > to) continue;
    while (k + 1 < kept.length && t >= (kept[k + 1] ?? Infinity)) k++;
    if (t < (kept[k] ?? Infinity)) continue;
    const s = stats[k];
    if (s === undefined) continue;
    s.n += 1;
    s.sum += v;
    s.min = Math.min(s.min, v);
    s.max = Math.max(s.max, v);
  }
  return kept.map((start, i) => {
    const s = stats[i] ?? { n: 0, sum: 0, min: 0, max: 0 };
    const value =
      s.n === 0 ? null : aggregate === 'avg' ? s.sum / s.n : aggregate === 'min' ? s.min : s.max;
    return { from: start, to: nextBucket(start, bucket), value };
  });
}

/** One hour of a stream from the server's rollups: `[hourStart, count, sum, min, max]`. */
export type HourRow = readonly [number, number, number, number, number];

/**
 * The bars of [from, to] from the server's exact hourly rollups: each hour folded into the
 * bucket (hour, day or week in the browser's time zone) it starts in; the average is the sum
 * over the count, never an average of averages. At most `max` bars: the newest are kept.
 */
export function barsFromHours(
  hours: readonly HourRow[],
  from: number,
  to: number,
  bucket: Bucket,
  aggregate: Aggregate,
  max = 400,
): Bar[] {
  const starts: number[] = [];
  for (
    let b = bucketStart(from, bucket);
    b <= to && starts.length < 10_000;
    b = nextBucket(b, bucket)
  ) {
    starts.push(b);
  }
  const kept = starts.slice(-max);
  const index = new Map(kept.map((b, i) => [b, i]));
  const stats = kept.map(() => ({ n: 0, sum: 0, min: Infinity, max: -Infinity }));
  for (const [hour, count, sum, min, maxValue] of hours) {
    const s = stats[index.get(bucketStart(hour, bucket)) ?? -1];
    if (s === undefined || count === 0) continue;
    s.n += count;
    s.sum += sum;
    s.min = Math.min(s.min, min);
    s.max = Math.max(s.max, maxValue);
  }
  return kept.map((start, i) => {
    const s = stats[i] ?? { n: 0, sum: 0, min: 0, max: 0 };
    const value =
      s.n === 0 ? null : aggregate === 'avg' ? s.sum / s.n : aggregate === 'min' ? s.min : s.max;
    return { from: start, to: nextBucket(start, bucket), value };
  });
}
