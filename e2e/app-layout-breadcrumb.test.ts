import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

let e2e: E2e;
let asset: { id: string; name: string };

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  const { accountId } = await e2e.session(DEMO_USERS.admin);
  const [first] = await e2e.serverModels(accountId, 'asset');
  asset = { id: first?.id ?? '', name: String(first?.attributes['name']) };
});
afterAll(() => e2e.close());

const DASHBOARD_ID = '0190aaaa-bbbb-7ccc-8ddd-eeeeffff0011';

async function signedIn(
  width?: number,
): Promise<{ shell: ShellPage; goto: (path: string) => Promise<void> }> {
  const browser = await e2e.browser();
  const tab = await e2e.openApp(browser, '/user/login');
  if (width !== undefined) await tab.page.setViewportSize({ width, height: 800 });
  await tab.signIn(DEMO_USERS.admin);
  // Inside the running app, as a click on a link goes: no second page load after the sign-in.
  return { shell: new ShellPage(tab.page), goto: (path) => tab.navigateInApp(path) };
}

describe('the breadcrumb', () => {
  it("names the path's segments, an asset by its name, and shows up to 3 items", async () => {
    const { shell, goto } = await signedIn();
    await goto(`/app/devices/${asset.id}/details`);
    await expect.poll(() => shell.crumbs()).toEqual(['Assets', asset.name, 'Details']);
    expect(await shell.crumbsMore().count()).toBe(0);
    const current = shell.breadcrumb().locator('[aria-current="page"]');
    expect(await current.textContent()).toBe('Details');
  });

  it('names a template by its name', async () => {
    const { accountId } = await e2e.session(DEMO_USERS.admin);
    const [template] = await e2e.serverModels(accountId, 'template');
    if (template === undefined) throw new Error('no template in the demo account');
    const { shell, goto } = await signedIn();
    await goto(`/app/templates/${template.id}/details`);
    await expect
      .poll(() => shell.crumbs())
      .toEqual(['Templates', String(template.attributes['name']), 'Details']);
  });

  it("names a report, a firmware, a board and a platform's version, not by their ids' ends", async () => {
    const { accountId } = await e2e.session(DEMO_USERS.admin);
    const named = async (type: 'report' | 'firmware' | 'board') => {
      const [model] = await e2e.serverModels(accountId, type);
      if (model === undefined) throw new Error(`no ${type} in the demo account`);
      return { id: model.id, name: String(model.attributes['name']) };
    };
    const [report, firmware, board] = await Promise.all([
      named('report'),
      named('firmware'),
      named('board'),
    ]);
    const { shell, goto } = await signedIn();
    await goto(`/app/reports/${report.id}`);
    await expect.poll(() => shell.crumbs()).toEqual(['Reports', report.name]);
    await goto(`/app/firmware/${firmware.id}/details`);
    await expect.poll(() => shell.crumbs()).toEqual(['Firmware', firmware.name, 'Details']);
    await goto(`/app/boards/${board.id}/details`);
    await expect.poll(() => shell.crumbs()).toEqual(['Boards', board.name, 'Details']);
    // A platform's version is a release by its name and version, though its target is named
    // `firmware` or `agent` in the path.
    const release = (await e2e.serverModels(accountId, 'release')).find(
      (r) => r.attributes['target'] === 'agent',
    );
    if (release === undefined) throw new Error('no agent release in the demo account');
    const version = `${String(release.attributes['name'])} ${String(release.attributes['version'])}`;
    await goto(`/app/versions/platforms/agent/${release.id}/general`);
    await expect.poll(() => shell.crumbs()).toEqual(['Release management', 'General']);
    await expect.poll(() => shell.hiddenCrumbs()).toEqual(['Platforms', 'agent', version]);
  });

  it('collapses past 3 items: the first and the last stay, the others are in a menu', async () => {
    const { shell, goto } = await signedIn();
    await goto(`/app/devices/${asset.id}/dashboard/${DASHBOARD_ID}`);
    // An id without a model of its own is shortened to its end (UUIDv7s share their start).
    await expect.poll(() => shell.crumbs()).toEqual(['Assets', '…ff0011']);
    await expect.poll(() => shell.hiddenCrumbs()).toEqual([asset.name, 'Dashboard']);
  });

  it('collapses past 2 items on a 700 px wide screen', async () => {
    const { shell, goto } = await signedIn(700);
    await goto('/app/dashboards/list');
    await expect.poll(() => shell.crumbs()).toEqual(['Dashboards', 'List']);
    expect(await shell.crumbsMore().count()).toBe(0);
    await goto(`/app/devices/${asset.id}/details`);
    await expect.poll(() => shell.crumbs()).toEqual(['Details']);
    await expect.poll(() => shell.hiddenCrumbs()).toEqual(['Assets', asset.name]);
  });

  it('a malformed escape in the address is an unknown path, not a broken page', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const shell = new ShellPage(tab.page);
    await tab.goto(`/app/devices/${asset.id}/details`);
    await expect.poll(() => shell.crumbs()).toEqual(['Assets', asset.name, 'Details']);
    // From inside the app: the frame (breadcrumb, menu) sees the address before the router has
    // placed it, and must not throw on it.
    await tab.navigateInApp('/app/devices/%E0%A4/details');
    await expect
      .poll(() => tab.page.getByRole('heading', { level: 1, name: 'Page not found' }).count())
      .toBe(1);
    expect(tab.console.filter((line) => line.includes('URIError'))).toEqual([]);
  });

  it('leads back up the path', async () => {
    const { shell, goto } = await signedIn();
    await goto('/app/service/history');
    await expect.poll(() => shell.crumbs()).toEqual(['Service requests', 'Past service requests']);
    await shell.breadcrumb().getByRole('link', { name: 'Service requests' }).click();
    await shell.page.waitForURL((url) => url.pathname === '/app/service');
    await expect.poll(() => shell.crumbs()).toEqual(['Service requests']);
  });
});

