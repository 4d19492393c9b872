import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  assetModel,
  INSIGHT_LIMITS,
  OTHERS_KEY,
  type InsightCheck,
  type PersonalTokenCreated,
  type SecurityInsights,
  type SecurityThreats,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { roleMember } from '../testing/role-member';
import { connectGateway, makeGatewayCredentials } from '../testing/gateway-client';
import { startSmtp, decoded } from '../testing/smtp';
import { AccessRepository } from '../repositories/access.repository';
import { AssetAccessRepository } from '../repositories/asset-access.repository';

/*
 * Security insights (issue 38 item 1) against the real server: checks evaluated on read move as
 * soon as what they weigh is fixed, events reach them within INSIGHTS_EVENTS_MS (shortened
 * here), a dismissal holds until its end on the server's clock, items follow the viewer's
 * assets, the threats count by address and user, and the digest goes once a week.
 */

const DAY_MS = 86_400_000;

async function overview(s: TestServer, token: string): Promise<SecurityInsights> {
  const answer = await s.call('GET', apiPaths.securityInsights(), { token });
  expect(answer.status, answer.text).toBe(200);
  return dataOf<SecurityInsights>(answer);
}

async function check(s: TestServer, token: string, id: string): Promise<InsightCheck> {
  const found = (await overview(s, token)).checks.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
}

