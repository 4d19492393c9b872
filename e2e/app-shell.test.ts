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

  it('unknown paths inside the app show the error screen; the screens spec 000 §2 lists show their page', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const [asset] = await e2e.serverModels(admin.accountId, 'asset');
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const heading = (name: string) =>
      tab.page.getByRole('heading', { level: 1, name, exact: true });
    const a = admin.accountId;
    const u = admin.userId;
    const d = asset?.id ?? '';
    // Each path below from the dashboards' list, shown: the last step's page (an error screen,
    // the same roles page, the same 'no such version' text) stays until the router renders the
    // next one, and would pass its check.
    const fromAFoundScreen = async () => {
      await tab.navigateInApp('/app/dashboards/list');
      await heading('Dashboards').waitFor();
    };

    for (const path of [
      '/app/devices/x/anything/else',
      '/app/users/x/foo/bar',
      `/app/devices/${d}/nothing`,
      `/app/accounts/${a}/nothing`,
      `/app/accounts/${a}/details/${a}/more`,
      '/app/templates/x/nothing',
      '/app/firmware/x/details/more',
      '/app/versions/modules/m1/1.2.0/nothing',
    ]) {
      // Inside the running app (a page load each was most of this test's time), from a screen
      // that is found: the error screen that follows is this path's.
      await fromAFoundScreen();
      await expect.poll(() => heading('Page not found').count(), { message: path }).toBe(0);
      await tab.navigateInApp(path);
      await expect.poll(() => heading('Page not found').count(), { message: path }).toBe(1);
    }

    // Listed screens show their page, in the app's frame; the v2 roles address is forwarded.
    const screens: [string, RegExp, string][] = [
      [`/app/accounts/${a}/roles/${a}/v2`, new RegExp(`^/app/accounts/${a}/roles/${a}$`), 'Roles'],
      [`/app/accounts/${a}/roles/v2`, new RegExp(`^/app/accounts/${a}/roles$`), 'Roles'],
      [`/app/accounts/${a}/errorcodelists`, /errorcodelists$/, 'Error code lists'],
      [`/app/users/${u}/accesstokens`, /accesstokens$/, 'Access tokens'],
      [`/app/devices/${d}/eventinspection/o1`, /eventinspection\/o1$/, 'Event inspection'],
      [`/app/devices/${d}/servicebooklet`, /servicebooklet$/, 'Service booklet'],
      ['/app/templates/t1/input/i1', /input\/i1$/, 'Input'],
    ];
    for (const [path, ends, title] of screens) {
      await fromAFoundScreen();
      await tab.navigateInApp(path);
      await tab.waitForPath(ends);
      await expect.poll(() => heading(title).count(), { message: path }).toBe(1);
      expect(await tab.page.getByRole('banner').count(), path).toBe(1);
    }
    // Release management's screens (issue 35) of an id the account has not: they say so.
    const missing: [string, RegExp, string][] = [
      ['/app/firmware/f1', /firmware\/f1$/, 'There is no such firmware in this account'],
      ['/app/boards/b1/details', /b1\/details$/, 'There is no such board in this account'],
      [
        '/app/versions/modules/m1/1.2.0/featureflags',
        /featureflags$/,
        'There is no such version in this account',
      ],
      [
        '/app/versions/modules/m1',
        /modules\/m1\/general$/,
        'There is no such version in this account',
      ],
    ];
    for (const [path, ends, text] of missing) {
      await fromAFoundScreen();
      await tab.navigateInApp(path);
      await tab.waitForPath(ends);
      await expect
        .poll(() => tab.page.getByText(text, { exact: true }).count(), { message: path })
        .toBe(1);
      expect(await tab.page.getByRole('banner').count(), path).toBe(1);
    }
  });

  it('the built page starts its sync worker before the app’s code runs, and the app adopts that one', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    await tab.waitForPath(/^\/app\//);
    await expect.poll(() => tab.page.getByRole('heading', { level: 1 }).count()).toBe(1);
    // Started by client/public/sync-boot.js from the head (vite-early-worker.ts), not by the app.
    expect(await tab.page.evaluate('globalThis.__plantSyncWorker instanceof Worker')).toBe(true);
    // One sync worker: the app talks to the early one rather than starting a second.
    const sync = tab.page.workers().filter((w) => /\/assets\/worker-[\w-]+\.js$/.test(w.url()));
    expect(sync).toHaveLength(1);
  });

  it('an unknown path shows the error screen', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/no/such/place');
    await expect
      .poll(() => tab.page.getByRole('heading', { name: 'Page not found' }).count())
      .toBe(1);
  });
});
