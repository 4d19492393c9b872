import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  isolate,
  apiPaths,
  INVITATION_INVALID,
  type NotificationSettings,
  type UserProfile,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';
import { mailsTo } from './support/mails';
import { syncIndicator } from './support/pages/devices';

/*
 * The users list and invitations in the browser (spec 001 §6, issue 15): an admin invites a new
 * person by e-mail with a role; the mail's link opens the set-password screen, where the person
 * sets names and a password and lands in the app, in the account, with the role; the link a
 * second time says it is used.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** The invitation link of the newest mail to `to`, as a path of the app. */
async function invitationLinkFor(to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const newest = (await mailsTo(e2e.server.dataDir, to)).at(-1) ?? '';
      link = /https?:\/\/\S+\/user\/set-password\?invitation=\S+/.exec(newest)?.[0];
      return link;
    })
    .toBeDefined();
  const url = new URL(link ?? '');
  return url.pathname + url.search;
}

describe('users and invitations', () => {
  it('lists the members with search; an invitation mail lets a new person join with the role; the link works once', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/users/list');
    const page = tab.page;
    const rows = page.getByTestId('user-row');
    await expect.poll(() => rows.count()).toBe(4);
    // Search from 3 characters: two are not enough to filter.
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill('te');
    expect(await rows.count()).toBe(4);
    await search.fill('tech');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-email')).toBe(DEMO_USERS.tech);
    await search.fill('');

    const invite = page.getByTestId('invite-form');
    await invite.getByRole('textbox', { name: 'Invite by e-mail' }).fill('nina.new@example.com');
    await invite.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Technician' });
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect
      .poll(() => page.getByText(`Invitation sent to ${isolate('nina.new@example.com')}.`).count())
      .toBe(1);

    const link = await invitationLinkFor('nina.new@example.com');
    const guest = await e2e.openApp(await e2e.browser(), link);
    await expect
      .poll(() =>
        guest.page.getByText('You are invited to Demo Machine Builder as Technician.').count(),
      )
      .toBe(1);
    await guest.page.getByRole('textbox', { name: 'First name' }).fill('Nina');
    await guest.page.getByRole('textbox', { name: 'Last name' }).fill('Newcomer');
    await guest.page.getByLabel(/^Password( \*)?$/).fill('nina-pass-1');
    await guest.page.getByRole('button', { name: 'Join' }).click();
    await guest.waitForPath(/^\/app\/devices\/list$/);

    // The admin's open list shows the new member with the role, without a reload: the join is
    // logged as the member's synced model and arrives live.
    await expect.poll(() => rows.filter({ hasText: 'nina.new@example.com' }).count()).toBe(1);
    expect(await rows.filter({ hasText: 'nina.new@example.com' }).textContent()).toContain(
      'Technician',
    );

    // Its roles change from the list, as writes of the synced member model.
    const nina = rows.filter({ hasText: 'nina.new@example.com' });
    await nina
      .getByRole('combobox', { name: `Give ${isolate('Nina Newcomer')} a role` })
      .selectOption({
        label: 'Supervisor',
      });
    await expect.poll(() => nina.getByText('Supervisor').count()).toBe(1);
    await nina
      .getByRole('button', {
        name: `Take the role ${isolate('Technician')} from ${isolate('Nina Newcomer')}`,
      })
      .click();
    const admin = await e2e.session(DEMO_USERS.admin);
    await expect
      .poll(async () => {
        const members = dataOf<{ email: string; roles: { slug: string }[] }[]>(
          await e2e.server.call('GET', apiPaths.members(), { token: admin.token }),
        );
        return members.find((m) => m.email === 'nina.new@example.com')?.roles.map((r) => r.slug);
      })
      .toEqual(['supervisor']);

    // The link a second time.
    const again = await e2e.openApp(await e2e.browser(), link);
    await expect.poll(() => again.page.getByText(INVITATION_INVALID).count()).toBe(1);
  });

  it('a user edits its details (the phone rule shown on its field) and its notification window', async () => {
    const tech = await e2e.session(DEMO_USERS.tech);
    const tab = await e2e.signedInApp(DEMO_USERS.tech, '/app/devices/list');
    const page = tab.page;
    // Both are the user's own pages, reached from the user menu.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Your details' }).click();
    await tab.waitForPath(new RegExp(`^/app/users/${tech.userId}/details$`));
    const phone = page.getByRole('textbox', { name: 'Phone' });
    await expect.poll(() => phone.count()).toBe(1);
    await phone.fill('call me');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() =>
        page.getByText('Must be a valid email address, phone number or telegram number').count(),
      )
      .toBe(1);
    // A name typed while the server answers the save stays in the form, to be saved next (the
    // answer gave the form the saved profile back). The save's request is held meanwhile.
    let releasePut = () => {};
    const putHeld = new Promise<void>((resolve) => (releasePut = resolve));
    let putAsked = false;
    await page.route('**/api/v1/users/*/profile', async (route) => {
      if (route.request().method() === 'PUT') {
        putAsked = true;
        await putHeld;
      }
      await route.continue();
    });
    await phone.fill('+49 170 1234567');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => putAsked).toBe(true);
    const lastName = page.getByRole('textbox', { name: 'Last name' });
    const typed = `${await lastName.inputValue()} Jr`;
    await lastName.fill(typed);
    releasePut();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    expect(await lastName.inputValue()).toBe(typed);
    await page.unroute('**/api/v1/users/*/profile');
    const profile = dataOf<UserProfile>(
      await e2e.server.call('GET', apiPaths.userProfile(tech.userId), { token: tech.token }),
    );
    expect(profile.phone).toBe('+49 170 1234567');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Notifications' }).click();
    await tab.waitForPath(new RegExp(`^/app/users/${tech.userId}/notifications$`));
    await expect.poll(() => page.getByRole('checkbox', { name: 'SMS' }).count()).toBe(1);
    await page.getByRole('checkbox', { name: 'SMS' }).check();
    await page.getByRole('switch', { name: 'Only at certain times' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    const settings = dataOf<NotificationSettings>(
      await e2e.server.call('GET', apiPaths.userNotifications(tech.userId), { token: tech.token }),
    );
    expect(settings.channels).toEqual(['mail', 'sms']);
    expect(settings.window).toMatchObject({ days: [1, 2, 3, 4, 5], from: '07:00', to: '18:00' });
  });

  it("an internal user makes a tag and gives it to the technician; an admin's open list follows", async () => {
    const adminTab = await e2e.signedInApp(DEMO_USERS.admin, '/app/users/list');
    const adminRows = adminTab.page.getByTestId('user-row');
    await expect.poll(() => adminRows.count()).toBeGreaterThan(3);
    // The admin sees tags but may not hand them out.
    expect(await adminTab.page.getByTestId('new-tag-form').count()).toBe(0);

    const tab = await e2e.signedInApp(DEMO_USERS.internal, '/app/users/list');
    const form = tab.page.getByTestId('new-tag-form');
    await form.getByRole('textbox', { name: 'New tag' }).fill('Beta Program');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await expect
      .poll(() => form.getByText('Lower-case letters, digits and dashes only.').count())
      .toBe(1);
    await form.getByRole('textbox', { name: 'New tag' }).fill('beta-program');
    await form.getByRole('button', { name: 'Create tag' }).click();
    const techRow = tab.page.locator(`[data-testid="user-row"][data-email="${DEMO_USERS.tech}"]`);
    const give = techRow.getByRole('combobox', {
      name: `Give ${isolate('Tomas Technician')} a tag`,
    });
    await expect.poll(() => give.count()).toBe(1);
    await give.selectOption({ label: 'beta-program' });

    // The admin's open list shows the technician's new tag, live.
    const adminTech = adminTab.page.locator(
      `[data-testid="user-row"][data-email="${DEMO_USERS.tech}"]`,
    );
    await expect.poll(() => adminTech.getByText('beta-program').count()).toBe(1);
    // And the technician holds it on the server.
    const tech = await e2e.session(DEMO_USERS.tech);
    await expect
      .poll(async () =>
        dataOf<{ tags: { slug: string }[] }>(
          await e2e.server.call('GET', apiPaths.user(), { token: tech.token }),
        ).tags.map((t) => t.slug),
      )
      .toContain('beta-program');
  });

  it('a member without account::view sees its own roles by name', async () => {
    // The technician cannot read the account's roles: its own were '…' for good.
    const tab = await e2e.signedInApp(DEMO_USERS.tech, '/app/users/list');
    const row = tab.page.locator(`[data-testid="user-row"][data-email="${DEMO_USERS.tech}"]`);
    await expect
      .poll(async () => ((await row.locator('td').nth(2).textContent()) ?? '').trim())
      .toBe('Technician');
  });

  it("a member's actions page gives a role offline; the change waits and reaches the server once back", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tech = await e2e.session(DEMO_USERS.tech);
    const slugs = async () => {
      const members = dataOf<{ id: string; roles: { slug: string }[] }[]>(
        await e2e.server.call('GET', apiPaths.members(), { token: admin.token }),
      );
      return (members.find((m) => m.id === tech.userId)?.roles.map((r) => r.slug) ?? []).sort();
    };
    expect(await slugs()).toEqual(['technician']);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/users/${tech.userId}/actions`);
    const page = tab.page.getByTestId('user-actions');
    await expect.poll(() => page.getByText('Technician', { exact: true }).count()).toBe(1);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await page
      .getByRole('combobox', { name: `Give ${isolate('Tomas Technician')} a role` })
      .selectOption({
        label: 'Supervisor',
      });
    await expect.poll(() => page.getByText('Supervisor', { exact: true }).count()).toBe(1);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');
    // A password link needs the network, and says so.
    await page.getByRole('button', { name: 'Send password link' }).click();
    await expect
      .poll(() =>
        tab.page
          .getByText('Password links need the network: try again once you are online.')
          .count(),
      )
      .toBe(1);
    expect(await slugs()).toEqual(['technician']);

    e2e.online();
    await expect.poll(slugs).toEqual(['supervisor', 'technician']);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');
    await page
      .getByRole('button', {
        name: `Take the role ${isolate('Supervisor')} from ${isolate('Tomas Technician')}`,
      })
      .click();
    await expect.poll(slugs).toEqual(['technician']);
  });
});
