import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

/*
 * Issue 5 items 10 and 11: the app shell is precached by the service worker, so after one online
 * visit the app opens with no network at all; a page whose code cannot be loaded offers a reload.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the app without a network', () => {
  it('a page whose chunk fails to load offers a reload, which then works', async () => {
    // No service worker here: the browser must really fetch the chunk, and fail.
    const browser = await e2e.browser({ serviceWorkers: 'block' });
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const blocked = /\/assets\/device-details-page[^/]*\.js$/;
    await tab.page.route(blocked, (route) => route.abort('internetdisconnected'));
    await tab.goto('/app/devices/some-asset/details');
    const reload = tab.page.getByRole('button', { name: 'Reload' });
    await reload.waitFor();
    expect(await tab.page.getByText('This page could not be loaded').count()).toBe(1);
    await tab.page.unroute(blocked);
    await reload.click();
    await tab.waitForPath(/^\/app\/devices\/some-asset\/details$/);
    await expect.poll(() => tab.page.getByText('This page could not be loaded').count()).toBe(0);
  });

  it('after one online visit the app opens with no network at all', async () => {
    const browser = await e2e.browser({ serviceWorkers: 'allow' });
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.tech);
    await tab.waitForPath(/^\/app\/devices\/list$/);
    // The service worker has installed and precached the shell.
    await tab.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await tab.page.locator('[data-testid="sync-indicator"][data-state="online"]').waitFor();

    // No network at all: the API is unreachable and the page's own server is gone.
    e2e.offline();
    await e2e.web.close();
    await tab.reload();
    await tab.waitForPath(/^\/app\/devices\/list$/);
    await tab.page.locator('[data-testid="sync-indicator"][data-state="offline"]').waitFor();
    expect(await tab.page.locator('main').count()).toBe(1);
    // Another app path, never visited, opens too (the shell answers every path).
    await tab.goto('/app/dashboards/list');
    await tab.page.getByRole('heading', { name: 'Dashboards' }).waitFor();
  });
});
