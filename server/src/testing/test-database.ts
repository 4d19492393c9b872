import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DATABASE_FILE,
  migrateToLatest,
  openConfiguredDatabase,
  openPostgres,
  type Db,
} from '../db/database';
import { openPostgresTimeSeriesStore } from '../timeseries/postgres-time-series-store';
import { createTestDatabase, type TestLocale } from './local-postgres';

/**
 * Which database the server tests run on (issue 14): SQLite files by default; Postgres in the
 * `server-postgres` vitest project, which sets PLANT_TEST_DATABASE=postgres and starts a
 * throwaway server whose admin URL is PLANT_TEST_POSTGRES_URL (postgres-global-setup.ts).
 */
export function testsOnPostgres(): boolean {
  return process.env.PLANT_TEST_DATABASE === 'postgres';
}

function adminUrl(): string {
  const url = process.env.PLANT_TEST_POSTGRES_URL;
  if (url === undefined || url === '') {
    throw new Error('PLANT_TEST_DATABASE=postgres needs PLANT_TEST_POSTGRES_URL (a server to use)');
  }
  return url;
}

/** A test's own empty database: a temp folder (SQLite), or a new database (Postgres). */
export interface TestDatabase {
  readonly dataDir: string;
  /** Set on Postgres: the DATABASE_URL a server started for this test gets. */
  readonly databaseUrl: string | undefined;
  /** A new connection to it (as a second server process would have). */
  open(): Db;
  /** Removes it (folder and database); close every connection first. */
  remove(): Promise<void>;
}

/** The file that remembers a folder's Postgres database across a server restart in a test. */
const URL_FILE = 'test-database-url';

/**
 * Test servers' Postgres databases sort text as a plain `createdb` on an en_US machine or a
 * managed service makes them, not in the byte order the platform needs: every server test then
 * proves that the platform brings its own (COLLATE "C", migration 20261128000500), because en-US
 * and bytes differ (`_a` < `A_b` < `a-b` < `B_c` in en-US; `A_b` < `B_c` < `_a` < `a-b` in bytes).
 * ICU's, not glibc's: Debian's only UTF-8 glibc locale, C.UTF-8, sorts by code point as C does,
 * and en_US is rarely generated on a test machine; ICU's locales come with PostgreSQL 15+. The
 * cluster itself stays C: the time-series store's own tests (testing-stores.ts, a database per
 * property run) took half again as long on an en-US cluster and passed their 30 s beside
 * another file.
 */
const DEFAULT_TEST_LOCALE: TestLocale = { icu: 'en-US' };

/** The migrated template's name, when postgres-global-setup.ts made one for the run. */
const TEMPLATE_ENV = 'PLANT_TEST_POSTGRES_TEMPLATE';

/**
 * A database with the default test locale and every migration applied (the platform's and the
 * time-series store's), made once per run (postgres-global-setup.ts): each test server's database
 * is then a copy of it (`create database … template …`, a few milliseconds) instead of an empty
 * one its server migrates (most of a second). Nothing connects to it after this.
 */
export async function makeMigratedTemplate(adminUrl: string): Promise<string> {
  const made = await createTestDatabase(adminUrl, DEFAULT_TEST_LOCALE);
  const db = openPostgres(made.url);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const store = await openPostgresTimeSeriesStore(made.url);
  await store.close();
  return new URL(made.url).pathname.slice(1);
}

export function setMigratedTemplate(name: string | undefined): void {
  if (name === undefined) delete process.env[TEMPLATE_ENV];
  else process.env[TEMPLATE_ENV] = name;
}

/**
 * A platform database to start test databases from: on SQLite its file's bytes (nothing left on
 * disk), on Postgres a database nothing connects to any more, copied as a template.
 */
export interface DatabaseCopy {
  readonly file: Buffer | undefined;
  readonly databaseUrl: string | undefined;
}

/**
 * A test's database. With `dataDir` (a restart on an existing folder) the folder's database is
 * found again: the Postgres URL is kept in a file beside the SQLite files. A new Postgres
 * database gets `locale`, by default en-US (above). `migrated`: for a test server, which migrates
 * at its start anyway: on Postgres a copy of the run's migrated template (when there is one and
 * no other locale is asked for); otherwise, and always for the migration tests, empty.
 * `copyOf`: a copy of a database kept for it (`DatabaseCopy`).
 */
export async function testDatabase(
  dataDir?: string,
  options: {
    readonly locale?: TestLocale;
    readonly migrated?: boolean;
    readonly copyOf?: DatabaseCopy;
  } = {},
): Promise<TestDatabase> {
  const dir = dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'plant-test-')));
  let databaseUrl: string | undefined;
  let drop: () => Promise<void> = () => Promise.resolve();
  const { copyOf } = options;
  if (copyOf?.file !== undefined) await fs.writeFile(path.join(dir, DATABASE_FILE), copyOf.file);
  if (testsOnPostgres()) {
    const kept = await fs.readFile(path.join(dir, URL_FILE), 'utf8').catch(() => undefined);
    if (kept === undefined) {
      const template =
        copyOf?.databaseUrl === undefined
          ? options.migrated === true && options.locale === undefined
            ? process.env[TEMPLATE_ENV]
            : undefined
          : new URL(copyOf.databaseUrl).pathname.slice(1);
      const made =
        template !== undefined
          ? await createTestDatabase(adminUrl(), undefined, template)
          : await createTestDatabase(adminUrl(), options.locale ?? DEFAULT_TEST_LOCALE);
      databaseUrl = made.url;
      drop = () => made.drop();
      await fs.writeFile(path.join(dir, URL_FILE), made.url);
    } else {
      databaseUrl = kept;
    }
  }
  return {
    dataDir: dir,
    databaseUrl,
    open: () => openConfiguredDatabase({ dataDir: dir, databaseUrl }),
    remove: async () => {
      await drop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
