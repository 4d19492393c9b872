import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationResultSet } from 'kysely';
import { migrations } from '@plant/migrations';
import type { Database } from './types';

export type Db = Kysely<Database>;

export const DATABASE_FILE = 'platform.sqlite';

/**
 * Opens (creating if needed) the SQLite file in dataDir: WAL so that readers never wait for the
 * writer, foreign keys on, and a busy timeout so that a second process waits instead of failing.
 */
export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, DATABASE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function migrator<DB>(db: Kysely<DB>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function unwrap(result: MigrationResultSet, direction: string): void {
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${direction} failed at ${failed}`, { cause: result.error });
  }
}

/** Runs every pending migration; called at every start. */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<void> {
  unwrap(await migrator(db).migrateToLatest(), 'up');
}

/** Undoes one migration (the newest applied). Used by the migration test and by operators. */
export async function migrateDown<DB>(db: Kysely<DB>): Promise<boolean> {
  const result = await migrator(db).migrateDown();
  unwrap(result, 'down');
  return (result.results?.length ?? 0) > 0;
}
