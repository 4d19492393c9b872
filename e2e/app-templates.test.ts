import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolate, apiPaths, type LatestValues, type TemplateGroup } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_SMARTPHONE } from '../server/src/seed/demo-smartphone';
import { dataOf } from '../server/src/testing/harness';
import { startAgent } from '../gateway-agent/src/testing/device-gateway';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, syncIndicator } from './support/pages/devices';
import { TemplatePages } from './support/pages/templates';

/*
 * Layouts and templates (issue 16 item 5, spec 001 §1 and §3): an asset saved as a layout keeps
 * its groups and streams with their settings, not their values; a new asset made from the
 * template gets the same groups and streams, offline too (once, after the connection is back);
 * the list and the details show templates; the smartphone demo opens its template and its asset,
 * whose values a simulator feeds.
 */
let e2e: E2e;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
  await e2e.close();
});

type Models = Awaited<ReturnType<E2e['serverModels']>>;

/** An asset's groups (by order) with their streams (by name), as the server holds them. */
async function structureOf(accountId: string, assetId: string) {
  const groups = (await e2e.serverModels(accountId, 'datastreamgroup'))
    .filter((g) => g.attributes.asset_id === assetId)
    .sort((a, b) => Number(a.attributes.order) - Number(b.attributes.order));
  const streams: Models = (await e2e.serverModels(accountId, 'datastream')).filter(
    (s) => s.attributes.asset_id === assetId,
  );
  return groups.map((g, order) => ({
    name: g.attributes.name,
    collapsible: g.attributes.collapsible,
    open_by_default: g.attributes.open_by_default,
    order,
    streams: streams
      .filter((s) => s.attributes.group_id === g.id)
      .map(({ attributes: a }) => ({
        name: a.name,
        unit: a.unit,
        type: a.type,
        vis_min: a.vis_min,
        vis_max: a.vis_max,
        state_texts: a.state_texts,
        preprocessing: a.preprocessing,
      }))
      .sort((x, y) => String(x.name).localeCompare(String(y.name))),
  }));
}

async function latestValues(token: string, assetId: string): Promise<LatestValues> {
  return dataOf<LatestValues>(
    await e2e.server.call('GET', apiPaths.latestValues(assetId), { token }),
  );
}

async function assetNamed(accountId: string, name: string) {
  return (await e2e.serverModels(accountId, 'asset')).filter((a) => a.attributes.name === name);
}

