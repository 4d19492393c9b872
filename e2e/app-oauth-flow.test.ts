import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_BASE, apiPaths, appPaths, isolate, type ClientCreated } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { startLoopbackApp, type CallbackResult, type LoopbackApp } from './support/loopback-app';
import { AccessTokensPage, ConsentScreen } from './support/pages/developer';

/*
 * The authorization-code flow with PKCE in Chromium (issue 18 item 3): a third-party application
 * on a loopback port sends the browser to the consent screen (through sign-in, which keeps the
 * request), the user authorizes, the application trades the code for tokens; the access token
 * reads the API, the refresh token renews the pair once, and a reused refresh token ends the whole
 * family. Cancel sends the application access_denied. The Authorized Applications table lists the
 * application, and Revoke there ends its token.
 */
let e2e: E2e;
let app: LoopbackApp;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  app = await startLoopbackApp(e2e.web.url, e2e.server.url);
});
afterAll(async () => {
  await app.close();
  await e2e.close();
});

async function userStatus(token: string): Promise<number> {
  const response = await fetch(`${e2e.server.url}${API_BASE}/${apiPaths.user()}`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  await response.body?.cancel();
  return response.status;
}

/** The callback the application got after `before` callbacks. */
async function nextResult(before: number): Promise<CallbackResult> {
  await expect.poll(() => app.results.length, { timeout: 30_000 }).toBeGreaterThan(before);
  return app.results[before] ?? {};
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

describe('authorization code with PKCE', () => {
  it('consents, trades the code, refreshes once, ends the family on reuse; Cancel denies; the table revokes', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const made = await e2e.server.call('POST', apiPaths.oauthClients(), {
      token: admin.token,
      json: { name: 'Loopback Planner', redirect: app.redirectUri, confidential: false },
    });
    expect(made.status).toBe(201);
    const client = made.json as ClientCreated;
    expect(client.plainSecret ?? client.secret).toBeNull();
    app.use({ id: client.id, scope: 'assets:read alarms:read' });

    // Not signed in: the consent screen asks for a sign-in first and keeps the request.
    const tab = await e2e.openApp(await e2e.browser(), '/user/login');
    await tab.goto(`${app.url}/start`);
    await tab.waitForPath(/^\/user\/login\?redirect=/);
    await tab.fillSignIn(DEMO_USERS.admin);
    await tab.waitForPath(/^\/app\/oauth\/authorize\?/);
    const consent = new ConsentScreen(tab.page);
    expect(await consent.settled()).toBe('asking');
    expect(await consent.root.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Authorization request',
    );
    expect(
      await consent.root
        .getByText('Loopback Planner is requesting permission to access your account.')
        .count(),
    ).toBe(1);
    expect(await consent.scopes()).toEqual([
      'Read assets, their templates and files',
      'Read alarms, their history and acknowledgements',
    ]);
    expect(await consent.root.getByText(/It acts with your role Admin/).count()).toBe(1);

    let before = app.results.length;
    await consent.authorize();
    await tab.page.waitForURL((url) => url.origin === app.url && url.pathname === '/callback');
    const first = await nextResult(before);
    expect(first.exchange?.status).toBe(200);
    const granted = first.exchange?.body ?? {};
    expect(granted.token_type).toBe('Bearer');
    const access = text(granted.access_token);
    const refresh = text(granted.refresh_token);
    expect(refresh).not.toBe('');
    expect(await tab.page.locator('#outcome').textContent()).toBe('connected');
    expect(await userStatus(access)).toBe(200);

    // Refresh: a new pair that works.
    const renewed = await app.token({
      grant_type: 'refresh_token',
      client_id: client.id,
      refresh_token: refresh,
    });
    expect(renewed.status).toBe(200);
    const access2 = text(renewed.body.access_token);
    const refresh2 = text(renewed.body.refresh_token);
    expect(access2).not.toBe(access);
    expect(refresh2).not.toBe(refresh);
    expect(await userStatus(access2)).toBe(200);

    // The old refresh token again: refused, and the whole family ends with it.
    const reused = await app.token({
      grant_type: 'refresh_token',
      client_id: client.id,
      refresh_token: refresh,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect(await userStatus(access2)).toBe(401);
    const afterReuse = await app.token({
      grant_type: 'refresh_token',
      client_id: client.id,
      refresh_token: refresh2,
    });
    expect(afterReuse.body.error).toBe('invalid_grant');

    // A second run, signed in now: Cancel sends the application access_denied.
    before = app.results.length;
    await tab.goto(`${app.url}/start`);
    expect(await consent.settled()).toBe('asking');
    await consent.cancel();
    await tab.page.waitForURL((url) => url.origin === app.url && url.pathname === '/callback');
    expect(new URL(tab.page.url()).searchParams.get('error')).toBe('access_denied');
    expect((await nextResult(before)).error).toBe('access_denied');

    // No live application token yet (the family ended): no Authorized Applications table.
    const page = new AccessTokensPage(tab);
    await page.open(admin.userId);
    expect(await page.apps.count()).toBe(0);

    // A third run that authorizes: the table shows the application with its scopes.
    before = app.results.length;
    await tab.goto(`${app.url}/start`);
    expect(await consent.settled()).toBe('asking');
    await consent.authorize();
    // The browser lands on the application before the test goes elsewhere (the application may
    // have its answer while the browser is still on its way, and a new navigation would cut it).
    await tab.page.waitForURL((url) => url.origin === app.url && url.pathname === '/callback');
    const third = await nextResult(before);
    const access3 = text(third.exchange?.body.access_token);
    expect(await userStatus(access3)).toBe(200);

    await page.open(admin.userId);
    await page.apps.waitFor();
    expect(await page.apps.getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Scopes',
      'Actions',
    ]);
    expect((await page.rows(page.apps)).map((r) => r.slice(0, 2))).toEqual([
      ['Loopback Planner', 'assets:read, alarms:read'],
    ]);
    await page.confirm(`Revoke ${isolate('Loopback Planner')}`, 'Revoke access');
    await expect.poll(() => page.apps.count()).toBe(0);
    expect(await userStatus(access3)).toBe(401);
  });

  it('shows a request the server refuses and never sends the browser on', async () => {
    const admin = await e2e.session(DEMO_USERS.internal);
    const made = await e2e.server.call('POST', apiPaths.oauthClients(), {
      token: admin.token,
      json: { name: 'Strict redirect', redirect: app.redirectUri, confidential: false },
    });
    const client = made.json as ClientCreated;
    const tab = await e2e.signedInApp(DEMO_USERS.internal, '/app/devices/list');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      scope: 'assets:read',
      state: 'abc',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    await tab.goto(`${appPaths.oauthConsent()}?${query.toString()}`);
    const consent = new ConsentScreen(tab.page);
    expect(await consent.settled()).toBe('refused');
    expect(await consent.root.getByRole('alert').count()).toBe(1);
    expect(await consent.root.getByRole('button').count()).toBe(0);
    expect(tab.path()).toMatch(/^\/app\/oauth\/authorize\?/);
  });
});
