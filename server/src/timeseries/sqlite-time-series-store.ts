import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { timeSeriesMigrations } from '../../../migrations/src/timeseries';
import { M4, m4Width, type M4Point as Point } from '@plant/shared-schema';
import { systemClock, type Clock } from '../lib/clock';
import {
  addPoint,
  bucketOf,
  combine,
  HOUR_MS,
  MINUTE_MS,
  ROLLUP_COLUMNS,
  rollupOf,
  rollupOfRow,
  rowOf,
  upsertSql,
  type Rollup,
} from './rollup';
import type { HourRows, RangeAnswer, StoredBatch, TimeSeriesStore } from './time-series-store';

export const TIME_SERIES_FILE = 'timeseries.sqlite';

/** Rows read per statement by `scan`: no statement stays open while the consumer awaits. */
const SCAN_CHUNK = 5_000;
/** Rows deleted per transaction by `prune`: a big delete never holds the write lock for long. */
const PRUNE_CHUNK = 50_000;

/**
 * Opens (creating if needed) the store's own SQLite file in dataDir and brings its schema up to
 * date. Migrations run through kysely on a handle of their own, closed before the store opens
 * the handle it keeps: the store itself runs prepared better-sqlite3 statements only (the hot
 * path). `clock` stamps the batch records (tests move it).
 */
export async function openTimeSeriesStore(
  dataDir: string,
  options: { readonly clock?: Clock } = {},
): Promise<TimeSeriesStore> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, TIME_SERIES_FILE);
  await migrate(file);
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return new SqliteTimeSeriesStore(db, options.clock ?? systemClock);
}

async function migrate(file: string): Promise<void> {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const result = await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(timeSeriesMigrations) },
    }).migrateToLatest();
    if (result.error !== undefined) {
      const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Time-series migration failed at ${failed}`, { cause: result.error });
    }
  } finally {
    await db.destroy();
  }
}

interface Series {
  readonly id: number;
  hasText: boolean;
}

/** Runs `f` now; its answer, or what it threw, as a promise. */
function settle<T>(f: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(f()));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function statements(db: SQLite.Database) {
  const rollup = (table: 'ts_minute' | 'ts_hour') => ({
    upsert: db.prepare(upsertSql(table)),
    replace: db.prepare(
      `insert or replace into ${table} (${ROLLUP_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    delete: db.prepare(`delete from ${table} where series = ? and bucket = ?`),
    range: db
      .prepare(
        `select ${ROLLUP_COLUMNS} from ${table} where series = ? and bucket between ? and ? order by bucket`,
      )
      .raw(),
    cut: db
      .prepare(
        `select bucket from ${table} where series = ? and bucket < ? order by bucket limit 1 offset ?`,
      )
      .pluck(),
    deleteBelow: db.prepare(`delete from ${table} where series = ? and bucket < ?`),
  });
  return {
    insertBatch: db.prepare(
      'insert into ts_batches (source, seq, stored_at) values (?, ?, ?) on conflict do nothing',
    ),
    findSeries: db.prepare('select id, has_text from ts_series where stream = ?').raw(),
    insertSeries: db.prepare('insert into ts_series (stream, account) values (?, ?)'),
    markText: db.prepare('update ts_series set has_text = 1 where id = ?'),
    seriesOfAccount: db.prepare('select id from ts_series where account = ?').pluck(),
    insertPoint: db.prepare(
      'insert into ts_points (series, ts, value) values (?, ?, ?) on conflict do nothing',
    ),
    updatePoint: db.prepare('update ts_points set value = ? where series = ? and ts = ?'),
    points: db
      .prepare(
        'select ts, value from ts_points where series = ? and ts between ? and ? order by ts',
      )
      .raw(),
    nthPoint: db
      .prepare(
        'select ts from ts_points where series = ? and ts between ? and ? order by ts limit 1 offset ?',
      )
      .pluck(),
    pointsUpTo: db
      .prepare(
        'select ts, value from ts_points where series = ? and ts between ? and ? order by ts limit ?',
      )
      .raw(),
    latest: db
      .prepare('select ts, value from ts_points where series = ? order by ts desc limit 1')
      .raw(),
    cutPoints: db
      .prepare('select ts from ts_points where series = ? and ts < ? order by ts limit 1 offset ?')
      .pluck(),
    deletePointsBelow: db.prepare('delete from ts_points where series = ? and ts < ?'),
    cutBatches: db
      .prepare(
        'select stored_at from ts_batches where stored_at < ? order by stored_at limit 1 offset ?',
      )
      .pluck(),
    deleteBatchesBelow: db.prepare('delete from ts_batches where stored_at < ?'),
    minute: rollup('ts_minute'),
    hour: rollup('ts_hour'),
  };
}

