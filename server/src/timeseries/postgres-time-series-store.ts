import type pg from 'pg';
import { postgresPool } from '../db/database';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import { postgresTimeSeriesMigrations } from '../../../migrations/src/timeseries-postgres';
import { M4, m4Width, type M4Point as Point } from '@plant/shared-schema';
import { systemClock, type Clock } from '../lib/clock';
import { isMissingPartition, Partitions } from './postgres-partitions';
import {
  fold,
  keyOf,
  LOCK_HOURS,
  recomputeHours,
  recomputeMinutes,
  rowsOf,
  type Pending,
  type Queryable,
  type Span,
} from './postgres-rollups';
import {
  addPoint,
  bucketOf,
  combine,
  HOUR_MS,
  MINUTE_MS,
  ROLLUP_COLUMNS,
  rollupOf,
  rollupOfRow,
} from './rollup';
import type {
  HourRows,
  RangeAnswer,
  StoredBatch,
  StoredPoint,
  TimeSeriesStore,
} from './time-series-store';

/** Rows read per statement by `scan` (and raw downsampling): no connection is held meanwhile. */
const SCAN_CHUNK = 5_000;
/** Rows deleted per statement by `prune`: a big delete never holds its row locks for long. */
const PRUNE_CHUNK = 50_000;
/** Connections of the store's own pool, beside the platform's (same database). */
const POOL_SIZE = 10;

/**
 * Where the store's migrations are recorded: not kysely's default `kysely_migration`, which the
 * platform's own migrations use in the same database.
 */
export const TIME_SERIES_MIGRATION_TABLES = {
  migrationTableName: 'ts_migration',
  migrationLockTableName: 'ts_migration_lock',
} as const;

/**
 * Opens the time-series store on the PostgreSQL database at `url` (issue 14: the platform's own
 * database when DATABASE_URL is set) and brings its schema up to date. Its migrations are
 * recorded in `ts_migration`, not the platform's `kysely_migration`, and run on a kysely of their
 * own, destroyed before the store's pool opens: the store itself runs plain parameterised pg
 * queries (the hot path). `clock` stamps the batch records (tests move it).
 */
export async function openPostgresTimeSeriesStore(
  url: string,
  options: { readonly clock?: Clock } = {},
): Promise<TimeSeriesStore> {
  await migrate(url);
  const pool = postgresPool(url, POOL_SIZE);
  return new PostgresTimeSeriesStore(pool, options.clock ?? systemClock);
}

