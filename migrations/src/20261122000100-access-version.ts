import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

/**
 * One counter that every change to who-may-do-what bumps, by trigger: users, accounts, roles,
 * memberships, permission records, tags, feature flags, OAuth clients and access tokens. The server
 * caches signed-in sessions and drops a cached one as soon as this counter moved, whichever process
 * or code path made the change. Triggers, not application code, so that no writer can forget.
 */
export const ACCESS_TABLES = [
  'users',
  'accounts',
  'roles',
  'memberships',
  'permissions',
  'tags',
  'user_tags',
  'feature_flags',
  'oauth_clients',
  'access_tokens',
] as const;

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * A new token cannot change any cached session (sessions are cached per token), and every
 * sign-in makes one: bumping on token inserts would empty the cache at every sign-in.
 */
const events = (table: (typeof ACCESS_TABLES)[number]) =>
  table === 'access_tokens' ? EVENTS.filter((e) => e !== 'insert') : EVENTS;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_version')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('v', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into access_version (id, v) values (1, 0)`.execute(db);
  // Postgres: one trigger function, run for each row changed, as SQLite's triggers run (a
  // statement that changes no row bumps nothing: a revoke of nothing keeps every cached
  // session); it runs in the writer's transaction, so the bump commits or rolls back with the
  // change, for every process reading the counter.
  if (isPostgres(db)) {
    await sql`
      create function bump_access_version() returns trigger language plpgsql as $$
      begin
        update access_version set v = v + 1 where id = 1;
        return null;
      end $$`.execute(db);
  }
  for (const table of ACCESS_TABLES) {
    for (const event of events(table)) {
      const name = `${table}_${event}_access_version`;
      await sql
        .raw(
          isPostgres(db)
            ? `create trigger ${name} after ${event} on ${table} ` +
                `for each row execute function bump_access_version()`
            : `create trigger ${name} after ${event} on ${table} ` +
                `begin update access_version set v = v + 1 where id = 1; end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ACCESS_TABLES) {
    for (const event of events(table)) {
      const name = `${table}_${event}_access_version`;
      await sql
        .raw(isPostgres(db) ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`)
        .execute(db);
    }
  }
  if (isPostgres(db)) await sql`drop function bump_access_version()`.execute(db);
  await db.schema.dropTable('access_version').execute();
}
