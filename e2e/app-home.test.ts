import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type AlarmAttributes } from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, syncIndicator } from './support/pages/devices';
import { ShellPage } from './support/pages/shell';

/*
 * Home (issue 30 item 4), in one signed-in tab moving inside the app: the menu's Home entry opens
 * it; it shows the active unacknowledged alarms (critical first, each a link), the gateways
 * offline, what the user opened lately on this device (newest first) and, offline, the changes
 * waiting to be sent, all from the local store, saying the states are the last known; at
 * 1024x768 nothing overflows.
 */
let e2e: E2e;
let admin: Awaited<ReturnType<E2e['session']>>;
let gw: Awaited<ReturnType<typeof demoGateway>>;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  admin = await e2e.session(DEMO_USERS.admin);
  gw = await demoGateway(e2e.server, admin.accountId, 2);
});
afterAll(() => e2e.close());

async function makeAlarm(body: Partial<AlarmAttributes>): Promise<string> {
  const answer = await e2e.server.call('POST', apiPaths.collection('alarms'), {
    token: admin.token,
    json: { asset_id: gw.assetId, ...body },
  });
  expect(answer.status, answer.text).toBe(201);
  return dataOf<{ id: string }>(answer).id;
}

/** Points stored and evaluated as ingest does (raises are written). */
async function ingest(points: { stream: string; ts: number; value: number }[]) {
  await e2e.server.machineData.store.append({
    source: 'e2e-home',
    seq: 1,
    points: points.map((p) => ({ ...p, account: admin.accountId })),
  });
  await e2e.server.machineData.alarms.evaluate(admin.accountId, points);
}

describe('home', () => {
  it('shows what needs attention, opened from the menu, and offline too with the changes waiting', async () => {
    // Two raised alarms, the warning made first: the critical one is listed first anyway.
    const spindle = gw.streams['Spindle speed'] ?? '';
    const warningId = await makeAlarm({
      datastream_id: spindle,
      name: 'Spindle fast',
      upper_limit: 4_000,
      severity: 'warning',
    });
    const criticalId = await makeAlarm({
      datastream_id: spindle,
      name: 'Spindle overspeed',
      upper_limit: 5_000,
      severity: 'critical',
    });
    const t = Date.now();
    await ingest([
      { stream: spindle, ts: t - 2_000, value: 3_000 },
      { stream: spindle, ts: t - 1_000, value: 5_500 },
    ]);
    const gateways = await e2e.serverModels(admin.accountId, 'gateway');
    const offlineGateways = gateways.filter((g) => g.attributes.connection !== 'online');
    expect(offlineGateways.length).toBeGreaterThan(0);

    // The asset's page records the visit; so does a dashboard's (not built yet).
    const tab = await e2e.signedInTab(DEMO_USERS.admin, `/app/devices/${gw.assetId}/details`);
    const { page } = tab;
    const shell = new ShellPage(page);
    const details = new DeviceDetailsPage(page);
    const assetName = String(
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === gw.assetId)
        ?.attributes.name,
    );
    await expect.poll(() => details.name()).toBe(assetName);
    await tab.navigateInApp('/app/dashboards/e2e-board');
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).count())
      .toBe(1);

    // Home from the menu.
    await shell.menu().getByRole('link', { name: 'Home', exact: true }).click();
    await tab.waitForPath(/^\/app\/home$/);
    await expect.poll(() => shell.currentEntry()).toBe('Home');
    const section = (id: string) => page.getByTestId(id);
    const alarms = section('home-alarms').getByTestId('home-alarm');
    await expect
      .poll(() => alarms.evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))))
      .toEqual([criticalId, warningId]);
    expect(await section('home-alarms').getByTestId('home-count').getAttribute('data-count')).toBe(
      '2',
    );
    const gatewayRows = section('home-gateways').getByTestId('home-gateway');
    await expect.poll(() => gatewayRows.count()).toBe(Math.min(offlineGateways.length, 5));
    expect(
      await section('home-gateways').getByTestId('home-count').getAttribute('data-count'),
    ).toBe(String(offlineGateways.length));
    const recent = () =>
      section('home-recent')
        .getByTestId('home-recent-item')
        .evaluateAll((els) =>
          els.map(
            (el) => `${el.getAttribute('data-kind') ?? ''}:${el.getAttribute('data-id') ?? ''}`,
          ),
        );
    await expect.poll(recent).toEqual(['dashboard:e2e-board', `asset:${gw.assetId}`]);
    // The row shows at once, its asset's link once the asset's model has answered.
    await expect
      .poll(() => section('home-recent').getByRole('link', { name: assetName }).count())
      .toBe(1);
    await expect.poll(() => section('home-pending').getByTestId('home-empty').count()).toBe(1);
    expect(await page.getByTestId('home-last-known').count()).toBe(0);

    // The alarm's link opens the alarm; the menu brings the user back.
    await alarms.first().getByRole('link', { name: 'Spindle overspeed' }).click();
    await tab.waitForPath(new RegExp(`^/app/alarms/${criticalId}$`));
    await expect
      .poll(() => page.getByTestId('alarm-page').getAttribute('data-id'))
      .toBe(criticalId);

    // On a tablet, offline: the asset renamed from its page (through Home's recent link).
    await page.setViewportSize({ width: 1024, height: 768 });
    await shell.menu().getByRole('link', { name: 'Home', exact: true }).click();
    await tab.waitForPath(/^\/app\/home$/);
    e2e.offline();
    await expect.poll(() => syncIndicator(page).getAttribute('data-state')).toBe('offline');
    await expect.poll(() => page.getByTestId('home-last-known').count()).toBe(1);
    await section('home-recent').getByRole('link', { name: assetName }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    await details.rename('Mill 3 (retooled)');
    await expect.poll(() => details.pendingMark.count()).toBe(1);
    await shell.menu().getByRole('link', { name: 'Home', exact: true }).click();
    await tab.waitForPath(/^\/app\/home$/);

    // Still everything, from the local store, and the change waiting, listed on demand.
    await expect.poll(() => page.getByTestId('home-last-known').count()).toBe(1);
    await expect
      .poll(() => alarms.evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))))
      .toEqual([criticalId, warningId]);
    await expect.poll(() => gatewayRows.count()).toBe(Math.min(offlineGateways.length, 5));
    expect(
      await gatewayRows.first().getByTestId('gateway-online').getAttribute('data-last-known'),
    ).toBe('true');
    await expect.poll(recent).toEqual([`asset:${gw.assetId}`, 'dashboard:e2e-board']);
    await expect
      .poll(() => section('home-recent').getByRole('link', { name: 'Mill 3 (retooled)' }).count())
      .toBe(1);
    const pending = section('home-pending');
    await expect.poll(() => pending.getByTestId('home-count').getAttribute('data-count')).toBe('1');
    await pending.getByRole('button', { name: 'Show the changes' }).click();
    await expect.poll(() => pending.getByTestId('pending-write').count()).toBe(1);
    expect(await pending.getByTestId('pending-write').textContent()).toContain('Mill 3 (retooled)');

    // Nothing wider than the tablet's screen: the page, and each section.
    const overflow = await page.evaluate(() => {
      const wide = [document.documentElement, ...document.querySelectorAll('[data-testid^="home"]')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.getAttribute('data-testid') ?? el.tagName);
      return wide;
    });
    expect(overflow).toEqual([]);

    // Back online: the change is sent, and Home says nothing waits.
    e2e.online();
    await expect.poll(() => pending.getByTestId('home-empty').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('home-last-known').count()).toBe(0);
  });
});