async function migrate(url: string): Promise<void> {
  const pool = postgresPool(url, 1);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    const result = await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(postgresTimeSeriesMigrations) },
      ...TIME_SERIES_MIGRATION_TABLES,
    }).migrateToLatest();
    if (result.error !== undefined) {
      const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Time-series migration failed at ${failed}`, { cause: result.error });
    }
  } finally {
    await db.destroy();
  }
}
/** A point as stored: a number (booleans as 1/0) in `value`, or a text in `text_value`. */
interface Row {
  /** The point's index in its batch. */
  readonly index: number;
  readonly series: number;
  readonly ts: number;
  readonly value: number | null;
  readonly text: string | null;
}

const pointOf = (ts: unknown, value: unknown, text: unknown): Point => [
  ts as number,
  (value ?? text) as number | string,
];
/**
 * A point's value as a parameter: pg sends String(n), which drops the sign of -0, and SQLite's
 * points keep it. (Its REAL rollup columns do not: whole numbers are stored as integers there,
 * so rollups go as String(n), the same.)
 */
const param = (n: number): number | string => (Object.is(n, -0) ? '-0' : n);

/**
 * The PostgreSQL time-series store (DESIGN.md §8 and §11): the SQLite store's behaviour, answer
 * for answer, for several server processes on one database. Points are keyed (series, ts) in
 * weekly partitions (postgres-partitions.ts); the per-minute and per-hour rollups are kept exact
 * in the transaction that writes the points.
 *
 * Invariant: every rollup row equals the fold of the numeric points of its span. New points are
 * folded in (an upsert per touched minute and hour); a point that replaced another instead marks
 * its minute (and hour) to be computed afresh from what is stored. Across processes this holds
 * because every write to a (series, hour) first takes that hour's advisory lock (LOCK_HOURS):
 * a recomputation never misses a point whose fold lands after it.
 */
class PostgresTimeSeriesStore implements TimeSeriesStore {
  /** stream -> series id: ids never change once made. */
  private readonly series = new Map<string, number>();
  /** Series known to have text points (a mark never goes away), so appends skip marking them. */
  private readonly texts = new Set<number>();
  private readonly partitions: Partitions;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {
    this.partitions = new Partitions(pool, (f) => this.transaction(f));
  }

  private async transaction<T>(f: (c: pg.PoolClient) => Promise<T>, begin = 'begin'): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await f(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * A batch whose insert finds its partition gone (another process's retention dropped it since
   * this one made it) is written again once, after making the partition anew.
   */
  async append(batch: StoredBatch): Promise<'stored' | 'duplicate'> {
    try {
      return await this.appendOnce(batch);
    } catch (err) {
      if (!isMissingPartition(err)) throw err;
      this.partitions.forget();
      return this.appendOnce(batch);
    }
  }

  private async appendOnce(batch: StoredBatch): Promise<'stored' | 'duplicate'> {
    const ids = await this.seriesIds(batch.points);
    // The last point at a (stream, ts) wins, as when the batch is written point by point; a
    // stream that got a text point is marked even when a later point replaced it, likewise.
    // Under existing: 'keep' the first one wins instead, as the SQLite store's insert does.
    const keep = batch.existing === 'keep';
    const rows = new Map<string, Row>();
    const texts = new Set<number>();
    for (const [index, p] of batch.points.entries()) {
      const series = ids.get(p.stream)!;
      const value = typeof p.value === 'boolean' ? (p.value ? 1 : 0) : p.value;
      if (typeof value === 'number' && Number.isNaN(value)) {
        // float8 would take it; the SQLite store refuses the batch (NaN binds as NULL there).
        throw new Error(`A point of ${p.stream} at ${p.ts} is NaN`);
      }
      if (typeof value === 'string') texts.add(series);
      const key = keyOf(series, p.ts);
      if (keep && rows.has(key)) {
        batch.kept?.(index);
        continue;
      }
      rows.delete(key);
      rows.set(key, {
        index,
        series,
        ts: p.ts,
        value: typeof value === 'number' ? value : null,
        text: typeof value === 'string' ? value : null,
      });
    }
    await this.partitions.ensure([...rows.values()].map((r) => r.ts));
    const stored = await this.transaction(async (c) => {
      const fresh = await c.query(
        'insert into ts_batches (source, seq, stored_at) values ($1, $2, $3) on conflict do nothing',
        [batch.source, batch.seq, this.clock.now()],
      );
      if (fresh.rowCount === 0) return false;
      await this.write(c, [...rows.values()], texts, keep ? (batch.kept ?? (() => {})) : undefined);
      return true;
    });
    if (!stored) return 'duplicate';
    for (const id of texts) this.texts.add(id);
    return 'stored';
  }

  /**
   * The series id of every stream of the points, made when missing. Made in statements of their
   * own, before the batch's transaction: an id for a stream whose batch then fails is harmless,
   * and ids met once stay true for good. In stream order, so concurrent makers never deadlock.
   */
  private async seriesIds(points: readonly StoredPoint[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const missing = new Map<string, string>();
    for (const p of points) {
      const known = this.series.get(p.stream);
      if (known !== undefined) ids.set(p.stream, known);
      else if (!missing.has(p.stream)) missing.set(p.stream, p.account);
    }
    if (missing.size === 0) return ids;
    const streams = [...missing.keys()];
    await this.pool.query(
      `insert into ts_series (stream, account)
         select * from unnest($1::text[], $2::text[]) order by 1
       on conflict (stream) do nothing`,
      [streams, streams.map((s) => missing.get(s))],
    );
    for (const [stream, id, text] of await rowsOf(
      this.pool,
      'select stream, id, has_text from ts_series where stream = any($1::text[])',
      [streams],
    )) {
      this.series.set(stream as string, id as number);
      if (text === true) this.texts.add(id as number);
      ids.set(stream as string, id as number);
    }
    return ids;
  }

  /** The batch's points and rollups, inside its transaction (the batch record is written). */
  /** `kept`: points already stored keep their value, and are told here (existing: 'keep'). */
  private async write(
    c: pg.PoolClient,
    rows: readonly Row[],
    texts: Set<number>,
    kept?: (index: number) => void,
  ): Promise<void> {
    const marks = [...texts].filter((id) => !this.texts.has(id)).sort((a, b) => a - b);
    if (marks.length > 0) {
      await c.query(
        'update ts_series set has_text = true where id = any($1::int[]) and not has_text',
        [marks],
      );
    }
    if (rows.length === 0) return;
    const hours = new Set(rows.map((r) => keyOf(r.series, bucketOf(r.ts, HOUR_MS))));
    await c.query(LOCK_HOURS, [[...hours]]);
    const sorted = [...rows].sort((a, b) => a.series - b.series || a.ts - b.ts);
    const arrays = (list: readonly Row[]) => [
      list.map((r) => r.series),
      list.map((r) => r.ts),
      list.map((r) => (r.value === null ? null : param(r.value))),
      list.map((r) => r.text),
    ];
    const unnestPoints = 'select * from unnest($1::int[], $2::bigint[], $3::float8[], $4::text[])';
    const inserted = await rowsOf(
      c,
      `insert into ts_points (series, ts, value, text_value) ${unnestPoints}
       on conflict (series, ts) do nothing returning series, ts`,
      arrays(sorted),
    );
    const fresh = new Set(inserted.map(([series, ts]) => keyOf(series as number, ts as number)));
    const replaced = sorted.filter((r) => !fresh.has(keyOf(r.series, r.ts)));
    if (kept !== undefined) {
      // Nothing replaced, so no span to compute afresh: only the new points are folded in.
      for (const r of replaced) kept(r.index);
      await this.writeRollups(
        c,
        rows.filter((r) => fresh.has(keyOf(r.series, r.ts))),
        fresh,
      );
      return;
    }
    if (replaced.length > 0) {
      await c.query(
        `insert into ts_points (series, ts, value, text_value) ${unnestPoints}
         on conflict (series, ts) do update
           set value = excluded.value, text_value = excluded.text_value`,
        arrays(replaced),
      );
    }
    await this.writeRollups(c, rows, fresh);
  }

  /** The SQLite store's rollup bookkeeping, a statement per step instead of per row. */
  private async writeRollups(
    c: pg.PoolClient,
    rows: readonly Row[],
    fresh: ReadonlySet<string>,
  ): Promise<void> {
    const minutes = new Map<string, Pending>();
    const staleMinutes = new Map<string, Span>();
    for (const r of rows) {
      const minute = bucketOf(r.ts, MINUTE_MS);
      const key = keyOf(r.series, minute);
      if (!fresh.has(keyOf(r.series, r.ts))) {
        staleMinutes.set(key, { series: r.series, bucket: minute });
      } else if (r.value !== null) {
        const pending = minutes.get(key);
        if (pending === undefined) {
          minutes.set(key, { series: r.series, bucket: minute, rollup: rollupOf(r.ts, r.value) });
        } else {
          addPoint(pending.rollup, r.ts, r.value);
        }
      }
    }
    const staleHours = new Map<string, Span>();
    for (const [key, m] of staleMinutes) {
      minutes.delete(key);
      const hour = bucketOf(m.bucket, HOUR_MS);
      staleHours.set(keyOf(m.series, hour), { series: m.series, bucket: hour });
    }
    await recomputeMinutes(c, [...staleMinutes.values()]);
    const hours = new Map<string, Pending>();
    for (const m of minutes.values()) {
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
    await fold(c, 'ts_minute', minutes.values());
    await recomputeHours(c, [...staleHours.values()]);
    await fold(c, 'ts_hour', hours.values());
  }

  async range(
    streams: readonly string[],
    from: number,
    to: number,
    points: number,
  ): Promise<RangeAnswer[]> {
    // Read afresh, not from the cache: another process may have marked a stream as text.
    const found = new Map<string, { id: number; text: boolean }>();
    for (const [stream, id, text] of await rowsOf(
      this.pool,
      'select stream, id, has_text from ts_series where stream = any($1::text[])',
      [[...new Set(streams)]],
    )) {
      found.set(stream as string, { id: id as number, text: text as boolean });
    }
    return Promise.all(
      streams.map((stream) => this.rangeOf(stream, found.get(stream), from, to, points)),
    );
  }

  async hours(streams: readonly string[], from: number, to: number): Promise<HourRows[]> {
    const ids = new Map<string, number>();
    for (const [stream, id] of await rowsOf(
      this.pool,
      'select stream, id from ts_series where stream = any($1::text[])',
      [[...new Set(streams)]],
    )) {
      ids.set(stream as string, id as number);
    }
    return Promise.all(
      streams.map(async (stream): Promise<HourRows> => {
        const series = ids.get(stream);
        if (series === undefined || from > to) return { stream, hours: [] };
        const rows = await rowsOf(
          this.pool,
          `select ${ROLLUP_COLUMNS} from ts_hour where series = $1 and bucket between $2 and $3 order by bucket`,
          [series, bucketOf(from, HOUR_MS), bucketOf(to, HOUR_MS)],
        );
        return {
          stream,
          hours: rows.map((row) => {
            const r = rollupOfRow(row);
            return [Number(row[1]), r.count, r.sum, r.min, r.max];
          }),
        };
      }),
    );
  }

  /** One stream's answer, read in one snapshot (points and rollups agree with each other). */
  private async rangeOf(
    stream: string,
    series: { id: number; text: boolean } | undefined,
    from: number,
    to: number,
    points: number,
  ): Promise<RangeAnswer> {
    const answer = (downsampled: boolean, list: Point[]): RangeAnswer => ({
      stream,
      from,
      to,
      downsampled,
      points: list,
    });
    if (series === undefined || from > to || points < 1) return answer(false, []);
    return this.transaction(async (c) => {
      // Whether there is a point past the number asked tells if the raw points fit, without
      // counting them all (a walk of the index, no rows sent).
      const past = await rowsOf(
        c,
        'select ts from ts_points where series = $1 and ts between $2 and $3 order by ts limit 1 offset $4',
        [series.id, Math.ceil(from), Math.floor(to), points],
      );
      if (past.length === 0) {
        const list: Point[] = [];
        for await (const p of pointsOf(c, series.id, from, to)) list.push(p);
        return answer(false, list);
      }
      const width = m4Width(from, to, points);
      const m4 = new M4(from, width, Math.min(4, points));
      // Text points are not rolled up: a stream that has any is read from its raw points.
      const level = series.text || width < MINUTE_MS ? 0 : width < HOUR_MS ? 1 : 2;
      await feed(c, level, series.id, from, to, m4);
      return answer(true, m4.finish());
    }, 'begin isolation level repeatable read read only');
  }

  async latest(
    streams: readonly string[],
  ): Promise<Map<string, { ts: number; value: number | string }>> {
    const out = new Map<string, { ts: number; value: number | string }>();
    for (const [stream, ts, value, text] of await rowsOf(
      this.pool,
      `select s.stream, p.ts, p.value, p.text_value from ts_series as s
         cross join lateral (
           select ts, value, text_value from ts_points
            where series = s.id order by ts desc limit 1
         ) as p
        where s.stream = any($1::text[])`,
      [[...new Set(streams)]],
    )) {
      const [at, v] = pointOf(ts, value, text);
      out.set(stream as string, { ts: at, value: v });
    }
    return out;
  }

  async *scan(stream: string, from: number, to: number): AsyncIterable<[number, number | string]> {
    const id = await this.idOf(stream);
    if (id === undefined) return;
    yield* pointsOf(this.pool, id, from, to);
  }

  private async idOf(stream: string): Promise<number | undefined> {
    const known = this.series.get(stream);
    if (known !== undefined) return known;
    const [row] = await rowsOf(this.pool, 'select id from ts_series where stream = $1', [stream]);
    return row === undefined ? undefined : (row[0] as number);
  }

  /**
   * Points before `before` go, and the rollup rows whose whole span is before it; the minute and
   * the hour that `before` cuts are computed afresh from what is left, so rollups keep agreeing
   * with the points (a read never shows a pruned spike).
   *
   * A weekly partition wholly before `before` that holds no other account's points is dropped
   * whole (counted first): no row-by-row delete, no dead rows left for vacuum. The rest (the week
   * `before` cuts, and weeks shared with accounts that keep their values longer) is deleted in
   * statements of at most PRUNE_CHUNK rows. Partitions are shared by all accounts, so with
   * retention run every hour an account's old points mostly go by rows, an hour at a time, and
   * the week is dropped once the last account's points in it are due; a first prune after a
   * retention is shortened drops whole weeks.
   *
   * A point older than `before` written while a prune runs may keep (or lose) its rollup rows
   * until the next prune, which deletes it: retention runs every hour.
   */
  async prune(account: string, before: number): Promise<number> {
    const ids = (
      await rowsOf(this.pool, 'select id from ts_series where account = $1 order by id', [account])
    ).map((r) => r[0] as number);
    if (ids.length === 0) return 0;
    let points = 0;
    for (const p of await this.partitions.list()) {
      if (p.end > before) break;
      points += (await this.partitions.dropIfOnly(ids, p)) ?? 0;
    }
    for (const series of ids) {
      const deleted = await deleteChunked(
        this.pool,
        'select ts from ts_points where series = $1 and ts < $2 order by ts limit 1 offset $3',
        'delete from ts_points where series = $1 and ts < $2',
        series,
        before,
      );
      points += deleted;
      let rollups = 0;
      for (const [table, width] of [
        ['ts_minute', MINUTE_MS],
        ['ts_hour', HOUR_MS],
      ] as const) {
        rollups += await deleteChunked(
          this.pool,
          `select bucket from ${table} where series = $1 and bucket < $2 order by bucket limit 1 offset $3`,
          `delete from ${table} where series = $1 and bucket < $2`,
          series,
          before - width + 1,
        );
      }
      if (deleted + rollups === 0) continue;
      await this.transaction(async (c) => {
        await c.query(LOCK_HOURS, [[keyOf(series, bucketOf(before, HOUR_MS))]]);
        const minute = bucketOf(before, MINUTE_MS);
        if (minute < before) await recomputeMinutes(c, [{ series, bucket: minute }]);
        const hour = bucketOf(before, HOUR_MS);
        if (hour < before) await recomputeHours(c, [{ series, bucket: hour }]);
      });
    }
    return points;
  }

  async pruneBatches(before: number): Promise<number> {
    return deleteChunked(
      this.pool,
      'select stored_at from ts_batches where stored_at < $1 order by stored_at limit 1 offset $2',
      'delete from ts_batches where stored_at < $1',
      undefined,
      before,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
/**
 * Every raw point of a series over [from, to] in time order, read SCAN_CHUNK rows per statement
 * (keyset: each chunk starts past the last time seen), so that no statement stays open while the
 * consumer awaits. Times are integers: the bounds are rounded inwards.
 */
async function* pointsOf(
  q: Queryable,
  series: number,
  from: number,
  to: number,
): AsyncIterable<Point> {
  let next = Math.ceil(from);
  const last = Math.floor(to);
  for (;;) {
    const rows = await rowsOf(
      q,
      `select ts, value, text_value from ts_points
        where series = $1 and ts between $2 and $3 order by ts limit $4`,
      [series, next, last, SCAN_CHUNK],
    );
    for (const [ts, value, text] of rows) yield pointOf(ts, value, text);
    const end = rows[rows.length - 1];
    if (rows.length < SCAN_CHUNK || end === undefined) return;
    next = (end[0] as number) + 1;
  }
}

/**
 * Feeds [from, to] to the downsampler, in time order, from the coarsest source allowed
 * (0: raw points, 1: minute rows, 2: hour rows), exactly as the SQLite store does: only rollup
 * rows wholly inside the range are used, the ends that cut a row come from the next finer source.
 */
async function feed(
  c: pg.PoolClient,
  level: 0 | 1 | 2,
  series: number,
  from: number,
  to: number,
  m4: M4,
): Promise<void> {
  if (level === 0) {
    for await (const [ts, value] of pointsOf(c, series, from, to)) m4.point(ts, value);
    return;
  }
  const width = level === 1 ? MINUTE_MS : HOUR_MS;
  const table = level === 1 ? 'ts_minute' : 'ts_hour';
  const finer = level === 1 ? 0 : 1;
  const start = Math.ceil(from / width) * width;
  const end = Math.floor((to + 1) / width) * width;
  if (start >= end) {
    await feed(c, finer, series, from, to, m4);
    return;
  }
  if (from < start) await feed(c, finer, series, from, start - 1, m4);
  for (const row of await rowsOf(
    c,
    `select ${ROLLUP_COLUMNS} from ${table} where series = $1 and bucket between $2 and $3 order by bucket`,
    [series, start, end - width],
  )) {
    m4.unit(row[1] as number, rollupOfRow(row));
  }
  if (end <= to) await feed(c, finer, series, end, to, m4);
}
/**
 * Deletes the rows keyed below `below` (of one series, or of the whole table when `series` is
 * undefined), a chunk per statement: `nthSql` answers the key of the PRUNE_CHUNK-th row below a
 * bound, `deleteSql` deletes below a bound. Keys are integers: the bound is rounded up.
 */
async function deleteChunked(
  q: Queryable,
  nthSql: string,
  deleteSql: string,
  series: number | undefined,
  below: number,
): Promise<number> {
  const scope = series === undefined ? [] : [series];
  let total = 0;
  for (;;) {
    const [cut] = await rowsOf(q, nthSql, [...scope, Math.ceil(below), PRUNE_CHUNK - 1]);
    const bound = cut === undefined ? Math.ceil(below) : (cut[0] as number) + 1;
    total += (await q.query(deleteSql, [...scope, bound])).rowCount ?? 0;
    if (cut === undefined) return total;
  }
}
