import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, STATIC_IP_MISSING, apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { startAgent } from '../gateway-agent/src/testing/device-gateway';
import { E2e } from './support/fixture';

/*
 * The gateway pages (issue 12, item 6): the list with online or offline, live as an agent comes
 * and goes; the details with the network settings checked on their fields and saved to the
 * server; the agent's key made (shown once), listed and revoked; no edit controls without
 * gateway::edit.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the gateway pages', () => {
  it('list the gateways with their state, live as an agent connects and stops', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 6);
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/gateways/list', browser);
    const rows = tab.page.getByTestId('gateway-row');
    // The twelve machines' gateways and the demo smartphone's.
    await expect.poll(() => rows.count()).toBe(13);
    const row = tab.page.locator(`[data-testid="gateway-row"][data-id="${gw.gatewayId}"]`);
    const online = row.getByTestId('gateway-online');
    expect(await online.getAttribute('data-online')).toBe('false');

    const agent = await startAgent(e2e.server, admin.token, gw.gatewayId);
    await expect.poll(() => online.getAttribute('data-online')).toBe('true');
    // Its simulator connection reports its state.
    await expect
      .poll(() => row.getByTestId('connection-state').first().getAttribute('data-state'))
      .toBe('connected');
    await agent.stop();
    await expect.poll(() => online.getAttribute('data-online')).toBe('false');
  });

  it('details: network settings checked and saved; the key shown once, listed, revoked', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 7);
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser);
    const page = tab.page;
    page.on('dialog', (d) => void d.accept());
    await tab.signInAt(DEMO_USERS.admin);
    await tab.goto(`/app/gateways/${gw.gatewayId}/details`);
    const network = page.getByTestId('gateway-network');
    await expect.poll(() => network.count()).toBe(1);

    await network.getByText('Static', { exact: true }).click();
    // Typed, not saved: another client's change of the gateway (here its name) shows on the page
    // and leaves what is typed as it is (the form took the stored settings back on any change of
    // the gateway's model, its connection or when last seen too).
    const dns1 = network.getByRole('textbox', { name: 'DNS 1' });
    await dns1.fill('10.0.0.53');
    const renamed = await e2e.server.call('PUT', apiPaths.model('gateways', gw.gatewayId), {
      token: admin.token,
      headers: { [ACCOUNT_HEADER]: admin.accountId },
      json: { name: 'Gateway renamed elsewhere' },
    });
    expect(renamed.status).toBe(200);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Gateway renamed elsewhere' }).count())
      .toBe(1);
    expect(await dns1.inputValue()).toBe('10.0.0.53');
    await dns1.fill('');

    // Static without an address: the spec's message on the field, and the focus there.
    await network.getByRole('textbox', { name: 'IP address' }).fill('');
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await expect.poll(() => network.getByText(STATIC_IP_MISSING).count()).toBeGreaterThan(0);
    expect(
      await network
        .getByRole('textbox', { name: 'IP address' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await network.getByRole('textbox', { name: 'IP address' }).fill('10.0.0.300');
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await expect
      .poll(() => network.getByText('Please enter a valid IPv4 address').count())
      .toBeGreaterThan(0);
    await network.getByRole('textbox', { name: 'IP address' }).fill('10.0.0.5');
    await network.getByRole('textbox', { name: 'Subnet mask' }).fill('255.255.255.0');
    // Another admin sets the second DNS meanwhile: the save writes only what this form changed.
    const dns = await e2e.server.call('PUT', apiPaths.model('gateways', gw.gatewayId), {
      token: admin.token,
      headers: { [ACCOUNT_HEADER]: admin.accountId },
      json: { dns2: '10.0.0.54' },
    });
    expect(dns.status, dns.text).toBe(200);
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await expect
      .poll(async () => {
        const saved = (await e2e.serverModels(admin.accountId, 'gateway')).find(
          (g) => g.id === gw.gatewayId,
        );
        return [
          saved?.attributes.ip_assignment,
          saved?.attributes.ip,
          saved?.attributes.subnet_mask,
          saved?.attributes.dns2,
        ];
      })
      .toEqual(['static', '10.0.0.5', '255.255.255.0', '10.0.0.54']);

    // DHCP (issue 30 item 13): the static fields are disabled, and a half-typed address is
    // neither checked nor sent; the stored static setting stays for a later switch back.
    const fields = ['IP address', 'Subnet mask', 'DNS 1', 'DNS 2'] as const;
    const ip = network.getByRole('textbox', { name: 'IP address' });
    await ip.fill('10.0.0.300');
    for (const name of fields) {
      expect(await network.getByRole('textbox', { name }).isDisabled()).toBe(false);
    }
    await network.getByText('DHCP', { exact: true }).click();
    for (const name of fields) {
      await expect.poll(() => network.getByRole('textbox', { name }).isDisabled()).toBe(true);
    }
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await expect
      .poll(async () => {
        const saved = (await e2e.serverModels(admin.accountId, 'gateway')).find(
          (g) => g.id === gw.gatewayId,
        );
        return [saved?.attributes.ip_assignment, saved?.attributes.ip];
      })
      .toEqual(['dhcp', '10.0.0.5']);
    expect(await network.getByText('Please enter a valid IPv4 address').count()).toBe(0);

    // The key: shown once, listed after a reload without its secret, then revoked.
    const credentials = page.getByTestId('gateway-credentials');
    await credentials.getByTestId('gateway-key-make').click();
    const key = credentials.getByTestId('gateway-key-value');
    await expect
      .poll(async () => ((await key.count()) === 1 ? (await key.textContent())?.length : 0))
      .toBeGreaterThan(15);
    await tab.reload();
    await expect.poll(() => credentials.getByTestId('gateway-key-made').count()).toBe(1);
    expect(await credentials.getByTestId('gateway-key-value').count()).toBe(0);
    await credentials.getByTestId('gateway-key-revoke').click();
    await expect.poll(() => credentials.getByTestId('gateway-key-none').count()).toBe(1);
  });

  it('offer no edit controls without gateway::edit', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 8);
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.tech,
      `/app/gateways/${gw.gatewayId}/details`,
      browser,
    );
    await expect.poll(() => tab.page.getByTestId('gateway-network').count()).toBe(1);
    expect(await tab.page.getByTestId('gateway-credentials').count()).toBe(0);
    expect(await tab.page.getByRole('button', { name: 'Save network settings' }).count()).toBe(0);
  });
});
