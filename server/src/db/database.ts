import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  type MigrationResultSet,
  type SqliteDatabase,
  type RawBuilder,
  type SqliteStatement,
  sql,
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

/** Which engine a Kysely instance talks to (DESIGN.md §11: one code path, two dialects). */
export type DatabaseKind = 'sqlite' | 'postgres';

export function databaseKind<DB>(db: Kysely<DB>): DatabaseKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * A model attribute as text, for comparisons in SQL: SQLite's json_extract, Postgres's ->> on
 * the attributes (stored as JSON text in both). The field name goes as a parameter. On Postgres
 * in byte order (`COLLATE "C"`), as the text columns are (migration 20261128000500): an
 * expression carries the database's default collation, which may be en_US, not the column's.
 */
export function attributeText(db: Db, field: string): RawBuilder<string> {
  return databaseKind(db) === 'postgres'
    ? sql<string>`((attributes::jsonb ->> ${field}) collate "C")`
    : sql<string>`json_extract(attributes, ${`$.${field}`})`;
}

/** A lone surrogate's escape as JSON.stringify writes one (a pair it writes as characters). */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;

/**
 * A model's attributes as stored: JSON whose lone surrogates are U+FFFD. Postgres's JSON refuses
 * their escapes, and one stored model holding one made every query reading attributes as JSON in
 * its account fail (attributeText). HTTP bodies lose them in readJson; this is for what comes
 * another way (a gateway's status over MQTT).
 */
export function storedJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u') ? text.replace(LONE_SURROGATE_ESCAPE, '$1\ufffd') : text;
}

/**
 * Makes the rest of the caller's transaction wait for any other transaction holding `key`, in
 * this process or another: for read-then-write steps that must not interleave (revoke-then-issue
 * of a browser's credentials). Postgres: a transaction-scoped advisory lock. SQLite needs none:
 * one connection runs one transaction at a time, and its single writer orders processes.
 */
export async function lockInTransaction(trx: Db, key: string): Promise<void> {
  if (databaseKind(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Runs `work` while holding a database-wide lock named `key`: on Postgres a session advisory
 * lock on one connection of the pool (the work itself may use others), so that processes
 * starting at once migrate, make the first-party client and seed one after another. SQLite: the
 * work runs as it is (a second process on one file waits on its write lock).
 */
export async function exclusively<T>(db: Db, key: string, work: () => Promise<T>): Promise<T> {
  if (databaseKind(db) !== 'postgres') return work();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}

/**
 * Whether an error is the database refusing a duplicate in `table.column` (a unique index):
 * SQLite says so in its message, Postgres by SQLSTATE 23505 with the table and the key.
 */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message.includes('UNIQUE constraint failed')) {
    return error.message.includes(`${table}.${column}`);
  }
  const pgError = error as { code?: unknown; table?: unknown; detail?: unknown };
  return (
    pgError.code === '23505' &&
    pgError.table === table &&
    typeof pgError.detail === 'string' &&
    pgError.detail.startsWith(`Key (${column})=`)
  );
}

/** Connections per process to Postgres: requests wait for one rather than crowd the server. */
const POSTGRES_POOL_SIZE = 20;

/**
 * int8 (bigint: counts, seq, epoch-ms columns) arrives as a JS number, as SQLite hands it: the
 * values fit (epoch ms and per-account seq stay far below 2^53), and every caller expects a
 * number. Per pool, not pg's global parser table.
 */
const INT8_OID = 20;
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    oid === INT8_OID
      ? Number
      : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown),
};

/**
 * A pool on the Postgres database at `url`, int8 as numbers, broken links heard (the platform's
 * and the time-series store's pools alike). Nothing connects until used.
 */
export function postgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: postgresTypes });
  // An idle connection the server drops (restart, failover) must not crash the process: the
  // pool discards it and the next query opens another.
  pool.on('error', () => undefined);
  // A connection that breaks while checked out (a query or transaction running) reports on the
  // client too: the query itself fails and says so; unheard, the report would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Opens the platform's pool on the Postgres database at `url` (DATABASE_URL). */
export function openPostgres(url: string): Db {
  const pool = postgresPool(url, POSTGRES_POOL_SIZE);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The platform database the configuration names: Postgres when DATABASE_URL is set, otherwise
 * the SQLite file in DATA_DIR (the zero-config default).
 */
export function openConfiguredDatabase(config: {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
}): Db {
  return config.databaseUrl === undefined
    ? openDatabase(config.dataDir)
    : openPostgres(config.databaseUrl);
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
