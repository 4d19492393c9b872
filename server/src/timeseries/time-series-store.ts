import type { PointValue } from '@plant/shared-schema';

/** One point to store: numbers, booleans (stored as 1/0) or texts. */
export interface StoredPoint {
  readonly stream: string;
  readonly account: string;
  readonly ts: number;
  readonly value: PointValue;
}

/** A batch of one source (a gateway's buffer), stored at most once per (source, seq). */
export interface StoredBatch {
  readonly source: string;
  readonly seq: number;
  readonly points: readonly StoredPoint[];
  /**
   * What a point at a (stream, ts) already stored does: 'replace' it (the default, rollups
   * recomputed), or 'keep' the stored one, telling `kept` the point's index in `points` (ingest:
   * a measurement once stored is final, no later batch rewrites history). Under 'keep', the first
   * of two points at one (stream, ts) in a batch is stored, the other kept out.
   */
  readonly existing?: 'replace' | 'keep';
  readonly kept?: (index: number) => void;
}

/** One stream's values over [from, to]: raw, or downsampled keeping each bucket's first, min, max, last. */
export interface RangeAnswer {
  readonly stream: string;
  readonly from: number;
  readonly to: number;
  readonly downsampled: boolean;
  readonly points: [number, number | string][];
}

/** One stream's hours: `[hourStart, count, sum, min, max]`. */
export interface HourRows {
  readonly stream: string;
  readonly hours: [number, number, number, number, number][];
}

/**
 * The time-series store (DESIGN.md §8): one interface, SQLite by default; the scale-out issue
 * adds Postgres behind it. Values are not model updates: they never enter the change log.
 */
export interface TimeSeriesStore {
  /**
   * Stores the batch's points and records (source, seq) in one transaction. A (source, seq)
   * seen before stores nothing and answers 'duplicate'. A point at a (stream, ts) already stored
   * replaces it, or is kept out (`existing: 'keep'`).
   */
  append(batch: StoredBatch): Promise<'stored' | 'duplicate'>;
  /**
   * The values of each stream over [from, to] (inclusive), in time order. At most `points`
   * points per stream: when there are more, the range is cut into buckets of equal width and
   * each bucket gives its first, min, max and last point (M4), read from the per-minute or
   * per-hour rollups when the bucket is at least that wide. Streams without values answer an
   * empty list; the answers come in the order of `streams`.
   */
  range(
    streams: readonly string[],
    from: number,
    to: number,
    points: number,
  ): Promise<RangeAnswer[]>;
  /**
   * Each stream's hourly rollups of its numbers over the hours [from, to] touches, in time
   * order: `[hourStart, count, sum, min, max]` (hours without numbers are left out).
   */
  hours(streams: readonly string[], from: number, to: number): Promise<HourRows[]>;
  /** The latest point of each stream that has one (booleans come back as 1/0). */
  latest(streams: readonly string[]): Promise<Map<string, { ts: number; value: number | string }>>;
  /** Every raw point of one stream over [from, to] in time order, read as it is consumed. */
  scan(stream: string, from: number, to: number): AsyncIterable<[number, number | string]>;
  /** Deletes the account's points (and rollups) older than `before`; answers how many points. */
  prune(account: string, before: number): Promise<number>;
  /** Forgets the (source, seq) records older than `before` (ms since epoch of their storing). */
  pruneBatches(before: number): Promise<number>;
  close(): Promise<void>;
}
