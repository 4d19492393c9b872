import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * What the feedback centre tells a ticket's reporter by mail (issue 34 item 1): one row per
 * answer, decline or progress step, written in the transaction that changes the ticket, so a
 * step is told once even when the process dies before the mail went out (the outbox). The
 * cluster's leader sends them: a row is claimed with a lease (`lease_until`), marked `sent_at`
 * once the mail went, tried again at `retry_at` (bounded by `attempts`); `error` keeps why the
 * last try failed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('ticket_notices')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('ticket_id', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('body', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('error', text)
    .execute();
  await db.schema
    .createIndex('ticket_notices_due')
    .on('ticket_notices')
    .columns(['sent_at', 'retry_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ticket_notices').execute();
}
