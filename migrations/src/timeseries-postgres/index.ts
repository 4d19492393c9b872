import type { Migration } from 'kysely';
import * as timeSeries from './20261126000000-time-series';
import * as textByteOrder from './20261128000500-text-byte-order';

/**
 * The migrations of the time-series store on PostgreSQL (`openPostgresTimeSeriesStore`), run at
 * every start and recorded in `ts_migration` (lock: `ts_migration_lock`): the store shares the
 * platform's database, whose own migrations are recorded in `kysely_migration`. The SQLite store
 * has its own set (`../timeseries/`): a change to the store's schema is a migration in both.
 */
export const postgresTimeSeriesMigrations: Record<string, Migration> = {
  '20261126000000-time-series': timeSeries,
  '20261128000500-text-byte-order': textByteOrder,
};
