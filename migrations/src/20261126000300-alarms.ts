import type { Kysely } from 'kysely';

/**
 * Alarm evaluation (issue 17): where each alarm stands (`alarm_states`, one row per alarm, its
 * `version` the compare-and-set that lets only one server process record a transition) and what
 * happened (`alarm_events`: raised, cleared, acknowledged; the history per alarm, asset, account).
 * The alarms themselves are synced models (registry `alarm`) in `models`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alarm_states')
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('alarm_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint')
    .addColumn('value', 'double precision')
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('acknowledged', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_ts', 'bigint')
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alarm_states_pk', ['account_id', 'alarm_id'])
    .execute();
  await db.schema
    .createTable('alarm_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('alarm_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('by_user', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alarm_events_alarm')
    .on('alarm_events')
    .columns(['account_id', 'alarm_id', 'ts'])
    .execute();
  await db.schema
    .createIndex('alarm_events_asset')
    .on('alarm_events')
    .columns(['account_id', 'asset_id', 'ts'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alarm_events').execute();
  await db.schema.dropTable('alarm_states').execute();
}