describe('the breadcrumb, issue 30 item 7', () => {
  it('names streams, gateways, accounts and roles, and every crumb leads somewhere', async () => {
    const { accountId } = await e2e.session(DEMO_USERS.admin);
    const [stream] = await e2e.serverModels(accountId, 'datastream');
    const [gateway] = await e2e.serverModels(accountId, 'gateway');
    const role = await e2e.server.db
      .selectFrom('roles')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where('slug', '=', 'technician')
      .executeTakeFirst();
    if (stream === undefined || gateway === undefined || role === undefined) {
      throw new Error('the demo account lacks a stream, a gateway or a role');
    }
    const streamAsset = String(stream.attributes['asset_id']);
    const assetName = String(
      (await e2e.serverModels(accountId, 'asset')).find((a) => a.id === streamAsset)?.attributes[
        'name'
      ],
    );
    const { shell, goto } = await signedIn();
    const page = shell.page;
    const links = async () =>
      shell
        .breadcrumb()
        .locator('li')
        .evaluateAll((items) =>
          items.map((li) => li.querySelector('a')?.getAttribute('href') ?? null),
        );

    await goto(`/app/devices/${streamAsset}/input/${stream.id}`);
    await expect.poll(() => shell.crumbs()).toEqual(['Assets', String(stream.attributes['name'])]);
    await expect.poll(() => shell.hiddenCrumbs()).toEqual([assetName, 'Input']);
    // The hidden ones are links too: the asset, and 'Input' leads to the asset's page.
    // hiddenCrumbs closed the menu again: this opens it anew (reading the closing menu
    // raced its removal and read it empty on a busy machine).
    await expect
      .poll(() => shell.hiddenCrumbLinks())
      .toEqual([`/app/devices/${streamAsset}/details`, `/app/devices/${streamAsset}/details`]);

    await goto(`/app/gateways/${gateway.id}/logs`);
    await expect
      .poll(() => shell.crumbs())
      .toEqual(['Gateways', String(gateway.attributes['name']), 'Gateway logs']);
    // The gateway's crumb leads to its page (its bare path is none).
    expect((await links()).slice(0, 2)).toEqual([
      '/app/gateways/list',
      `/app/gateways/${gateway.id}/details`,
    ]);
    await shell
      .breadcrumb()
      .getByRole('link', { name: String(gateway.attributes['name']) })
      .click();
    await shell.page.waitForURL((url) => url.pathname === `/app/gateways/${gateway.id}/details`);

    await goto(`/app/accounts/${accountId}/roles/${role.id}`);
    await expect.poll(() => shell.crumbs()).toEqual(['Accounts', role.name]);
    await expect.poll(() => shell.hiddenCrumbs()).toEqual(['Demo Machine Builder', 'Roles']);
    await page.keyboard.press('Escape');
    expect((await links())[0]).toBe('/app/accounts/list');
  });
});
