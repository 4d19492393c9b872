import type { Kysely } from 'kysely';

/**
 * The gateway terminal's audit list (spec 000 §2; issue 12): every command a user sent to a
 * gateway, refused ones too, with who sent it and what came back (cut to 4,000 characters).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('terminal_commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('gateway_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer')
    .addColumn('output', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_commands_gateway')
    .on('terminal_commands')
    .columns(['account_id', 'gateway_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('terminal_commands').execute();
}
