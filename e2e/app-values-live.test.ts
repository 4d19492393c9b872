import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, isolate } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { deviceGateway } from '../gateway-agent/src/testing/device-gateway';
import {
  startModbusTestServer,
  type ModbusTestServer,
} from '../gateway-agent/src/testing/modbus-server';
import { E2e } from './support/fixture';
import { DeviceDetailsPage } from './support/pages/devices';

/*
 * Live values on the asset page (issue 12): a Modbus TCP device on loopback, read by a real
 * gateway agent, through ingest and the broker to the tab's worker and on screen. A value
 * changed on the device shows without a reload; the sparkline draws the stream's recent values;
 * a device that stops answering marks its value at once and raises its "no data" alarm (issue
 * 30 item 1), both gone when it answers again, its unchanged value unmarked; when the gateway
 * goes offline the values say so.
 */
let e2e: E2e;
let device: ModbusTestServer;
let stopAgent: (() => Promise<void>) | undefined;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  device = await startModbusTestServer();
});
afterAll(async () => {
  await stopAgent?.();
  await device.close();
  await e2e.close();
});

describe('live values on the asset page', () => {
  it('a value changed on the device shows without a reload; a dead device and an offline gateway are marked', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    device.setRegisters('holding', 4, 21.5, { datatype: 'float32' });
    const gateway = await deviceGateway({
      server: e2e.server,
      token: admin.token,
      accountId: admin.accountId,
      index: 0,
      connection: {
        protocol: 'modbus-tcp',
        settings: { host: device.host, port: device.port, unit_id: 1 },
      },
      address: { area: 'holding', index: 4, datatype: 'float32' },
    });
    stopAgent = gateway.stop;
    // Ten minutes of silence before it fires: a dead device must not wait for them.
    const made = await e2e.server.call('POST', apiPaths.collection('alarms'), {
      token: admin.token,
      json: {
        asset_id: gateway.assetId,
        datastream_id: gateway.stream,
        name: 'Temperature gone',
        kind: 'no_data',
        after_s: 600,
      },
    });
    expect(made.status, made.text).toBe(201);
    const alarmId = dataOf<{ id: string }>(made).id;

    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${gateway.assetId}/details`,
      browser,
    );
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).not.toBe('');
    const row = tab.page.locator(`[data-testid="stream-row"][data-id="${gateway.stream}"]`);
    const value = row.getByTestId('stream-value');
    await expect.poll(() => value.textContent()).toBe('21.5 °C');
    // Marks this document: a reload would lose it.
    await tab.page.evaluate('window.__notReloaded = true');
    // A first change shows once the tab's live subscription is in place (the worker subscribes
    // 2 s after connecting, spec 000 §9; until then the values are the server's latest).
    device.setRegisters('holding', 4, 30.75, { datatype: 'float32' });
    await expect.poll(() => value.textContent()).toBe('30.75 °C');

    // When the new value shows (checked every frame in the page), against when it was read.
    const shown = tab.page.evaluate<[number, number]>(`new Promise((resolve) => {
      const check = () => {
        const el = document.querySelector('[data-id="${gateway.stream}"] [data-testid="stream-value"]');
        if (el !== null && el.textContent === '68.25 °C') resolve([Date.now(), Number(el.getAttribute('data-ts'))]);
        else requestAnimationFrame(check);
      };
      check();
    })`);
    const changedAt = Date.now();
    device.setRegisters('holding', 4, 68.25, { datatype: 'float32' });
    await expect.poll(() => value.textContent()).toBe('68.25 °C');
    const [shownAt, readAt] = await shown;
    // eslint-disable-next-line no-console -- the figure for the issue's note (benches measure it)
    console.log(
      `device change to screen: ${shownAt - changedAt} ms (read to screen ${shownAt - readAt} ms)`,
    );
    expect(await tab.page.evaluate('window.__notReloaded')).toBe(true);
    // On a right-to-left page the number still comes before its unit (issue 30 item 11).
    const order = await value.evaluate((el) => {
      document.documentElement.dir = 'rtl';
      const texts = Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE);
      const leftOf = (node: Node | undefined, char: string) => {
        const range = document.createRange();
        const from = node?.textContent?.indexOf(char) ?? -1;
        if (node === undefined || from < 0) throw new Error(`no ${char} in the value`);
        range.setStart(node, from);
        range.setEnd(node, from + 1);
        return range.getBoundingClientRect().left;
      };
      const left = {
        number: leftOf(
          texts.find((t) => t.textContent?.includes('6')),
          '6',
        ),
        unit: leftOf(
          texts.find((t) => t.textContent?.includes('°')),
          '°',
        ),
      };
      document.documentElement.dir = 'ltr';
      return left;
    });
    expect(order.number).toBeLessThan(order.unit);
    expect(await value.getAttribute('data-stale')).toBe('false');
    // The sparkline draws the values of the last hours (here: the few seconds since the start).
    await expect
      .poll(async () => Number(await row.getByTestId('sparkline').getAttribute('data-points')))
      .toBeGreaterThanOrEqual(2);
    expect(
      await row
        .getByRole('img', { name: `${isolate('Motor temperature')}: the last 2 hours` })
        .count(),
    ).toBe(1);

    // The device stops answering: the agent says so within its polling interval (100 ms here),
    // and the value is marked at once, no clock shifted; its no-data alarm goes active.
    const alarmState = tab.page
      .locator(`[data-testid="alarm-row"][data-id="${alarmId}"]`)
      .getByTestId('alarm-state');
    await expect.poll(() => alarmState.getAttribute('data-state')).toBe('normal');
    const failing = row.getByTestId('stream-value-failing');
    const stoppedAt = Date.now();
    await device.stop();
    await expect.poll(() => failing.count()).toBe(1);
    // eslint-disable-next-line no-console -- the figure for the issue's note
    console.log(`device stopped to value marked: ${Date.now() - stoppedAt} ms`);
    expect(await value.getAttribute('data-freshness')).toBe('failing');
    expect(await value.textContent()).toBe('68.25 °C');
    // The mark says what and since when, to the eye (its tooltip) and to a screen reader.
    expect(Number(await failing.getAttribute('data-since'))).toBeGreaterThanOrEqual(
      stoppedAt - 1_000,
    );
    expect(await failing.textContent()).toMatch(/^Source failing: Failing since .+: .+/);
    await failing.hover();
    await expect.poll(() => tab.page.getByRole('tooltip').textContent()).toMatch(/^Failing since /);
    await expect.poll(() => alarmState.getAttribute('data-state')).toBe('active');
    // eslint-disable-next-line no-console -- the figure for the issue's note
    console.log(`device stopped to alarm active: ${Date.now() - stoppedAt} ms`);

    // It answers again: the unchanged value (not sent again) is fresh, the alarm clears.
    await device.start();
    await expect
      .poll(() => value.getAttribute('data-freshness'), { timeout: 30_000 })
      .toBe('fresh');
    expect(await failing.count()).toBe(0);
    expect(await value.textContent()).toBe('68.25 °C');
    await expect.poll(() => alarmState.getAttribute('data-state')).toBe('normal');

    // This page loses the server: a fresh value is only the last known (issue 30 item 14).
    const lastKnown = row.getByTestId('stream-value-last-known');
    e2e.offline();
    await expect.poll(() => lastKnown.count()).toBe(1);
    e2e.online();
    await expect.poll(() => lastKnown.count()).toBe(0);

    // The agent stops: its gateway goes offline, and the values shown say so.
    await gateway.stop();
    stopAgent = undefined;
    await expect.poll(() => row.getByTestId('stream-value-offline').count()).toBe(1);
    expect(await value.textContent()).toBe('68.25 °C');
  });
});
