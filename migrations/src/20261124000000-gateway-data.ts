import { sql, type Kysely } from 'kysely';

/**
 * Machine data on the platform side (DESIGN.md §8):
 * - `gateway_credentials`: what a gateway agent signs in to the broker with. The secret is shown
 *   once and kept only as its SHA-256; making new ones revokes the old (rotation), and the
 *   broker closes the connections that used them.
 * - `gateway_configs`: the version and content hash of the configuration last sent to each
 *   gateway, so that a change that leaves the configuration as it was sends nothing.
 * - `connection_secrets`: the write-only parts of connection settings (an OPC UA password). They
 *   go to the gateway, never back to browsers, so they are not in the model's attributes.
 * - `accounts.value_retention_days`: how long values are kept (spec 001 §9: 30, 90, 182, 365).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('gateway_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('gateway_id', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('gateway_credentials_gateway')
    .on('gateway_credentials')
    .columns(['gateway_id', 'revoked_at'])
    .execute();
  await db.schema
    .createTable('gateway_configs')
    .addColumn('gateway_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('connection_secrets')
    .addColumn('connection_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('secrets', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('value_retention_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(30)
        .check(sql`value_retention_days in (30, 90, 182, 365)`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('value_retention_days').execute();
  await db.schema.dropTable('connection_secrets').execute();
  await db.schema.dropTable('gateway_configs').execute();
  await db.schema.dropTable('gateway_credentials').execute();
}
