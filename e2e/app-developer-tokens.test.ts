import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_BASE, apiPaths, appPaths, isolate, OAUTH_TEXTS } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { roleId } from '../server/src/testing/access';
import { E2e } from './support/fixture';
import { AccessTokensPage } from './support/pages/developer';

/*
 * The developer area's page in the browser (issue 18 item 4, spec 000 §2, §3, §5): a personal
 * access token is made with a name, scopes, a role and an expiry, shown once, works against the
 * API from elsewhere, is listed and revoked (and stops working); OAuth clients are made (the
 * secret shown once), renamed and deleted; the server's refusals are listed in the dialog; the
 * Authorized Applications table stays away while no application holds a token; another user's
 * page says whose tokens these are; offline the page says so and reads again on retry.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** GET /api/v1/user with a bearer token, from the test process (as a script would). */
async function userWith(token: string): Promise<{ status: number; email?: string }> {
  const response = await fetch(`${e2e.server.url}${API_BASE}/${apiPaths.user()}`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as { data?: { email?: string } } | null;
  return {
    status: response.status,
    ...(body?.data?.email === undefined ? {} : { email: body.data.email }),
  };
}

/** `email` signed in where a link to its access tokens leads, and the page read. */
async function signedInPage(email: string) {
  const session = await e2e.session(email);
  const page = new AccessTokensPage(
    await e2e.signedInApp(email, appPaths.accessTokens(session.userId)),
  );
  await page.read();
  return { page, session };
}

describe('personal access tokens', () => {
  it('makes a token shown once that works from a script, lists it and revokes it', async () => {
    const { page } = await signedInPage(DEMO_USERS.admin);
    expect(await page.state()).toBe('loaded');
    expect(
      await page.tokens.getByText('You have not created any personal access tokens.').count(),
    ).toBe(1);
    expect(await page.clients.getByText('You have not created any OAuth clients.').count()).toBe(1);
    // No application holds a token: no Authorized Applications table at all.
    expect(await page.apps.count()).toBe(0);
    expect(await page.page.getByText('Authorized Applications').count()).toBe(0);

    const dialog = await page.createToken({ name: 'ERP export', scopes: ['assets:read'] });
    const created = dialog.getByTestId('created-token');
    await created.waitFor();
    expect(await created.getByText('This is the only time it will be shown').count()).toBe(1);
    const token = (await dialog.getByTestId('token-value').textContent())?.trim() ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(await userWith(token)).toEqual({ status: 200, email: DEMO_USERS.admin });

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.rows(page.tokens)).toHaveLength(1);
    const [row] = await page.rows(page.tokens);
    expect(row?.slice(0, 3)).toEqual(['ERP export', 'assets:read', 'Admin']);
    // The token is not shown again anywhere on the page.
    expect(await page.page.getByText(token).count()).toBe(0);
    // Still the only application-less token: no Authorized Applications either.
    expect(await page.apps.count()).toBe(0);

    await page.confirm(`Revoke ${isolate('ERP export')}`, 'Revoke token');
    await expect
      .poll(() => page.tokens.getByText('You have not created any personal access tokens.').count())
      .toBe(1);
    expect((await userWith(token)).status).toBe(401);
  });

  it('is reached from the user menu, as is the API reference', async () => {
    const session = await e2e.session(DEMO_USERS.tech);
    const tab = await e2e.openApp(await e2e.browser());
    await tab.signInAt(DEMO_USERS.tech);
    await tab.page.getByTestId('user-menu').click();
    await tab.page.getByRole('menuitem', { name: 'Access tokens' }).click();
    await tab.waitForPath(new RegExp(`^/app/users/${session.userId}/accesstokens$`));
    await tab.page.locator('[data-testid="access-tokens"][data-state="loaded"]').waitFor();
    await tab.page.getByTestId('user-menu').click();
    await tab.page.getByRole('menuitem', { name: 'API reference' }).click();
    await tab.waitForPath(/^\/app\/api$/);
  });

  it("lists the server's refusal in the dialog: a role taken away while the dialog is open", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const roles = dataOf<{ id: string; slug: string }[]>(
      await e2e.server.call('GET', apiPaths.roles(), { token: admin.token }),
    );
    const supervisor = roles.find((r) => r.slug === 'supervisor')?.id ?? '';
    const tech = await e2e.session(DEMO_USERS.tech);
    const give = await e2e.server.call('PUT', apiPaths.memberRole(tech.userId, supervisor), {
      token: admin.token,
    });
    expect(give.status).toBe(200);

    const { page } = await signedInPage(DEMO_USERS.tech);
    await page.tokens.getByRole('button', { name: 'Create new token' }).click();
    const dialog = page.dialog('Create new token');
    const role = dialog.getByRole('combobox', { name: 'Role' });
    // The roles come from the local store: the select fills in once they are read.
    await expect
      .poll(async () => (await role.locator('option').allTextContents()).sort())
      .toEqual(['Supervisor', 'Technician']);

    // Meanwhile the admin takes the role away; the open dialog still offers it.
    const take = await e2e.server.call('DELETE', apiPaths.memberRole(tech.userId, supervisor), {
      token: admin.token,
    });
    expect(take.status).toBe(200);
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Line report');
    await role.selectOption({ label: 'Supervisor' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    expect(await page.problems(dialog)).toEqual([OAUTH_TEXTS.roleInvalid]);
    // Nothing was made.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.dialog('Create new token').count()).toBe(0);
    expect(
      await page.tokens.getByText('You have not created any personal access tokens.').count(),
    ).toBe(1);
  });

  it('checks the form before sending: a name is needed and at most 191 characters', async () => {
    const { page } = await signedInPage(DEMO_USERS.internal);
    await page.createToken({ name: ' ' });
    const dialog = page.dialog('Create new token');
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText(OAUTH_TEXTS.nameRequired).count()).toBe(1);
    await name.fill('x'.repeat(192));
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => dialog.getByText(OAUTH_TEXTS.nameTooLong).count()).toBe(1);
  });
});

