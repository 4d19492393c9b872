import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { mailsTo as mailsIn } from './support/mails';
import {
  ForgotPasswordScreen,
  ResetPasswordScreen,
  SignInScreen,
} from './support/pages/user-pages';

/*
 * Forgot and reset password: the mail (written as an .eml file: the test server has no SMTP_URL),
 * the reset screen, signed in with the new password.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** The mails written so far to `to`. */
const mailsTo = (to: string) => mailsIn(e2e.server.dataDir, to);

/** The reset link of the newest mail to `to`, as a path of the app (the mail names APP_URL). */
async function resetLinkFor(to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const newest = (await mailsTo(to)).at(-1) ?? '';
      link = /https?:\/\/\S+\/user\/reset-password\?\S+/.exec(newest)?.[0];
      return link;
    })
    .toBeDefined();
  const url = new URL(link ?? '');
  return url.pathname + url.search;
}

describe('forgot and reset password', () => {
  it('forgot password, the mail, the reset screen: signed in with the new password, the old one refused', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.getByRole('link', { name: 'Forgot your password?' }).click();
    await tab.waitForPath(/^\/user\/forgot-password$/);
    const forgot = new ForgotPasswordScreen(tab.page);
    await forgot.send(DEMO_USERS.tech);
    await forgot.confirmation.waitFor();
    await expect
      .poll(() => tab.page.getByText('a link to reset the password is on its way').count())
      .toBe(1);

    const link = await resetLinkFor(DEMO_USERS.tech);
    expect(link).toMatch(/^\/user\/reset-password\?token=[^&]+&email=/);
    await tab.goto(link);
    const reset = new ResetPasswordScreen(tab.page);
    await reset.send('techs-new-pass');
    await tab.waitForPath(/^\/app\/devices\/list$/);

    // Another browser: the old password is refused, the new one signs in.
    const other = await e2e.openApp(await e2e.browser(), '/user/login');
    const signIn = new SignInScreen(other.page);
    await signIn.send(DEMO_USERS.tech, DEMO_PASSWORD);
    await expect.poll(() => signIn.error().textContent()).toBe('Wrong credentials!');
    await signIn.send(DEMO_USERS.tech, 'techs-new-pass');
    await other.waitForPath(/^\/app\/devices\/list$/);

    // The link worked once.
    const again = await e2e.openApp(await e2e.browser(), link);
    const used = new ResetPasswordScreen(again.page);
    await used.send('yet-another-pass');
    await used.alert('Reset-token invalid or expired.').waitFor();
    await again.page.getByRole('link', { name: 'Ask for a new link' }).click();
    await again.waitForPath(/^\/user\/forgot-password$/);
  });

  it('an unknown address gets the same confirmation, and no mail goes out', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/forgot-password');
    const forgot = new ForgotPasswordScreen(tab.page);
    await forgot.send('nobody@demo.local');
    await forgot.confirmation.waitFor();
    await expect
      .poll(() => tab.page.getByText('a link to reset the password is on its way').count())
      .toBe(1);
    // The answer comes before the mail would: a known address's mail arrives after its own
    // confirmation, so waiting for one proves the unknown one had its chance too.
    await tab.page.getByRole('button', { name: 'Use another address' }).click();
    await forgot.send(DEMO_USERS.internal);
    await forgot.confirmation.waitFor();
    await resetLinkFor(DEMO_USERS.internal);
    expect(await mailsTo('nobody@demo.local')).toEqual([]);
  });

  it('the reset screen checks the new password and its repeat, on their fields', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(
      browser,
      `/user/set-password?token=made-up&email=${encodeURIComponent(DEMO_USERS.south)}`,
    );
    await tab.page.getByRole('heading', { name: 'Set your password' }).waitFor();
    const screen = new ResetPasswordScreen(tab.page);
    await screen.submit.click();
    await expect
      .poll(() => screen.password.description())
      .toBe('Please enter your password 8 to 16 characters');
    expect(await screen.repeat.description()).toBe('Please repeat the new password');
    await expect.poll(() => screen.password.focused()).toBe(true);

    await screen.send('long-enough-1', 'long-enough-2');
    await expect.poll(() => screen.repeat.description()).toBe('The passwords do not match');
    expect(await screen.password.invalid()).toBe(false);
    await expect.poll(() => screen.repeat.focused()).toBe(true);

    // A made-up code is refused by the server, and the screen says what to do.
    await screen.send('long-enough-1');
    await screen.alert('Reset-token invalid or expired.').waitFor();
    expect(tab.path()).toMatch(/^\/user\/set-password\?/);
    // The refusal is reported to the server (requestFailed) naming the page, but never the
    // link's code or address: a real code in a report would be a live password reset.
    await expect
      .poll(async () =>
        (
          await e2e.server.db
            .selectFrom('client_errors')
            .select(['path', 'app_url'])
            .where('path', '=', 'password/reset')
            .execute()
        ).map((r) => r.app_url),
      )
      .toContain(`${e2e.web.url}/user/set-password`);
    const reports = await e2e.server.db.selectFrom('client_errors').select('app_url').execute();
    expect(reports.filter((r) => (r.app_url ?? '').includes('made-up'))).toEqual([]);
  });

  it('a link without its code says it is incomplete', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/reset-password');
    await tab.page.getByRole('alert').filter({ hasText: 'This link is incomplete' }).waitFor();
    await tab.page.getByRole('link', { name: 'Ask for a new link' }).click();
    await tab.waitForPath(/^\/user\/forgot-password$/);
  });
});
