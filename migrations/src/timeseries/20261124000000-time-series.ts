import { sql, type Kysely } from 'kysely';

/**
 * The time-series store's own SQLite file (DESIGN.md §8), apart from the platform's database so
 * that a high write rate of values never waits on, nor delays, model writes.
 *
 * - `ts_series`: a stream id mapped to a small integer key (points are keyed by it, not by the
 *   36-character id); `has_text` is set once a text point arrived, so that reads downsample the
 *   stream from raw points (text points are not rolled up).
 * - `ts_points`: one row per (series, ts), clustered by that key (WITHOUT ROWID): a range read is
 *   one contiguous walk of the B-tree. `value` is ANY in a STRICT table: numbers stay numbers
 *   and texts stay texts (booleans arrive as 1/0).
 * - `ts_minute`, `ts_hour`: rollups of the numeric points per minute and per hour (bucket = the
 *   start in ms): min and max with their times, sum, count, first and last with their times.
 * - `ts_batches`: the (source, seq) of every batch stored, written in the same transaction as its
 *   points, so that a batch sent again stores nothing; `stored_at` lets old records be forgotten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ts_series (
      id integer primary key,
      stream text not null unique,
      account text not null,
      has_text integer not null default 0
    ) strict
  `.execute(db);
  await db.schema.createIndex('ts_series_account').on('ts_series').column('account').execute();
  await sql`
    create table ts_points (
      series integer not null,
      ts integer not null,
      value any not null,
      primary key (series, ts)
    ) strict, without rowid
  `.execute(db);
  for (const table of ['ts_minute', 'ts_hour']) {
    await sql`
      create table ${sql.table(table)} (
        series integer not null,
        bucket integer not null,
        "min" real not null,
        min_ts integer not null,
        "max" real not null,
        max_ts integer not null,
        "sum" real not null,
        "count" integer not null,
        "first" real not null,
        first_ts integer not null,
        "last" real not null,
        last_ts integer not null,
        primary key (series, bucket)
      ) strict, without rowid
    `.execute(db);
  }
  await sql`
    create table ts_batches (
      source text not null,
      seq integer not null,
      stored_at integer not null,
      primary key (source, seq)
    ) strict, without rowid
  `.execute(db);
  await db.schema
    .createIndex('ts_batches_stored_at')
    .on('ts_batches')
    .column('stored_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ts_batches').execute();
  await db.schema.dropTable('ts_hour').execute();
  await db.schema.dropTable('ts_minute').execute();
  await db.schema.dropTable('ts_points').execute();
  await db.schema.dropTable('ts_series').execute();
}