describe('OAuth clients', () => {
  it('makes a confidential client with its secret shown once, a public one without, renames and deletes', async () => {
    const { page } = await signedInPage(DEMO_USERS.internal);
    await page.clients.getByRole('button', { name: 'Create new client' }).click();
    let dialog = page.dialog('Create new client');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Shop floor MES');
    await dialog.getByRole('textbox', { name: /^Redirect URL/ }).fill('http://example.com/cb');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    // http is for this computer only: the shared schema says so before anything is sent.
    await expect.poll(() => dialog.getByText(OAUTH_TEXTS.redirectInvalid).count()).toBe(1);
    await dialog.getByRole('textbox', { name: /^Redirect URL/ }).fill('https://mes.example.com/cb');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const created = dialog.getByTestId('created-client');
    await created.waitFor();
    expect(await created.getByText('This is the only time it will be shown').count()).toBe(1);
    const id = (await created.getByTestId('client-id').textContent())?.trim() ?? '';
    const secret = (await created.getByTestId('client-secret').textContent())?.trim() ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.rows(page.clients)).toHaveLength(1);
    expect((await page.rows(page.clients))[0]?.slice(0, 4)).toEqual([
      id,
      'Shop floor MES',
      'https://mes.example.com/cb',
      'Yes',
    ]);
    expect(await page.page.getByText(secret).count()).toBe(0);

    await page.clients.getByRole('button', { name: 'Create new client' }).click();
    dialog = page.dialog('Create new client');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Handheld app');
    await dialog.getByRole('textbox', { name: /^Redirect URL/ }).fill('http://127.0.0.1:4711/cb');
    await dialog.getByRole('checkbox', { name: /^Confidential/ }).uncheck();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByTestId('created-client').waitFor();
    expect(await dialog.getByTestId('client-secret').count()).toBe(0);
    expect(
      await dialog.getByText('This client is public: it has no secret and must use PKCE.').count(),
    ).toBe(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.rows(page.clients)).toHaveLength(2);

    await page.page.getByRole('button', { name: `Edit ${isolate('Shop floor MES')}` }).click();
    dialog = page.dialog('Edit client');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Shop floor MES (line 2)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await page.rows(page.clients)).map((r) => r[1]).sort())
      .toEqual(['Handheld app', 'Shop floor MES (line 2)']);

    await page.confirm(`Delete ${isolate('Handheld app')}`, 'Delete client');
    await expect
      .poll(async () => (await page.rows(page.clients)).map((r) => r[1]))
      .toEqual(['Shop floor MES (line 2)']);
  });
});

