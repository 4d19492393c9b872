import { afterEach, describe, expect, it } from 'vitest';
import { databaseKind, migrateDown, migrateToLatest, type Db } from './database';
import { sql } from 'kysely';
import { migrations } from '@plant/migrations';
import { ACCESS_TABLES } from '../../../migrations/src/20261122000100-access-version';
import { testDatabase, testsOnPostgres, type TestDatabase } from '../testing/test-database';

const made: TestDatabase[] = [];
afterEach(async () => {
  for (const database of made.splice(0)) await database.remove();
});

/** A fresh database of the engine this project runs on (SQLite file or Postgres database). */
async function fresh(): Promise<Db> {
  const database = await testDatabase();
  made.push(database);
  return database.open();
}

/** The access-version triggers in place (one row per trigger). */
async function triggerNames(db: Db): Promise<string[]> {
  const { rows } =
    databaseKind(db) === 'postgres'
      ? await sql<{ name: string }>`select tgname as name from pg_trigger
          where not tgisinternal`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'trigger'`.execute(db);
  return rows.map((r) => r.name);
}

async function userTables(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}

describe('migrations', () => {
  it('run every up, then every down, on a fresh database, and up again', async () => {
    const db = await fresh();
    try {
      await migrateToLatest(db);
      const afterUp = await userTables(db);
      expect(afterUp).toEqual(
        expect.arrayContaining([
          'accounts',
          'users',
          'roles',
          'memberships',
          'permissions',
          'tags',
          'access_tokens',
        ]),
      );
      const applied = await db
        .selectFrom('kysely_migration' as 'users')
        .select('name' as 'id')
        .execute();
      expect(applied).toHaveLength(Object.keys(migrations).length);

      let downs = 0;
      while (await migrateDown(db)) downs += 1;
      expect(downs).toBe(Object.keys(migrations).length);
      // Only kysely's own bookkeeping is left.
      expect((await userTables(db)).filter((t) => !t.startsWith('kysely_'))).toEqual([]);

      await migrateToLatest(db);
      expect(await userTables(db)).toEqual(afterUp);
      // The session cache is only safe with every access-version trigger in place.
      const triggers = await triggerNames(db);
      // Besides: role_assets and role_fields (migration 20261126000000), 3 each.
      expect(triggers).toHaveLength(ACCESS_TABLES.length * 3 - 1 + 6);
      expect(triggers).toContain('role_assets_insert_access_version');
      expect(triggers).toContain('permissions_update_access_version');
    } finally {
      await db.destroy();
    }
  });

  it('opens the database with foreign keys enforced (SQLite: in WAL mode)', async () => {
    const db = await fresh();
    try {
      await migrateToLatest(db);
      if (!testsOnPostgres()) {
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
        expect(mode.rows[0]?.journal_mode).toBe('wal');
      }
      // A membership in a role of another account violates the composite foreign key.
      const at = new Date().toISOString();
      await db
        .insertInto('accounts')
        .values([
          { id: 'a1', name: 'A', created_at: at, updated_at: at },
          { id: 'a2', name: 'B', created_at: at, updated_at: at },
        ])
        .execute();
      await db
        .insertInto('roles')
        .values({ id: 'r1', account_id: 'a1', slug: 'admin', name: 'Admin' })
        .execute();
      await db
        .insertInto('users')
        .values({
          id: 'u1',
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'a@x.io',
          password_hash: 'x',
          active_account_id: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await expect(
        db
          .insertInto('memberships')
          .values({ user_id: 'u1', account_id: 'a2', role_id: 'r1', created_at: at })
          .execute(),
      ).rejects.toThrow(/foreign key/i);
    } finally {
      await db.destroy();
    }
  });
});
