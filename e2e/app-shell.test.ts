import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the app shell', () => {
  it('an /app address without a stored user goes to sign-in with a redirect back, and there after signing in', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/app/dashboards/list');
    await tab.waitForPath(/^\/user\/login\?redirect=/);
    expect(decodeURIComponent(tab.path())).toContain('/app/dashboards/list');
    await tab.signIn(DEMO_USERS.admin);
    await tab.waitForPath(/^\/app\/dashboards\/list$/);
    await expect.poll(() => tab.page.getByRole('heading', { name: 'Dashboards' }).count()).toBe(1);
  });

  it('an unknown path shows the error screen', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/no/such/place');
    await expect
      .poll(() => tab.page.getByRole('heading', { name: 'Page not found' }).count())
      .toBe(1);
  });
});
