import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openConfiguredDatabase, type Db } from '../db/database';
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
 * A test's database. With `dataDir` (a restart on an existing folder) the folder's database is
 * found again: the Postgres URL is kept in a file beside the SQLite files. A new Postgres
 * database gets the server's default collation (ICU en-US in local-postgres.ts), or `locale`.
 */
export async function testDatabase(
  dataDir?: string,
  options: { readonly locale?: TestLocale } = {},
): Promise<TestDatabase> {
  const dir = dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'plant-test-')));
  let databaseUrl: string | undefined;
  let drop: () => Promise<void> = () => Promise.resolve();
  if (testsOnPostgres()) {
    const kept = await fs.readFile(path.join(dir, URL_FILE), 'utf8').catch(() => undefined);
    if (kept === undefined) {
      const made = await createTestDatabase(adminUrl(), options.locale);
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
