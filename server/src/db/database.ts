import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  SqliteDialect,
  type MigrationResultSet,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import { migrations } from '@plant/migrations';
import type { Database } from './types';

export type Db = Kysely<Database>;

export const DATABASE_FILE = 'platform.sqlite';

const STATEMENT_CACHE_SIZE = 500;

/**
 * kysely's SQLite driver prepares every query anew; preparing costs more than running the small
 * indexed reads most requests make. This keeps prepared statements by SQL text (least recently
 * used out past 500). Safe because better-sqlite3 runs a statement to completion synchronously
 * and kysely's driver lets one query run at a time.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
      } else {
        cache.delete(sql);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * Opens (creating if needed) the SQLite file in dataDir: WAL so that readers never wait for the
 * writer, foreign keys on, and a busy timeout so that a second process waits instead of failing.
 */
/** The better-sqlite3 handle behind each Kysely instance, for the one synchronous read below. */
const handles = new WeakMap<Db, { sqlite: SQLite.Database; version?: SQLite.Statement }>();

/**
 * The access version, read synchronously: the hot path of every signed-in request. Answers
 * undefined while a transaction is open on the connection, because a read then could see a change
 * that is later rolled back; the caller then reads through kysely, which waits for the
 * transaction to end. With no transaction open, the read sees exactly the committed state, and
 * nothing can begin one before it returns (it does not yield).
 */
export function accessVersionNow(db: Db): number | undefined {
  const handle = handles.get(db);
  if (handle === undefined || handle.sqlite.inTransaction) return undefined;
  // Prepared on first use: the table exists only once migrations ran.
  handle.version ??= handle.sqlite.prepare('select v from access_version where id = 1').pluck();
  const v: unknown = handle.version.get();
  return typeof v === 'number' ? v : undefined;
}

export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, DATABASE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  handles.set(db, { sqlite });
  return db;
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
