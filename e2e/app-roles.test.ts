import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, isolate, type RoleAdmin } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';

/*
 * The roles screen (spec 001 §6, issue 15 item 3): an admin gives the technician's role an asset
 * by drag and drop and another by keyboard, toggles edit rights with the pencil, takes access
 * away with X; what the server holds follows each step.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('roles', () => {
  it('an admin gives and takes asset access by drag and drop and by keyboard', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const technician = async () => {
      const roles = dataOf<RoleAdmin[]>(
        await e2e.server.call('GET', apiPaths.roles(), { token: admin.token }),
      );
      const found = roles.find((r) => r.slug === 'technician');
      if (found === undefined) throw new Error('no technician role');
      return found;
    };
    const before = await technician();
    const assets = await e2e.serverModels(admin.accountId, 'asset');
    const notGiven = assets.filter((a) => !before.assets.some((g) => g.asset_id === a.id));
    const [dragged, typed] = notGiven;
    if (dragged === undefined || typed === undefined) throw new Error('too few assets');
    const nameOf = (a: typeof dragged) => String(a.attributes.name);

    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/accounts/${admin.accountId}/roles/${before.id}`,
    );
    const page = tab.page;
    const outside = page.getByTestId('role-assets-outside');
    const inside = page.getByTestId('role-assets-inside');
    await expect.poll(() => inside.count()).toBe(before.assets.length);
    await expect.poll(() => outside.filter({ hasText: nameOf(dragged) }).count()).toBe(1);

    // Drag and drop onto the role's list.
    await outside
      .filter({ hasText: nameOf(dragged) })
      .dragTo(page.getByTestId('role-assets-dropzone'));
    await expect
      .poll(async () => (await technician()).assets.find((a) => a.asset_id === dragged.id))
      .toEqual({ asset_id: dragged.id, edit: false });
    await expect.poll(() => inside.filter({ hasText: nameOf(dragged) }).count()).toBe(1);

    // The keyboard: the Add button of the next asset, reached with Tab and pressed with Enter.
    const add = page.getByRole('button', { name: `Give access to ${isolate(nameOf(typed))}` });
    await add.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await technician()).assets.some((a) => a.asset_id === typed.id))
      .toBe(true);

    // The pencil gives edit rights, X takes the access away.
    await page.getByRole('button', { name: `Edit rights on ${isolate(nameOf(typed))}` }).click();
    await expect
      .poll(async () => (await technician()).assets.find((a) => a.asset_id === typed.id)?.edit)
      .toBe(true);
    // The page shows it once the server's answer is back (after the server holds it).
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: `Edit rights on ${isolate(nameOf(typed))}` })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
    await page
      .getByRole('button', { name: `Take access to ${isolate(nameOf(dragged))} away` })
      .click();
    await expect
      .poll(async () => (await technician()).assets.some((a) => a.asset_id === dragged.id))
      .toBe(false);
    await expect.poll(() => inside.count()).toBe(before.assets.length + 1);
  });

  it('the admin role cannot be changed, and a user without account::view does not get the screen', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const roles = dataOf<RoleAdmin[]>(
      await e2e.server.call('GET', apiPaths.roles(), { token: admin.token }),
    );
    const adminRole = roles.find((r) => r.slug === 'admin');
    if (adminRole === undefined) throw new Error('no admin role');
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/accounts/${admin.accountId}/roles/${adminRole.id}`,
    );
    await expect
      .poll(() =>
        tab.page.getByText('The roles admin and norole cannot be changed or deleted.').count(),
      )
      .toBe(1);
    expect(await tab.page.getByRole('button', { name: 'Delete role' }).isDisabled()).toBe(true);
    const matrix = tab.page.getByTestId('permission-matrix');
    const assetView = matrix
      .getByRole('group', { name: 'Assets' })
      .getByRole('checkbox', { name: 'View', exact: true });
    expect(await assetView.isDisabled()).toBe(true);
    // Issue 30 item 11: readable names, the id only in a tooltip, each permission once.
    const labels = await matrix.locator('label').allTextContents();
    expect(labels.filter((l) => l.includes('::'))).toEqual([]);
    const ids = await matrix
      .locator('[data-permission]')
      .evaluateAll((boxes) => boxes.map((b) => b.getAttribute('data-permission')));
    expect(new Set(ids).size).toBe(ids.length);
    // Every area by its name, none by its id (3D scenes and the help centre once showed theirs).
    const areas = await matrix
      .getByRole('group')
      .evaluateAll((groups) =>
        groups.map(
          (g) =>
            document.getElementById(g.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
        ),
      );
    expect(areas).toContain('Release management');
    expect(areas).toContain('3D scenes');
    expect(areas.filter((a) => !/^[A-Z0-9]/.test(a))).toEqual([]);
    const alarms = matrix.getByRole('group', { name: 'Alarms' });
    expect(await alarms.getByRole('checkbox').count()).toBe(5);
    expect(await alarms.getByRole('checkbox', { name: 'Acknowledge' }).count()).toBe(1);
    await assetView.hover();
    await expect.poll(() => tab.page.getByRole('tooltip').textContent()).toBe('asset::view');

    // A technician (no account::view) does not get the screen at all.
    const other = await e2e.signedInApp(DEMO_USERS.tech, `/app/accounts/${admin.accountId}/roles`);
    await expect.poll(() => other.path()).toBe('/app/devices/list');
    expect(await other.page.getByTestId('roles-page').count()).toBe(0);
  });
});