describe('a client whose secret a password reset ended', () => {
  it("says it needs a new secret; 'New secret' shows one, once, that mints tokens again", async () => {
    const session = await e2e.session(DEMO_USERS.tech);
    const technician = await roleId(e2e.server.db, session.accountId, 'technician');
    const made = await e2e.server.call('POST', apiPaths.oauthClients(), {
      token: session.token,
      json: { name: 'Nightly export', redirect: 'https://erp.example.com/cb', role_id: technician },
    });
    expect(made.status).toBe(201);
    const client = made.json as { id: string; secret: string };
    // What a reset does to such a client (server/src/routes/password.test.ts goes through it).
    await e2e.server.db
      .updateTable('oauth_clients')
      .set({ secret_hash: null })
      .where('id', '=', client.id)
      .execute();
    const grant = async (secret: string) =>
      (
        await e2e.server.call('POST', apiPaths.token(), {
          json: {
            grant_type: 'client_credentials',
            client_id: client.id,
            client_secret: secret,
            scope: 'assets:read',
          },
        })
      ).status;
    expect(await grant(client.secret)).toBe(401);

    const page = new AccessTokensPage(
      await e2e.signedInApp(DEMO_USERS.tech, appPaths.accessTokens(session.userId)),
    );
    await page.read();
    const row = page.clients.getByTestId('client-row').filter({ hasText: 'Nightly export' });
    await expect.poll(() => row.getByText('Needs a new secret').count()).toBe(1);

    await page.confirm(`New secret for ${isolate('Nightly export')}`, 'Make a new secret');
    const dialog = page.dialog('New client secret');
    const created = dialog.getByTestId('created-client');
    await created.waitFor();
    expect(await created.getByText('This is the only time it will be shown').count()).toBe(1);
    const secret = (await created.getByTestId('client-secret').textContent())?.trim() ?? '';
    expect(await grant(secret)).toBe(200);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => row.getByText('Needs a new secret').count()).toBe(0);
    expect(await page.page.getByText(secret).count()).toBe(0);
  });
});

describe('whose tokens, and offline', () => {
  it("another user's page says only the user manages its own tokens", async () => {
    const other = await e2e.session(DEMO_USERS.tech);
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, appPaths.accessTokens(other.userId));
    const page = new AccessTokensPage(tab);
    await page.read();
    expect(await page.state()).toBe('other');
    expect(
      await page.page.getByText('Only the user can manage its own access tokens').count(),
    ).toBe(1);
    expect(await page.tokens.count()).toBe(0);
    await page.page.getByRole('link', { name: 'Your own access tokens' }).click();
    await tab.waitForPath(new RegExp(`/app/users/${admin.userId}/accesstokens$`));
    await expect.poll(() => page.state()).toBe('loaded');
  });

  it('offline says the tokens are on the server, and Try again reads them once it is back; lists on screen stay when a later read fails', async () => {
    const { page } = await signedInPage(DEMO_USERS.south);
    e2e.offline();
    try {
      await page.tab.reload();
      await expect.poll(() => page.state()).toBe('unreachable');
      expect(await page.page.getByText('You are offline').count()).toBe(1);
    } finally {
      e2e.online();
    }
    await page.page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.state(), { timeout: 30_000 }).toBe('loaded');

    // Cut off with the lists on screen: a dialog closed reads them again, which fails; the lists
    // stay, marked as possibly out of date, until a read succeeds again.
    const stale = page.page.getByTestId('developer-stale');
    e2e.offline();
    try {
      await page.tokens.getByRole('button', { name: 'Create new token' }).click();
      await page.dialog('Create new token').getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => stale.count(), { timeout: 30_000 }).toBe(1);
      expect(await page.state()).toBe('loaded');
      expect(await page.tokens.count()).toBe(1);
    } finally {
      e2e.online();
    }
    await stale.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => stale.count(), { timeout: 30_000 }).toBe(0);
  });
});
