import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { totpAt } from '../server/src/auth/totp';
import { AppTab } from './support/app-tab';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Two-factor sign-in in the browser (issue 38 item 2): the admin turns the authenticator app on
 * with a code computed here from the key the page shows, and from then the sign-in asks for a
 * code: none or a wrong one keeps the user out, the app's code lets it in, a recovery code once
 * and never twice; a passkey made and used through Chromium's virtual authenticator (DevTools'
 * WebAuthn domain) signs in too. The page runs at http://localhost:<port>: passkeys need a host
 * name (an IP address is no RP ID), and the server takes any localhost port as its origin here.
 * A member whose account requires a second factor and who has none sets up a passkey at the
 * sign-in instead of the app, is signed in with it, and is asked for it at the next sign-in.
 * It reads test ids and values, no text of ours, so it passes before `npm run i18n` too.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'), {
    env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: 'http://localhost:*' },
  });
});
afterAll(() => e2e.close());

/** A virtual platform authenticator for the tab: resident keys, user verification, present. */
async function virtualAuthenticator(
  page: Page,
): Promise<{ readonly cdp: CDPSession; readonly authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describe('two-factor sign-in', () => {
  it('an app turned on with a computed code is asked for at sign-in; a recovery code works once; a passkey signs in', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const base = e2e.web.url.replace('//127.0.0.1:', '//localhost:');
    const profile = await e2e.browser();
    const security = `/app/users/${admin.userId}/security`;
    const tab = await AppTab.open(
      profile.context,
      base,
      `/user/login?${new URLSearchParams({ redirect: security })}`,
    );
    const page = tab.page;
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await tab.signIn(DEMO_USERS.admin);
    await tab.waitForPath(new RegExp(`${security}$`));

    // Set up: the key and the QR code's otpauth URL are on the page; the code is computed here.
    await page.getByTestId('totp-start').click();
    const secretBox = page.getByTestId('totp-secret');
    await expect.poll(() => secretBox.count()).toBe(1);
    const secret = (await secretBox.getAttribute('data-secret')) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = (await page.getByTestId('totp-url').textContent()) ?? '';
    expect(url).toContain(`secret=${secret}`);
    expect(await page.getByTestId('totp-qr').locator('svg').getAttribute('data-qr-text')).toBe(url);
    const otp = page.getByTestId('otp-input');
    expect(await otp.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await otp.getAttribute('inputmode')).toBe('numeric');
    await otp.fill(totpAt(secret, Date.now()));
    await page.getByTestId('totp-confirm').click();
    const codeItems = page.locator('[data-recovery-code]');
    await expect.poll(() => codeItems.count()).toBe(10);
    const codes = await codeItems.evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-recovery-code') ?? ''),
    );
    await page.getByTestId('recovery-codes-done').click();
    await expect.poll(() => page.getByTestId('totp-on').count()).toBe(1);

    const shell = new ShellPage(page);
    const signOut = async () => {
      await shell.signOut();
      await tab.waitForPath(/^\/user\/login/);
    };
    const submit = page.getByTestId('second-factor-submit');
    /** Signs in with the password, to the second step. */
    const toSecondStep = async () => {
      await tab.fillSignIn(DEMO_USERS.admin);
      await expect.poll(() => page.getByTestId('second-factor').count()).toBe(1);
    };
    const refused = async (input: string) => {
      await expect.poll(() => page.getByTestId(input).getAttribute('aria-invalid')).toBe('true');
      expect(tab.path()).toMatch(/^\/user\/login/);
    };

    // Without the code there is no way in: the password alone leads to the code's step, and a
    // wrong code is refused there.
    await signOut();
    await toSecondStep();
    expect(tab.path()).toMatch(/^\/user\/login/);
    expect(
      await page.getByTestId('otp-input').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByTestId('otp-input').fill('000000');
    await submit.click();
    await refused('otp-input');
    // The confirming code's step is used: the next step's code (inside the window) signs in.
    await page.getByTestId('otp-input').fill(totpAt(secret, Date.now() + 30_000));
    await submit.click();
    await tab.waitForPath(/^\/app\//);

    // A recovery code signs in once.
    await signOut();
    await toSecondStep();
    await page.getByTestId('use-recovery-code').click();
    await page.getByTestId('recovery-code-input').fill(codes[0] ?? '');
    await submit.click();
    await tab.waitForPath(/^\/app\//);

    // Signed in: a passkey made on the virtual authenticator.
    await tab.navigateInApp(security);
    await page.getByTestId('passkey-name').fill('Virtual key');
    await page.getByTestId('passkey-add').click();
    await expect.poll(() => page.locator('[data-passkey="Virtual key"]').count()).toBe(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => [c.isResidentCredential, c.rpId])).toEqual([[true, 'localhost']]);

    // Not twice: the used recovery code is refused; the passkey signs in instead.
    await signOut();
    await toSecondStep();
    await page.getByTestId('use-recovery-code').click();
    await page.getByTestId('recovery-code-input').fill(codes[0] ?? '');
    await submit.click();
    await refused('recovery-code-input');
    await page.getByTestId('use-passkey').click();
    await tab.waitForPath(/^\/app\//);
    const used = await e2e.server.db
      .selectFrom('user_passkeys')
      .select(['name', 'last_used_at', 'sign_count'])
      .execute();
    expect(used.map((k) => [k.name, typeof k.last_used_at, Number(k.sign_count) >= 0])).toEqual([
      ['Virtual key', 'number', true],
    ]);
    // The account's page lists the members with their factors (the admin: the app and a key).
    await tab.navigateInApp(`/app/accounts/${admin.accountId}/security`);
    const row = page.locator(`[data-member="${DEMO_USERS.admin}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').nth(1).textContent()).toBe('1');
    // And who changed which factor when: the admin's own passkey and app, newest first.
    const history = page.getByTestId('two-factor-history').locator('tbody tr');
    await expect
      .poll(() => history.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))))
      .toEqual(expect.arrayContaining(['passkey_added', 'totp_on']));
    const added = history.and(page.locator('[data-action="passkey_added"]'));
    expect(await added.locator('td').nth(2).textContent()).toBe('Added a passkey');
    await cdp.detach();
  });

  it('a member whose account requires a second factor sets up a passkey at sign-in, is signed in with it, and is asked for it next time', async () => {
    const south = await e2e.session(DEMO_USERS.south);
    const rule = await e2e.server.call('PUT', apiPaths.accountTwoFactor(south.accountId), {
      token: south.token,
      json: { required: 'everyone' },
    });
    expect(rule.status).toBe(200);
    const base = e2e.web.url.replace('//127.0.0.1:', '//localhost:');
    const profile = await e2e.browser();
    const tab = await AppTab.open(profile.context, base, '/user/login');
    const page = tab.page;
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    // The password leads to the required set-up: the app's, and a passkey's beside it.
    await tab.fillSignIn(DEMO_USERS.south);
    await expect.poll(() => page.getByTestId('totp-setup').count()).toBe(1);
    expect(tab.path()).toMatch(/^\/user\/login/);
    const name = page.getByTestId('setup-passkey-name');
    expect(await name.getAttribute('required')).not.toBeNull();
    expect(await name.getAttribute('maxlength')).toBe('100');
    // Without a name it asks for one there (the field invalid and focused), making nothing.
    await page.getByTestId('setup-passkey').click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    await name.fill('Tablet');
    await page.getByTestId('setup-passkey').click();
    // Made, registered, and the sign-in finished with it: no other step between.
    await tab.waitForPath(/^\/app\//);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => [c.isResidentCredential, c.rpId])).toEqual([[true, 'localhost']]);
    const db = e2e.server.db;
    const southId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.south)
        .executeTakeFirstOrThrow()
    ).id;
    const keys = () =>
      db
        .selectFrom('user_passkeys')
        .select(['name', 'last_used_at'])
        .where('user_id', '=', southId)
        .execute();
    const [made] = await keys();
    expect(made?.name).toBe('Tablet');
    // Used by the sign-in that followed the set-up.
    expect(typeof made?.last_used_at).toBe('number');
    const log = await db
      .selectFrom('two_factor_log')
      .select('action')
      .where('user_id', '=', southId)
      .where('account_id', 'is', null)
      .execute();
    expect(log.map((l) => l.action)).toEqual(['passkey_added']);

    // The next sign-in asks for the second factor; the passkey signs in.
    await new ShellPage(page).signOut();
    await tab.waitForPath(/^\/user\/login/);
    await tab.fillSignIn(DEMO_USERS.south);
    await expect.poll(() => page.getByTestId('second-factor').count()).toBe(1);
    expect(tab.path()).toMatch(/^\/user\/login/);
    expect(await page.getByTestId('passkey-setup').count()).toBe(0);
    await page.getByTestId('use-passkey').click();
    await tab.waitForPath(/^\/app\//);
    await expect
      .poll(async () => Number((await keys())[0]?.last_used_at))
      .toBeGreaterThan(Number(made?.last_used_at));
    await cdp.detach();
  });
});
