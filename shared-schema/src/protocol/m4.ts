/** A point in time order: `[ts, value]`. */
export type M4Point = [number, number | string];

/** What a rollup row (a minute, an hour) tells of its points: the server's rollups have it. */
export interface M4Unit {
  readonly min: number;
  readonly minTs: number;
  readonly max: number;
  readonly maxTs: number;
  readonly first: number;
  readonly firstTs: number;
  readonly last: number;
  readonly lastTs: number;
}

/**
 * M4 downsampling: the range [from, from + buckets·width) is cut into buckets of equal width,
 * and each bucket answers its first, min, max and last point, so that a line drawn through the
 * answer shows every spike the raw points had.
 *
 * What is fed in are units in time order: raw points, or rollup rows (a minute, an hour) that lie
 * wholly inside the range. A unit goes whole into the bucket its start falls in: a bucket's
 * edges are snapped to the rollup grid, which keeps the answer in time order and never more than
 * one unit (less than a bucket) off. Text points have no min or max: they give first and last.
 */
export class M4 {
  private readonly out: M4Point[] = [];
  private bucket = -1;
  private firstTs = 0;
  private first: number | string = 0;
  private lastTs = 0;
  private last: number | string = 0;
  private minTs = Number.NaN;
  private min = 0;
  private maxTs = Number.NaN;
  private max = 0;

  /** `keep`: the points a bucket may give (4, fewer when the caller asked for fewer than 4). */
  constructor(
    private readonly from: number,
    private readonly width: number,
    private readonly keep: number,
  ) {}

  point(ts: number, value: number | string): void {
    this.enter(ts, ts, value);
    this.lastTs = ts;
    this.last = value;
    if (typeof value === 'number') this.numeric(ts, value, ts, value);
  }

  /** A rollup row (numeric points only) starting at `start`. */
  unit(start: number, r: M4Unit): void {
    this.enter(start, r.firstTs, r.first);
    this.lastTs = r.lastTs;
    this.last = r.last;
    this.numeric(r.minTs, r.min, r.maxTs, r.max);
  }

  finish(): M4Point[] {
    this.flush();
    return this.out;
  }

  private enter(start: number, firstTs: number, first: number | string): void {
    const bucket = Math.floor((start - this.from) / this.width);
    if (bucket === this.bucket) return;
    this.flush();
    this.bucket = bucket;
    this.firstTs = firstTs;
    this.first = first;
    this.minTs = Number.NaN;
    this.maxTs = Number.NaN;
  }

  /** Units come in time order: of equal values the earlier stays. */
  private numeric(minTs: number, min: number, maxTs: number, max: number): void {
    if (Number.isNaN(this.minTs) || min < this.min) {
      this.min = min;
      this.minTs = minTs;
    }
    if (Number.isNaN(this.maxTs) || max > this.max) {
      this.max = max;
      this.maxTs = maxTs;
    }
  }

  private flush(): void {
    if (this.bucket < 0) return;
    // By priority (what survives when fewer than 4 are kept): the extremes, then the ends.
    const candidates: M4Point[] = Number.isNaN(this.minTs)
      ? [
          [this.firstTs, this.first],
          [this.lastTs, this.last],
        ]
      : [
          [this.minTs, this.min],
          [this.maxTs, this.max],
          [this.firstTs, this.first],
          [this.lastTs, this.last],
        ];
    const kept: M4Point[] = [];
    for (const c of candidates) {
      // Two candidates at the same time are the same point: a stream has one value per ts.
      if (kept.length < this.keep && !kept.some((k) => k[0] === c[0])) kept.push(c);
    }
    kept.sort((a, b) => a[0] - b[0]);
    this.out.push(...kept);
    this.bucket = -1;
  }
}

/** The bucket width for about `points` points over [from, to]: a bucket gives up to 4. */
export function m4Width(from: number, to: number, points: number): number {
  return Math.ceil((to - from + 1) / Math.max(1, Math.floor(points / 4)));
}

/**
 * Columns of points in time order, those inside [from, to] brought to at most `points`: as they
 * are when they fit, else through M4 (what the server's reads answer, so both look alike).
 */
export function downsampleM4(
  ts: ArrayLike<number>,
  values: ArrayLike<number | string>,
  from: number,
  to: number,
  points: number,
): { downsampled: boolean; points: M4Point[] } {
  let start = 0;
  while (start < ts.length && (ts[start] as number) < from) start++;
  let end = start;
  while (end < ts.length && (ts[end] as number) <= to) end++;
  if (end - start <= points) {
    const raw: M4Point[] = [];
    for (let i = start; i < end; i++) raw.push([ts[i] as number, values[i] as number | string]);
    return { downsampled: false, points: raw };
  }
  const m4 = new M4(from, m4Width(from, to, points), Math.min(4, points));
  for (let i = start; i < end; i++) m4.point(ts[i] as number, values[i] as number | string);
  return { downsampled: true, points: m4.finish() };
}
