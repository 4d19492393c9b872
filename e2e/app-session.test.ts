import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_THEMES } from '../server/src/seed/demo-themes';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Spec 000 §4 at start and across tabs: the current account is asked for at start (another one
 * than stored: a switch), and an emptied stored user reloads every other tab.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the session in the page', () => {
  it('at start, an active account changed elsewhere is switched to', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const root = await e2e.session(DEMO_USERS.admin);
    expect(await tab.page.evaluate(() => localStorage.getItem('account'))).toBe(root.accountId);

    // Another client (say the admin's phone) makes Customer North the active account.
    const { north } = await e2e.server.demoAccountIds();
    const answer = await e2e.server.call('POST', apiPaths.setActiveAccount(root.userId, north), {
      token: root.token,
    });
    expect(answer.status).toBe(200);

    await tab.reload();
    await expect
      .poll(() => tab.page.evaluate(() => localStorage.getItem('account')), { timeout: 30_000 })
      .toBe(north);
    await tab.waitForPath(/^\/app\/devices\/list$/);
    const stored: unknown = await tab.page.evaluate((): unknown =>
      JSON.parse(localStorage.getItem('user') ?? '{}'),
    );
    expect(stored).toMatchObject({ activeAccount: { id: north, name: 'Customer North' } });
    // Back to the root account for the other tests.
    await e2e.server.call('POST', apiPaths.setActiveAccount(root.userId, root.accountId), {
      token: root.token,
    });
  });

  it('a start while the server cannot be reached checks the account once it can', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const root = await e2e.session(DEMO_USERS.admin);
    const { north } = await e2e.server.demoAccountIds();
    try {
      expect(
        (
          await e2e.server.call('POST', apiPaths.setActiveAccount(root.userId, north), {
            token: root.token,
          })
        ).status,
      ).toBe(200);
      // The app starts from what it has stored: the old account, its list on screen.
      e2e.offline();
      await tab.reload();
      await tab.waitForPath(/^\/app\/devices\/list$/);
      await expect
        .poll(() => tab.page.getByTestId('sync-indicator').getAttribute('data-state'))
        .not.toBe('online');
      expect(await tab.page.evaluate(() => localStorage.getItem('account'))).toBe(root.accountId);

      // The server comes back: the start-up check runs now and switches.
      e2e.online();
      await expect
        .poll(() => tab.page.evaluate(() => localStorage.getItem('account')), { timeout: 30_000 })
        .toBe(north);
      await tab.waitForPath(/^\/app\/devices\/list$/);
    } finally {
      e2e.online();
      await e2e.server.call('POST', apiPaths.setActiveAccount(root.userId, root.accountId), {
        token: root.token,
      });
    }
  });

  it('emptying the stored user in one tab reloads the other, which is then signed out', async () => {
    const browser = await e2e.browser();
    const first = await e2e.openApp(browser, '/user/login');
    await first.signIn(DEMO_USERS.tech);
    const second = await e2e.openApp(browser, '/app/devices/list');
    await second.waitForPath(/^\/app\/devices\/list$/);
    await first.page.evaluate(() => {
      localStorage.setItem('user', '');
      localStorage.removeItem('access_token');
    });
    await second.waitForPath(/^\/user\/login/);
  });

  it('signing in while the server cannot be reached says so, not the browser’s error', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.getByRole('button', { name: 'Sign in' }).waitFor();
    e2e.offline();
    try {
      await tab.fillSignIn(DEMO_USERS.tech);
      await tab.page
        .getByText('The server cannot be reached. Check the connection and try again.')
        .waitFor();
      expect(tab.path()).toMatch(/^\/user\/login/);
    } finally {
      e2e.online();
    }
  });

  it('a stored user whose stored role is missing is sent to /user/norole', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.tech);
    await tab.page.evaluate(() => localStorage.removeItem('role'));
    await tab.goto('/app/devices/list');
    await tab.waitForPath(/^\/user\/norole$/);
  });

  it('an account switch in one tab moves the other tabs to that account too', async () => {
    const root = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const first = await e2e.openApp(browser, '/user/login');
    await first.signIn(DEMO_USERS.admin);
    await first.goto('/app/dashboards/list');
    const second = await e2e.openApp(browser, '/app/dashboards/list');
    // The tab's title is the title of the account's theme (issue 36).
    await expect.poll(() => second.page.title()).toBe(DEMO_THEMES.root.title);

    const shell = new ShellPage(first.page);
    await shell.openAccountSwitcher();
    await shell.accountOption('Customer North').click();
    await expect.poll(() => first.page.title()).toBe('Customer North');
    // The other tab's worker would otherwise keep syncing the old account, its writes refused.
    await expect.poll(() => second.page.title(), { timeout: 30_000 }).toBe('Customer North');
    await e2e.server.call('POST', apiPaths.setActiveAccount(root.userId, root.accountId), {
      token: root.token,
    });
  });
});
