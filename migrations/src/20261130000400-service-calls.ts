import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Calls of service requests (issue 34 item 3): one row per call, its two parties (who called,
 * the agent who took it) and its times. The broker's ACL reads it (only the two parties use the
 * call's topics, only while it lasts); the request keeps the same facts in its `calls`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('service_calls')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('request_id', text, (c) => c.notNull())
    .addColumn('caller_id', text, (c) => c.notNull())
    .addColumn('agent_id', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('service_calls_account_open')
    .on('service_calls')
    .columns(['account_id', 'ended_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_calls').execute();
}
