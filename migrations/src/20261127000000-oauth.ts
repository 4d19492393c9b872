import type { Kysely } from 'kysely';

/**
 * The developer area (issue 18). Clients get an owner, a kind (confidential or public, personal
 * access) and, for client credentials, the role their tokens act with. Tokens get the role they
 * act with and a flag that their scopes narrow them (the app's own sign-in is not narrowed), and
 * the family of refresh tokens they belong to. Authorization codes and refresh tokens are kept
 * only as SHA-256 hashes, like access tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('confidential', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('personal_access', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('oauth_clients').addColumn('role_id', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('updated_at', 'text').execute();
  await db.schema.createIndex('oauth_clients_user').on('oauth_clients').column('user_id').execute();

  await db.schema.alterTable('access_tokens').addColumn('role_id', 'text').execute();
  await db.schema
    .alterTable('access_tokens')
    .addColumn('scoped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('access_tokens').addColumn('family_id', 'text').execute();
  await db.schema.alterTable('access_tokens').addColumn('updated_at', 'text').execute();
  await db.schema
    .createIndex('access_tokens_family')
    .on('access_tokens')
    .column('family_id')
    .execute();
  await db.schema
    .createIndex('access_tokens_client')
    .on('access_tokens')
    .column('client_id')
    .execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('access_token_id', 'text', (c) =>
      c.notNull().references('access_tokens.id').onDelete('cascade'),
    )
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('oauth_refresh_tokens_family')
    .on('oauth_refresh_tokens')
    .column('family_id')
    .execute();
  await db.schema
    .createIndex('oauth_refresh_tokens_access')
    .on('oauth_refresh_tokens')
    .column('access_token_id')
    .execute();

  await db.schema
    .createTable('oauth_auth_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    /** 1: the request named its redirect, which the exchange must then name too. */
    .addColumn('redirect_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code_challenge', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    /** The family of the tokens the code was exchanged for: a second use revokes it. */
    .addColumn('family_id', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oauth_auth_codes').execute();
  await db.schema.dropTable('oauth_refresh_tokens').execute();
  await db.schema.dropIndex('access_tokens_client').execute();
  await db.schema.dropIndex('access_tokens_family').execute();
  for (const column of ['updated_at', 'family_id', 'scoped', 'role_id']) {
    await db.schema.alterTable('access_tokens').dropColumn(column).execute();
  }
  await db.schema.dropIndex('oauth_clients_user').execute();
  for (const column of ['updated_at', 'role_id', 'personal_access', 'confidential', 'user_id']) {
    await db.schema.alterTable('oauth_clients').dropColumn(column).execute();
  }
}
