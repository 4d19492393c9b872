import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';

/*
 * A data stream's definition form on its page (issue 12, item 4): the shared schema's and the
 * form's messages on their fields, the pre-processing code tried on the stream's latest value in
 * the server's sandbox ('This code is not valid' with the reason), and the saved definition on
 * the server, with only the fields the form changed (another user's rename meanwhile stays).
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the data stream definition', () => {
  it('checks its fields, tries the code on the latest value, and saves', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 2);
    const stream = gw.streams['Spindle speed'] ?? '';
    await e2e.server.machineData.store.append({
      source: 'e2e-form',
      seq: 1,
      points: [{ stream, account: admin.accountId, ts: Date.now() - 10_000, value: 1500 }],
    });

    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${gw.assetId}/input/${stream}`,
      browser,
    );
    const page = tab.page;
    await page.getByRole('button', { name: 'Edit definition' }).click();
    const form = page.getByTestId('stream-form');
    const min = form.getByRole('textbox', { name: 'Visualization minimum' });
    const max = form.getByRole('textbox', { name: 'Visualization maximum' });

    // Not a number: the message on its field, and the focus there.
    await min.fill('abc');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByText('Must be a numerical value or empty').count()).toBe(1);
    expect(await min.evaluate((el) => el === document.activeElement)).toBe(true);
    await min.fill('3000');
    await max.fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => form.getByText('The minimum must be below the maximum').count())
      .toBe(1);
    await min.fill('0');
    await max.fill('3000');

    // Code that breaks a rule, tried: the reason says which.
    const code = form.getByRole('textbox', { name: 'Pre-processing code' });
    const result = page.getByTestId('code-try-result');
    await code.fill('x = 1;\nreturn x;');
    await page.getByTestId('code-try').click();
    await expect
      .poll(() => result.textContent())
      .toBe('This code is not valid: Variables must start with $.');
    // Good code on the latest value (1500 rpm), then on a value typed in.
    await code.fill('let $hz = $value / 60;\nreturn $hz;');
    await page.getByTestId('code-try').click();
    await expect.poll(() => result.textContent()).toBe('1500 becomes 25');
    await form.getByRole('textbox', { name: 'Try with the value' }).fill('120');
    await page.getByTestId('code-try').click();
    await expect.poll(() => result.textContent()).toBe('120 becomes 2');

    // Another admin renames the stream while the form is open; the page shows it. The save
    // writes what this form changed, and the rename stays.
    const renamed = await e2e.server.call('PUT', apiPaths.model('datastreams', stream), {
      token: admin.token,
      json: { name: 'Spindle speed (main)' },
    });
    expect(renamed.status).toBe(200);
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Spindle speed (main)' }).count())
      .toBe(1);

    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count()).toBe(0);
    await expect
      .poll(async () => {
        const saved = (await e2e.serverModels(admin.accountId, 'datastream')).find(
          (s) => s.id === stream,
        );
        return [
          saved?.attributes.vis_min,
          saved?.attributes.vis_max,
          saved?.attributes.preprocessing,
        ];
      })
      .toEqual([0, 3000, 'let $hz = $value / 60;\nreturn $hz;']);
    const saved = (await e2e.serverModels(admin.accountId, 'datastream')).find(
      (s) => s.id === stream,
    );
    expect(saved?.attributes.name).toBe('Spindle speed (main)');
  });
});
