import type { Kysely } from 'kysely';

/**
 * Synced models and the change log (DESIGN.md §2 invariants 2, 3 and 6).
 * - models: every synced model of every type, one row each; attributes as JSON. One table, like
 *   the worker's local store, because the generic routes and the snapshot treat all types alike.
 * - account_clocks: per account, the last seq and ts handed out.
 * - model_updates: the log; (account_id, seq) is gapless, written in the same transaction as the
 *   change it describes.
 * - applied_mutations: client mutation ids already applied, with the answer they got.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('sort_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('models_account_type')
    .on('models')
    .columns(['account_id', 'type', 'id'])
    .execute();
  await db.schema
    .createIndex('models_parent')
    .on('models')
    .columns(['account_id', 'parent_type', 'parent_id'])
    .execute();

  await db.schema
    .createTable('account_clocks')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('model_updates')
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('muid', 'text', (c) => c.notNull().unique())
    .addColumn('msg', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_updates_pk', ['account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('model_updates_account_ts')
    .on('model_updates')
    .columns(['account_id', 'ts'])
    .execute();

  await db.schema
    .createTable('applied_mutations')
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('mutation_id', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('applied_mutations_pk', ['account_id', 'mutation_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['applied_mutations', 'model_updates', 'account_clocks', 'models']) {
    await db.schema.dropTable(table).execute();
  }
}