type Statements = ReturnType<typeof statements>;
type RollupStatements = Statements['minute'];

/** A minute or an hour of one series. */
interface Span {
  readonly series: number;
  readonly bucket: number;
}

/** A rollup summary waiting to be folded into its row. */
interface Pending extends Span {
  readonly rollup: Rollup;
}

const keyOf = (series: number, bucket: number) => `${series}:${bucket}`;

/**
 * The SQLite time-series store (DESIGN.md §8). Points are keyed (series, ts); the per-minute and
 * per-hour rollups are kept exact in the transaction that writes the points, so that a read of
 * a year walks 8,760 hour rows instead of millions of points.
 *
 * Invariant: every rollup row equals the fold of the numeric points of its span. New points are
 * folded in (an upsert per touched minute and hour); a point that replaced another instead marks
 * its minute (and hour) to be computed afresh from what is stored, so a replacement never counts
 * twice.
 */
class SqliteTimeSeriesStore implements TimeSeriesStore {
  private readonly s: Statements;
  /** stream id -> series; filled as streams are met. Cleared when an append fails. */
  private readonly series = new Map<string, Series>();
  private readonly appendInTransaction: (batch: StoredBatch) => 'stored' | 'duplicate';

  constructor(
    private readonly db: SQLite.Database,
    private readonly clock: Clock,
  ) {
    this.s = statements(db);
    this.appendInTransaction = db.transaction((batch: StoredBatch) => this.write(batch));
  }

  append(batch: StoredBatch): Promise<'stored' | 'duplicate'> {
    return settle(() => {
      try {
        return this.appendInTransaction(batch);
      } catch (err) {
        // Series made in the rolled-back transaction are gone: forget what we cached.
        this.series.clear();
        throw err;
      }
    });
  }

  private write(batch: StoredBatch): 'stored' | 'duplicate' {
    const { s } = this;
    if (s.insertBatch.run(batch.source, batch.seq, this.clock.now()).changes === 0) {
      return 'duplicate';
    }
    const minutes = new Map<string, Pending>();
    const staleMinutes = new Map<string, Span>();
    const keep = batch.existing === 'keep';
    for (const [index, p] of batch.points.entries()) {
      const series = this.seriesFor(p.stream, p.account);
      const value = typeof p.value === 'boolean' ? (p.value ? 1 : 0) : p.value;
      if (typeof value === 'string' && !series.hasText) {
        s.markText.run(series.id);
        series.hasText = true;
      }
      const minute = bucketOf(p.ts, MINUTE_MS);
      const key = keyOf(series.id, minute);
      if (s.insertPoint.run(series.id, p.ts, value).changes === 0) {
        if (keep) {
          batch.kept?.(index);
          continue;
        }
        s.updatePoint.run(value, series.id, p.ts);
        staleMinutes.set(key, { series: series.id, bucket: minute });
      } else if (typeof value === 'number') {
        const pending = minutes.get(key);
        if (pending === undefined) {
          minutes.set(key, { series: series.id, bucket: minute, rollup: rollupOf(p.ts, value) });
        } else {
          addPoint(pending.rollup, p.ts, value);
        }
      }
    }
    const staleHours = new Map<string, Span>();
    for (const [key, m] of staleMinutes) {
      minutes.delete(key);
      this.recomputeMinute(m.series, m.bucket);
      const hour = bucketOf(m.bucket, HOUR_MS);
      staleHours.set(keyOf(m.series, hour), { series: m.series, bucket: hour });
    }
    const hours = new Map<string, Pending>();
    for (const m of minutes.values()) {
      s.minute.upsert.run(...rowOf(m.series, m.bucket, m.rollup));
      const hour = bucketOf(m.bucket, HOUR_MS);
      const key = keyOf(m.series, hour);
      if (staleHours.has(key)) continue;
      const pending = hours.get(key);
      if (pending === undefined) {
        hours.set(key, { series: m.series, bucket: hour, rollup: { ...m.rollup } });
      } else {
        combine(pending.rollup, m.rollup);
      }
    }
    for (const h of staleHours.values()) this.recomputeHour(h.series, h.bucket);
    for (const h of hours.values()) s.hour.upsert.run(...rowOf(h.series, h.bucket, h.rollup));
    return 'stored';
  }

