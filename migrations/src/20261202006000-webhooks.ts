import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Webhook integrations (issue 37 item 6).
 *
 * - `webhook_cursor`: how far the leader read `alarm_events` (the last event's `created_at` and
 *   id), kept with the deliveries it made and at its stop. Not a mark on each event: a write per
 *   alarm event, wanted by a webhook or not, raced every other writer's transactions (a second
 *   process's dispatcher met "database is locked" on SQLite).
 * - `webhook_deliveries`: the outbox and the delivery log in one. One row per post to one
 *   webhook: an alarm event's (key `alarm:<event id>`, unique per integration, so an event is
 *   enqueued once per webhook however often it is looked at) or a batch of an asset's values
 *   (`values:<asset>:<id>`). `body` is fixed when the row is made (a retry sends the same bytes);
 *   `attempts` counts tries, `attempt_log` keeps each one (JSON: time, status or error, ms;
 *   bounded by the sender's maximum); `next_at` is when it is due, `lease_until` a claim's end.
 * - `integration_secrets`: each webhook's signing secret, sealed with the server's key
 *   (DATA_DIR/integration-key), never synced, never logged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('webhook_cursor')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('event_id', text, (c) => c.notNull())
    .execute();
  // The leader reads events in (created_at, id) order from its cursor.
  await db.schema
    .createIndex('alarm_events_created')
    .on('alarm_events')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('integration_id', text, (c) => c.notNull())
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('event_type', text, (c) => c.notNull())
    .addColumn('asset_id', text)
    .addColumn('alarm_id', text)
    .addColumn('points', 'integer')
    .addColumn('body', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt_log', text, (c) => c.notNull())
    .addColumn('next_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_once', ['integration_id', 'key'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['account_id', 'integration_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('integration_secrets')
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('integration_id', text, (c) => c.notNull())
    .addColumn('sealed', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_secrets_pk', ['account_id', 'integration_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('integration_secrets').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropIndex('alarm_events_created').execute();
  await db.schema.dropTable('webhook_cursor').execute();
}