describe('layouts and templates', () => {
  it('save as layout, create from template: the new asset has the same groups and streams', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const [source] = await assetNamed(admin.accountId, 'Cooling tower CT-2');
    if (source === undefined) throw new Error('no Cooling tower CT-2');
    // Settings beyond the seed's: pre-processing code, a group that does not fold.
    const put = (collection: string, id: string, json: unknown) =>
      e2e.server.call('PUT', apiPaths.model(collection, id), { token: admin.token, json });
    const before = await structureOf(admin.accountId, source.id);
    const firstGroup = (await e2e.serverModels(admin.accountId, 'datastreamgroup')).find(
      (g) => g.attributes.asset_id === source.id && g.attributes.name === before[0]?.name,
    );
    const oilPressure = (await e2e.serverModels(admin.accountId, 'datastream')).find(
      (s) => s.attributes.asset_id === source.id && s.attributes.name === 'Oil pressure',
    );
    if (firstGroup === undefined || oilPressure === undefined) throw new Error('demo streams');
    expect((await put('datastreamgroups', firstGroup.id, { collapsible: false })).status).toBe(200);
    expect(
      (await put('datastreams', oilPressure.id, { preprocessing: 'return $value / 10;' })).status,
    ).toBe(200);
    // The machine has values (its gateway's simulator), which a layout does not keep.
    const agent = await startAgent(e2e.server, admin.token, String(source.attributes.gateway_id));
    stops.push(agent.stop);
    await expect
      .poll(async () => (await latestValues(admin.token, source.id)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const expected = await structureOf(admin.accountId, source.id);
    expect(expected.map((g) => g.streams.length)).toEqual([3, 2]);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${source.id}/details`);
    const page = tab.page;
    const pages = new TemplatePages(page);
    await page.getByTestId('save-as-layout').click();
    const form = page.getByTestId('save-layout-form');
    const name = form.getByRole('textbox', { name: /^Name of the template/ });
    // The asset's name by default; the summary counts what is kept.
    await expect.poll(() => name.inputValue()).toBe('Cooling tower CT-2');
    await expect
      .poll(() => form.getByTestId('layout-summary').textContent())
      .toBe(
        "The template keeps this asset's 2 stream groups and 5 data streams with their settings, not their values.",
      );
    await name.fill(' ');
    await form.getByRole('button', { name: 'Save template' }).click();
    await expect.poll(() => form.getByText('Name is required').count()).toBe(1);
    await name.fill('Cooling tower layout');
    await form.getByRole('button', { name: 'Save template' }).click();
    await expect.poll(() => page.getByTestId('layout-saved').count()).toBe(1);

    const template = async () =>
      (await e2e.serverModels(admin.accountId, 'template')).find(
        (t) => t.attributes.name === 'Cooling tower layout',
      );
    await expect.poll(async () => (await template())?.attributes.source_asset_id).toBe(source.id);
    const saved = (await template())?.attributes.groups as TemplateGroup[];
    expect(saved.map((g) => g.name)).toEqual(expected.map((g) => g.name));
    expect(saved[0]?.collapsible).toBe(false);
    expect(saved[1]?.streams.find((s) => s.name === 'Oil pressure')?.preprocessing).toBe(
      'return $value / 10;',
    );
    expect(JSON.stringify(saved)).not.toContain(source.id);

    // The details show it; the list shows it with its counts and the asset it came from.
    await page.getByRole('link', { name: 'Open the template' }).click();
    await tab.waitForPath(/^\/app\/templates\/[^/]+\/details$/);
    await expect.poll(() => pages.templateName()).toBe('Cooling tower layout');
    await expect
      .poll(() => pages.groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))))
      .toEqual(expected.map((g) => g.name));
    expect(await pages.streams.count()).toBe(5);
    await tab.navigateInApp('/app/templates/list');
    const row = pages.row('Cooling tower layout');
    await expect.poll(() => row.getByTestId('template-groups').textContent()).toBe('2');
    expect(await row.getByTestId('template-streams').textContent()).toBe('5');
    expect(await row.getByTestId('template-source').textContent()).toBe('Cooling tower CT-2');

    // A new asset from it: the name is required, then its page opens.
    await row
      .getByRole('button', { name: `Create asset from ${isolate('Cooling tower layout')}` })
      .click();
    const create = page.getByTestId('create-from-template-form');
    await create.getByRole('button', { name: 'Create asset' }).click();
    await expect.poll(() => create.getByText('Name is required').count()).toBe(1);
    await create
      .getByRole('textbox', { name: /^Name of the new asset/ })
      .fill('Cooling tower CT-3');
    await create.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const details = new DeviceDetailsPage(page);
    await expect.poll(() => details.name()).toBe('Cooling tower CT-3');
    const made = tab.path().split('/')[3] ?? '';

    await expect.poll(() => structureOf(admin.accountId, made)).toEqual(expected);
    expect(await latestValues(admin.token, made)).toEqual([]);
    // Its page shows the groups, each stream without a value.
    await expect
      .poll(() => page.locator('[data-testid="stream-row"] [data-testid="stream-value"]').count())
      .toBeGreaterThan(0);
    expect(await page.locator('[data-testid="stream-value"]:not([data-empty])').count()).toBe(0);
  });

  it('a new asset made from a template offline shows at once and reaches the server once', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const layout = [
      {
        name: 'Mixing',
        open_by_default: false,
        streams: [
          { name: 'Speed', unit: 'rpm', vis_min: 0, vis_max: 3000 },
          { name: 'State', type: 'state', state_texts: { '0': 'Idle', '1': 'Mixing' } },
        ],
      },
      { name: 'Dosing', streams: [{ name: 'Flour', unit: 'kg' }] },
    ];
    const made = await e2e.server.call('POST', apiPaths.collection('templates'), {
      token: admin.token,
      json: { name: 'Mixer layout', groups: layout },
    });
    expect(made.status).toBe(201);
    const templateId = dataOf<{ id: string }>(made).id;

    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/templates/${templateId}`);
    await tab.waitForPath(/^\/app\/templates\/[^/]+\/details$/);
    const pages = new TemplatePages(tab.page);
    await expect.poll(() => pages.templateName()).toBe('Mixer layout');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    const details = new DeviceDetailsPage(tab.page);
    e2e.offline();
    try {
      await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');

      await tab.page
        .getByRole('button', { name: `Create asset from ${isolate('Mixer layout')}` })
        .click();
      const create = tab.page.getByTestId('create-from-template-form');
      await create.getByRole('textbox', { name: /^Name of the new asset/ }).fill('Offline mixer');
      await create.getByRole('button', { name: 'Create asset' }).click();
      await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
      await expect.poll(() => details.name()).toBe('Offline mixer');
      await expect.poll(() => details.pendingMark.count()).toBe(1);
      // The groups and streams are on the page before the server has any of them.
      await expect.poll(() => tab.page.getByTestId('stream-row').count()).toBe(3);
      expect(await assetNamed(admin.accountId, 'Offline mixer')).toHaveLength(0);
    } finally {
      e2e.online();
    }
    await expect
      .poll(async () => (await assetNamed(admin.accountId, 'Offline mixer')).length)
      .toBe(1);
    const [asset] = await assetNamed(admin.accountId, 'Offline mixer');
    const expected = [
      {
        name: 'Mixing',
        collapsible: true,
        open_by_default: false,
        order: 0,
        streams: [
          {
            name: 'Speed',
            unit: 'rpm',
            type: 'number',
            vis_min: 0,
            vis_max: 3000,
            state_texts: {},
            preprocessing: '',
          },
          {
            name: 'State',
            unit: '',
            type: 'state',
            vis_min: null,
            vis_max: null,
            state_texts: { '0': 'Idle', '1': 'Mixing' },
            preprocessing: '',
          },
        ],
      },
      {
        name: 'Dosing',
        collapsible: true,
        open_by_default: true,
        order: 1,
        streams: [
          {
            name: 'Flour',
            unit: 'kg',
            type: 'number',
            vis_min: null,
            vis_max: null,
            state_texts: {},
            preprocessing: '',
          },
        ],
      },
    ];
    await expect.poll(() => structureOf(admin.accountId, asset?.id ?? '')).toEqual(expected);
    await expect.poll(() => details.pendingMark.count()).toBe(0);
    // Once: no second asset, no doubled group or stream.
    expect(await assetNamed(admin.accountId, 'Offline mixer')).toHaveLength(1);
    expect(await structureOf(admin.accountId, asset?.id ?? '')).toEqual(expected);
  });

  it('the list and the details: an empty account says how to make one; name and description are edited; a template is deleted after a confirmation', async () => {
    // Customer South has no templates.
    const south = await e2e.signedInApp(DEMO_USERS.south, '/app/templates/list');
    const empty = south.page.getByTestId('empty-state');
    await expect.poll(() => empty.textContent()).toContain('Save as template');
    await south.goto('/app/templates/demo/smartphone');
    await expect.poll(() => south.page.getByTestId('demo-missing').count()).toBe(1);
    await south.goto('/app/devices/demo/smartphone');
    await expect.poll(() => south.page.getByTestId('demo-missing').count()).toBe(1);

    const admin = await e2e.session(DEMO_USERS.admin);
    const made = await e2e.server.call('POST', apiPaths.collection('templates'), {
      token: admin.token,
      json: { name: 'Short-lived layout', groups: [{ name: 'Only', streams: [] }] },
    });
    const id = dataOf<{ id: string }>(made).id;
    const onServer = async () =>
      (await e2e.serverModels(admin.accountId, 'template')).find((t) => t.id === id)?.attributes;
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/templates/${id}/details`);
    const pages = new TemplatePages(tab.page);
    await expect.poll(() => pages.templateName()).toBe('Short-lived layout');
    await tab.page.getByRole('button', { name: 'Edit Description' }).click();
    const description = tab.page.getByRole('textbox', { name: 'Description' });
    await description.fill('For the bakery line.');
    await description.press('Tab');
    await expect.poll(async () => (await onServer())?.description).toBe('For the bakery line.');

    await tab.navigateInApp('/app/templates/list');
    const row = pages.row('Short-lived layout');
    await row.getByRole('button', { name: `Delete ${isolate('Short-lived layout')}` }).click();
    const dialog = tab.page.getByRole('dialog', {
      name: `Delete ${isolate('Short-lived layout')}?`,
    });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await onServer()).toBeDefined();
    await row.getByRole('button', { name: `Delete ${isolate('Short-lived layout')}` }).click();
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(onServer).toBeUndefined();
  });

  it('the smartphone demo: its template, and its asset with the simulator’s live values', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const [phone] = await assetNamed(admin.accountId, DEMO_SMARTPHONE.asset);
    if (phone === undefined) throw new Error('no demo smartphone');
    const agent = await startAgent(e2e.server, admin.token, String(phone.attributes.gateway_id));
    stops.push(agent.stop);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/templates/demo/smartphone');
    const pages = new TemplatePages(tab.page);
    await expect.poll(() => pages.templateName()).toBe(DEMO_SMARTPHONE.template);
    expect(
      await pages.groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))),
    ).toEqual(['Motion', 'Orientation', 'Battery']);
    expect(await tab.page.getByTestId('template-source').textContent()).toBe(DEMO_SMARTPHONE.asset);

    await tab.navigateInApp('/app/devices/demo/smartphone');
    await tab.waitForPath(new RegExp(`^/app/devices/${phone.id}/details$`));
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe(DEMO_SMARTPHONE.asset);
    const acceleration = tab.page
      .getByTestId('stream-row')
      .filter({ hasText: 'Acceleration x' })
      .getByTestId('stream-value');
    await expect.poll(() => acceleration.textContent(), { timeout: 30_000 }).toMatch(/\d m\/s²$/);
  });
});