  private seriesFor(stream: string, account: string): Series {
    const known = this.find(stream);
    if (known !== undefined) return known;
    const id = Number(this.s.insertSeries.run(stream, account).lastInsertRowid);
    const series: Series = { id, hasText: false };
    this.series.set(stream, series);
    return series;
  }

  private find(stream: string): Series | undefined {
    const cached = this.series.get(stream);
    if (cached !== undefined) return cached;
    const row = this.s.findSeries.get(stream) as [number, number] | undefined;
    if (row === undefined) return undefined;
    const series: Series = { id: row[0], hasText: row[1] === 1 };
    this.series.set(stream, series);
    return series;
  }

  /** Writes the minute's row afresh from its stored points (or deletes it: none are numeric). */
  private recomputeMinute(series: number, minute: number): void {
    let r: Rollup | undefined;
    const rows = this.s.points.all(series, minute, minute + MINUTE_MS - 1) as Point[];
    for (const [ts, value] of rows) {
      if (typeof value !== 'number') continue;
      if (r === undefined) r = rollupOf(ts, value);
      else addPoint(r, ts, value);
    }
    this.store(this.s.minute, series, minute, r);
  }

  /** Writes the hour's row afresh from its minute rows. */
  private recomputeHour(series: number, hour: number): void {
    let r: Rollup | undefined;
    const rows = this.s.minute.range.all(series, hour, hour + HOUR_MS - MINUTE_MS) as unknown[][];
    for (const row of rows) {
      if (r === undefined) r = rollupOfRow(row);
      else combine(r, rollupOfRow(row));
    }
    this.store(this.s.hour, series, hour, r);
  }

  private store(t: RollupStatements, series: number, bucket: number, r: Rollup | undefined): void {
    if (r === undefined) t.delete.run(series, bucket);
    else t.replace.run(...rowOf(series, bucket, r));
  }

  range(
    streams: readonly string[],
    from: number,
    to: number,
    points: number,
  ): Promise<RangeAnswer[]> {
    return settle(() => streams.map((stream) => this.rangeOf(stream, from, to, points)));
  }

  private rangeOf(stream: string, from: number, to: number, points: number): RangeAnswer {
    const answer = (downsampled: boolean, list: Point[]): RangeAnswer => ({
      stream,
      from,
      to,
      downsampled,
      points: list,
    });
    const series = this.find(stream);
    if (series === undefined || from > to || points < 1) return answer(false, []);
    // Whether there is a point past the number asked tells if the raw points fit, without
    // counting them all (a walk of the key, no rows made).
    if (this.s.nthPoint.get(series.id, from, to, points) === undefined) {
      return answer(false, this.s.points.all(series.id, from, to) as Point[]);
    }
    const width = m4Width(from, to, points);
    const m4 = new M4(from, width, Math.min(4, points));
    // Text points are not rolled up: a stream that has any is read from its raw points.
    const level = series.hasText || width < MINUTE_MS ? 0 : width < HOUR_MS ? 1 : 2;
    this.feed(level, series.id, from, to, m4);
    return answer(true, m4.finish());
  }

  /**
   * Feeds [from, to] to the downsampler, in time order, from the coarsest source allowed
   * (0: raw points, 1: minute rows, 2: hour rows). Only rollup rows wholly inside the range are
   * used; the ends that cut a row are read from the next finer source, so that the answer holds
   * only points inside [from, to].
   */
  private feed(level: 0 | 1 | 2, series: number, from: number, to: number, m4: M4): void {
    if (level === 0) {
      for (const row of this.s.points.iterate(series, from, to) as Iterable<Point>) {
        m4.point(row[0], row[1]);
      }
      return;
    }
    const width = level === 1 ? MINUTE_MS : HOUR_MS;
    const t = level === 1 ? this.s.minute : this.s.hour;
    const finer = level === 1 ? 0 : 1;
    const start = Math.ceil(from / width) * width;
    const end = Math.floor((to + 1) / width) * width;
    if (start >= end) {
      this.feed(finer, series, from, to, m4);
      return;
    }
    if (from < start) this.feed(finer, series, from, start - 1, m4);
    for (const row of t.range.iterate(series, start, end - width) as Iterable<unknown[]>) {
      m4.unit(row[1] as number, rollupOfRow(row));
    }
    if (end <= to) this.feed(finer, series, end, to, m4);
  }

