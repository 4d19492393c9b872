import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase, type Db } from './database';
import { sql } from 'kysely';
import { migrations } from '@plant/migrations';
import { ACCESS_TABLES } from '../../../migrations/src/20261122000100-access-version';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function userTables(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}

describe('migrations', () => {
  it('run every up, then every down, on a fresh SQLite file, and up again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-migrations-'));
    dirs.push(dir);
    const db = openDatabase(dir);
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
      const triggers = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'trigger'`.execute(db);
      expect(triggers.rows.map((r) => r.name)).toHaveLength(ACCESS_TABLES.length * 3 - 1);
      expect(triggers.rows.map((r) => r.name)).toContain('permissions_update_access_version');
    } finally {
      await db.destroy();
    }
  });

  it('opens the database in WAL mode with foreign keys on', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-migrations-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    try {
      await migrateToLatest(db);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
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
      ).rejects.toThrow(/FOREIGN KEY/);
    } finally {
      await db.destroy();
    }
  });
});
