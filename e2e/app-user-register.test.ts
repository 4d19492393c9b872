import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { RegisterScreen, SignInScreen } from './support/pages/user-pages';

/* Registration (spec 000 §2, §5, §7): the shared register schema's messages, then signed in. */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('register', () => {
  it("every field is checked by the shared schema; the focus goes to the first one's message", async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.getByRole('link', { name: 'Register' }).click();
    await tab.waitForPath(/^\/user\/register$/);
    const screen = new RegisterScreen(tab.page);
    await screen.submit.click();
    await expect.poll(() => screen.firstname.description()).toBe('Please enter your firstname');
    expect(await screen.lastname.description()).toBe('Please enter your lastname');
    expect(await screen.email.description()).toBe('Please enter your email address');
    // The hint stays with the message: what is wrong, and what is right.
    expect(await screen.password.description()).toBe(
      'Please enter your password 8 to 16 characters',
    );
    expect(await screen.password.invalid()).toBe(true);
    await expect.poll(() => screen.firstname.focused()).toBe(true);

    await screen.send({
      firstname: 'Rita',
      lastname: 'Registrant',
      email: 'rita@',
      password: 'short',
    });
    await expect.poll(() => screen.email.description()).toBe('Please enter a valid email address');
    expect(await screen.password.description()).toBe(
      'The password must be between 8 and 16 characters 8 to 16 characters',
    );
    expect(await screen.firstname.invalid()).toBe(false);
    await expect.poll(() => screen.email.focused()).toBe(true);
    expect(tab.path()).toBe('/user/register');
  });

  it('a new user registers and is signed in, in an account of their own', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/register');
    await new RegisterScreen(tab.page).send({
      firstname: 'Rosa',
      lastname: 'Newcomer',
      email: 'Rosa.Newcomer@Example.com',
      password: 'rosas-pass-1',
    });
    await tab.waitForPath(/^\/app\/devices\/list$/);
    const user = await e2e.server.db
      .selectFrom('users')
      .select(['id', 'firstname', 'active_account_id'])
      .where('email', '=', 'rosa.newcomer@example.com')
      .executeTakeFirstOrThrow();
    expect(user.firstname).toBe('Rosa');
    const stored = await tab.page.evaluate(
      () => JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: string },
    );
    expect(stored.id).toBe(user.id);
    expect(await tab.page.evaluate(() => localStorage.getItem('account'))).toBe(
      user.active_account_id,
    );

    // The new password signs in from another browser too.
    const other = await e2e.openApp(await e2e.browser(), '/user/login');
    await new SignInScreen(other.page).send('rosa.newcomer@example.com', 'rosas-pass-1');
    await other.waitForPath(/^\/app\/devices\/list$/);
  });

  it("an address already registered shows the server's message under the email field", async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/register');
    const screen = new RegisterScreen(tab.page);
    await screen.send({
      firstname: 'Ada',
      lastname: 'Again',
      email: DEMO_USERS.admin,
      password: 'another-pass',
    });
    await expect
      .poll(() => screen.email.description())
      .toBe('This email address is already registered.');
    expect(await screen.email.invalid()).toBe(true);
    await expect.poll(() => screen.email.focused()).toBe(true);
    expect(tab.path()).toBe('/user/register');
    expect(await tab.page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });
});
