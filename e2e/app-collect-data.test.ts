import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { startAgent } from '../gateway-agent/src/testing/device-gateway';
import {
  startModbusTestServer,
  type ModbusTestServer,
} from '../gateway-agent/src/testing/modbus-server';
import { E2e } from './support/fixture';
import { DeviceDetailsPage } from './support/pages/devices';

/*
 * The collect-data wizard (issue 12, item 5): a technician sets up a Modbus TCP connection to a
 * real Modbus server on loopback, a tag and a new data stream; the gateway's agent gets the new
 * configuration and the stream's values show on the asset. A second run with the same tag name
 * (in other letters' case) says 'Tagname already used'.
 */
let e2e: E2e;
let device: ModbusTestServer;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  device = await startModbusTestServer();
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await device.close();
  await e2e.close();
});

describe('the collect-data wizard', () => {
  it('sets up a Modbus TCP tag feeding a new stream whose values arrive; a taken tag name is refused', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 3);
    stops.push((await startAgent(e2e.server, admin.token, gw.gatewayId)).stop);
    device.setRegisters('holding', 7, 321, { datatype: 'uint16' });

    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${gw.assetId}/details`,
      browser,
    );
    const page = tab.page;
    const details = new DeviceDetailsPage(page);
    await expect.poll(() => details.name()).not.toBe('');

    const open = async () => {
      await page.getByTestId('collect-data').click();
      const wizard = page.getByRole('dialog', { name: 'Collect data' });
      await expect.poll(() => wizard.count()).toBe(1);
      return wizard;
    };
    const next = (wizard: ReturnType<typeof page.getByRole>) =>
      wizard.getByRole('button', { name: 'Next' }).click();

    // Gateway (the asset's, chosen already), protocol, a new connection.
    let wizard = await open();
    await next(wizard);
    await wizard.getByRole('radio', { name: 'Modbus TCP' }).check();
    await next(wizard);
    // Nothing filled: the spec's message.
    await wizard.getByRole('textbox', { name: 'Host' }).fill('');
    await next(wizard);
    await expect
      .poll(() => wizard.getByText('Please fill out all parameters').count())
      .toBeGreaterThan(0);
    await wizard.getByRole('textbox', { name: 'Connection name' }).fill('Press PLC');
    await wizard.getByRole('textbox', { name: 'Read every (seconds)' }).fill('0.2');
    await wizard.getByRole('textbox', { name: 'Host' }).fill(device.host);
    await wizard.getByRole('textbox', { name: 'Port' }).fill(String(device.port));
    await next(wizard);
    // A tag: holding register 7.
    await wizard.getByRole('textbox', { name: 'Tag name 1' }).fill('Pressure');
    await wizard.getByRole('textbox', { name: 'Register' }).fill('7');
    await next(wizard);
    // The stream it feeds: a new one; a text stream would not take a register's number.
    await wizard.getByRole('textbox', { name: 'Data stream name' }).fill('Hydraulic pressure');
    await wizard.getByRole('textbox', { name: 'Unit' }).fill('bar');
    await wizard.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'Text' }).click();
    await wizard.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => wizard.getByText('The input type must match the selected type').count())
      .toBeGreaterThan(0);
    await wizard.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'Number' }).click();
    await wizard.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('wizard-done').count()).toBe(1);
    await wizard.getByRole('button', { name: 'Close' }).click();

    // The agent runs the new configuration: the new stream's value shows on the asset.
    const row = page.locator('[data-testid="stream-row"]', { hasText: 'Hydraulic pressure' });
    await expect.poll(() => row.getByTestId('stream-value').textContent()).toBe('321 bar');
    device.setRegisters('holding', 7, 322, { datatype: 'uint16' });
    await expect.poll(() => row.getByTestId('stream-value').textContent()).toBe('322 bar');

    // Again, on the connection made: the same tag name is taken.
    wizard = await open();
    await next(wizard);
    await wizard.getByRole('radio', { name: 'Modbus TCP' }).check();
    await next(wizard);
    await wizard.getByRole('radio', { name: 'An existing connection' }).check();
    await wizard.getByLabel('Existing connection', { exact: true }).click();
    await page.getByRole('option', { name: 'Press PLC' }).click();
    await next(wizard);
    await wizard.getByRole('textbox', { name: 'Tag name 1' }).fill('PRESSURE');
    await wizard.getByRole('textbox', { name: 'Register' }).fill('8');
    await next(wizard);
    await expect.poll(() => wizard.getByText('Tagname already used').count()).toBeGreaterThan(0);
  });
});
