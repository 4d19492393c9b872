import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Two-factor sign-in (issue 38 item 2).
 *
 * - `user_totp`: a user's authenticator app secret, sealed with the server's key
 *   (DATA_DIR/integration-key, server/src/integrations/secret-box.ts): TOTP needs the secret
 *   itself, so it cannot be stored hashed. `confirmed_at` null: set up, not on yet. `last_step`:
 *   the 30-second step of the last code taken, so that a code is never taken twice.
 * - `user_recovery_codes`: ten per user, stored as their SHA-256 (high-entropy random codes, like
 *   tokens), `used_at` once used.
 * - `user_passkeys`: WebAuthn credentials: the id (base64url, unique), the public key as JWK
 *   JSON, its COSE algorithm, the authenticator's signature counter.
 * - `two_factor_challenges`: WebAuthn challenges (registration: the user's; sign-in: nobody's
 *   until the grant names the user), by the SHA-256 of the challenge, single use, short-lived.
 * - `two_factor_log`: who turned which factor on or off, used a recovery code, or reset another
 *   member's factors (the admin's reset of the issue: `actor_id` and the account it acted in).
 * - `accounts.second_factor`: who of the account's members must have a second factor (nobody,
 *   admins, everyone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .alterTable('accounts')
    .addColumn('second_factor', text, (c) => c.notNull().defaultTo('nobody'))
    .execute();

  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', text, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('sealed_secret', text, (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', text, (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_recovery_codes_user')
    .on('user_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('user_passkeys')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', text, (c) => c.notNull().unique())
    .addColumn('public_key', text, (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('user_passkeys_user').on('user_passkeys').column('user_id').execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('challenge_hash', text, (c) => c.primaryKey())
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_challenges_expiry')
    .on('two_factor_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('two_factor_log')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('actor_id', text, (c) => c.notNull())
    .addColumn('account_id', text)
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_log_user')
    .on('two_factor_log')
    .columns(['user_id', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('two_factor_log').execute();
  await db.schema.dropTable('two_factor_challenges').execute();
  await db.schema.dropTable('user_passkeys').execute();
  await db.schema.dropTable('user_recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
  await db.schema.alterTable('accounts').dropColumn('second_factor').execute();
}
