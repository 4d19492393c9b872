import type { Kysely } from 'kysely';

/**
 * What each applied mutation id was used for ("update assets <id>"): a repeated id is answered
 * again only for the same operation; the same id on another operation is a client bug, refused.
 * Rows from before this migration have '' and are answered as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('applied_mutations')
    .addColumn('op', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('applied_mutations_created')
    .on('applied_mutations')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('applied_mutations_created').execute();
  await db.schema.alterTable('applied_mutations').dropColumn('op').execute();
}
