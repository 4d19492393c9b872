import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  can,
  canEnterRoute,
  DISABLE_INTERNAL_FEATURES_HEADER,
  NO_DESIGN,
  ROUTE_REQUIREMENTS,
  type CurrentUser,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_THEMES } from '../seed/demo-themes';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function me(email: string, headers: Record<string, string> = {}) {
  const token = await s.signIn(email);
  const res = await s.call('GET', apiPaths.user(), { token, headers });
  expect(res.status).toBe(200);
  const user = dataOf<CurrentUser>(res);
  const ctx = {
    activeRoles: user.activeRoles,
    permissions: user.permissions,
    tags: user.tags,
    featureFlags: user.featureFlags,
    internalFeaturesDisabled: headers[DISABLE_INTERNAL_FEATURES_HEADER] === '1',
  };
  return { token, user, ctx };
}

describe('GET user', () => {
  it('admin: active account, active roles, roles in both accounts, tags, feature flags', async () => {
    const { user, ctx } = await me(DEMO_USERS.admin);
    expect(user.activeAccount?.name).toBe('Demo Machine Builder');
    expect(user.activeAccount?.theme.color1).toBe('#0b5394');
    expect(user.account).toBe(user.activeAccount?.id);
    expect(user.activeRoles.map((r) => r.slug)).toEqual(['admin']);
    expect(user.roles).toHaveLength(2);
    expect(user.tags.map((t) => t.slug)).toEqual(['security-insights']);
    expect(user).not.toHaveProperty('password_hash');
    // What the client will hide is what the server enforces: one function, one answer.
    expect(can(ctx, 'account::view')).toBe(true);
    expect(canEnterRoute(ctx, ROUTE_REQUIREMENTS.securityInsights)).toBe(true);
    expect(canEnterRoute(ctx, ROUTE_REQUIREMENTS.gatewayTerminal)).toBe(false);
  });

  it('technician: only its permission records count', async () => {
    const { user, ctx } = await me(DEMO_USERS.tech);
    expect(user.activeRoles.map((r) => r.slug)).toEqual(['technician']);
    expect(user.permissions.map((p) => p.name).sort()).toEqual([
      'alarm::acknowledge',
      'alarm::view',
      'asset::edit',
      'asset::view',
      'dashboard::view',
      'datastream::view',
      'feedback::view',
      'form::view',
      'form_entry::create',
      'form_entry::view',
      'gateway::view',
      'helpcenter::view',
      'servicerequest::view',
      'task::view',
    ]);
    expect(
      user.permissions.every(
        (p) => p.role_id === user.activeRoles[0]?.id && p.guard_name === 'api',
      ),
    ).toBe(true);
    expect(canEnterRoute(ctx, ROUTE_REQUIREMENTS.gateways)).toBe(true);
    expect(canEnterRoute(ctx, ROUTE_REQUIREMENTS.accounts)).toBe(false);
    expect(canEnterRoute(ctx, ROUTE_REQUIREMENTS.securityInsights)).toBe(false);
  });

  it('internal user: the global tag opens everything, until internal features are disabled', async () => {
    const on = await me(DEMO_USERS.internal);
    expect(on.user.tags).toEqual([{ slug: 'internal', account_id: null, parents: [] }]);
    expect(canEnterRoute(on.ctx, ROUTE_REQUIREMENTS.gatewayTerminal)).toBe(true);
    expect(canEnterRoute(on.ctx, ROUTE_REQUIREMENTS.securityInsights)).toBe(true);
    const off = await me(DEMO_USERS.internal, { [DISABLE_INTERNAL_FEATURES_HEADER]: '1' });
    expect(canEnterRoute(off.ctx, ROUTE_REQUIREMENTS.gatewayTerminal)).toBe(false);
    expect(canEnterRoute(off.ctx, ROUTE_REQUIREMENTS.accounts)).toBe(true);
  });
});

describe('GET users/{id}', () => {
  it('a user always sees itself; a supervisor (user::view) sees members of its account', async () => {
    const tech = await me(DEMO_USERS.tech);
    const self = await s.call('GET', apiPaths.userById(tech.user.id), { token: tech.token });
    expect(self.status).toBe(200);
    expect(dataOf(self)).toMatchObject({ email: DEMO_USERS.tech });

    const internal = await me(DEMO_USERS.internal, { [DISABLE_INTERNAL_FEATURES_HEADER]: '1' });
    const other = await s.call('GET', apiPaths.userById(tech.user.id), {
      token: internal.token,
      headers: { [DISABLE_INTERNAL_FEATURES_HEADER]: '1' },
    });
    expect(other.status).toBe(200);
    expect(dataOf(other)).toMatchObject({
      email: DEMO_USERS.tech,
      roles: [{ slug: 'technician' }],
    });
    expect(dataOf(other)).not.toHaveProperty('password_hash');
  });

  it('without user::view another user is 403; an unknown id is 404', async () => {
    const tech = await me(DEMO_USERS.tech);
    const admin = await me(DEMO_USERS.admin);
    expect(
      (await s.call('GET', apiPaths.userById(admin.user.id), { token: tech.token })).status,
    ).toBe(403);
    expect(
      (await s.call('GET', apiPaths.userById('does-not-exist'), { token: admin.token })).status,
    ).toBe(404);
  });
});

