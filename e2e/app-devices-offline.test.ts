import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, DevicesListPage, syncIndicator } from './support/pages/devices';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('assets offline', () => {
  it('a rename made offline shows at once, survives a reload while offline as 1 pending write, and reaches the server once back online', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.count()).toBe('13 assets');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    // From the list to the asset, as a user would.
    await list.open('Press line 2');
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const id = tab.path().split('/')[3] ?? '';
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe('Press line 2');

    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await details.rename('Press line 2 (retooled)');
    // In the local store at once: the page shows it and marks it as not synced yet.
    await expect.poll(() => details.name()).toBe('Press line 2 (retooled)');
    await expect.poll(() => details.pendingMark.count()).toBe(1);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');

    // A reload while still offline: the app opens from what this browser has.
    await tab.reload();
    await expect.poll(() => details.name()).toBe('Press line 2 (retooled)');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');
    expect(await details.pendingMark.count()).toBe(1);
    const server = await e2e.serverModels(admin.accountId, 'asset');
    expect(server.find((a) => a.id === id)?.attributes.name).toBe('Press line 2');

    e2e.online();
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === id)?.attributes
            .name,
      )
      .toBe('Press line 2 (retooled)');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');
    await expect.poll(() => details.pendingMark.count()).toBe(0);
    expect(await details.name()).toBe('Press line 2 (retooled)');
  });
});
