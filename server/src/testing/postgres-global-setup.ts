import { startLocalPostgres } from './local-postgres';
import { startLocalRedis } from './local-redis';
import { makeMigratedTemplate, setMigratedTemplate } from './test-database';

/**
 * vitest globalSetup of the `server-postgres` project (issue 14): one throwaway PostgreSQL server
 * and one Redis for the run, their URLs in PLANT_TEST_POSTGRES_URL and PLANT_TEST_REDIS_URL (the
 * test workers start after this and inherit them). Every test server then makes its own database
 * on it (`createTestDatabase`), as it makes its own SQLite file in the `server` project; the
 * cluster tests run their processes on both. URLs already set are used as they are.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  if (process.env.PLANT_TEST_POSTGRES_URL === undefined) {
    const postgres = await startLocalPostgres();
    process.env.PLANT_TEST_POSTGRES_URL = postgres.url;
    // Test servers' databases are copies of one migrated database (test-database.ts).
    setMigratedTemplate(await makeMigratedTemplate(postgres.url));
    stops.push(async () => {
      setMigratedTemplate(undefined);
      delete process.env.PLANT_TEST_POSTGRES_URL;
      await postgres.stop();
    });
  }
  if (process.env.PLANT_TEST_REDIS_URL === undefined) {
    const redis = await startLocalRedis();
    process.env.PLANT_TEST_REDIS_URL = redis.url;
    stops.push(async () => {
      delete process.env.PLANT_TEST_REDIS_URL;
      await redis.stop();
    });
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
