import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, gatewayModel } from '@plant/shared-schema';
import { DEMO_PASSWORD, DEMO_USERS, type DEMO_ACCOUNTS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { recordSwitchOverlay, ScanScreen, SignInScreen } from './support/pages/user-pages';

/*
 * /scan?id= (spec 000 §2): a gateway's QR code. Signed out: sign-in, back to the scan, then the
 * gateway. In another of the user's accounts: the account switch first. Unknown or missing ids
 * say so. The gateway pages are empty-state areas so far: the path is what is asserted.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** A gateway of the account, from the server's database: its id and serial. */
async function gatewayOf(
  account: keyof typeof DEMO_ACCOUNTS,
): Promise<{ id: string; serial: string }> {
  const row = await e2e.server.db
    .selectFrom('models')
    .select(['id', 'attributes'])
    .where('account_id', '=', (await e2e.server.demoAccountIds())[account])
    .where('type', '=', gatewayModel.type)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const { serial } = JSON.parse(row.attributes) as { serial: string };
  return { id: row.id, serial };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('/scan', () => {
  it("without a token: sign-in, back to the scan, then the gateway's page", async () => {
    const gateway = await gatewayOf('root');
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, `/scan?id=${gateway.id}`);
    await tab.waitForPath(/^\/user\/login\?redirect=/);
    const redirect = new URL(tab.page.url()).searchParams.get('redirect');
    expect(redirect).toBe(`/scan?id=${gateway.id}`);

    await new SignInScreen(tab.page).send(DEMO_USERS.admin, DEMO_PASSWORD);
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
  });

  it("a gateway in another of the admin's accounts: the switch overlay, then its page there", async () => {
    const { north } = await e2e.server.demoAccountIds();
    const gateway = await gatewayOf('north');
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const overlays = await recordSwitchOverlay(tab.page);

    await tab.goto(`/scan?id=${gateway.id}`);
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
    expect(await overlays()).toContain('Switching to account Customer North...');
    expect(await tab.page.evaluate(() => localStorage.getItem('account'))).toBe(north);
    const user = await tab.page.evaluate(
      () => JSON.parse(localStorage.getItem('user') ?? '{}') as { activeAccount?: { id: string } },
    );
    expect(user.activeAccount?.id).toBe(north);
    await expect
      .poll(() => tab.page.getByText('Switching to account', { exact: false }).count())
      .toBe(0);

    // A serial number links too; the active account (now North) is looked in first.
    await tab.goto(`/scan?id=${encodeURIComponent(gateway.serial)}`);
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
  });

  it('a serial number of digits only links as written (not read as a number)', async () => {
    const gateway = await gatewayOf('root');
    // Internal staff may edit gateways in the root account (the admin is active elsewhere now).
    const writer = await e2e.session(DEMO_USERS.internal);
    const serial = '12345678901234567890';
    const answer = await e2e.server.call('PUT', apiPaths.model('gateways', gateway.id), {
      token: writer.token,
      json: { serial },
    });
    expect(answer.status, answer.text).toBe(200);

    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.tech);
    await tab.goto(`/scan?id=${serial}`);
    await tab.waitForPath(new RegExp(`^/app/gateways/${escaped(gateway.id)}/details$`));
  });

  it('an unknown gateway and a code without an id each say so', async () => {
    const browser = await e2e.browser();
    // No id: said at once, without asking to sign in first.
    const tab = await e2e.openApp(browser, '/scan');
    const screen = new ScanScreen(tab.page);
    await expect.poll(() => screen.error().textContent()).toContain('carries no gateway id');
    expect(tab.path()).toBe('/scan');

    await tab.goto('/user/login');
    await tab.signIn(DEMO_USERS.tech);
    await tab.goto('/scan?id=no-such-gateway');
    await expect
      .poll(() => screen.error().textContent())
      .toContain('No gateway with the code no-such-gateway was found in your accounts.');
    expect(tab.path()).toBe('/scan?id=no-such-gateway');
    await tab.page.getByRole('link', { name: 'Go to the start page' }).click();
    await tab.waitForPath(/^\/app\/devices(\/list)?$/);
  });
});
