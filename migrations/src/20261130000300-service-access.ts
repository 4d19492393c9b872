import { sql, type Kysely } from 'kysely';
import { isPostgres, textType } from './dialect';

/**
 * Service requests (issue 34 item 2, DESIGN.md §14): the agent a request is assigned to sees the
 * request's asset, and only while the request is open. One row per open, assigned request, kept
 * by the server in the request's write transaction; read with a user's other grants. Changes
 * bump access_version like the other access tables (migration 20261122000100), so every
 * process's cached sessions see an assignment or a close at once.
 */
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('service_access')
    .addColumn('request_id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('asset_id', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('service_access_account_user')
    .on('service_access')
    .columns(['account_id', 'user_id'])
    .execute();
  for (const event of EVENTS) {
    const name = `service_access_${event}_access_version`;
    // bump_access_version() is the Postgres trigger function of migration 20261122000100.
    await sql
      .raw(
        isPostgres(db)
          ? `create trigger ${name} after ${event} on service_access ` +
              `for each row execute function bump_access_version()`
          : `create trigger ${name} after ${event} on service_access ` +
              `begin update access_version set v = v + 1 where id = 1; end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of EVENTS) {
    const name = `service_access_${event}_access_version`;
    await sql
      .raw(isPostgres(db) ? `drop trigger ${name} on service_access` : `drop trigger ${name}`)
      .execute(db);
  }
  await db.schema.dropTable('service_access').execute();
}
