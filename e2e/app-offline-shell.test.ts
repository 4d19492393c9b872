import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { ANSWER_WITHIN_MS } from '../sync-worker/src/transport/http';
import { E2e } from './support/fixture';
import { DevicesListPage } from './support/pages/devices';
import { ShellPage } from './support/pages/shell';

/*
 * Issue 5 items 10 and 11: the app shell is precached by the service worker, so after one online
 * visit the app opens with no network at all; a page whose code cannot be loaded offers a reload.
 * Issue 30 item 14: that first visit is enough, without a reload, and the app says when it is.
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

  // Before the next test: it closes the page's own server.
  it('a server that takes connections and never answers does not hold the app back: a reload shows the stored list', async () => {
    // A plant's half-dead link or a hung proxy: the API's connections open, no byte comes back.
    // The start-up's account check hangs then; the shell and the page must not wait for it.
    const browser = await e2e.browser({ serviceWorkers: 'block' });
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    const devices = new DevicesListPage(tab.page);
    await expect.poll(async () => (await devices.names()).length).toBeGreaterThan(0);
    const names = await devices.names();
    e2e.net.blackhole(true);
    try {
      await tab.page.reload({ waitUntil: 'domcontentloaded' });
      // Well within the time a hung request takes to fail (the browser waits minutes).
      await expect.poll(() => devices.names(), { timeout: 30_000 }).toEqual(names);
      await tab.page.getByTestId('menu-toggle').waitFor();
    } finally {
      e2e.net.blackhole(false);
    }
  });

  it('a first install that failed (one precached file did not come) is tried again on the same page', async () => {
    // A flaky plant network: the service worker's precache loses one of its ~180 files, so the
    // browser drops that worker. Without a new try the page stays unready for offline use until
    // the user happens to reload it.
    const browser = await e2e.browser({ serviceWorkers: 'allow' });
    const lost: string[] = [];
    await browser.context.route(/\/assets\/[^/]+\.js(\?|$)/, async (route) => {
      const request = route.request();
      if (lost.length === 0 && request.serviceWorker() !== null) {
        lost.push(request.url());
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    const page = tab.page;
    // The worker's first install lost a file: no worker took the page.
    await expect.poll(() => lost.length).toBe(1);
    await page.getByText('Ready for offline use', { exact: true }).waitFor({ timeout: 90_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // The lost file was fetched again, and is in the worker's precache now.
    const precached = await page.evaluate(async (url) => {
      const names = await caches.keys();
      for (const name of names) {
        const cache = await caches.open(name);
        if (await cache.match(url, { ignoreSearch: true })) return true;
      }
      return false;
    }, lost[0] ?? '');
    expect(precached).toBe(true);
  }, 180_000);

  // A walk through every screen and form of the app, offline, in one visit: 60 to 110 s under
  // the suite's load (a clean clone met the default 120 s with the machine busier still).
  it('a first visit is enough: the app says when it is ready, then every screen and form opens offline without a reload, and after one', async () => {
    // Issue 30 item 14: a fresh profile, one sign-in, no reload before the network goes.
    const browser = await e2e.browser({ serviceWorkers: 'allow' });
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    const page = tab.page;
    const shell = new ShellPage(page);
    const devices = new DevicesListPage(page);
    // On screen: once, as it happens, and in the sync details for as long as it holds.
    await page.getByText('Ready for offline use', { exact: true }).waitFor();
    await page.getByTestId('sync-indicator').click();
    await expect
      .poll(() => page.getByTestId('sync-details').textContent())
      .toContain('This device is ready for offline use.');
    await page.keyboard.press('Escape');
    // Ready for offline use says the app is precached, not that the list's rows have come.
    await expect.poll(async () => (await devices.names()).length).toBeGreaterThan(0);
    const assetName = (await devices.names())[0] ?? '';

    // No network at all, and no reload: the API is unreachable and the page's own server gone.
    e2e.offline();
    await e2e.web.close();
    await page.locator('[data-testid="sync-indicator"][data-state="offline"]').waitFor();
    const notLoaded = () => page.getByText('This page could not be loaded').count();

    // Every menu entry, by clicking it: each screen's code comes from the service worker.
    const entries = await shell.menuEntries();
    expect(entries.length).toBeGreaterThan(7);
    for (const entry of entries) {
      await shell.menu().getByRole('link', { name: entry, exact: true }).click();
      await expect.poll(() => page.locator('main h1').count(), { message: entry }).toBe(1);
      expect(await notLoaded(), entry).toBe(0);
    }
    // Every form of those screens, and of an asset's page.
    const opensForm = async (screen: string, button: string, dialog: string) => {
      await shell.menu().getByRole('link', { name: screen, exact: true }).click();
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('dialog', { name: dialog }).waitFor();
      expect(await notLoaded(), button).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog', { name: dialog }).count()).toBe(0);
    };
    await opensForm('Assets', 'New asset', 'New asset');
    await opensForm('Alarms', 'New alarm', 'New alarm');
    await shell.menu().getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByLabel('Invite by e-mail').waitFor();
    // The account's page leads to its other screens (issue 30 item 3), all openable offline.
    await shell.menu().getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByLabel('New subaccount').waitFor();
    await page.getByTestId('account-row').first().getByRole('link').first().click();
    const screens = page.getByRole('navigation', { name: "The account's screens" });
    for (const screen of ['Roles', 'Design', 'Integrations', 'Services', 'Error code lists']) {
      await screens.getByRole('link', { name: screen, exact: true }).click();
      await tab.waitForPath(
        /^\/app\/accounts\/[^/]+\/(roles|design|integrations|services|errorcodelists)$/,
      );
      await expect.poll(() => page.locator('main h1').count(), { message: screen }).toBe(1);
      expect(await notLoaded(), screen).toBe(0);
      await page.goBack();
      await screens.waitFor();
    }
    // A gateway's page leads to its logs.
    await shell.menu().getByRole('link', { name: 'Gateways', exact: true }).click();
    await page.getByTestId('gateway-row').first().getByRole('link').first().click();
    await page.getByRole('link', { name: 'Logs', exact: true }).click();
    await tab.waitForPath(/^\/app\/gateways\/[^/]+\/logs$/);
    await expect.poll(() => page.locator('main h1').count()).toBe(1);
    expect(await notLoaded()).toBe(0);
    await shell.menu().getByRole('link', { name: 'Assets', exact: true }).click();
    await devices.open(assetName);
    for (const [button, dialog] of [
      ['Collect data', 'Collect data'],
      ['Edit asset', 'Edit asset'],
      ['QR code', 'QR code'],
      ['Save as template', 'Save as template'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('dialog', { name: dialog }).waitFor();
      expect(await notLoaded(), button).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog', { name: dialog }).count()).toBe(0);
    }

    // A change made now waits, and the pending badge opens the list saying what it changes.
    await page.getByRole('button', { name: 'Edit asset', exact: true }).click();
    const form = page.getByTestId('asset-form');
    await form.getByRole('textbox', { name: 'Name' }).fill(`${assetName} (offline)`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('sync-indicator').getAttribute('data-pending'))
      .toBe('1');
    await page.getByText('1 pending', { exact: true }).click();
    const pending = page.getByTestId('pending-write');
    await expect.poll(() => pending.count()).toBe(1);
    expect(await pending.textContent()).toContain(`Change of Asset “${assetName} (offline)”`);
    expect(await pending.textContent()).toContain('Changes: name');
    // The outbox may be trying the server at this moment ('Sending'): it waits between tries. A
    // try gives up at the latest after the worker's answer limit (60 s, transport/http.ts). Two
    // clean clones failed here, still 'Sending': the list was read during a try and not again
    // while no count changed (usePendingWrites now reads again when the sending count does).
    await expect
      .poll(() => pending.textContent(), { timeout: ANSWER_WITHIN_MS + 30_000 })
      .toContain('Waiting');
    await page.keyboard.press('Escape');

    // What the server last said about a gateway is only the last known state now.
    await shell.menu().getByRole('link', { name: 'Gateways', exact: true }).click();
    const presence = page.getByTestId('gateway-online').first();
    await expect.poll(() => presence.getAttribute('data-last-known')).toBe('true');
    expect(await presence.textContent()).toMatch(/^Last known: (online|offline)$/);

    // And after a reload with no network, the app still opens, on any path.
    await tab.reload();
    await tab.waitForPath(/^\/app\/gateways\/list$/);
    await page.locator('[data-testid="sync-indicator"][data-state="offline"]').waitFor();
    await expect
      .poll(() => page.getByTestId('sync-indicator').getAttribute('data-pending'))
      .toBe('1');
    await tab.goto('/app/dashboards/list');
    await page.getByRole('heading', { name: 'Dashboards' }).waitFor();
  }, 240_000);
});
