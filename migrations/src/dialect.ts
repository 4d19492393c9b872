import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The one place migrations learn which engine they run on (DESIGN.md §11: one set of migrations
 * for SQLite and Postgres). Column types are written for both: `bigint` is SQLite's INTEGER
 * affinity too, and a Postgres `integer` (4 bytes) would overflow on epoch milliseconds.
 */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
