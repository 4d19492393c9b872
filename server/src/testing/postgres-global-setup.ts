import { startLocalPostgres } from './local-postgres';

/**
 * vitest globalSetup of the `server-postgres` project (issue 14): one throwaway PostgreSQL server
 * for the run, its admin URL in PLANT_TEST_POSTGRES_URL (the test workers start after this and
 * inherit it). Every test server then makes its own database on it (`createTestDatabase`), as
 * it makes its own SQLite file in the `server` project. A URL already set is used as it is.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.PLANT_TEST_POSTGRES_URL !== undefined) return () => Promise.resolve();
  const server = await startLocalPostgres();
  process.env.PLANT_TEST_POSTGRES_URL = server.url;
  return async () => {
    delete process.env.PLANT_TEST_POSTGRES_URL;
    await server.stop();
  };
}
