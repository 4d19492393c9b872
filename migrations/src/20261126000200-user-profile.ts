import type { Kysely } from 'kysely';

/**
 * A user's phone and notification settings (spec 001 §3 User: "notification channels and
 * times"): channels and a window of times as JSON, read by the alarms when they deliver.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('notifications', 'text', (c) =>
      c.notNull().defaultTo('{"channels":["mail"],"window":null}'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('notifications').execute();
  await db.schema.alterTable('users').dropColumn('phone').execute();
}
