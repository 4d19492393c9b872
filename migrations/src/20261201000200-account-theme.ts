import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Themes and translations (issue 36): an account picks a theme (`theme_id`, a `theme` model of its own or of an
 * account above) and may be tied to a host (`host`, one account per host) whose sign-in page
 * shows it. The design columns of issue 30 (color1, color2, title, logo_desktop, logo_mobile,
 * login_image) stay until the server has moved each account's design into a theme of its own at
 * start (server/src/themes/adopt-designs.ts), which empties them; nothing reads them after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('accounts').addColumn('theme_id', text).execute();
  await db.schema.alterTable('accounts').addColumn('host', text).execute();
  await db.schema.createIndex('accounts_host').on('accounts').column('host').unique().execute();
  // When the account's translations last changed (ms): the accounts below read their words again.
  await db.schema
    .alterTable('accounts')
    .addColumn('texts_changed', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('texts_changed').execute();
  await db.schema.dropIndex('accounts_host').execute();
  await db.schema.alterTable('accounts').dropColumn('host').execute();
  await db.schema.alterTable('accounts').dropColumn('theme_id').execute();
}
