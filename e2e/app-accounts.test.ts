import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolate, apiPaths, type AccountTreeNode, type AccountView } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';
import { syncIndicator } from './support/pages/devices';

/*
 * Accounts in the browser (spec 000 §3, issue 15 item 2): an admin makes a subaccount from the
 * account list, deactivates it ('Deactivated' shows), renames and reactivates it on its page, and
 * picks its theme and host on its design page, where a host that is none is refused with its
 * message. A rename saved offline says it waits on this device until the server has it.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('accounts', () => {
  it('makes a subaccount, deactivates it, and picks its theme and host', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/accounts/list');
    const page = tab.page;
    const rows = page.getByTestId('account-row');
    await expect.poll(() => rows.count()).toBe(3);

    // Another admin's open list follows live (the accounts are synced models).
    const other = await e2e.signedInApp(DEMO_USERS.internal, '/app/accounts/list');
    const otherEast = other.page.locator('[data-testid="account-row"][data-name="Customer East"]');
    await expect.poll(() => other.page.getByTestId('account-row').count()).toBe(3);

    await page.getByRole('textbox', { name: 'New subaccount' }).fill('Customer East');
    await page.getByRole('button', { name: 'Create subaccount' }).click();
    // By name: every row's move menu lists the other names too.
    const east = page.locator('[data-testid="account-row"][data-name="Customer East"]');
    await expect.poll(() => east.count()).toBe(1);
    // The page shows the local store at once; the worker's outbox brings it to the server.
    let made: AccountTreeNode | undefined;
    await expect
      .poll(async () => {
        const tree = dataOf<AccountTreeNode[]>(
          await e2e.server.call('GET', apiPaths.userAccounts(), { token: admin.token }),
        );
        made = tree.find((n) => n.text === 'Customer East');
        return made?.parent_id;
      })
      .toBe(admin.accountId);
    const server = async () =>
      dataOf<AccountView>(
        await e2e.server.call('GET', apiPaths.accountById(made?.id ?? ''), { token: admin.token }),
      );

    await page.getByRole('switch', { name: `${isolate('Customer East')} is active` }).click();
    await expect.poll(() => east.getByText('Deactivated').count()).toBe(1);
    await expect.poll(async () => (await server()).active).toBe(false);
    await expect.poll(() => otherEast.getByText('Deactivated').count()).toBe(1);
    // The account the admin works in is switched from above only: its own switch is off limits.
    const rootName =
      (await page.getByTestId('account-row').first().getAttribute('data-name')) ?? '';
    const own = page.getByRole('switch', { name: `${isolate(rootName)} is active` });
    await expect.poll(() => own.isDisabled()).toBe(true);

    // Its page: a name being typed stays as the Active switch's own save lands (that save
    // gave the field the stored name back), and is saved by its button.
    await tab.goto(`/app/accounts/${made?.id ?? ''}/details`);
    const name = page.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.inputValue()).toBe('Customer East');
    await name.fill('Customer East Ltd');
    // Online before the switch: a save made while the new page still connects is 'Saved on
    // this device', not 'Saved.' (a busy machine's clean clone clicked before the link was up).
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('online');
    await page.getByRole('switch', { name: 'Active' }).click();
    await expect.poll(async () => (await server()).active).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    expect(await name.inputValue()).toBe('Customer East Ltd');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await server()).name).toBe('Customer East Ltd');
    // Offline, a save says it waits on this device; once the server has it, it says 'Saved.'
    // (it said it would go to the server long after it had gone).
    const status = page.getByRole('status').filter({ hasText: 'Saved' });
    e2e.offline();
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('offline');
    await name.fill('Customer East GmbH');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => status.textContent())
      .toBe('Saved on this device: it goes to the server once online.');
    e2e.online();
    await expect.poll(async () => (await server()).name).toBe('Customer East GmbH');
    await expect.poll(() => status.textContent()).toBe('Saved.');

    // Its design: a theme of the account above picked, and a host tied to it, from above.
    await tab.goto(`/app/accounts/${made?.id ?? ''}/design`);
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect.poll(() => theme.count()).toBe(1);
    await theme.selectOption({ label: 'Customer North' });
    // The preview follows the pick before it is saved.
    await expect
      .poll(() => page.getByTestId('theme-preview-light').getByText('Customer North').count())
      .toBeGreaterThan(0);
    await page.getByRole('textbox', { name: 'Host of its sign-in page' }).fill('not a host');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() =>
        page.getByText('Please provide a valid host name, like portal.example.com.').count(),
      )
      .toBe(1);
    await page.getByRole('textbox', { name: 'Host of its sign-in page' }).fill('east.localhost');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    await expect
      .poll(async () => {
        const view = await server();
        return { host: view.host, title: view.theme.title };
      })
      .toEqual({ host: 'east.localhost', title: 'Customer North' });
  });
});
