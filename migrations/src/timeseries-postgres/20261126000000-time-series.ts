import { sql, type Kysely } from 'kysely';

/**
 * The time-series store on PostgreSQL (issue 14, DESIGN.md §8 and §11): the same tables as the
 * SQLite file (`../timeseries/`), living in the platform's own database, hence every name starts
 * with `ts_` and the migrations are recorded in `ts_migration`, apart from the platform's.
 *
 * - `ts_series`: a stream id mapped to a small integer key; `has_text` is set once a text point
 *   arrived, so that reads downsample the stream from raw points (text points are not rolled up).
 * - `ts_points`: one row per (series, ts), range-partitioned by `ts` (one partition per week,
 *   made by the store before the first insert that needs it), so that retention can drop a whole
 *   week instead of deleting its rows one by one. The key index INCLUDEs the values: a range read
 *   is an index-only scan (a 30-day read over 52M points: 3.5 s with a plain key, 96 ms with
 *   INCLUDE). A value is a number or a text, never both: `value` (double precision, booleans as
 *   1/0) or `text_value`.
 * - `ts_minute`, `ts_hour`: rollups of the numeric points per minute and per hour (bucket = the
 *   start in ms): min and max with their times, sum, count, first and last with their times.
 * - `ts_batches`: the (source, seq) of every batch stored, written in the same transaction as its
 *   points, so that a batch sent again stores nothing; `stored_at` lets old records be forgotten.
 *
 * Times are bigint (epoch ms overflow integer); nothing here needs an extension.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ts_series (
      id integer generated always as identity primary key,
      stream text not null unique,
      account text not null,
      has_text boolean not null default false
    )
  `.execute(db);
  await db.schema.createIndex('ts_series_account').on('ts_series').column('account').execute();
  await sql`
    create table ts_points (
      series integer not null,
      ts bigint not null,
      value double precision,
      text_value text,
      constraint ts_points_pkey primary key (series, ts) include (value, text_value),
      constraint ts_points_one_value check ((value is null) <> (text_value is null))
    ) partition by range (ts)
  `.execute(db);
  for (const table of ['ts_minute', 'ts_hour']) {
    await sql`
      create table ${sql.table(table)} (
        series integer not null,
        bucket bigint not null,
        "min" double precision not null,
        min_ts bigint not null,
        "max" double precision not null,
        max_ts bigint not null,
        "sum" double precision not null,
        "count" bigint not null,
        "first" double precision not null,
        first_ts bigint not null,
        "last" double precision not null,
        last_ts bigint not null,
        primary key (series, bucket)
      )
    `.execute(db);
  }
  await sql`
    create table ts_batches (
      source text not null,
      seq bigint not null,
      stored_at bigint not null,
      primary key (source, seq)
    )
  `.execute(db);
  await db.schema
    .createIndex('ts_batches_stored_at')
    .on('ts_batches')
    .column('stored_at')
    .execute();
}

/** Dropping `ts_points` drops its partitions with it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ts_batches').execute();
  await db.schema.dropTable('ts_hour').execute();
  await db.schema.dropTable('ts_minute').execute();
  await db.schema.dropTable('ts_points').execute();
  await db.schema.dropTable('ts_series').execute();
}
