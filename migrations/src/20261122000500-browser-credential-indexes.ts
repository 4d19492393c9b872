import type { Kysely } from 'kysely';

/**
 * Indexes for what touches browser credentials besides CONNECT: revoking a user's (account switch)
 * or a browser's (new credentials) and pruning ended ones by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('browser_credentials_user_browser')
    .on('browser_credentials')
    .columns(['user_id', 'browser_id'])
    .execute();
  await db.schema
    .createIndex('browser_credentials_expires')
    .on('browser_credentials')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('browser_credentials_expires').execute();
  await db.schema.dropIndex('browser_credentials_user_browser').execute();
}
