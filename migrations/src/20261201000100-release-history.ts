import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Release management's history (issue 35 item 5): every version made, changed and moved, every
 * rollout started and moved, and every gateway's step in a rollout, with who did it (a user, or
 * none: the server or the gateway's agent) and when. Written in the transaction of the change;
 * kept with the account (the change log beside it is pruned, this is not).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('release_history')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('release_id', text, (c) => c.notNull())
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('event', text, (c) => c.notNull())
    .addColumn('from_state', text)
    .addColumn('to_state', text)
    .addColumn('detail', text)
    .addColumn('by_user', text)
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('release_history_release')
    .on('release_history')
    .columns(['account_id', 'release_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('release_history').execute();
}
