import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import type { AppTab } from './support/app-tab';
import { E2e } from './support/fixture';
import { DevicesListPage } from './support/pages/devices';
import { ShellPage } from './support/pages/shell';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

async function signedIn(email: string): Promise<{ tab: AppTab; shell: ShellPage }> {
  const tab = await e2e.signedInApp(email, '/app/dashboards/list');
  const shell = new ShellPage(tab.page);
  await shell.accountSwitcher().waitFor();
  return { tab, shell };
}

describe('the account switcher', () => {
  it("lists the admin's accounts as a tree with their counts, the deactivated one marked", async () => {
    const { shell } = await signedIn(DEMO_USERS.admin);
    expect(await shell.accountSwitcher().textContent()).toContain('Demo Machine Builder');
    const options = await shell.openAccountSwitcher();
    await expect
      .poll(async () => (await options.allTextContents()).map((s) => s.replace(/\s+/g, ' ')))
      .toEqual([
        'Demo Machine Builder4 users · 13 assets',
        'Customer North1 user · 3 assets',
        'Customer South1 user · 2 assetsDeactivatedno role here',
      ]);
    const root = shell.accountOption('Demo Machine Builder');
    expect(await root.getAttribute('aria-current')).toBe('true');
    // The customers sit one level below the machine builder.
    const nameX = async (name: string) =>
      (await shell.accountOption(name).locator('p').first().boundingBox())?.x ?? 0;
    expect(await nameX('Customer North')).toBeGreaterThan(await nameX('Demo Machine Builder'));
    // South: the admin sees it from above but holds no role there.
    expect(await shell.accountOption('Customer South').isDisabled()).toBe(true);
  });

  it('switches to Customer North behind the overlay, then shows the app in that account', async () => {
    const { tab, shell } = await signedIn(DEMO_USERS.admin);
    await shell.openAccountSwitcher();
    const overlay = tab.page.getByText('Switching to account Customer North...');
    const overlaySeen = overlay.waitFor({ state: 'visible' });
    await shell.accountOption('Customer North').click();
    await overlaySeen;
    await overlay.waitFor({ state: 'detached' });
    await tab.waitForPath(/^\/app\/devices\/list$/);
    await expect.poll(() => shell.accountSwitcher().textContent()).toContain('Customer North');
    await expect.poll(() => tab.page.title()).toBe('Customer North');
    // The new account's assets, from its freshly loaded local store, and none of the old one's.
    const north = await e2e.server.db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Customer North')
      .executeTakeFirstOrThrow();
    const northAssets = (await e2e.serverModels(north.id, 'asset'))
      .map((a) => String(a.attributes.name))
      .sort((a, b) => a.localeCompare(b));
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.count()).toBe('3 assets');
    await expect
      .poll(async () => [...(await list.names())].sort((a, b) => a.localeCompare(b)))
      .toEqual(northAssets);
    // The switcher now marks Customer North as current.
    await tab.goto('/app/dashboards/list');
    await shell.openAccountSwitcher();
    await expect
      .poll(() => shell.accountOption('Customer North').getAttribute('aria-current'))
      .toBe('true');
  });

  it('offers a search field when the list is long', async () => {
    const { tab, shell } = await signedIn(DEMO_USERS.admin);
    // Three accounts need none.
    await shell.openAccountSwitcher();
    const search = tab.page.getByRole('searchbox', { name: 'Search accounts' });
    expect(await search.count()).toBe(0);
    await tab.page.keyboard.press('Escape');
    // Twelve do (a machine builder with many customers; the answer is made up here).
    await tab.page.context().route('**/api/v1/user/accounts', (route) =>
      route.fulfill({
        json: {
          data: Array.from({ length: 12 }, (_, i) => ({
            id: `account-${i}`,
            text: i === 0 ? 'Builder' : `Customer ${String(i).padStart(2, '0')}`,
            parent_id: i === 0 ? null : 'account-0',
            value: {
              root: i === 0,
              active: true,
              userCount: 1,
              assetCount: i,
              hasChildren: i === 0,
            },
            current: i === 0,
            switchable: true,
          })),
        },
      }),
    );
    const options = await shell.openAccountSwitcher();
    await expect.poll(() => options.count()).toBe(12);
    await search.fill('customer 1');
    await expect
      .poll(async () => (await options.locator('p').allTextContents()).join(','))
      .toBe('Customer 10,Customer 11');
  });
});

describe('the user menu', () => {
  it('signs out to the sign-in screen', async () => {
    const { tab, shell } = await signedIn(DEMO_USERS.tech);
    await shell.signOut();
    await tab.waitForPath(/^\/user\/login/);
    expect(await tab.page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });
});

describe('the permission-check dialog', () => {
  it("lists an answer's _permissionChecks, each with its outcome and fields", async () => {
    const { tab, shell } = await signedIn(DEMO_USERS.admin);
    // No server call sends checks yet: one answer gets them added on its way to the worker.
    await tab.page.context().route('**/api/v1/user/accounts', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      body['_permissionChecks'] = [
        { permission: 'account::view', granted: true, account: 'Customer North' },
        { message: 'You may not edit this gateway.', granted: false, gateway: 'gw-7' },
      ];
      await route.fulfill({ response, json: body });
    });
    await shell.openAccountSwitcher();
    const dialog = tab.page.getByRole('dialog', { name: 'Please check' });
    await dialog.waitFor();
    const checks = dialog.getByTestId('permission-check');
    await expect.poll(() => checks.count()).toBe(2);
    expect(await checks.nth(0).getAttribute('data-status')).toBe('passed');
    expect((await checks.nth(0).textContent())?.replace(/\s+/g, ' ')).toBe(
      'Allowedaccount::viewaccountCustomer North',
    );
    expect(await checks.nth(1).getAttribute('data-status')).toBe('failed');
    expect(await checks.nth(1).textContent()).toContain('You may not edit this gateway.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('server messages', () => {
  it("an answer's message shows as a toast, its translationParams in place", async () => {
    const { tab, shell } = await signedIn(DEMO_USERS.admin);
    // No server call sends a message with parameters yet: one answer gets it on its way.
    await tab.page.context().route('**/api/v1/user/accounts', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      body.message = 'Account {name} has {count} new machines.';
      body.translationParams = { name: 'Customer North', count: 2 };
      await route.fulfill({ response, json: body });
    });
    await shell.openAccountSwitcher();
    await tab.page.getByText('Account Customer North has 2 new machines.').waitFor();
  });
});
