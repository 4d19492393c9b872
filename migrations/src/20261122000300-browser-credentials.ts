import type { Kysely } from 'kysely';

/**
 * Per-browser broker credentials (GET user/browser/mqtt). Bound to the access token they were
 * issued under: they end with it (logout, expiry) and on an account switch. Passwords are 32
 * random bytes, stored as SHA-256.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('browser_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('token_id', 'text', (c) =>
      c.notNull().references('access_tokens.id').onDelete('cascade'),
    )
    .addColumn('browser_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('clientid', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('browser_credentials_token')
    .on('browser_credentials')
    .column('token_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('browser_credentials').execute();
}
