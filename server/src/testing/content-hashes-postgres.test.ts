import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/**
 * `contentHashes` on Postgres (the `server-postgres` project only: vitest.workspace.ts) remembers
 * the last hashes while its database's change counter stands still. What it must never do is
 * answer remembered hashes after a write: also one whose statement ended (the counter moved)
 * while its transaction was still open, which the hashes then could not see.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  expect(s.databaseUrl, 'runs on Postgres').toBeDefined();
});
afterAll(() => s.close());

describe('contentHashes on Postgres', () => {
  it('answers a change committed after a hash taken while its transaction was open', async () => {
    const before = await s.contentHashes();
    expect(await s.contentHashes()).toEqual(before);
    const other = s.openDatabase();
    try {
      await other.transaction().execute(async (trx) => {
        await sql`update accounts set name = name || ' (renamed)'`.execute(trx);
        // Not committed: the hashes cannot see it yet.
        expect(await s.contentHashes()).toEqual(before);
      });
      const after = await s.contentHashes();
      expect(after['accounts']).not.toBe(before['accounts']);
      // Nothing written since: the same again.
      expect(await s.contentHashes()).toEqual(after);
    } finally {
      await other.destroy();
    }
  });

  it('answers a write of its own database; a statement that changed nothing and a write of another database leave its hashes as they were', async () => {
    const before = await s.contentHashes();
    const neighbour = await startTestServer({ seed: 'none' });
    try {
      await sql`create table neighbour_writes (n int)`.execute(neighbour.db);
      await sql`insert into neighbour_writes values (1)`.execute(neighbour.db);
      expect(await s.contentHashes()).toEqual(before);
    } finally {
      await neighbour.close();
    }
    await sql`delete from accounts where false`.execute(s.db);
    expect(await s.contentHashes()).toEqual(before);
    await sql`update accounts set name = name || '!'`.execute(s.db);
    expect((await s.contentHashes())['accounts']).not.toBe(before['accounts']);
  });
});
