import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Report runs (issue 31 items 4 and 5). One row per report and due time: `run_key` is unique, so
 * with several server processes (or a leadership handed over mid-run) a run is made and sent
 * once. A run is claimed with a lease (`lease_until`): a process that died mid-run leaves it to be
 * taken again once the lease passed. A failed run is tried again at `retry_at` (bounded by
 * `attempts`). `recipients` and `files` are JSON: each recipient's outcome, and each file kept
 * in the reports' blob store (DATA_DIR/report-files) by its SHA-256 with the assets it shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('report_runs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('report_id', text, (c) => c.notNull())
    .addColumn('run_key', text, (c) => c.notNull().unique())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('from_ms', 'bigint', (c) => c.notNull())
    .addColumn('to_ms', 'bigint', (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('error', text)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('recipients', text, (c) => c.notNull())
    .addColumn('files', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('report_runs_report')
    .on('report_runs')
    .columns(['account_id', 'report_id', 'due_at'])
    .execute();
  await db.schema
    .createIndex('report_runs_retry')
    .on('report_runs')
    .columns(['state', 'retry_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('report_runs').execute();
}
