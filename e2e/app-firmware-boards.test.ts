import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type BoardAttributes, type FirmwareAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_RELEASES } from '../server/src/seed/demo-releases';
import { E2e } from './support/fixture';

/*
 * Firmware and boards in Chromium (issue 35 item 2, spec 001 §3 and §5): the demo's are listed;
 * a firmware and a board are made with the spec's words on empty fields, the board gets its
 * firmware and pins (a pin number twice is refused, GPIO and I2C), saved and kept by the server.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(async () => {
  await e2e.close();
});

describe('firmware and boards', () => {
  it('are made with the spec’s words, and a board gets its firmware and pins', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/firmware');
    const { page } = tab;
    await page.setViewportSize({ width: 1024, height: 768 });
    await tab.waitForPath(/^\/app\/firmware\/list$/);
    await expect
      .poll(() => page.getByTestId('firmware-row').allTextContents())
      .toEqual([expect.stringContaining(DEMO_RELEASES.firmware.name)]);

    // A new firmware: the spec's words on its empty fields, then made.
    await page.getByTestId('firmware-new').click();
    await page.getByRole('button', { name: 'Create firmware' }).click();
    await expect.poll(() => page.getByText('Enter firmware type', { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByText('Enter firmware name', { exact: true }).count()).toBe(1);
    await page.getByTestId('firmware-type').fill('Bootloader');
    await page.getByTestId('firmware-name').fill('U-Boot 2025');
    await page.getByRole('button', { name: 'Create firmware' }).click();
    await tab.waitForPath(/^\/app\/firmware\/[0-9a-f-]+\/details$/);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('U-Boot 2025');

    // A new board, from the boards' tab.
    await page.getByRole('tab', { name: 'Boards' }).click();
    await tab.waitForPath(/^\/app\/boards\/list$/);
    await expect
      .poll(() => page.getByTestId('board-row').allTextContents())
      .toEqual([expect.stringContaining(DEMO_RELEASES.board)]);
    await page.getByTestId('board-new').click();
    await page.getByRole('button', { name: 'Create board' }).click();
    await expect.poll(() => page.getByText('Enter board name', { exact: true }).count()).toBe(1);
    await page.getByTestId('board-name').fill('Edge box 2');
    await page.getByRole('button', { name: 'Create board' }).click();
    await tab.waitForPath(/^\/app\/boards\/[0-9a-f-]+\/details$/);
    const boardId = /boards\/([0-9a-f-]+)\//.exec(tab.path())?.[1] ?? '';

    // Its firmware and two pins; the same pin number twice is refused.
    await page.getByRole('combobox', { name: 'Firmware' }).click();
    await page.getByRole('option', { name: 'U-Boot 2025 (Bootloader)' }).click();
    await page.getByTestId('board-pin-add').click();
    await page.getByTestId('board-pin-add').click();
    await page.getByLabel('Pin name 1').fill('Relay');
    await page.getByLabel('Pin name 2').fill('Sensor bus');
    await page.getByLabel('Pin number 2').fill('0');
    await page.getByTestId('board-save').click();
    await expect
      .poll(() => page.getByText('Each pin number is used once on a board.').count())
      .toBe(1);
    await page.getByLabel('Pin number 2').fill('8');
    await page.getByRole('combobox', { name: 'Pin kind 2' }).click();
    await page.getByRole('option', { name: 'I2C' }).click();
    // Another admin renames the board meanwhile: the save writes what this form changed, and
    // the rename stays.
    const { accountId, token } = await e2e.session(DEMO_USERS.admin);
    const renamed = await e2e.server.call('PUT', apiPaths.model('boards', boardId), {
      token,
      json: { name: 'Edge box 2 (rev B)' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await page.getByTestId('board-save').click();
    await page
      .getByRole('status')
      .getByText(/^Saved/)
      .waitFor();

    const firmware = (await e2e.serverModels(accountId, 'firmware')).find(
      (f) => (f.attributes as FirmwareAttributes).name === 'U-Boot 2025',
    );
    expect(firmware?.attributes).toMatchObject({ type: 'Bootloader' });
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(accountId, 'board')).find((b) => b.id === boardId)?.attributes as
            BoardAttributes | undefined,
      )
      .toMatchObject({
        name: 'Edge box 2 (rev B)',
        firmware_id: firmware?.id,
        pins: [
          { name: 'Relay', number: 0, kind: 'gpio' },
          { name: 'Sensor bus', number: 8, kind: 'i2c' },
        ],
      });
  });
});
