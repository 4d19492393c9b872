import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths, INVITATION_REVOKED, isolate } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { mailsTo } from './support/mails';
import { ShellPage } from './support/pages/shell';

/*
 * What an admin meets in the first hour (issue 30 items 10 and 13d), in one signed-in tab: the
 * sent invitations listed with their state, one sent again (a new link) and one revoked, whose
 * link then says it was revoked; the account list and the account switcher showing the same user
 * and asset counts, also after an asset was added elsewhere.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** The invitation links mailed to `to`, oldest first, as paths of the app. */
async function invitationLinks(to: string): Promise<string[]> {
  return (await mailsTo(e2e.server.dataDir, to)).flatMap((mail) => {
    const link = /https?:\/\/\S+\/user\/set-password\?invitation=\S+/.exec(mail)?.[0];
    if (link === undefined) return [];
    const url = new URL(link);
    return [url.pathname + url.search];
  });
}

describe('the first hour of an admin', () => {
  it('sent invitations are listed, sent again and revoked; the account list and the switcher count alike', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/users/list');
    const page = tab.page;
    const invite = page.getByTestId('invite-form');
    const sent = page.getByTestId('sent-invitations');
    const row = (email: string) =>
      sent.locator(`[data-testid="invitation-row"][data-email="${email}"]`);
    for (const email of ['ivy.invited@example.com', 'rex.revoked@example.com']) {
      await invite.getByRole('textbox', { name: 'Invite by e-mail' }).fill(email);
      await invite.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Technician' });
      await invite.getByRole('button', { name: 'Invite' }).click();
      await expect.poll(() => row(email).getAttribute('data-state')).toBe('pending');
      expect(await row(email).textContent()).toContain('Technician');
    }
    await expect
      .poll(async () => (await invitationLinks('ivy.invited@example.com')).length)
      .toBe(1);

    // Send again: a second mail with a new link.
    await row('ivy.invited@example.com')
      .getByRole('button', {
        name: `Send the invitation to ${isolate('ivy.invited@example.com')} again`,
      })
      .click();
    await expect
      .poll(() => sent.getByTestId('sent-invitations-notice').textContent())
      .toBe(
        `A new link was sent to ${isolate('ivy.invited@example.com')}; the one before no longer works.`,
      );
    await expect
      .poll(async () => (await invitationLinks('ivy.invited@example.com')).length)
      .toBe(2);
    const [first, second] = await invitationLinks('ivy.invited@example.com');
    expect(second).not.toBe(first);
    expect(await row('ivy.invited@example.com').getAttribute('data-state')).toBe('pending');

    // Revoke: the row says so and offers nothing more; the link says it was revoked.
    const rexLink = (await invitationLinks('rex.revoked@example.com'))[0] ?? '';
    await row('rex.revoked@example.com')
      .getByRole('button', {
        name: `Revoke the invitation to ${isolate('rex.revoked@example.com')}`,
      })
      .click();
    await expect
      .poll(() => row('rex.revoked@example.com').getAttribute('data-state'))
      .toBe('revoked');
    expect(await row('rex.revoked@example.com').getByTestId('invitation-state').textContent()).toBe(
      'Revoked',
    );
    expect(await row('rex.revoked@example.com').getByRole('button').count()).toBe(0);
    const guest = await e2e.openApp(await e2e.browser(), rexLink);
    await expect.poll(() => guest.page.getByRole('alert').textContent()).toBe(INVITATION_REVOKED);

    // The account list and the switcher: the same counts for every account, also once another
    // admin added an asset (the list follows it; before, it kept its first counts).
    await tab.navigateInApp('/app/accounts/list');
    const accountRows = page.getByTestId('account-row');
    /** Each listed account's [users, assets] ('–' before the counts came). */
    const listed = async () =>
      Object.fromEntries(
        await accountRows.evaluateAll((rows) =>
          rows.map((r) => [
            r.getAttribute('data-name') ?? '',
            [
              r.querySelector('[data-testid="account-users"]')?.textContent ?? '',
              r.querySelector('[data-testid="account-assets"]')?.textContent ?? '',
            ],
          ]),
        ),
      ) as Record<string, [string, string]>;
    const root = async () => (await listed())['Demo Machine Builder'];
    await expect.poll(async () => (await root())?.[1] ?? '–').toMatch(/^\d+$/);
    const assetsBefore = Number((await root())?.[1]);

    const admin = await e2e.session(DEMO_USERS.admin);
    const made = await e2e.server.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      headers: { [ACCOUNT_HEADER]: admin.accountId },
      json: { name: 'Counted compressor' },
    });
    expect(made.status, made.text).toBe(201);
    await expect.poll(async () => (await root())?.[1]).toBe(String(assetsBefore + 1));

    const options = await new ShellPage(page).openAccountSwitcher();
    /** Each account of the switcher as [users, assets], read from its "2 users · 5 assets". */
    const switcher = async () =>
      Object.fromEntries(
        await options.evaluateAll((items) =>
          items.map((item) => {
            const counts = /(\d+) users? · (\d+) assets?/.exec(item.textContent ?? '');
            return [item.querySelector('bdi')?.textContent ?? '', [counts?.[1], counts?.[2]]];
          }),
        ),
      ) as Record<string, [string, string]>;
    await expect.poll(switcher).toEqual(await listed());
    expect((await switcher())['Demo Machine Builder']?.[1]).toBe(String(assetsBefore + 1));
  });
});