  hours(streams: readonly string[], from: number, to: number): Promise<HourRows[]> {
    return settle(() =>
      streams.map((stream) => {
        const series = this.find(stream);
        if (series === undefined || from > to) return { stream, hours: [] };
        const rows = this.s.hour.range.all(
          series.id,
          bucketOf(from, HOUR_MS),
          bucketOf(to, HOUR_MS),
        ) as unknown[][];
        return {
          stream,
          hours: rows.map((row) => {
            const r = rollupOfRow(row);
            return [row[1] as number, r.count, r.sum, r.min, r.max];
          }),
        };
      }),
    );
  }

  latest(streams: readonly string[]): Promise<Map<string, { ts: number; value: number | string }>> {
    return settle(() => {
      const out = new Map<string, { ts: number; value: number | string }>();
      for (const stream of streams) {
        const series = this.find(stream);
        const row =
          series === undefined ? undefined : (this.s.latest.get(series.id) as Point | undefined);
        if (row !== undefined) out.set(stream, { ts: row[0], value: row[1] });
      }
      return out;
    });
  }

  async *scan(stream: string, from: number, to: number): AsyncIterable<[number, number | string]> {
    const series = this.find(stream);
    if (series === undefined) return;
    let next = from;
    for (;;) {
      const rows = this.s.pointsUpTo.all(series.id, next, to, SCAN_CHUNK) as Point[];
      yield* rows;
      const last = rows[rows.length - 1];
      if (rows.length < SCAN_CHUNK || last === undefined) return;
      next = last[0] + 1;
      await nextTurn();
    }
  }

  /**
   * Points before `before` go, and the rollup rows whose whole span is before it. The minute and
   * the hour that `before` cuts are computed afresh from what is left, so rollups keep agreeing
   * with the points (a read never shows a pruned spike). Deleted in transactions of at most
   * PRUNE_CHUNK rows, yielding to the event loop between them, so appends go on meanwhile.
   */
  async prune(account: string, before: number): Promise<number> {
    const { s } = this;
    let points = 0;
    for (const series of s.seriesOfAccount.all(account) as number[]) {
      const deleted = await this.deleteChunked(
        (cut) => s.cutPoints.get(series, cut, PRUNE_CHUNK - 1) as number | undefined,
        (below) => s.deletePointsBelow.run(series, below).changes,
        before,
      );
      points += deleted;
      let rollups = 0;
      for (const [t, width] of [
        [s.minute, MINUTE_MS],
        [s.hour, HOUR_MS],
      ] as const) {
        rollups += await this.deleteChunked(
          (cut) => t.cut.get(series, cut, PRUNE_CHUNK - 1) as number | undefined,
          (below) => t.deleteBelow.run(series, below).changes,
          before - width + 1,
        );
      }
      if (deleted + rollups === 0) continue;
      this.db.transaction(() => {
        const minute = bucketOf(before, MINUTE_MS);
        if (minute < before) this.recomputeMinute(series, minute);
        const hour = bucketOf(before, HOUR_MS);
        if (hour < before) this.recomputeHour(series, hour);
      })();
    }
    return points;
  }

  async pruneBatches(before: number): Promise<number> {
    const { s } = this;
    return this.deleteChunked(
      (cut) => s.cutBatches.get(cut, PRUNE_CHUNK - 1) as number | undefined,
      (below) => s.deleteBatchesBelow.run(below).changes,
      before,
    );
  }

  /**
   * Deletes the rows keyed below `below`, a chunk per transaction: `nth` answers the key of the
   * PRUNE_CHUNK-th row below a bound (undefined when there are fewer), `deleteBelow` deletes.
   */
  private async deleteChunked(
    nth: (below: number) => number | undefined,
    deleteBelow: (below: number) => number,
    below: number,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const chunk = this.db.transaction(() => {
        const cut = nth(below);
        return { last: cut === undefined, n: deleteBelow(cut === undefined ? below : cut + 1) };
      })();
      total += chunk.n;
      if (chunk.last) return total;
      await nextTurn();
    }
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
