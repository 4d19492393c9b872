import type { Kysely } from 'kysely';

/**
 * Lists in their order (issue 13): a bootstrap's first page can be the first rows of the list the
 * user looks at, by type or by parent, sorted by the registry's sort key then id. Without these
 * the read sorts every model of the type (50,000 for a large account) to answer 100.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('models_type_order')
    .on('models')
    .columns(['account_id', 'type', 'sort_key', 'id'])
    .execute();
  await db.schema
    .createIndex('models_parent_order')
    .on('models')
    .columns(['account_id', 'parent_type', 'parent_id', 'type', 'sort_key', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('models_parent_order').execute();
  await db.schema.dropIndex('models_type_order').execute();
}
