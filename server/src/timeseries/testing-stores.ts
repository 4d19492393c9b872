import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import { timeSeriesMigrations } from '../../../migrations/src/timeseries';
import { postgresTimeSeriesMigrations } from '../../../migrations/src/timeseries-postgres';
import type { Clock } from '../lib/clock';
import { createTestDatabase } from '../testing/local-postgres';
import { testsOnPostgres } from '../testing/test-database';
import {
  openPostgresTimeSeriesStore,
  TIME_SERIES_MIGRATION_TABLES,
} from './postgres-time-series-store';
import { openTimeSeriesStore, TIME_SERIES_FILE } from './sqlite-time-series-store';
import { HOUR_MS, MINUTE_MS } from './rollup';
import type { TimeSeriesStore } from './time-series-store';

/**
 * The time-series stores the shared suites run on (issue 14): SQLite in the `server` vitest
 * project, Postgres in `server-postgres` (PLANT_TEST_DATABASE=postgres, a throwaway server at
 * PLANT_TEST_POSTGRES_URL), so that each case runs once per store in a full run. Every test gets
 * its own empty place: a temp folder, or a new database on that server.
 */
export interface StoreKind {
  readonly name: 'SQLite' | 'Postgres';
  place(): Promise<StorePlace>;
  /** A migrator of the store's own migrations on a fresh place, and the tables it sees. */
  migrator(): Promise<{
    readonly migrator: Migrator;
    readonly migrationTable: string;
    readonly tables: () => Promise<string[]>;
    readonly destroy: () => Promise<void>;
  }>;
}

export interface StorePlace {
  /** Postgres only: the database's URL (a second process opens the same). */
  readonly url: string | undefined;
  /** A store on this place (another opening is another process on the same data). */
  open(clock?: Clock): Promise<TimeSeriesStore>;
  /** What is stored, read apart from the store. */
  contents(): Promise<StoreContents>;
  /** Closes what `open` opened and removes the place. */
  remove(): Promise<void>;
}

/** A rollup row by column name (series, bucket, min, min_ts, …). */
export type RollupRecord = Record<string, number>;

export interface StoreContents {
  /** The numeric points, as [series, ts, value]. */
  readonly points: [number, number, number][];
  readonly minute: RollupRecord[];
  readonly hour: RollupRecord[];
}

function postgresAdminUrl(): string {
  const url = process.env.PLANT_TEST_POSTGRES_URL;
  if (url === undefined || url === '') {
    throw new Error('PLANT_TEST_DATABASE=postgres needs PLANT_TEST_POSTGRES_URL (a server to use)');
  }
  return url;
}

/** The stores of this vitest project. */
export function storeKinds(): StoreKind[] {
  return testsOnPostgres() ? [postgresKind] : [sqliteKind];
}

/** `describe.each` rows: the store's name (for `%s`) and the store. */
export function eachStore(): (readonly [string, StoreKind])[] {
  return storeKinds().map((kind) => [kind.name, kind] as const);
}

/** Whether both stores can run side by side here (the comparison tests). */
export function bothStores(): boolean {
  return testsOnPostgres();
}

export function sqliteMigrator(file: string, migrations: Record<string, Migration>) {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  return {
    db,
    migrator: new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } }),
  };
}

export const sqliteKind: StoreKind = {
  name: 'SQLite',
  place() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-ts-'));
    const opened: TimeSeriesStore[] = [];
    return Promise.resolve({
      url: undefined,
      open: async (clock) => {
        const store = await openTimeSeriesStore(dir, clock === undefined ? {} : { clock });
        opened.push(store);
        return store;
      },
      contents: () => {
        const db = new SQLite(path.join(dir, TIME_SERIES_FILE), { readonly: true });
        try {
          return Promise.resolve({
            points: db
              .prepare("select series, ts, value from ts_points where typeof(value) != 'text'")
              .raw()
              .all() as [number, number, number][],
            minute: db.prepare('select * from ts_minute').all() as RollupRecord[],
            hour: db.prepare('select * from ts_hour').all() as RollupRecord[],
          });
        } finally {
          db.close();
        }
      },
      remove: async () => {
        for (const store of opened.splice(0)) await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    });
  },
  migrator() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-ts-m-'));
    const { db, migrator } = sqliteMigrator(path.join(dir, 'm.sqlite'), timeSeriesMigrations);
    return Promise.resolve({
      migrator,
      migrationTable: 'kysely_migration',
      tables: async () =>
        (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name),
      destroy: async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    });
  },
};

