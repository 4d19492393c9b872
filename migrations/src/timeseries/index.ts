import type { Migration } from 'kysely';
import * as timeSeries from './20261124000000-time-series';

/**
 * The migrations of the time-series store's own file (`timeseries.sqlite`), run by
 * `openTimeSeriesStore` at every start and recorded in that file's own kysely_migration table.
 * Apart from `migrations` (the platform database): a new migration is one file plus one line here.
 */
export const timeSeriesMigrations: Record<string, Migration> = {
  '20261124000000-time-series': timeSeries,
};
