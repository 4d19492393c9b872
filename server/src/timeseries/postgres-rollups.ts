import type pg from 'pg';
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
  type Rollup,
} from './rollup';

/**
 * The rollup rows of the Postgres store (postgres-time-series-store.ts) in SQL: folds, rows
 * written afresh from their points, and the per-hour locks that keep both exact across processes.
 */

export type Queryable = pg.Pool | pg.PoolClient;

export async function rowsOf(q: Queryable, text: string, values: unknown[]): Promise<unknown[][]> {
  return (await q.query<unknown[]>({ text, values, rowMode: 'array' })).rows;
}

/** A minute or an hour of one series. */
export interface Span {
  readonly series: number;
  readonly bucket: number;
}

/** A rollup summary waiting to be folded into its row. */
export interface Pending extends Span {
  readonly rollup: Rollup;
}

export const keyOf = (series: number, bucket: number) => `${series}:${bucket}`;

const UNNEST_ROLLUPS = `unnest($1::int[], $2::bigint[], $3::float8[], $4::bigint[], $5::float8[],
  $6::bigint[], $7::float8[], $8::bigint[], $9::float8[], $10::bigint[], $11::float8[], $12::bigint[])`;

/** Rollup rows as the 12 column arrays UNNEST_ROLLUPS takes, in key order. */
function columns(rows: readonly (readonly number[])[]): number[][] {
  const sorted = [...rows].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  return Array.from({ length: 12 }, (_, i) => sorted.map((r) => r[i]!));
}

/**
 * Adds each span's summary to the stored row, or stores it: `combine` in SQL. Postgres, like
 * SQLite, evaluates every SET expression against the row as it was before the update.
 */
function foldSql(table: 'ts_minute' | 'ts_hour'): string {
  const t = table;
  const lower = `(excluded."min" < ${t}."min" or (excluded."min" = ${t}."min" and excluded.min_ts < ${t}.min_ts))`;
  const higher = `(excluded."max" > ${t}."max" or (excluded."max" = ${t}."max" and excluded.max_ts < ${t}.max_ts))`;
  return `insert into ${t} (${ROLLUP_COLUMNS}) select * from ${UNNEST_ROLLUPS}
    on conflict (series, bucket) do update set
      "min" = case when ${lower} then excluded."min" else ${t}."min" end,
      min_ts = case when ${lower} then excluded.min_ts else ${t}.min_ts end,
      "max" = case when ${higher} then excluded."max" else ${t}."max" end,
      max_ts = case when ${higher} then excluded.max_ts else ${t}.max_ts end,
      "sum" = ${t}."sum" + excluded."sum",
      "count" = ${t}."count" + excluded."count",
      "first" = case when excluded.first_ts < ${t}.first_ts then excluded."first" else ${t}."first" end,
      first_ts = least(${t}.first_ts, excluded.first_ts),
      "last" = case when excluded.last_ts > ${t}.last_ts then excluded."last" else ${t}."last" end,
      last_ts = greatest(${t}.last_ts, excluded.last_ts)`;
}

/** Writes each span's row afresh (a recomputation replaces what was there). */
function replaceSql(table: 'ts_minute' | 'ts_hour'): string {
  const set = ROLLUP_COLUMNS.split(', ')
    .slice(2)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `insert into ${table} (${ROLLUP_COLUMNS}) select * from ${UNNEST_ROLLUPS}
    on conflict (series, bucket) do update set ${set}`;
}

/**
 * Every append, and every recomputation of a row by `prune`, takes the transaction-scoped lock of
 * each (series, hour) it writes, in every process. It makes a rollup recomputation (read the
 * points, write the row) atomic against another transaction folding new points into the same row
 * (a row lock would not do: the row may not exist yet). All locks of a transaction are taken in
 * one statement, in key order, so writers never deadlock on them.
 */
export const LOCK_HOURS = `select pg_advisory_xact_lock(k) from (
    select hashtextextended('ts_hour:' || x, 0) as k from unnest($1::text[]) as x order by 1
  ) as keys`;
/** Folds pending summaries into their rows (one statement). */
export async function fold(
  c: pg.PoolClient,
  table: 'ts_minute' | 'ts_hour',
  pending: Iterable<Pending>,
): Promise<void> {
  const rows = [...pending].map((p) => rowOf(p.series, p.bucket, p.rollup));
  if (rows.length > 0) await c.query(foldSql(table), columns(rows));
}

/** Writes the spans' rows afresh from what was folded (or deletes them: nothing numeric). */
async function store(
  c: pg.PoolClient,
  table: 'ts_minute' | 'ts_hour',
  spans: readonly Span[],
  folded: ReadonlyMap<string, Rollup>,
): Promise<void> {
  const rows: number[][] = [];
  const gone: Span[] = [];
  for (const s of spans) {
    const r = folded.get(keyOf(s.series, s.bucket));
    if (r === undefined) gone.push(s);
    else rows.push(rowOf(s.series, s.bucket, r));
  }
  if (rows.length > 0) await c.query(replaceSql(table), columns(rows));
  if (gone.length > 0) {
    await c.query(
      `delete from ${table} where (series, bucket) in (select * from unnest($1::int[], $2::bigint[]))`,
      [gone.map((s) => s.series), gone.map((s) => s.bucket)],
    );
  }
}

/** Each minute's row afresh from its stored numeric points, folded in time order. */
export async function recomputeMinutes(c: pg.PoolClient, spans: readonly Span[]): Promise<void> {
  if (spans.length === 0) return;
  const folded = new Map<string, Rollup>();
  for (const [series, ts, value] of await rowsOf(
    c,
    `select m.series, p.ts, p.value from unnest($1::int[], $2::bigint[]) as m(series, bucket)
       cross join lateral (
         select ts, value from ts_points
          where series = m.series and ts between m.bucket and m.bucket + $3 - 1
            and value is not null
          order by ts
       ) as p`,
    [spans.map((s) => s.series), spans.map((s) => s.bucket), MINUTE_MS],
  )) {
    const key = keyOf(series as number, bucketOf(ts as number, MINUTE_MS));
    const r = folded.get(key);
    if (r === undefined) folded.set(key, rollupOf(ts as number, value as number));
    else addPoint(r, ts as number, value as number);
  }
  await store(c, 'ts_minute', spans, folded);
}

/** Each hour's row afresh from its minute rows, folded in time order. */
export async function recomputeHours(c: pg.PoolClient, spans: readonly Span[]): Promise<void> {
  if (spans.length === 0) return;
  const folded = new Map<string, Rollup>();
  for (const row of await rowsOf(
    c,
    `select m.* from unnest($1::int[], $2::bigint[]) as h(series, bucket)
       cross join lateral (
         select ${ROLLUP_COLUMNS} from ts_minute
          where series = h.series and bucket between h.bucket and h.bucket + $3
          order by bucket
       ) as m`,
    [spans.map((s) => s.series), spans.map((s) => s.bucket), HOUR_MS - MINUTE_MS],
  )) {
    const key = keyOf(row[0] as number, bucketOf(row[1] as number, HOUR_MS));
    const r = folded.get(key);
    if (r === undefined) folded.set(key, rollupOfRow(row));
    else combine(r, rollupOfRow(row));
  }
  await store(c, 'ts_hour', spans, folded);
}
