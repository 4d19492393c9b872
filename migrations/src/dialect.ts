import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * The one place migrations learn which engine they run on (DESIGN.md §11: one set of migrations
 * for SQLite and Postgres). Column types are written for both: `bigint` is SQLite's INTEGER
 * affinity too, and a Postgres `integer` (4 bytes) would overflow on epoch milliseconds.
 */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The type of a new text column: on Postgres with `COLLATE "C"`, so that it sorts and compares in
 * byte order whatever the database's default collation (migration 20261128000500); SQLite's
 * default BINARY collation already is byte order.
 */
export function textType(db: Kysely<unknown>): RawBuilder<unknown> {
  return isPostgres(db) ? sql`text collate "C"` : sql`text`;
}
