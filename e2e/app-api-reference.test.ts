import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import type { AppTab } from './support/app-tab';

/*
 * The API reference in the browser (issue 18 item 5): /app/api lists the routes from the
 * server's OpenAPI document with the scopes each needs, and Try it sends a GET with the user's
 * own sign-in or a pasted personal access token and shows the live answer (the scope check
 * included); /app/api/map shows the registry's models under their parents with their references,
 * each a link that moves the focus to the model it names.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

async function reference(): Promise<AppTab> {
  const tab = await e2e.signedInTab(DEMO_USERS.admin, '/app/api');
  await tab.page.locator('[data-testid="api-reference"][data-state="loaded"]').waitFor();
  return tab;
}

const operation = (tab: AppTab, key: string) =>
  tab.page.locator(`[data-testid="operation"][data-key="${key}"]`);

/** Opens a route's item and sends its GET with the path and query values given. */
async function tryIt(item: Locator, values: Record<string, string> = {}) {
  const form = item.getByRole('form', { name: 'Try it' });
  if (!(await form.isVisible())) await item.getByTestId('route').click();
  for (const [label, value] of Object.entries(values)) {
    await form.getByLabel(label, { exact: false }).fill(value);
  }
  const result = form.getByTestId('try-result');
  const before = Number(await result.getAttribute('data-answers'));
  await form.getByRole('button', { name: 'Send GET' }).click();
  await result.and(form.locator(`[data-answers="${before + 1}"]`)).waitFor();
  return {
    status: Number(await form.getByTestId('try-status').textContent()),
    body: JSON.parse((await form.getByTestId('try-body').textContent()) ?? 'null') as unknown,
  };
}

describe('/app/api', () => {
  it('lists the routes by area with the scopes each needs', async () => {
    const tab = await reference();
    const values = operation(tab, 'get /datastreams/{id}/values');
    expect(await values.getByTestId('route-path').textContent()).toBe('/datastreams/{id}/values');
    expect(await values.getByTestId('route-scope').allTextContents()).toEqual(['datastreams:read']);
    expect(
      await operation(tab, 'put /account/roles/{id}').getByTestId('route-scope').allTextContents(),
    ).toEqual(['account:write']);
    // Managing tokens is the app's own: no scope opens it.
    expect(
      await operation(tab, 'post /oauth/personal-access-tokens').getByTestId('route-scope').count(),
    ).toBe(0);
    expect(await tab.page.getByRole('heading', { name: 'Values', level: 2 }).count()).toBe(1);

    // Opened, a route shows its parameters and its answer's fields.
    await values.getByTestId('route').click();
    expect(await values.getByRole('cell', { name: 'points', exact: true }).count()).toBe(1);
    expect(await values.getByText('downsampled', { exact: true }).count()).toBeGreaterThan(0);

    // The filter narrows the list to what matches.
    await tab.page.getByLabel('Filter routes').fill('gateways:write');
    await expect
      .poll(() =>
        tab.page
          .getByTestId('operation')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-key'))),
      )
      .toEqual([
        'post /gateways/{id}/credentials',
        'delete /gateways/{id}/credentials',
        'post /gateways/{id}/opcua/browse',
        'post /gateways/{id}/opcua/search',
      ]);
  });

  it("tries a GET with the user's own sign-in, then with a pasted token and its scopes", async () => {
    const tab = await reference();
    const session = await e2e.session(DEMO_USERS.admin);

    const me = await tryIt(operation(tab, 'get /user'));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ data: { email: DEMO_USERS.admin } });
    const other = await tryIt(operation(tab, 'get /users/{id}'), { id: session.userId });
    expect(other).toMatchObject({ status: 200, body: { data: { id: session.userId } } });

    // A personal access token that may read data streams only.
    const made = await e2e.server.call('POST', apiPaths.personalAccessTokens(), {
      token: session.token,
      json: { name: 'Reference check', scopes: ['datastreams:read'] },
    });
    const token = (made.json as { accessToken: string }).accessToken;
    await tab.page.getByLabel('A personal access token').check();
    await tab.page.getByLabel('Personal access token', { exact: true }).fill(token);

    expect((await tryIt(operation(tab, 'get /user'))).status).toBe(200);
    const roles = await tryIt(operation(tab, 'get /account/roles'));
    expect(roles.status).toBe(403);
    const clients = await tryIt(operation(tab, 'get /oauth/clients'));
    expect(clients.status).toBe(403);
    const retention = await tryIt(operation(tab, 'get /account/value-retention'));
    expect(retention.status).toBe(200);
    expect(typeof (retention.body as { data?: { days?: unknown } }).data?.days).toBe('number');

    // A token that is not one: 401, and the page's own sign-in is untouched.
    await tab.page.getByLabel('Personal access token', { exact: true }).fill('not-a-token');
    expect((await tryIt(operation(tab, 'get /user'))).status).toBe(401);
    await tab.page.getByLabel('Your own sign-in').check();
    expect(await tryIt(operation(tab, 'get /user'))).toMatchObject({
      status: 200,
      body: { data: { email: DEMO_USERS.admin } },
    });
    expect(tab.path()).toBe('/app/api');
  });
});

describe('/app/api/map', () => {
  it('shows the models under their parents, with references that lead to the model named', async () => {
    const tab = await e2e.signedInTab(DEMO_USERS.admin, '/app/api/map');
    const asset = tab.page.locator('[data-testid="map-model"][data-type="asset"]');
    await asset.waitFor();
    // A data stream sits in a stream group, under the asset.
    const stream = asset.locator('[data-testid="map-model"][data-type="datastream"]');
    expect(await stream.count()).toBe(1);
    expect(
      await asset.locator('[data-type="datastreamgroup"] [data-type="datastream"]').count(),
    ).toBe(1);
    expect(await tab.page.getByRole('heading', { name: 'Data stream', exact: true }).count()).toBe(
      1,
    );

    // Its reference to the asset is a link that takes the focus there (keyboard: Enter).
    const refs = stream.getByTestId('map-refs').first();
    expect(await refs.textContent()).toContain('asset_id');
    await refs.getByRole('link', { name: 'Asset', exact: true }).focus();
    await tab.page.keyboard.press('Enter');
    await expect
      .poll(() => tab.page.evaluate(() => document.activeElement?.id))
      .toBe('model-asset-title');
  });
});
