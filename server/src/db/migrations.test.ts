import { afterEach, describe, expect, it } from 'vitest';
import { attributeText, databaseKind, migrateDown, migrateToLatest, type Db } from './database';
import { sql } from 'kysely';
import { migrations } from '@plant/migrations';
import { ACCESS_TABLES } from '../../../migrations/src/20261122000100-access-version';
import { testDatabase, testsOnPostgres, type TestDatabase } from '../testing/test-database';
import type { TestLocale } from '../testing/local-postgres';

const made: TestDatabase[] = [];
afterEach(async () => {
  for (const database of made.splice(0)) await database.remove();
});

/** A fresh database of the engine this project runs on (SQLite file or Postgres database). */
async function fresh(locale?: TestLocale): Promise<Db> {
  const database = await testDatabase(undefined, locale === undefined ? {} : { locale });
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

/**
 * How each text column of the platform's tables sorts: Postgres's collation per column (kysely's
 * and the time-series store's `ts_` tables aside), SQLite's CREATE statements (a COLLATE there
 * would show).
 */
async function textCollations(db: Db): Promise<string[]> {
  if (databaseKind(db) === 'postgres') {
    const { rows } = await sql<{ c: string }>`
      select c.relname || '.' || a.attname || ' ' || coalesce(l.collname, '?') as c
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        left join pg_collation l on l.oid = a.attcollation
       where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
         and c.relname not like 'kysely\_%' and c.relname not like 'ts\_%'
         and a.attnum > 0 and not a.attisdropped and a.attcollation <> 0
       order by 1`.execute(db);
    return rows.map((r) => r.c);
  }
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master
    where sql is not null and name not like 'kysely_%' order by name`.execute(db);
  return rows.map((r) => r.sql).filter((text) => /collate/i.test(text));
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
      // Besides: role_assets and role_fields (migration 20261126000000), 3 each; on SQLite the
      // three that keep the help centre's FTS5 table equal to article_search (20261130000100);
      // service_access's 3 (an agent's view of a request's machine, 20261130000300).
      const ftsTriggers = databaseKind(db) === 'sqlite' ? 3 : 0;
      expect(triggers).toHaveLength(ACCESS_TABLES.length * 3 - 1 + 6 + ftsTriggers + 3);
      expect(triggers).toContain('service_access_delete_access_version');
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

  it('text sorts in byte order whatever the database was made with: a C database and an en-US one end in the same schema', async () => {
    // Ids, sort keys and cursors are compared in byte order by SQLite and the browser too.
    const c = await fresh({ libc: 'C' });
    const enUs = await fresh({ icu: 'en-US' });
    try {
      await migrateToLatest(c);
      await migrateToLatest(enUs);
      const columns = await textCollations(enUs);
      expect(await textCollations(c)).toEqual(columns);
      if (testsOnPostgres()) {
        expect(columns.length).toBeGreaterThan(50);
        // A text column a later migration adds must be `textType(db)` (migrations/src/dialect.ts).
        expect(columns.filter((col) => !col.endsWith(' C'))).toEqual([]);
      } else {
        expect(columns).toEqual([]);
      }
      // An expression too, which no column's collation reaches: a model attribute ordered by.
      const values = ['_x', '-x', '~x', '0x', 'x'].map(
        (x) => sql`(${x}, ${JSON.stringify({ x })})`,
      );
      const { rows } = await sql<{ x: string }>`
        select x from (select column1 as x, column2 as attributes
                         from (values ${sql.join(values)}) as v) as t
         order by ${attributeText(enUs, 'x')}`.execute(enUs);
      expect(rows.map((r) => r.x)).toEqual(['-x', '0x', '_x', 'x', '~x']);
    } finally {
      await c.destroy();
      await enUs.destroy();
    }
  });
});