describe('accounts: GET user/account, POST setActiveAccount, GET style', () => {
  it('switches the admin into Customer North and back; user and account are answered', async () => {
    const admin = await me(DEMO_USERS.admin);
    const north =
      admin.user.roles.find((r) => r.account_id !== admin.user.account)?.account_id ?? '';
    const res = await s.call('POST', apiPaths.setActiveAccount(admin.user.id, north), {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    const data = dataOf<{ user: CurrentUser; account: { id: string; name: string } }>(res);
    expect(data.account.name).toBe('Customer North');
    expect(data.user.activeAccount?.id).toBe(north);
    expect(data.user.activeRoles.map((r) => [r.slug, r.account_id])).toEqual([['admin', north]]);
    // Customer North has no security-insights tag: the flag hides it there.
    expect(data.user.tags).toEqual([]);

    const account = await s.call('GET', apiPaths.userAccount(), { token: admin.token });
    expect(dataOf(account)).toMatchObject({ id: north, name: 'Customer North', active: true });
    const css = await s.call('GET', apiPaths.style(), { token: admin.token });
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.text).toContain('--account-color1: #38761d;');

    const back = await s.call(
      'POST',
      apiPaths.setActiveAccount(admin.user.id, admin.user.account ?? ''),
      { token: admin.token },
    );
    expect(back.status).toBe(200);
    expect(
      dataOf(await s.call('GET', apiPaths.userAccount(), { token: admin.token })),
    ).toMatchObject({ name: 'Demo Machine Builder' });
  });

  it('style for a named account the user belongs to', async () => {
    const admin = await me(DEMO_USERS.admin);
    const css = await s.call('GET', apiPaths.style(admin.user.account ?? ''), {
      token: admin.token,
    });
    expect(css.status).toBe(200);
    expect(css.text).toBe(
      [
        ':root {',
        '  --account-color1: #0b5394;',
        '  --account-color2: #7f6000;',
        `  --account-title: "${DEMO_THEMES.root.title}";`,
        '}',
        '',
      ].join('\n'),
    );
  });

  it('the account title cannot break out of the stylesheet', async () => {
    const admin = await me(DEMO_USERS.admin);
    const themeId = admin.user.activeAccount?.theme.themeId ?? '';
    const evil = await s.call('PUT', apiPaths.model('themes', themeId), {
      token: admin.token,
      json: { title: 'Evil"; } body { display: none } </style><script>' },
    });
    expect(evil.status).toBe(200);
    const css = await s.call('GET', apiPaths.style(), { token: admin.token });
    const titleLine = css.text.split('\n').find((l) => l.includes('--account-title')) ?? '';
    expect(titleLine).toBe(
      '  --account-title: "Evil\\"; } body { display: none } \\3c /style\\3e \\3c script\\3e ";',
    );
    // Still one rule with one line per property: the string swallowed the braces.
    expect(css.text.split('\n').filter((l) => l.startsWith('  --'))).toHaveLength(3);
    expect(css.text.endsWith('";\n}\n')).toBe(true);
    await s.call('PUT', apiPaths.model('themes', themeId), {
      token: admin.token,
      json: { title: DEMO_THEMES.root.title },
    });
  });

  it('deactivated accounts say so; their users still sign in and work (spec 001 §4)', async () => {
    const south = await me(DEMO_USERS.south);
    expect(south.user.activeAccount).toMatchObject({ name: 'Customer South', active: false });
    expect(south.user.activeRoles.map((r) => r.slug)).toEqual(['admin']);
    expect((await s.call('GET', apiPaths.style(), { token: south.token })).status).toBe(200);
  });

  it('no stylesheet for an account where the user holds only norole', async () => {
    const admin = await me(DEMO_USERS.admin);
    const south = await me(DEMO_USERS.south);
    const southAccount = south.user.account ?? '';
    const noroleId = (
      await s.db
        .selectFrom('roles')
        .select('id')
        .where('account_id', '=', southAccount)
        .where('slug', '=', 'norole')
        .executeTakeFirstOrThrow()
    ).id;
    await s.db
      .insertInto('memberships')
      .values({
        user_id: admin.user.id,
        account_id: southAccount,
        role_id: noroleId,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await s.call('GET', apiPaths.style(southAccount), { token: admin.token })).status).toBe(
      404,
    );
    const switched = await s.call('POST', apiPaths.setActiveAccount(admin.user.id, southAccount), {
      token: admin.token,
    });
    expect(switched.status).toBe(403);
    await s.db
      .deleteFrom('memberships')
      .where('user_id', '=', admin.user.id)
      .where('account_id', '=', southAccount)
      .execute();
  });
});

describe('GET staticconf and the start page', () => {
  it('serves theme.name, the first-party client id and the languages at the origin', async () => {
    const res = await s.call('GET', apiPaths.staticconf());
    expect(res.status).toBe(200);
    const themeId = (res.json as { theme?: { themeId?: unknown } }).theme?.themeId;
    expect(themeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json).toEqual({
      // The machine builder's theme (no host is tied here).
      theme: { name: DEMO_THEMES.root.title, ...NO_DESIGN, themeId, ...DEMO_THEMES.root },
      host_tied: false,
      client_id: s.clientId,
      languages: ['en', 'de', 'pt', 'ru', 'plain'],
      defaultLanguage: 'en',
      direction: 'ltr',
    });
    expect(s.clientId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the app answers a page saying how to build the client when there is none, with the browser security headers', async () => {
    const res = await s.call('GET', '/app/devices');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('/staticconf');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('API answers are never cached and never sniffed', async () => {
    const tech = await me(DEMO_USERS.tech);
    for (const res of [
      await s.call('GET', apiPaths.user(), { token: tech.token }),
      await s.call('GET', apiPaths.user()),
      await s.call('GET', 'no/such/call'),
    ]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('unknown API paths are a JSON 404', async () => {
    const res = await s.call('GET', 'no/such/call');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ success: false, message: 'Not found.' });
  });
});

describe('POST subscriptions and POST requestFailed', () => {
  const sub = {
    endpoint: 'https://push.example.com/send/abc123',
    publicKey: 'BPk3Q_VnJk2s0mZ-1234',
    authToken: 'aGVsbG8td29ybGQ',
    contentEncoding: 'aes128gcm',
    deviceType: 'tablet',
    deviceBrand: 'Acme',
  };

  it('stores one subscription per user and browser; sending it again updates it', async () => {
    const tech = await me(DEMO_USERS.tech);
    const first = await s.call('POST', apiPaths.subscriptions(), { token: tech.token, json: sub });
    expect(first.status).toBe(201);
    const again = await s.call('POST', apiPaths.subscriptions(), {
      token: tech.token,
      json: { ...sub, authToken: 'bmV3LXRva2Vu' },
    });
    expect(dataOf(again)).toEqual(dataOf(first));
    const rows = await s.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', '=', tech.user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.auth_token).toBe('bmV3LXRva2Vu');
    expect((await s.call('POST', apiPaths.subscriptions(), { json: sub })).status).toBe(401);
  });

  it('keeps the newest 20 subscriptions of a user', async () => {
    const internal = await me(DEMO_USERS.internal);
    for (let i = 0; i < 23; i++) {
      const res = await s.call('POST', apiPaths.subscriptions(), {
        token: internal.token,
        json: { ...sub, endpoint: `https://push.example.com/send/browser-${i}` },
      });
      expect(res.status).toBe(201);
    }
    const rows = await s.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', internal.user.id)
      .execute();
    expect(rows).toHaveLength(20);
    expect(rows.map((r) => r.endpoint)).toContain('https://push.example.com/send/browser-22');
    expect(rows.map((r) => r.endpoint)).not.toContain('https://push.example.com/send/browser-0');
  });

  it('stores failed-request reports, with the user when signed in', async () => {
    const tech = await me(DEMO_USERS.tech);
    const report = {
      path: 'api/v1/user',
      params: { a: 1 },
      status: 500,
      message: 'Error in endpoint occured',
      appUrl: 'http://x/app',
    };
    expect(
      (await s.call('POST', apiPaths.requestFailed(), { token: tech.token, json: report })).status,
    ).toBe(201);
    expect(
      (await s.call('POST', apiPaths.requestFailed(), { json: { ...report, status: 0 } })).status,
    ).toBe(201);
    const rows = await s.db.selectFrom('client_errors').selectAll().orderBy('created_at').execute();
    expect(rows.map((r) => [r.user_id, r.status, r.params])).toEqual([
      [tech.user.id, 500, '{"a":1}'],
      [null, 0, '{"a":1}'],
    ]);
  });

  it('reports are rate-limited per sender (30 a minute): the 31st is 429 and not stored', async () => {
    const admin = await me(DEMO_USERS.admin);
    const report = { path: 'x', status: 502 };
    for (let i = 0; i < 30; i++) {
      expect(
        (await s.call('POST', apiPaths.requestFailed(), { token: admin.token, json: report }))
          .status,
      ).toBe(201);
    }
    const before = (await s.rowCounts()).client_errors;
    const res = await s.call('POST', apiPaths.requestFailed(), {
      token: admin.token,
      json: report,
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect((await s.rowCounts()).client_errors).toBe(before);
  });
});
