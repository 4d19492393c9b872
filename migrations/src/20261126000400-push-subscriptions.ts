import { sql, type Kysely } from 'kysely';

/**
 * Web push for alarms (issue 17 item 5). `push_subscriptions` exists since the shell, unique per
 * (user, endpoint). An endpoint is one browser profile's push channel, so it now belongs to one
 * user at a time: whoever signs in there and subscribes takes it over (the former user must not
 * get the next user's alarms on that screen). Rows of an endpoint held by several users keep the
 * newest. `last_used_at` says when a push last went through (stale ones can be told apart).
 * The old (user, endpoint) constraint stays: it is implied by the new one, and SQLite cannot drop
 * a table constraint without rebuilding the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from push_subscriptions
    where exists (
      select 1 from push_subscriptions newer
      where newer.endpoint = push_subscriptions.endpoint
        and (newer.updated_at > push_subscriptions.updated_at
          or (newer.updated_at = push_subscriptions.updated_at and newer.id > push_subscriptions.id))
    )
  `.execute(db);
  await db.schema
    .createIndex('push_subscriptions_endpoint')
    .on('push_subscriptions')
    .column('endpoint')
    .unique()
    .execute();
  await db.schema.alterTable('push_subscriptions').addColumn('last_used_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_subscriptions').dropColumn('last_used_at').execute();
  await db.schema.dropIndex('push_subscriptions_endpoint').execute();
}