describe('security insights, evaluated on read', () => {
  let s: TestServer;
  let admin: string;
  let root: string;

  beforeAll(async () => {
    s = await startTestServer({ env: { INSIGHTS_EVENTS_MS: '200' } });
    admin = await s.signIn(DEMO_USERS.admin);
    root = (await s.demoAccountIds()).root;
  });
  afterAll(() => s.close());

  it('a token without expiry fails the tokens check and passes as soon as it is revoked', async () => {
    expect((await check(s, admin, 'tokens')).state).toBe('passing');
    const made = await s.call('POST', apiPaths.personalAccessTokens(), {
      token: admin,
      json: { name: 'Forever script', scopes: ['assets:read'] },
    });
    expect(made.status, made.text).toBe(200);
    const tokenId = (made.json as PersonalTokenCreated).token.id;

    const failing = await check(s, admin, 'tokens');
    expect(failing).toMatchObject({ state: 'failing', count: 1, severity: 'medium' });
    expect(failing.items).toEqual([
      expect.objectContaining({
        type: 'token',
        id: tokenId,
        name: 'Forever script',
        reasons: ['no_expiry'],
        detail: DEMO_USERS.admin,
      }),
    ]);

    const revoked = await s.call('DELETE', apiPaths.personalAccessToken(tokenId), { token: admin });
    expect(revoked.status, revoked.text).toBe(204);
    await expect
      .poll(async () => (await check(s, admin, 'tokens')).state, { timeout: 60_000 })
      .toBe('passing');
  });

  it('answers only who may view security insights, in its active account', async () => {
    const tech = await s.signIn(DEMO_USERS.tech);
    expect((await s.call('GET', apiPaths.securityInsights(), { token: tech })).status).toBe(403);
    expect((await s.call('GET', apiPaths.securityThreats(), { token: tech })).status).toBe(403);
    const dismiss = await s.call('POST', apiPaths.insightDismissal('admins'), {
      token: tech,
      json: { reason: 'Nope', expires_at: Date.now() + DAY_MS },
    });
    expect(dismiss.status).toBe(403);
    // Unknown checks and periods are refused before anything is read.
    expect(
      (
        await s.call('POST', apiPaths.insightDismissal('everything'), {
          token: admin,
          json: { reason: 'x', expires_at: Date.now() + DAY_MS },
        })
      ).status,
    ).toBe(422);
    expect((await s.call('GET', apiPaths.securityThreats(5), { token: admin })).status).toBe(422);
  });

  it('a revoked gateway key that knocks fails its check within the events time, for who sees the gateway', async () => {
    const rows = await s.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .where('account_id', '=', root)
      .where('type', '=', assetModel.type)
      .orderBy('id')
      .execute();
    const machines = rows.map((r) => ({
      asset: r.id,
      gateway: (JSON.parse(r.attributes) as { gateway_id: string | null }).gateway_id ?? '',
    }));
    const [seen, hidden] = machines.filter((m) => m.gateway !== '');
    if (seen === undefined || hidden === undefined) throw new Error('two demo machines expected');

    // An OPC UA connection without security on each machine's gateway.
    for (const [i, m] of [seen, hidden].entries()) {
      const made = await s.call('POST', apiPaths.collection('connections'), {
        token: admin,
        json: {
          gateway_id: m.gateway,
          name: `Press PLC ${i}`,
          protocol: 'opcua',
          settings: { endpoint: 'opc.tcp://plc.plant.local:4840', security_mode: 'none' },
          enabled: true,
        },
      });
      expect(made.status, made.text).toBe(201);
    }
    // The hidden machine's gateway gets a key, which is revoked, and knocks with it.
    const creds = await makeGatewayCredentials(s, admin, hidden.gateway);
    const revoke = await s.call('DELETE', apiPaths.gatewayCredentials(hidden.gateway), {
      token: admin,
    });
    expect(revoke.status, revoke.text).toBe(200);
    await expect(connectGateway(s, hidden.gateway, creds.secret)).rejects.toThrow();

    await expect
      .poll(async () => (await check(s, admin, 'revoked_keys')).items.map((i) => i.id), {
        timeout: 60_000,
      })
      .toEqual([hidden.gateway]);
    expect(await check(s, admin, 'revoked_keys')).toMatchObject({ state: 'failing', count: 1 });
    expect((await check(s, admin, 'opcua_security')).count).toBe(2);

    // A viewer who sees one machine: its gateway's connection only, and no knocks.
    const viewer = await roleMember(s, {
      adminToken: admin,
      accountId: root,
      name: 'Watcher',
      permissions: ['security-insights::view', 'asset::view', 'gateway::view'],
      domain: 'insights.test',
      assets: 'none',
    });
    const membership = await s.db
      .selectFrom('memberships')
      .select('role_id')
      .where('user_id', '=', viewer.id)
      .where('account_id', '=', root)
      .executeTakeFirstOrThrow();
    await new AssetAccessRepository(s.db).grant(root, membership.role_id, seen.asset, false);
    const tag = await s.db
      .selectFrom('tags')
      .select('id')
      .where('slug', '=', 'security-insights')
      .where('account_id', '=', root)
      .executeTakeFirstOrThrow();
    await new AccessRepository(s.db).tagUser(viewer.id, tag.id);

    const seenBy = await overview(s, viewer.token);
    const opcua = seenBy.checks.find((c) => c.id === 'opcua_security');
    expect(opcua).toMatchObject({ state: 'failing', count: 1 });
    expect(opcua?.items.map((i) => [i.name, i.detail])).toEqual([
      ['Press PLC 0', expect.any(String)],
    ]);
    expect(seenBy.checks.find((c) => c.id === 'revoked_keys')).toMatchObject({
      state: 'passing',
      count: 0,
      items: [],
    });
    expect(seenBy.may_dismiss).toBe(false);
    // The trend leaves out the figures taken over every gateway.
    expect(seenBy.trend.at(-1)?.counts).not.toHaveProperty('opcua_security');
    // Nor may it dismiss (account::edit).
    const refused = await s.call('POST', apiPaths.insightDismissal('opcua_security'), {
      token: viewer.token,
      json: { reason: 'Not mine', expires_at: Date.now() + DAY_MS },
    });
    expect(refused.status).toBe(403);
  });

  it('the threats count failed sign-ins by address and by user, and rate-limit hits', async () => {
    const wrong = (email: string, from: string) =>
      s.call('POST', apiPaths.token(), {
        from,
        json: {
          grant_type: 'password',
          client_id: s.clientId,
          username: email,
          password: 'not-the-password',
        },
      });
    for (let i = 0; i < 10; i++)
      expect((await wrong(DEMO_USERS.admin, '127.0.0.2')).status).toBe(401);
    expect((await wrong(DEMO_USERS.admin, '127.0.0.2')).status).toBe(429);
    expect((await wrong(DEMO_USERS.tech, '127.0.0.3')).status).toBe(401);
    // An address nobody has belongs to no account.
    expect((await wrong('nobody@example.com', '127.0.0.3')).status).toBe(401);

    const admins = await s.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', [DEMO_USERS.admin, DEMO_USERS.tech])
      .execute();
    const idOf = (email: string) => admins.find((u) => u.email === email)?.id;

    const threats = async () => {
      const answer = await s.call('GET', apiPaths.securityThreats(7), { token: admin });
      expect(answer.status, answer.text).toBe(200);
      return dataOf<SecurityThreats>(answer);
    };
    // Every count waited for together: the events are stored in writes of their own (a sign-in's
    // and a rate limit's), and a read between them saw the first without the second (Postgres).
    await expect
      .poll(
        async () => {
          const t = await threats();
          return {
            byAddress: t.signin_by_address,
            byUser: t.signin_by_user,
            limited: t.rate_limited_by_address,
            days: t.series.length,
            today: [t.series.at(-1)?.signin_failed, t.series.at(-1)?.rate_limited],
          };
        },
        { timeout: 60_000 },
      )
      .toEqual({
        byAddress: [
          { key: '127.0.0.2', name: null, count: 10 },
          { key: '127.0.0.3', name: null, count: 1 },
        ],
        byUser: [
          { key: idOf(DEMO_USERS.admin), name: DEMO_USERS.admin, count: 10 },
          { key: idOf(DEMO_USERS.tech), name: DEMO_USERS.tech, count: 1 },
        ],
        limited: [{ key: '127.0.0.2', name: null, count: 1 }],
        days: 7,
        today: [11, 1],
      });
    const t = await threats();
    expect(t.signin_by_address.some((e) => e.key === OTHERS_KEY)).toBe(false);

    // Eleven refusals today: the sign-in check fails, naming the addresses and users.
    const refusals = await check(s, admin, 'signin_refusals');
    expect(refusals).toMatchObject({ state: 'failing', count: 11, severity: 'high' });
    expect(refusals.items.slice(0, 2)).toEqual([
      expect.objectContaining({ type: 'address', id: '127.0.0.2', count: 10 }),
      expect.objectContaining({ type: 'address', id: '127.0.0.3', count: 1 }),
    ]);
  });
  it('counts a wrong password on the two-factor set-up calls as a failed sign-in, by address and by user', async () => {
    // The calls that set up a required second factor before a sign-in check the grant's
    // credentials: a guess there is a failed sign-in like one at the token route.
    const from = '127.0.0.4';
    const wrong = (path: string, extra: Record<string, unknown> = {}) =>
      s.call('POST', path, {
        from,
        json: {
          client_id: s.clientId,
          username: DEMO_USERS.tech,
          password: 'not-the-password',
          ...extra,
        },
      });
    const threats = async () => {
      const answer = await s.call('GET', apiPaths.securityThreats(7), { token: admin });
      expect(answer.status, answer.text).toBe(200);
      return dataOf<SecurityThreats>(answer);
    };
    const techId = (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.tech)
        .executeTakeFirstOrThrow()
    ).id;
    const techBefore = (await threats()).signin_by_user.find((e) => e.key === techId)?.count ?? 0;
    const refusalsBefore = (await check(s, admin, 'signin_refusals')).count;
    for (const answer of [
      await wrong(apiPaths.twoFactorEnrol()),
      await wrong(apiPaths.twoFactorEnrolConfirm(), { code: '123456' }),
      await wrong(apiPaths.twoFactorEnrolPasskeyOptions()),
    ]) {
      expect(answer.status, answer.text).toBe(401);
      expect(answer.json).toMatchObject({ error: 'invalid_grant' });
    }
    // Both counts waited for together (a read may fall between two of the counter's writes).
    await expect
      .poll(
        async () => {
          const t = await threats();
          return [
            t.signin_by_address.find((e) => e.key === from),
            t.signin_by_user.find((e) => e.key === techId),
          ];
        },
        { timeout: 60_000 },
      )
      .toEqual([
        { key: from, name: null, count: 3 },
        { key: techId, name: DEMO_USERS.tech, count: techBefore + 3 },
      ]);
    // The sign-in refusals check weighs them too, naming the address.
    const refusals = await check(s, admin, 'signin_refusals');
    expect(refusals.count).toBe(refusalsBefore + 3);
    expect(refusals.items).toContainEqual(
      expect.objectContaining({ type: 'address', id: from, count: 3 }),
    );
  });

  it('a flood of failed sign-ins from many addresses keeps a bounded list, with exact totals', async () => {
    const before = await s.db
      .selectFrom('security_event_counts')
      .select(['dim', 'key', 'count'])
      .where('account_id', '=', root)
      .where('kind', '=', 'signin_failed')
      .execute();
    const totalBefore = before.find((r) => r.dim === '')?.count ?? 0;
    for (let i = 0; i < 60; i++) {
      const answer = await s.call('POST', apiPaths.token(), {
        from: `127.0.9.${i + 1}`,
        json: {
          grant_type: 'password',
          client_id: s.clientId,
          username: DEMO_USERS.tech,
          password: 'guess',
        },
      });
      expect(answer.status).toBe(401);
    }
    const rows = async () =>
      s.db
        .selectFrom('security_event_counts')
        .select(['dim', 'key', 'count'])
        .where('account_id', '=', root)
        .where('kind', '=', 'signin_failed')
        .execute();
    await expect
      .poll(async () => (await rows()).find((r) => r.dim === '')?.count, { timeout: 60_000 })
      .toBe(Number(totalBefore) + 60);
    const addresses = (await rows()).filter((r) => r.dim === 'address');
    expect(addresses.length).toBeLessThanOrEqual(INSIGHT_LIMITS.topKeys + 1);
    expect(addresses.reduce((n, r) => n + Number(r.count), 0)).toBe(Number(totalBefore) + 60);
  });
});

