import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type RoleAdmin } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';
import { syncIndicator } from './support/pages/devices';

/*
 * Roles as synced models (issue 15 item 5): the roles screen reads the local store, so a change
 * one admin makes shows on another admin's open screen without a reload, and a change made
 * offline shows at once, survives a reload as a pending write and reaches the server once back.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

async function technicianRole(token: string): Promise<RoleAdmin> {
  const roles = dataOf<RoleAdmin[]>(await e2e.server.call('GET', apiPaths.roles(), { token }));
  const found = roles.find((r) => r.slug === 'technician');
  if (found === undefined) throw new Error('no technician role');
  return found;
}

describe('roles, synced', () => {
  it("one admin's change shows on another admin's open roles screen, both ways", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const role = await technicianRole(admin.token);
    const path = `/app/accounts/${admin.accountId}/roles/${role.id}`;
    const first = await e2e.signedInApp(DEMO_USERS.admin, path);
    const second = await e2e.signedInApp(DEMO_USERS.internal, path);

    const box = (tab: typeof first) =>
      tab.page
        .getByRole('group', { name: 'Reports' })
        .getByRole('checkbox', { name: 'View', exact: true });
    await expect.poll(() => box(first).isChecked()).toBe(false);
    await expect.poll(() => box(second).isChecked()).toBe(false);
    // The box follows the local store (the worker answers a moment later): click, then wait.
    await box(first).click();
    // The other admin's screen follows the live update, no reload.
    await expect.poll(() => box(second).isChecked()).toBe(true);
    await expect
      .poll(async () => (await technicianRole(admin.token)).permissions)
      .toContain('report::view');

    // And back: the second admin renames the role, the first sees the new name.
    const nameField = second.page.getByRole('textbox', { name: 'Name' });
    await nameField.fill('Technician (shift)');
    await second.page.getByRole('button', { name: 'Rename' }).click();
    await expect
      .poll(() => first.page.getByTestId('roles-list').getByText('Technician (shift)').count())
      .toBe(1);
    await box(second).click();
    await expect.poll(() => box(first).isChecked()).toBe(false);
    await nameField.fill('Technician');
    await second.page.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(async () => (await technicianRole(admin.token)).name).toBe('Technician');
  });

  it('a role change made offline shows at once, survives a reload as a pending write and reaches the server once back', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const role = await technicianRole(admin.token);
    expect(role.permissions).not.toContain('security-insights::view');
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/accounts/${admin.accountId}/roles/${role.id}`,
    );
    const box = () =>
      tab.page
        .getByRole('group', { name: 'Security insights' })
        .getByRole('checkbox', { name: 'View', exact: true });
    await expect.poll(() => box().isChecked()).toBe(false);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await box().click();
    await expect.poll(() => box().isChecked()).toBe(true);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');

    await tab.reload();
    await expect.poll(() => box().isChecked()).toBe(true);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');
    expect((await technicianRole(admin.token)).permissions).not.toContain(
      'security-insights::view',
    );

    e2e.online();
    await expect
      .poll(async () => (await technicianRole(admin.token)).permissions)
      .toContain('security-insights::view');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');
    expect(await box().isChecked()).toBe(true);
  });
});