/** A client that reads int8 as numbers, like the store. */
export async function postgresClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? Number
          : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown),
    },
  });
  await client.connect();
  return client;
}

export const postgresKind: StoreKind = {
  name: 'Postgres',
  async place() {
    const database = await createTestDatabase(postgresAdminUrl());
    const opened: TimeSeriesStore[] = [];
    return {
      url: database.url,
      open: async (clock) => {
        const store = await openPostgresTimeSeriesStore(
          database.url,
          clock === undefined ? {} : { clock },
        );
        opened.push(store);
        return store;
      },
      contents: async () => {
        const client = await postgresClient(database.url);
        try {
          const points = await client.query<[number, number, number]>({
            text: 'select series, ts, value from ts_points where value is not null',
            rowMode: 'array',
          });
          const minute = await client.query<RollupRecord>('select * from ts_minute');
          const hour = await client.query<RollupRecord>('select * from ts_hour');
          return { points: points.rows, minute: minute.rows, hour: hour.rows };
        } finally {
          await client.end();
        }
      },
      remove: async () => {
        for (const store of opened.splice(0)) await store.close();
        await database.drop();
      },
    };
  },
  async migrator() {
    const database = await createTestDatabase(postgresAdminUrl());
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
    });
    return {
      migrator: new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(postgresTimeSeriesMigrations) },
        ...TIME_SERIES_MIGRATION_TABLES,
      }),
      migrationTable: TIME_SERIES_MIGRATION_TABLES.migrationTableName,
      tables: async () =>
        (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name),
      destroy: async () => {
        await db.destroy();
        await database.drop();
      },
    };
  },
};

/**
 * Every rollup row equals the fold of the numeric points of its span, and every span with numeric
 * points has its row (read apart from the store, as a second connection would).
 */
export async function expectRollupsMatchPoints(place: StorePlace): Promise<void> {
  const contents = await place.contents();
  // -0 and 0 are one value here: SQLite's REAL rollup columns keep no sign of zero.
  const zero = (v: number) => (v === 0 ? 0 : v);
  const points = contents.points.map(([s, ts, v]) => [s, ts, zero(v)] as const);
  const unsigned = (rows: RollupRecord[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, zero(v)])));
  const [minute, hour] = [unsigned(contents.minute), unsigned(contents.hour)];
  for (const [table, width, rows] of [
    ['ts_minute', MINUTE_MS, minute],
    ['ts_hour', HOUR_MS, hour],
  ] as const) {
    const want = new Map<string, RollupRecord>();
    for (const [s, ts, v] of points) {
      const key = `${s}:${Math.floor(ts / width) * width}`;
      const r = want.get(key);
      if (r === undefined) {
        want.set(key, {
          min: v,
          min_ts: ts,
          max: v,
          max_ts: ts,
          sum: v,
          count: 1,
          first: v,
          first_ts: ts,
          last: v,
          last_ts: ts,
        });
        continue;
      }
      if (v < r.min! || (v === r.min && ts < r.min_ts!)) Object.assign(r, { min: v, min_ts: ts });
      if (v > r.max! || (v === r.max && ts < r.max_ts!)) Object.assign(r, { max: v, max_ts: ts });
      r.sum! += v;
      r.count! += 1;
      if (ts < r.first_ts!) Object.assign(r, { first: v, first_ts: ts });
      if (ts > r.last_ts!) Object.assign(r, { last: v, last_ts: ts });
    }
    const got = new Map(rows.map(({ series: s, bucket, ...r }) => [`${s}:${bucket}`, r]));
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [key, r] of want) {
      const { sum, ...exact } = r;
      const { sum: gotSum, ...gotExact } = got.get(key) ?? {};
      expect(gotExact, `${table} ${key}`).toEqual(exact);
      expect(gotSum).toBeCloseTo(sum ?? 0, 6);
    }
  }
}
