import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, isolate } from '@plant/shared-schema';
import { AssetAccessRepository } from '../server/src/repositories/asset-access.repository';
import { DEMO_USERS } from '../server/src/seed/demo';
import { roleId } from '../server/src/testing/access';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, DevicesListPage, syncIndicator } from './support/pages/devices';

/*
 * Assets made, edited and deleted in the browser (issue 16 item 2, spec 001 §5): a name is
 * required and a MAC address checked; an asset made offline shows at once, survives a reload and
 * reaches the server once; Edit Asset changes its fields; the delete, an action of its own, first says what goes
 * with it, and works offline through the outbox.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('assets: create, edit, delete', () => {
  it('makes an asset with the form, checked field by field, and edits it with Edit Asset', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
    const page = tab.page;
    await page.getByTestId('new-asset').click();
    const form = page.getByTestId('asset-form');
    await form.getByRole('button', { name: 'Create asset' }).click();
    await expect.poll(() => form.getByText('Name is required').count()).toBe(1);
    await form.getByRole('textbox', { name: /^Name/ }).fill('Mixer M1');
    await form.getByRole('textbox', { name: 'MAC address' }).fill('00:1b:44');
    await form.getByRole('button', { name: 'Create asset' }).click();
    await expect
      .poll(() =>
        form.getByText('Please enter a valid MAC address (six pairs of hex digits)').count(),
      )
      .toBe(1);
    // The field with the problem has the focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('id') ?? '')).toBe(
      'asset-form-mac',
    );
    await form.getByRole('textbox', { name: 'MAC address' }).fill('00:1b:44:11:3a:99');
    await form.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const details = new DeviceDetailsPage(page);
    await expect.poll(() => details.name()).toBe('Mixer M1');
    const id = tab.path().split('/')[3] ?? '';
    const server = async () =>
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === id)?.attributes;
    await expect.poll(async () => (await server())?.mac).toBe('00:1b:44:11:3a:99');

    await page.getByTestId('edit-asset').click();
    const edit = page.getByTestId('asset-form');
    await edit.getByRole('textbox', { name: 'Description' }).fill('Mixes the batter.');
    const tags = edit.getByLabel('Tags');
    await tags.fill('hall-3');
    await tags.press('Enter');
    await edit.getByRole('combobox', { name: 'Gateway' }).selectOption({ label: 'Gateway 01' });
    // A position for the map: checked like every field.
    await edit.getByRole('textbox', { name: 'Latitude' }).fill('123');
    await edit.getByRole('textbox', { name: 'Longitude' }).fill('11,575');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => edit.getByText('The latitude lies between -90 and 90.').count())
      .toBe(1);
    await edit.getByRole('textbox', { name: 'Latitude' }).fill('48.137');
    // A contact: an e-mail address, phone number or Telegram name (spec 001 §5).
    await edit.getByTestId('add-contact').click();
    await edit.getByRole('textbox', { name: 'Contact name' }).fill('Ana');
    await edit.getByRole('textbox', { name: 'E-mail, phone or Telegram' }).fill('call Ana');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() =>
        edit.getByText('Must be a valid email address, phone number or telegram number').count(),
      )
      .toBe(1);
    await edit.getByRole('textbox', { name: 'E-mail, phone or Telegram' }).fill('@ana_service');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await server())?.description).toBe('Mixes the batter.');
    const saved = await server();
    expect(saved?.tags).toEqual(['hall-3']);
    expect(saved?.position).toEqual({ lat: 48.137, lng: 11.575 });
    expect(saved?.contacts).toEqual([{ name: 'Ana', value: '@ana_service' }]);
    expect(typeof saved?.gateway_id).toBe('string');
  });

  it('an asset made offline shows at once, survives a reload, and reaches the server once', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await tab.page.getByTestId('new-asset').click();
    const form = tab.page.getByTestId('asset-form');
    await form.getByRole('textbox', { name: /^Name/ }).fill('Offline pump');
    await form.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe('Offline pump');
    await expect.poll(() => details.pendingMark.count()).toBe(1);

    await tab.reload();
    await expect.poll(() => details.name()).toBe('Offline pump');
    const named = async () =>
      (await e2e.serverModels(admin.accountId, 'asset')).filter(
        (a) => a.attributes.name === 'Offline pump',
      ).length;
    expect(await named()).toBe(0);

    e2e.online();
    await expect.poll(named).toBe(1);
    await expect.poll(() => details.pendingMark.count()).toBe(0);
    expect(await named()).toBe(1);
  });

  it('the delete says what goes with the asset, and then it goes', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Assembly cell A9',
    );
    if (asset === undefined) throw new Error('no Assembly cell A9');
    const streams = (await e2e.serverModels(admin.accountId, 'datastream')).filter(
      (m) => m.attributes.asset_id === asset.id,
    );
    const groups = (await e2e.serverModels(admin.accountId, 'datastreamgroup')).filter(
      (m) => m.attributes.asset_id === asset.id,
    );
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    // An action of its own on the page (issue 30 item 13), with a confirmation naming the asset.
    const deleteButton = tab.page.getByTestId('delete-asset');
    const confirm = tab.page.getByRole('dialog', {
      name: `Delete ${isolate('Assembly cell A9')}?`,
    });
    await deleteButton.click();
    const consequences = confirm.getByTestId('delete-asset-consequences');
    await expect
      .poll(() => consequences.textContent())
      .toContain(`Its ${groups.length} stream groups, ${streams.length} data streams and 0 files`);
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => confirm.count()).toBe(0);

    // Offline too: the delete is a write of the outbox, gone from the list at once, sent later.
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await deleteButton.click();
    await confirm.getByRole('button', { name: `Delete ${isolate('Assembly cell A9')}` }).click();
    await tab.waitForPath(/^\/app\/devices\/list$/);
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.names()).toContain('Press line 1');
    expect(await list.names()).not.toContain('Assembly cell A9');
    expect((await e2e.serverModels(admin.accountId, 'asset')).some((a) => a.id === asset.id)).toBe(
      true,
    );
    e2e.online();
    await expect
      .poll(async () =>
        (await e2e.serverModels(admin.accountId, 'asset')).some((a) => a.id === asset.id),
      )
      .toBe(false);
    expect(
      (await e2e.serverModels(admin.accountId, 'datastream')).some(
        (m) => m.attributes.asset_id === asset.id,
      ),
    ).toBe(false);
  });

  it("a technician's Edit Asset leaves out the field hidden from its role and saves only what changed; pencils only where it may edit, and a refused rename keeps its text and says why", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 1',
    );
    if (asset === undefined) throw new Error('no Press line 1');
    const tab = await e2e.signedInApp(DEMO_USERS.tech, `/app/devices/${asset.id}/details`);
    await tab.page.getByTestId('edit-asset').click();
    const form = tab.page.getByTestId('asset-form');
    await expect.poll(() => form.getByRole('textbox', { name: /^Name/ }).count()).toBe(1);
    expect(await form.getByRole('textbox', { name: 'Description' }).count()).toBe(0);
    // No delete without asset::delete.
    expect(await tab.page.getByTestId('delete-asset').count()).toBe(0);
    const tags = form.getByLabel('Tags');
    await tags.fill('checked-by-tech');
    await tags.press('Enter');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === asset.id)
            ?.attributes.tags,
      )
      .toContain('checked-by-tech');
    // The description the technician never saw is as it was.
    const after = (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === asset.id);
    expect(after?.attributes.description).toBe(asset.attributes.description);

    // Issue 30 item 5: edit controls follow the access per asset and field. Press line 1 (given
    // with edit rights) has the name's pencil, none for the hidden description.
    const page = tab.page;
    const details = new DeviceDetailsPage(page);
    const namePencil = page.getByRole('button', { name: 'Edit Name' });
    await expect.poll(() => namePencil.count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Edit Description' }).count()).toBe(0);
    // Press line 2 is only seen: no pencil, no Edit Asset.
    const viewed = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 2',
    );
    if (viewed === undefined) throw new Error('no Press line 2');
    await tab.navigateInApp(`/app/devices/${viewed.id}/details`);
    await expect.poll(() => details.name()).toBe('Press line 2');
    expect(await namePencil.count()).toBe(0);
    expect(await page.getByTestId('edit-asset').count()).toBe(0);

    // A rename typed offline, while an admin takes the edit right away: the server refuses it,
    // and the notification says what (the asset, the field, the technician's text) and why.
    await tab.navigateInApp(`/app/devices/${asset.id}/details`);
    await expect.poll(() => namePencil.count()).toBe(1);
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('offline');
    await details.editName();
    await details.nameInput.fill('Press line 1 – new seals fitted');
    await details.nameInput.press('Enter');
    await expect.poll(() => details.name()).toBe('Press line 1 – new seals fitted');
    const technician = await roleId(e2e.server.db, admin.accountId, 'technician');
    await new AssetAccessRepository(e2e.server.db).grant(
      admin.accountId,
      technician,
      asset.id,
      false,
    );
    e2e.online();
    const refused = page.getByTestId('refused-write');
    await expect.poll(() => refused.count()).toBe(1);
    const said = (await refused.textContent()) ?? '';
    expect(said).toContain('Change of Asset “Press line 1”');
    expect(said).toContain('name: “Press line 1 – new seals fitted”');
    expect(said).toContain('Please ask your administrator for the necessary permissions');
    expect(await refused.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    // The server's state is shown again, and the pencil is gone: the browser asked anew.
    await expect.poll(() => details.name()).toBe('Press line 1');
    await expect.poll(() => namePencil.count()).toBe(0);
    // The refused write stays listed with the text, to send again or give up.
    await page
      .getByRole('alert')
      .filter({ has: refused })
      .getByRole('button', { name: 'Close' })
      .click();
    await expect.poll(() => refused.count()).toBe(0);
    await syncIndicator(page).click();
    const pending = page.getByTestId('pending-write');
    await expect.poll(() => pending.count()).toBe(1);
    expect(await pending.textContent()).toContain('“Press line 1 – new seals fitted”');
    expect(await pending.textContent()).toContain('Refused');
    await pending.getByRole('button', { name: 'Give up this change' }).click();
    await expect.poll(() => pending.count()).toBe(0);
  });

  it("the list of unsent changes follows a change's state: Sending while its request runs, Waiting once it failed, gone once it landed", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'CNC mill M12',
    );
    if (asset === undefined) throw new Error('no CNC mill M12');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    const page = tab.page;
    const details = new DeviceDetailsPage(page);
    await expect.poll(() => details.name()).toBe('CNC mill M12');
    // A plant network that takes the request and drops it later: the first try is held, then
    // it and every try after it fail, until the network is back.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let tries = 0;
    let down = true;
    const batches = `**${apiPaths.collection('assets')}`;
    await page.route(batches, async (route) => {
      if (route.request().method() !== 'PUT' || !down) return route.continue();
      tries += 1;
      if (tries === 1) await held;
      await route.abort('internetdisconnected');
    });
    await details.rename('CNC mill M12 (spindle checked)');
    await expect.poll(() => tries).toBe(1);
    await syncIndicator(page).click();
    const pending = page.getByTestId('pending-write');
    await expect.poll(() => pending.textContent()).toContain('Sending');
    release();
    // Read once while sending, the list said 'Sending' through the whole outage before.
    await expect.poll(() => pending.textContent()).toContain('Waiting');
    down = false;
    await expect.poll(() => pending.count(), { timeout: 30_000 }).toBe(0);
    await page.unroute(batches);
    expect(
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === asset.id)?.attributes
        .name,
    ).toBe('CNC mill M12 (spindle checked)');
  });

  it('Edit asset saves what the user changed, and keeps a rename another user made while the form was open', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Bending cell B4',
    );
    if (asset === undefined) throw new Error('no Bending cell B4');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    const page = tab.page;
    await page.getByTestId('edit-asset').click();
    const form = page.getByTestId('asset-form');
    await expect
      .poll(() => form.getByRole('textbox', { name: /^Name/ }).inputValue())
      .toBe('Bending cell B4');
    // Another admin renames the asset while this form is open; this browser hears of it.
    const renamed = await e2e.server.call('PUT', apiPaths.model('assets', asset.id), {
      token: admin.token,
      json: { name: 'Bending cell B4 (hall 2)' },
    });
    expect(renamed.status).toBe(200);
    // The page behind the form shows the new name: this browser has it.
    const details = new DeviceDetailsPage(page);
    await expect.poll(() => details.name()).toBe('Bending cell B4 (hall 2)');
    await form.getByRole('textbox', { name: 'Description' }).fill('New hydraulic pump fitted.');
    await form.getByRole('button', { name: 'Save' }).click();
    const server = async () =>
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === asset.id)?.attributes;
    await expect.poll(async () => (await server())?.description).toBe('New hydraulic pump fitted.');
    expect((await server())?.name).toBe('Bending cell B4 (hall 2)');
    await expect.poll(() => form.count()).toBe(0);
    expect(await details.name()).toBe('Bending cell B4 (hall 2)');
  });
});
