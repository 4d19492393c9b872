import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, uuidv7 } from '@plant/shared-schema';
import { isoAt } from '../lib/clock';
import { createLogger } from '../logger';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { RecordPruner } from './record-pruner';

const DAY = 24 * 60 * 60 * 1000;

let s: TestServer;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  s = await startTestServer({ clock, env: { LOG_RETENTION_DAYS: '14', TOKEN_TTL_DAYS: '30' } });
});
afterAll(() => s.close());

/** Signs in and takes broker credentials for a new browser; answers the token and username. */
async function browser() {
  const token = await s.signIn(DEMO_USERS.admin);
  const { username } = dataOf<{ username: string }>(
    await s.call('GET', apiPaths.browserMqtt(`browser-${uuidv7()}`), { token }),
  );
  return { token, username };
}

const logout = (token: string) => s.call('POST', apiPaths.logout(), { token });

async function credentialsKept(usernames: readonly string[]): Promise<string[]> {
  const rows = await s.db
    .selectFrom('browser_credentials')
    .select('username')
    .where('username', 'in', usernames)
    .execute();
  return usernames.filter((u) => rows.some((r) => r.username === u));
}

async function mutationsKept(ids: readonly string[]): Promise<string[]> {
  const rows = await s.db
    .selectFrom('applied_mutations')
    .select('mutation_id')
    .where('mutation_id', 'in', ids)
    .execute();
  return ids.filter((id) => rows.some((r) => r.mutation_id === id));
}

describe('RecordPruner', () => {
  it('deletes credentials ended over a day ago and mutation ids past the retention; keeps the rest', async () => {
    const account = dataOf<{ account: string }>(
      await s.call('GET', apiPaths.user(), { token: await s.signIn(DEMO_USERS.admin) }),
    ).account;
    const applied = async (mutationId: string) => {
      await s.db
        .insertInto('applied_mutations')
        .values({
          account_id: account,
          mutation_id: mutationId,
          status: 201,
          response: '{}',
          created_at: isoAt(clock.now()),
        })
        .execute();
    };
    const pruner = new RecordPruner(s.db, clock, 14 * DAY, createLogger('silent'));

    // Day 0: one browser signed out at once, one that stays signed in until its token expires.
    const revokedEarly = await browser();
    await logout(revokedEarly.token);
    const expiring = await browser();
    await applied('mutation-day-0');

    // Day 2: one signed out just now, one live.
    clock.advance(2 * DAY);
    const revokedNow = await browser();
    await logout(revokedNow.token);
    const live = await browser();
    await applied('mutation-day-2');

    const all = [revokedEarly, expiring, revokedNow, live].map((b) => b.username);
    expect(await pruner.pruneNow()).toMatchObject({ credentials: 1 });
    expect(await credentialsKept(all)).toEqual([
      expiring.username,
      revokedNow.username,
      live.username,
    ]);

    // Day 15: mutation ids of day 0 are past the 14-day retention, day 2's are not; the browser
    // signed out on day 2 is gone too.
    clock.advance(13 * DAY);
    await applied('mutation-day-15');
    const mutations = ['mutation-day-0', 'mutation-day-2', 'mutation-day-15'];
    expect(await pruner.pruneNow()).toEqual({ credentials: 1, mutations: 1, grants: 0 });
    expect(await mutationsKept(mutations)).toEqual(['mutation-day-2', 'mutation-day-15']);
    expect(await credentialsKept(all)).toEqual([expiring.username, live.username]);

    // Day 31.5: the day-0 token expired 1.5 days ago; the day-2 one expires in half a day.
    clock.advance(16.5 * DAY);
    await applied('mutation-day-31');
    await pruner.pruneNow();
    expect(await credentialsKept(all)).toEqual([live.username]);
    expect(await mutationsKept([...mutations, 'mutation-day-31'])).toEqual(['mutation-day-31']);
  });

  it('deletes authorization codes and refresh tokens expired over a day ago', async () => {
    const pruner = new RecordPruner(s.db, clock, 14 * DAY, createLogger('silent'));
    const user = dataOf<{ id: string }>(
      await s.call('GET', apiPaths.user(), { token: await s.signIn(DEMO_USERS.admin) }),
    ).id;
    const clientId = uuidv7();
    const at = (ms: number) => isoAt(clock.now() + ms);
    await s.db
      .insertInto('oauth_clients')
      .values({ id: clientId, name: 'App', created_at: at(0), user_id: user })
      .execute();
    const code = async (id: string, expiresInMs: number) =>
      s.db
        .insertInto('oauth_auth_codes')
        .values({
          id,
          code_hash: id,
          client_id: clientId,
          user_id: user,
          role_id: 'r',
          scopes: '[]',
          redirect_uri: 'https://app.example.com/cb',
          created_at: at(0),
          expires_at: at(expiresInMs),
        })
        .execute();
    await code('code-old', -2 * DAY);
    await code('code-recent', -DAY / 2);
    const tokenId = uuidv7();
    await s.db
      .insertInto('access_tokens')
      .values({
        id: tokenId,
        user_id: user,
        client_id: clientId,
        token_hash: tokenId,
        created_at: at(0),
        expires_at: at(3600_000),
      })
      .execute();
    for (const [id, expiresInMs] of [
      ['refresh-old', -3 * DAY],
      ['refresh-live', 20 * DAY],
    ] as const) {
      await s.db
        .insertInto('oauth_refresh_tokens')
        .values({
          id,
          access_token_id: tokenId,
          family_id: 'f',
          token_hash: id,
          created_at: at(0),
          expires_at: at(expiresInMs),
        })
        .execute();
    }
    expect(await pruner.pruneNow()).toMatchObject({ grants: 2 });
    const codes = await s.db.selectFrom('oauth_auth_codes').select('id').execute();
    expect(codes.map((c) => c.id)).toEqual(['code-recent']);
    const refresh = await s.db.selectFrom('oauth_refresh_tokens').select('id').execute();
    expect(refresh.map((r) => r.id)).toEqual(['refresh-live']);
  });
});
