import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, uuidv7, type CurrentUser } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/**
 * Sessions are cached (see session.service.ts). These tests change rights the way another
 * process or a later feature would, straight in the database, and check that the very next
 * request sees the change: the cache never serves stale rights.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function user(token: string) {
  const res = await s.call('GET', apiPaths.user(), { token });
  return { status: res.status, user: res.status === 200 ? dataOf<CurrentUser>(res) : undefined };
}

describe('the session cache', () => {
  it('a permission granted by another connection shows at the next request', async () => {
    const token = await s.signIn(DEMO_USERS.tech);
    const first = (await user(token)).user;
    expect(first?.permissions.map((p) => p.name)).not.toContain('dashboard::edit');
    await user(token); // served from the cache now

    // Another connection to the same database: as a second server process would write.
    const other = s.openDatabase();
    try {
      await other
        .insertInto('permissions')
        .values({
          id: uuidv7(),
          name: 'dashboard::edit',
          role_id: first?.activeRoles[0]?.id ?? '',
          user_id: null,
          guard_name: 'api',
          account_id: first?.account ?? '',
        })
        .execute();
    } finally {
      await other.destroy();
    }
    expect((await user(token)).user?.permissions.map((p) => p.name)).toContain('dashboard::edit');
  });

  it('a change rolled back inside an open transaction never reaches a cached session; the next commit does', async () => {
    const token = await s.signIn(DEMO_USERS.tech);
    const first = (await user(token)).user;
    await user(token); // cached at the current access version
    const permission = (name: string) => ({
      id: uuidv7(),
      name,
      role_id: first?.activeRoles[0]?.id ?? '',
      user_id: null,
      guard_name: 'api',
      account_id: first?.account ?? '',
    });
    let during: ReturnType<typeof user> | undefined;
    await expect(
      s.db.transaction().execute(async (trx) => {
        await trx.insertInto('permissions').values(permission('ghost::write')).execute();
        // A request while the transaction is open, on the server's own connection.
        during = user(token);
        await new Promise((r) => setTimeout(r, 200));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const names = async (p: ReturnType<typeof user> | undefined) =>
      ((await p)?.user?.permissions ?? []).map((x) => x.name);
    expect(await names(during)).not.toContain('ghost::write');
    // The rolled-back insert had moved the version inside the transaction; the next committed
    // change lands on that same number. A cache entry tagged from inside the transaction would
    // now be taken for current.
    await s.db.insertInto('permissions').values(permission('real::write')).execute();
    const after = await names(user(token));
    expect(after).toContain('real::write');
    expect(after).not.toContain('ghost::write');
  });

  it('a token revoked in the database stops working at once', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    expect((await user(token)).status).toBe(200);
    expect((await user(token)).status).toBe(200);
    await s.db.updateTable('access_tokens').set({ revoked_at: new Date().toISOString() }).execute();
    expect((await user(token)).status).toBe(401);
  });

  it('a user demoted to norole, then removed, loses the API at the next request', async () => {
    const token = await s.signIn(DEMO_USERS.internal);
    const before = (await user(token)).user;
    expect(before?.activeRoles.map((r) => r.slug)).toEqual(['supervisor']);
    const noroleId = (
      await s.db
        .selectFrom('roles')
        .select('id')
        .where('account_id', '=', before?.account ?? '')
        .where('slug', '=', 'norole')
        .executeTakeFirstOrThrow()
    ).id;
    await s.db
      .updateTable('memberships')
      .set({ role_id: noroleId })
      .where('user_id', '=', before?.id ?? '')
      .execute();
    const demoted = await s.call('GET', apiPaths.user(), { token });
    expect(demoted.status).toBe(403);
    expect((demoted.json as { message: string }).message).toMatch(/no role/);
    expect((await s.call('GET', apiPaths.style(), { token })).status).toBe(403);
    await s.db
      .deleteFrom('memberships')
      .where('user_id', '=', before?.id ?? '')
      .execute();
    expect((await user(token)).status).toBe(403);
  });

  it('signing in leaves the access version (and so every cached session) alone; logout moves it', async () => {
    const version = async () =>
      (await s.db.selectFrom('access_version').select('v').executeTakeFirstOrThrow()).v;
    const before = await version();
    const token = await s.signIn(DEMO_USERS.tech);
    expect(await version()).toBe(before);
    await s.call('POST', apiPaths.logout(), { token });
    expect(await version()).toBeGreaterThan(before);
  });

  it('a statement that changes no row leaves the access version (and every cached session) alone', async () => {
    const version = async () =>
      (await s.db.selectFrom('access_version').select('v').executeTakeFirstOrThrow()).v;
    const before = await version();
    await s.db
      .updateTable('access_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', 'no-such-token')
      .execute();
    await s.db.deleteFrom('user_tags').where('user_id', '=', 'no-such-user').execute();
    expect(await version()).toBe(before);
  });

  it('an account renamed shows at once', async () => {
    const token = await s.signIn(DEMO_USERS.south);
    const before = (await user(token)).user;
    await s.db
      .updateTable('accounts')
      .set({ name: 'Customer South (renamed)' })
      .where('id', '=', before?.account ?? '')
      .execute();
    expect((await user(token)).user?.activeAccount?.name).toBe('Customer South (renamed)');
  });
});
