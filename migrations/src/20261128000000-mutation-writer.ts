import type { Kysely } from 'kysely';

/**
 * Who made each applied mutation, and what it needed of which assets (issue 28 item 6): a
 * repeated mutation id is answered again only to the user who made it, and only while that user
 * still passes the access checks the first write passed (`asset_checks`, a JSON list of
 * `{asset, edit}`). Rows from before have no writer and are answered to nobody (409), which an
 * outbox meets only for a write sent just before the upgrade and retried after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('applied_mutations').addColumn('user_id', 'text').execute();
  await db.schema
    .alterTable('applied_mutations')
    .addColumn('asset_checks', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('applied_mutations').dropColumn('asset_checks').execute();
  await db.schema.alterTable('applied_mutations').dropColumn('user_id').execute();
}
