import type { Kysely } from 'kysely';

/**
 * The sign-in a push subscription was sent with (issue 17): signing out ends it, so a shared
 * workshop tablet stops showing the alarms of whoever signed out there. Rows from before have
 * none and stay until their user's next subscription of that browser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_subscriptions').addColumn('token_id', 'text').execute();
  await db.schema
    .createIndex('push_subscriptions_token')
    .on('push_subscriptions')
    .column('token_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('push_subscriptions_token').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('token_id').execute();
}