describe('security insights on the server clock: dismissals and the weekly digest', () => {
  const clock = new ManualClock();
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: string;
  const digests = () => smtp.inbox.filter((m) => decoded(m.raw).includes('Security insights of'));
  /** Digests mailed in the server's first week (its first round ran at start). */
  let firstWeek = -1;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startTestServer({
      clock,
      env: { SMTP_URL: smtp.url, INSIGHTS_TICK_MS: '3600000' },
    });
    admin = await s.signIn(DEMO_USERS.admin);
    await s.insights.tick();
    firstWeek = digests().length;
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  it('a dismissed check shows dismissed with its reason and comes back as failing at its end', async () => {
    // No demo member has a second factor.
    expect((await check(s, admin, 'second_factor')).state).toBe('failing');
    const past = await s.call('POST', apiPaths.insightDismissal('second_factor'), {
      token: admin,
      json: { reason: 'Rolled out next month', expires_at: clock.now() - 1 },
    });
    expect(past.status).toBe(422);
    expect(past.json).toMatchObject({ errors: { expires_at: [expect.any(String)] } });

    const until = clock.now() + 2 * DAY_MS;
    const dismissed = await s.call('POST', apiPaths.insightDismissal('second_factor'), {
      token: admin,
      json: { reason: 'Rolled out next month', expires_at: until },
    });
    expect(dismissed.status, dismissed.text).toBe(200);
    const held = await check(s, admin, 'second_factor');
    expect(held).toMatchObject({
      state: 'dismissed',
      dismissal: { reason: 'Rolled out next month', expires_at: until, by: 'Ada Administrator' },
    });
    expect(held.count).toBeGreaterThan(0);
    // Logged: who, what, until when.
    const log = await s.db.selectFrom('security_insight_log').selectAll().execute();
    expect(log).toEqual([
      expect.objectContaining({
        check_id: 'second_factor',
        action: 'dismissed',
        expires_at: until,
      }),
    ]);

    clock.advance(2 * DAY_MS - 1);
    expect((await check(s, admin, 'second_factor')).state).toBe('dismissed');
    clock.advance(1);
    expect(await check(s, admin, 'second_factor')).toMatchObject({
      state: 'failing',
      dismissal: null,
    });

    // Taking one back brings it back at once; one that is not there is 404.
    const again = await s.call('POST', apiPaths.insightDismissal('second_factor'), {
      token: admin,
      json: { reason: 'Again', expires_at: clock.now() + DAY_MS },
    });
    expect(again.status).toBe(200);
    expect(
      (await s.call('DELETE', apiPaths.insightDismissal('second_factor'), { token: admin })).status,
    ).toBe(204);
    expect((await check(s, admin, 'second_factor')).state).toBe('failing');
    expect(
      (await s.call('DELETE', apiPaths.insightDismissal('second_factor'), { token: admin })).status,
    ).toBe(404);
  });

  it('mails the digest to the admins once a week, and keeps a daily snapshot for the trend', async () => {
    // The first week an account is seen only marks it: a new install mails nobody at its start.
    expect(firstWeek).toBe(0);
    // To the next Monday, noon (UTC): a new ISO week.
    const now = new Date(clock.now());
    const monday = Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate() + ((8 - now.getUTCDay()) % 7 || 7),
      12,
    );
    clock.advance(monday - clock.now());
    const before = digests().length;
    expect((await s.insights.tick()).digests).toBe(1);
    expect(digests()).toHaveLength(before + 1);
    const last = digests().at(-1);
    expect(last?.to).toEqual([DEMO_USERS.admin]);
    const mail = decoded(last?.raw ?? '');
    expect(mail).toContain('Members without a second factor');
    expect(mail).toContain('/app/security-insights/overview');
    expect((await s.insights.tick()).digests).toBe(0);

    clock.advance(6 * DAY_MS);
    expect((await s.insights.tick()).digests).toBe(0);
    clock.advance(DAY_MS);
    expect((await s.insights.tick()).digests).toBe(1);
    expect(digests()).toHaveLength(before + 2);

    // A snapshot per day the leader ran: the trend shows them, today's evaluated now.
    const trend = (await overview(s, admin)).trend;
    expect(trend.length).toBeGreaterThanOrEqual(3);
    expect(trend.at(-1)?.counts.second_factor).toBeGreaterThan(0);
    expect(trend.every((d) => d.failing >= 1)).toBe(true);
  });
});
