import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  hiddenUpdateOf,
  topics,
  type ModelUpdate,
  type UpdateMessage,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { ManualClock, startTestServer, type TestServer } from '../testing/harness';
import {
  asOptions,
  brokerClients,
  closing,
  collect,
  settle,
  until,
  within,
} from '../testing/mqtt-client';

/** The re-check interval here: the tests wait a few of them, never the default 30 s. */
const RECHECK_MS = 100;

let s: TestServer;
const clock = new ManualClock(Date.now());
const { session, connect, refused, closeAll } = brokerClients(() => s);

beforeAll(async () => {
  s = await startTestServer({ clock, brokerRecheckMs: RECHECK_MS });
});
afterEach(() => closeAll());
afterAll(() => s.close());

/**
 * Resolves when the connection closes, fails the test if it does not within 10 s: a re-check's
 * reads on a busy machine (and Postgres) take more than its interval, and without the re-check
 * (every 30 s by default) it would not close at all.
 */
const closedWithin = (closed: Promise<void>) => within(closed, 10_000);

describe('the broker re-checks open connections', () => {
  it('a permission taken or given back reaches an open connection within a re-check interval', async () => {
    const admin = await session(DEMO_USERS.admin);
    const tech = await session(DEMO_USERS.tech);
    const client = await connect(tech.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.modelUpdates(tech.user.account));
    // The re-check that saw the change tells the account's browsers (their workers load the
    // account again): what comes after it goes out under the new access.
    // (A session of its own: a second link with the same credentials would replace the first.)
    const watcher = await connect((await session(DEMO_USERS.tech)).creds);
    const told = collect(watcher);
    await watcher.subscribeAsync(topics.accessChanged(tech.user.account));

    const addGateway = async (name: string) => {
      const res = await s.call('POST', apiPaths.collection('gateways'), {
        token: admin.token,
        json: { name },
      });
      return (res.json as { _events: ModelUpdate[] })._events;
    };
    const received = async (count: number) => {
      await until(() => got.length === count);
      return got.map((g) => g.payload as UpdateMessage);
    };

    const seen = await addGateway('Seen at first');
    expect(await received(seen.length)).toEqual(seen);

    const viewGateway = s.db
      .selectFrom('permissions')
      .selectAll()
      .where('name', '=', 'gateway::view')
      .where('account_id', '=', tech.user.account);
    const taken = await viewGateway.execute();
    expect(taken.length).toBeGreaterThan(0);
    await s.db
      .deleteFrom('permissions')
      .where(
        'id',
        'in',
        taken.map((p) => p.id),
      )
      .execute();
    await until(() => told.length >= 1);
    const hidden = await addGateway('Hidden after the change');
    expect((await received(seen.length + hidden.length)).slice(seen.length)).toEqual(
      hidden.map(hiddenUpdateOf),
    );

    await s.db.insertInto('permissions').values(taken).execute();
    await until(() => told.length >= 2);
    const back = await addGateway('Seen again');
    const total = seen.length + hidden.length + back.length;
    expect((await received(total)).slice(total - back.length)).toEqual(back);
    expect(client.connected).toBe(true);
  });

  it('credentials that ended without being revoked through the API close their connection', async () => {
    // A password reset revokes the access tokens in the database; no revocation is told.
    const reset = await session(DEMO_USERS.tech);
    const a = await connect(reset.creds);
    const aClosed = closing(a);
    const tokenId = (
      await s.db
        .selectFrom('browser_credentials')
        .select('token_id')
        .where('username', '=', reset.creds.username)
        .executeTakeFirstOrThrow()
    ).token_id;
    await s.db
      .updateTable('access_tokens')
      .set({ revoked_at: new Date(clock.now()).toISOString() })
      .where('id', '=', tokenId)
      .execute();
    await closedWithin(aClosed);

    // Expiry: the access token (and with it the credentials) ends while the browser is connected.
    const expiring = await session(DEMO_USERS.tech);
    const b = await connect(expiring.creds);
    const bClosed = closing(b);
    await settle(RECHECK_MS * 3);
    expect(b.connected).toBe(true);
    clock.advance(31 * 24 * 60 * 60 * 1000);
    await closedWithin(bClosed);
    await refused(asOptions(expiring.creds));
  });

  it('a user removed from the account is closed, and refused on connecting again', async () => {
    const tech = await session(DEMO_USERS.tech);
    const client = await connect(tech.creds);
    const closed = closing(client);
    const memberships = await s.db
      .selectFrom('memberships')
      .selectAll()
      .where('user_id', '=', tech.user.id)
      .where('account_id', '=', tech.user.account)
      .execute();
    await s.db
      .deleteFrom('memberships')
      .where('user_id', '=', tech.user.id)
      .where('account_id', '=', tech.user.account)
      .execute();
    try {
      await closedWithin(closed);
      await refused(asOptions(tech.creds));
    } finally {
      await s.db.insertInto('memberships').values(memberships).execute();
    }
  });
});
