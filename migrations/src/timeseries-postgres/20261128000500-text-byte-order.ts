import { sql, type Kysely } from 'kysely';

/**
 * The store's keys in byte order on any Postgres database (issue 28 item 9, as the platform's
 * migration 20261128000500): a stream id (`ts_series.stream`, unique) is looked up on every
 * ingest and a batch's source (`ts_batches`' key) on every batch, and their indexes compared with
 * the database's default collation (en_US on a plain `createdb` or a managed service), which costs
 * a quarter more than comparing bytes (the store's property test: 22-24 s against 17-18 s). No
 * order of these is seen by anyone; `text_value` is only carried (INCLUDEd), never compared, and
 * changing it would rebuild every week's key index. The SQLite store needs no counterpart: its
 * default BINARY collation is byte order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await setCollation(db, 'C');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await setCollation(db, 'default');
}

async function setCollation(db: Kysely<unknown>, collation: 'C' | 'default'): Promise<void> {
  const c = sql.id(collation);
  await sql`alter table ts_series
    alter column stream type text collate ${c},
    alter column account type text collate ${c}`.execute(db);
  await sql`alter table ts_batches alter column source type text collate ${c}`.execute(db);
}
