import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

/*
 * An account's integrations and error code lists (spec 000 §2, issue 15 item 2): real lists the
 * admin edits, stored as synced models (what the server holds follows each step).
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('account lists', () => {
  it('an integration with its settings, and an error code list with its codes', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/accounts/${admin.accountId}/integrations`,
    );
    const page = tab.page;
    const empty = page.getByText('No integrations yet.');
    await expect.poll(() => empty.count()).toBe(1);
    await page.getByRole('textbox', { name: 'New integration' }).fill('ERP export');
    await page.getByRole('button', { name: 'Add' }).click();
    const item = page.locator('[data-testid="integration-item"][data-name="ERP export"]');
    await expect.poll(() => item.count()).toBe(1);
    await item.getByRole('textbox', { name: 'Kind' }).fill('webhook');
    await item
      .getByRole('textbox', { name: 'Settings' })
      .fill('url = https://erp.example/hook\nsecret name = ERP_KEY');
    await item.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await e2e.serverModels(admin.accountId, 'integration'))[0]?.attributes)
      .toMatchObject({
        name: 'ERP export',
        kind: 'webhook',
        settings: { url: 'https://erp.example/hook', 'secret name': 'ERP_KEY' },
      });

    // Another admin renames it and gives it a page address while this form is open. Saves of
    // this form and of its webhook part write only what they changed: both stay.
    const id = (await e2e.serverModels(admin.accountId, 'integration'))[0]?.id ?? '';
    const elsewhere = await e2e.server.call('PUT', apiPaths.model('integrations', id), {
      token: admin.token,
      json: { name: 'ERP export (main)', slug: 'erp-main' },
    });
    expect(elsewhere.status).toBe(200);
    const renamed = page.locator('[data-testid="integration-item"][data-name="ERP export (main)"]');
    await expect.poll(() => renamed.count()).toBe(1);
    await renamed
      .getByRole('textbox', { name: 'Settings' })
      .fill('url = https://erp.example/hook2');
    await renamed.getByRole('button', { name: 'Save' }).click();
    const address = renamed.getByRole('textbox', { name: 'Webhook address' });
    if ((await address.count()) === 0)
      await renamed.getByRole('button', { name: 'Set up as webhook' }).click();
    await address.fill('https://erp.example/in');
    await renamed.getByRole('button', { name: 'Apply page and webhook settings' }).click();
    await expect
      .poll(async () => (await e2e.serverModels(admin.accountId, 'integration'))[0]?.attributes)
      .toMatchObject({
        name: 'ERP export (main)',
        slug: 'erp-main',
        settings: { url: 'https://erp.example/hook2' },
        webhook: { url: 'https://erp.example/in' },
      });

    await tab.goto(`/app/accounts/${admin.accountId}/errorcodelists`);
    await page.getByRole('textbox', { name: 'New error code list' }).fill('Press line faults');
    await page.getByRole('button', { name: 'Add' }).click();
    const list = page.locator('[data-testid="errorcodelist-item"][data-name="Press line faults"]');
    await expect.poll(() => list.count()).toBe(1);
    for (const [code, text] of [
      ['E101', 'Oil pressure low'],
      ['E205', 'Door open'],
    ] as const) {
      await list.getByRole('textbox', { name: 'Code' }).fill(code);
      await list.getByRole('textbox', { name: 'Text' }).fill(text);
      await list.getByRole('button', { name: 'Add code' }).click();
      await expect
        .poll(() => list.getByTestId('error-code').filter({ hasText: code }).count())
        .toBe(1);
    }
    // The same code twice is refused with the schema's message.
    await list.getByRole('textbox', { name: 'Code' }).fill('E101');
    await list.getByRole('textbox', { name: 'Text' }).fill('Again');
    await list.getByRole('button', { name: 'Add code' }).click();
    await expect.poll(() => page.getByText('Each code may be listed once.').count()).toBe(1);
    await list.getByRole('button', { name: 'Remove code E205' }).click();
    await expect
      .poll(async () => (await e2e.serverModels(admin.accountId, 'errorcodelist'))[0]?.attributes)
      .toMatchObject({
        name: 'Press line faults',
        codes: [{ code: 'E101', text: 'Oil pressure low' }],
      });
  });
});
