import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolate } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

/*
 * Stream groups on the asset page (issue 16 item 3, spec 001 §3): a group is added, put in place
 * by keyboard (the arrows) and by drag and drop, renamed and set to start closed, a stream moves
 * into it, and it is deleted after saying its streams go with it; without the permissions the
 * page offers none of it.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('stream groups', () => {
  it('adds, orders by keyboard and by drag and drop, sets, fills and deletes a group', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Compressor station',
    );
    if (asset === undefined) throw new Error('no Compressor station');
    const groupsOnServer = async () =>
      (await e2e.serverModels(admin.accountId, 'datastreamgroup'))
        .filter((g) => g.attributes.asset_id === asset.id)
        .sort((a, b) => Number(a.attributes.order) - Number(b.attributes.order))
        .map((g) => String(g.attributes.name));
    expect(await groupsOnServer()).toEqual(['Drive', 'Hydraulics']);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    const page = tab.page;
    const shown = () =>
      page
        .getByTestId('stream-group')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-name')));
    await expect.poll(shown).toEqual(['Drive', 'Hydraulics']);

    const form = page.getByTestId('new-stream-group');
    await form.getByRole('textbox', { name: 'New stream group' }).fill('Cooling');
    await form.getByRole('button', { name: 'Add group' }).click();
    await expect.poll(shown).toEqual(['Drive', 'Hydraulics', 'Cooling']);

    // The keyboard: the group's arrow, reached by focus and pressed with Enter.
    const up = page.getByRole('button', { name: `Move ${isolate('Cooling')} up` });
    await up.focus();
    await page.keyboard.press('Enter');
    await expect.poll(shown).toEqual(['Drive', 'Cooling', 'Hydraulics']);
    await expect.poll(groupsOnServer).toEqual(['Drive', 'Cooling', 'Hydraulics']);

    // Drag and drop: Hydraulics' header onto Drive.
    const header = (name: string) =>
      page.locator(`[data-testid="stream-group"][data-name="${name}"]`);
    await header('Hydraulics').getByTestId('stream-group-header').dragTo(header('Drive'));
    await expect.poll(shown).toEqual(['Hydraulics', 'Drive', 'Cooling']);
    await expect.poll(groupsOnServer).toEqual(['Hydraulics', 'Drive', 'Cooling']);

    // Its settings: a new name, closed by default.
    await page.getByRole('button', { name: `Settings of ${isolate('Cooling')}` }).click();
    const settings = page.getByTestId('stream-group-settings-panel');
    await settings.getByRole('textbox', { name: 'Group name' }).fill('Cooling circuit');
    await settings.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(shown).toEqual(['Hydraulics', 'Drive', 'Cooling circuit']);
    await settings.getByRole('switch', { name: 'Open by default' }).click();
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'datastreamgroup')).find(
            (g) => g.attributes.name === 'Cooling circuit',
          )?.attributes.open_by_default,
      )
      .toBe(false);

    // A stream moves into it (Hydraulics starts closed: opened first).
    await header('Hydraulics').getByTestId('stream-group-toggle').click();
    await page
      .getByRole('combobox', { name: `Move ${isolate('Oil pressure')} to another group` })
      .selectOption({ label: 'Cooling circuit' });
    const cooling = async () =>
      (await e2e.serverModels(admin.accountId, 'datastreamgroup')).find(
        (g) => g.attributes.name === 'Cooling circuit',
      )?.id;
    await expect
      .poll(async () => {
        const id = await cooling();
        return (await e2e.serverModels(admin.accountId, 'datastream')).some(
          (s) => s.attributes.name === 'Oil pressure' && s.attributes.group_id === id,
        );
      })
      .toBe(true);

    // Deleted after saying its streams go with it.
    await settings.getByRole('button', { name: 'Delete group' }).click();
    await expect
      .poll(() =>
        settings.getByText('Its data streams are deleted with it. This cannot be undone.').count(),
      )
      .toBe(1);
    await settings.getByRole('button', { name: `Delete ${isolate('Cooling circuit')}` }).click();
    await expect.poll(shown).toEqual(['Hydraulics', 'Drive']);
    await expect.poll(groupsOnServer).toEqual(['Hydraulics', 'Drive']);
  });

  it('without the stream permissions the page offers none of it', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 2',
    );
    if (asset === undefined) throw new Error('no Press line 2');
    const tab = await e2e.signedInApp(DEMO_USERS.tech, `/app/devices/${asset.id}/details`);
    await expect.poll(() => tab.page.getByTestId('stream-group').count()).toBeGreaterThan(0);
    expect(await tab.page.getByTestId('new-stream-group').count()).toBe(0);
    expect(await tab.page.getByTestId('stream-group-settings').count()).toBe(0);
  });
});
