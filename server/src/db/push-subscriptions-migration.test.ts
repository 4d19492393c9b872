import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, type Db } from './database';
import { testDatabase, type TestDatabase } from '../testing/test-database';

const made: TestDatabase[] = [];
afterEach(async () => {
  for (const database of made.splice(0)) await database.remove();
});

const MIGRATION = '20261126000400-push-subscriptions';

async function applied(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return rows.map((r) => r.name);
}

describe('migration 20261126000400-push-subscriptions', () => {
  it('keeps the newest row of an endpoint two users held, then holds each endpoint once', async () => {
    const database = await testDatabase();
    made.push(database);
    const db = database.open();
    try {
      await migrateToLatest(db);
      while ((await applied(db)).includes(MIGRATION)) await migrateDown(db);

      const at = '2026-11-20T08:00:00.000Z';
      for (const id of ['u1', 'u2']) {
        await sql`insert into users (id, firstname, lastname, email, password_hash, created_at, updated_at)
          values (${id}, 'A', 'B', ${`${id}@plant.example`}, 'x', ${at}, ${at})`.execute(db);
      }
      const row = (id: string, user: string, endpoint: string, updated: string) =>
        sql`insert into push_subscriptions (id, user_id, endpoint, public_key, auth_token,
            content_encoding, created_at, updated_at)
          values (${id}, ${user}, ${endpoint}, 'k', 'a', 'aes128gcm', ${at}, ${updated})`.execute(
          db,
        );
      await row('s1', 'u1', 'https://push.example/tablet', '2026-11-20T09:00:00.000Z');
      await row('s2', 'u2', 'https://push.example/tablet', '2026-11-21T09:00:00.000Z');
      await row('s3', 'u1', 'https://push.example/phone', '2026-11-20T09:00:00.000Z');

      await migrateToLatest(db);
      const { rows } = await sql<{ id: string; last_used_at: string | null }>`
        select id, last_used_at from push_subscriptions order by id`.execute(db);
      expect(rows).toEqual([
        { id: 's2', last_used_at: null },
        { id: 's3', last_used_at: null },
      ]);
      await expect(row('s4', 'u1', 'https://push.example/tablet', at)).rejects.toThrow();
    } finally {
      await db.destroy();
    }
  });
});
