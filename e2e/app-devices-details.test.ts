import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import type { AppTab } from './support/app-tab';
import { DeviceDetailsPage, syncIndicator } from './support/pages/devices';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

type Admin = Awaited<ReturnType<E2e['session']>>;

async function assetNamed(admin: Admin, name: string) {
  const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
    (a) => a.attributes.name === name,
  );
  if (asset === undefined) throw new Error(`no asset ${name}`);
  return asset;
}

/** Another client's write through the API (as a second browser or an integration would). */
async function put(admin: Admin, collection: string, id: string, json: Record<string, unknown>) {
  const answer = await e2e.server.call('PUT', apiPaths.model(collection, id), {
    token: admin.token,
    headers: { [ACCOUNT_HEADER]: admin.accountId },
    json,
  });
  expect(answer.status).toBe(200);
}

async function openDetails(id: string): Promise<{ tab: AppTab; details: DeviceDetailsPage }> {
  const browser = await e2e.browser();
  const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${id}/details`, browser);
  const details = new DeviceDetailsPage(tab.page);
  await expect.poll(() => details.name()).not.toBe('');
  return { tab, details };
}

describe('the asset details', () => {
  it('shows the gateway and the stream groups in order; a group closed by default starts closed, one that is not collapsible is always open', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = await assetNamed(admin, 'CNC mill M12');
    const groups = (await e2e.serverModels(admin.accountId, 'datastreamgroup')).filter(
      (g) => g.attributes.asset_id === asset.id,
    );
    const drive = groups.find((g) => g.attributes.name === 'Drive');
    const hydraulics = groups.find((g) => g.attributes.name === 'Hydraulics');
    expect(drive?.attributes.open_by_default).toBe(true);
    // Drive (first by order) becomes closed by default; Hydraulics not collapsible at all.
    await put(admin, 'datastreamgroups', drive?.id ?? '', { open_by_default: false });
    await put(admin, 'datastreamgroups', hydraulics?.id ?? '', { collapsible: false });

    const { tab, details } = await openDetails(asset.id);
    expect(await details.name()).toBe('CNC mill M12');
    // The name is the page's heading for assistive technology too (not hidden inside a button).
    expect(
      await tab.page.getByRole('heading', { level: 1, name: 'CNC mill M12', exact: true }).count(),
    ).toBe(1);
    expect(await tab.page.getByRole('button', { name: 'CNC mill M12' }).count()).toBe(0);
    await expect.poll(() => details.groupNames()).toEqual(['Drive', 'Hydraulics']);

    // The gateway by name, linked to its page.
    const gatewayId = String(asset.attributes.gateway_id);
    const gateway = tab.page.getByTestId('asset-gateway');
    await expect.poll(() => gateway.textContent()).toBe('Gateway 07');
    expect(await gateway.getAttribute('href')).toBe(`/app/gateways/${gatewayId}/details`);

    // Drive starts closed: its streams are not shown until it is opened.
    const driveToggle = details.groupToggle('Drive');
    expect(await driveToggle.getAttribute('aria-expanded')).toBe('false');
    expect(await tab.page.getByRole('cell', { name: 'Motor temperature' }).isVisible()).toBe(false);
    // Hydraulics has no toggle and its streams show: name, unit, type.
    expect(await details.groupToggle('Hydraulics').count()).toBe(0);
    await expect
      .poll(() => details.streams('Hydraulics'))
      .toEqual([
        ['Oil pressure', 'bar', 'Number'],
        ['Operating mode', '—', 'State'],
      ]);
    expect(await tab.page.getByRole('cell', { name: 'Oil pressure' }).isVisible()).toBe(true);

    await driveToggle.click();
    expect(await driveToggle.getAttribute('aria-expanded')).toBe('true');
    await expect
      .poll(() => tab.page.getByRole('cell', { name: 'Motor temperature' }).isVisible())
      .toBe(true);
    expect(await details.streams('Drive')).toEqual([
      ['Motor temperature', '°C', 'Number'],
      ['Running', '—', 'Boolean'],
      ['Spindle speed', 'rpm', 'Number'],
    ]);
    await driveToggle.click();
    await expect
      .poll(() => tab.page.getByRole('cell', { name: 'Motor temperature' }).isVisible())
      .toBe(false);
  });

  it('edits the name in place: Escape cancels, an empty name is refused with the schema message, Enter saves', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = await assetNamed(admin, 'Laser cutter LC-3000');
    const { tab, details } = await openDetails(asset.id);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    await details.editName();
    expect(await details.nameInput.inputValue()).toBe('Laser cutter LC-3000');
    await details.nameInput.fill('Something else');
    await details.nameInput.press('Escape');
    expect(await details.nameInput.count()).toBe(0);
    expect(await details.name()).toBe('Laser cutter LC-3000');
    // Focus goes back to the edit button, so the keyboard user is where they were.
    expect(await tab.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit Name',
    );
    expect(await syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');

    await details.editName();
    await details.nameInput.fill('   ');
    await details.nameInput.press('Enter');
    await expect.poll(() => tab.page.getByText('Name is required').count()).toBe(1);
    expect(await details.nameInput.count()).toBe(1);
    await details.nameInput.press('Escape');

    await details.rename('Laser cutter LC-3000 (hall 2)');
    await expect.poll(() => details.name()).toBe('Laser cutter LC-3000 (hall 2)');
    await expect
      .poll(async () => (await assetNamed(admin, 'Laser cutter LC-3000 (hall 2)')).id)
      .toBe(asset.id);
    await expect.poll(() => details.pendingMark.count()).toBe(0);
    // The indicator follows the worker's status report, which may come a moment after the model.
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');
    // Nothing was sent for the cancelled and the refused edits: one rename in the log.
    const renames = (await e2e.serverLog(admin.accountId)).filter(
      (m) => m.id === asset.id && m.action === 'attributes_updated',
    );
    expect(renames).toHaveLength(1);
  });

  it('edits the description in place and saves it when the field is left', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = await assetNamed(admin, 'Bending cell B4');
    const { tab, details } = await openDetails(asset.id);
    await details.editDescription();
    await details.descriptionInput.fill('Bends sheets up to 4 m.\nServiced every spring.');
    await tab.page.getByRole('heading', { name: 'Data streams' }).click();
    await expect
      .poll(() => details.description())
      .toBe('Bends sheets up to 4 m.\nServiced every spring.');
    await expect
      .poll(async () => (await assetNamed(admin, 'Bending cell B4')).attributes.description)
      .toBe('Bends sheets up to 4 m.\nServiced every spring.');
    // The text reads as text (no button around it); a click on it still opens the editor.
    expect(await tab.page.getByRole('button', { name: /Bends sheets/ }).count()).toBe(0);
    await tab.page.getByTestId('asset-description-value').click();
    expect(await details.descriptionInput.inputValue()).toBe(
      'Bends sheets up to 4 m.\nServiced every spring.',
    );
    await details.descriptionInput.press('Escape');
    expect(await details.descriptionInput.count()).toBe(0);
  });

  it('says clearly when there is no such asset', async () => {
    const { details } = await (async () => {
      const browser = await e2e.browser();
      const tab = await e2e.signedInApp(
        DEMO_USERS.admin,
        '/app/devices/0190a0b0-0000-7000-8000-000000000000/details',
        browser,
      );
      return { details: new DeviceDetailsPage(tab.page) };
    })();
    await expect.poll(() => details.notFound.count()).toBe(1);
    expect(await details.notFound.textContent()).toContain(
      'There is no such asset in this account',
    );
    expect(
      await details.page.getByRole('link', { name: 'Go to the assets' }).getAttribute('href'),
    ).toBe('/app/devices/list');
  });
});
