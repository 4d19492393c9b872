import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  LAST_ROLE,
  NOT_YOURSELF,
  RESET_LINK_SENT,
  CONTACT_NOT_VALID,
  EMAIL_CHANGE_OWN,
  type Member,
  type NotificationSettings,
  type UserProfile,
  type RoleAdmin,
} from '@plant/shared-schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../seed/demo';
import { LAST_ADMIN, NOT_YOURS_TO_GIVE } from '../services/account-access';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { decoded, startSmtp } from '../testing/smtp';

/*
 * The members of an account (spec 000 §2 /app/users, spec 001 §6): listed with their roles,
 * roles given and taken (never the last one), removed from the account (never oneself), and a
 * password-reset link mailed by an admin.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
let admin = '';

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://plant.example' } });
  admin = await s.signIn(DEMO_USERS.admin);
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const members = async (token = admin) =>
  dataOf<Member[]>(await s.call('GET', apiPaths.members(), { token }));
const member = async (email: string) => {
  const found = (await members()).find((m) => m.email === email);
  if (found === undefined) throw new Error(`no member ${email}`);
  return found;
};
const roleId = async (slug: string) => {
  const roles = dataOf<RoleAdmin[]>(await s.call('GET', apiPaths.roles(), { token: admin }));
  return roles.find((r) => r.slug === slug)?.id ?? '';
};

describe('members', () => {
  it('lists the members with their roles; only with user::view', async () => {
    const list = await members();
    expect(list.map((m) => m.email).sort()).toEqual(
      [DEMO_USERS.admin, DEMO_USERS.tech, DEMO_USERS.norole, DEMO_USERS.internal].sort(),
    );
    expect((await member(DEMO_USERS.tech)).roles.map((r) => r.slug)).toEqual(['technician']);
    const tech = await s.signIn(DEMO_USERS.tech);
    expect((await s.call('GET', apiPaths.members(), { token: tech })).status).toBe(403);
  });

  it('gives and takes roles, never the last one', async () => {
    const tech = await member(DEMO_USERS.tech);
    const supervisor = await roleId('supervisor');
    const given = await s.call('PUT', apiPaths.memberRole(tech.id, supervisor), { token: admin });
    expect(
      dataOf<Member>(given)
        .roles.map((r) => r.slug)
        .sort(),
    ).toEqual(['supervisor', 'technician']);
    // The member's own session follows at once: it may now list users (supervisor's user::view).
    const techToken = await s.signIn(DEMO_USERS.tech);
    expect((await s.call('GET', apiPaths.members(), { token: techToken })).status).toBe(200);
    const taken = await s.call('DELETE', apiPaths.memberRole(tech.id, supervisor), {
      token: admin,
    });
    expect(dataOf<Member>(taken).roles.map((r) => r.slug)).toEqual(['technician']);
    expect((await s.call('GET', apiPaths.members(), { token: techToken })).status).toBe(403);
    const last = await s.call('DELETE', apiPaths.memberRole(tech.id, await roleId('technician')), {
      token: admin,
    });
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ message: LAST_ROLE });
    expect(
      (await s.call('PUT', apiPaths.memberRole(tech.id, 'no-such-role'), { token: admin })).status,
    ).toBe(404);
  });

  it('removes a member from the account, never oneself; strangers are not found', async () => {
    const norole = await member(DEMO_USERS.norole);
    expect((await s.call('DELETE', apiPaths.member(norole.id), { token: admin })).status).toBe(204);
    expect((await members()).map((m) => m.email)).not.toContain(DEMO_USERS.norole);
    expect((await s.call('DELETE', apiPaths.member(norole.id), { token: admin })).status).toBe(404);
    const self = await member(DEMO_USERS.admin);
    const own = await s.call('DELETE', apiPaths.member(self.id), { token: admin });
    expect(own.status).toBe(409);
    expect(own.json).toMatchObject({ message: NOT_YOURSELF });
    const south = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_USERS.south)
      .executeTakeFirstOrThrow();
    expect(
      (
        await s.call('PUT', apiPaths.memberRole(south.id, await roleId('technician')), {
          token: admin,
        })
      ).status,
    ).toBe(404);
    expect((await s.call('DELETE', apiPaths.member(south.id), { token: admin })).status).toBe(404);
  });

  it('mails a member a link to set a new password', async () => {
    const tech = await member(DEMO_USERS.tech);
    const before = smtp.inbox.length;
    const res = await s.call('POST', apiPaths.memberPasswordReset(tech.id), { token: admin });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: RESET_LINK_SENT });
    await s.idle();
    expect(smtp.inbox.length).toBe(before + 1);
    expect(smtp.inbox.at(-1)?.to).toEqual([DEMO_USERS.tech]);
    expect(decoded(smtp.inbox.at(-1)?.raw ?? '')).toContain(
      'https://plant.example/user/reset-password?token=',
    );
  });

  it('a user edits its own details; an admin edits a member’s; the rules of spec 001 §5 hold', async () => {
    const tech = await member(DEMO_USERS.tech);
    const techToken = await s.signIn(DEMO_USERS.tech);
    const mine = dataOf<UserProfile>(
      await s.call('GET', apiPaths.userProfile(tech.id), { token: techToken }),
    );
    expect(mine).toMatchObject({ email: DEMO_USERS.tech, phone: '', language: 'en' });
    const changed = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...mine, phone: '+49 170 1234567', language: 'de' },
    });
    expect(dataOf<UserProfile>(changed)).toMatchObject({
      phone: '+49 170 1234567',
      language: 'de',
    });
    const badPhone = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...mine, phone: 'call me' },
    });
    expect(badPhone.status).toBe(422);
    expect(badPhone.json).toMatchObject({ errors: { phone: [CONTACT_NOT_VALID] } });
    const taken = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...mine, email: DEMO_USERS.admin, password: DEMO_PASSWORD },
    });
    expect(taken.status).toBe(422);
    expect(taken.json).toMatchObject({
      errors: { email: ['This email address is already registered.'] },
    });
    // An admin of the account may; the technician may not edit the admin's.
    const byAdmin = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: admin,
      json: { ...mine, firstname: 'Tomasz' },
    });
    expect(dataOf<UserProfile>(byAdmin).firstname).toBe('Tomasz');
    const self = await member(DEMO_USERS.admin);
    expect(
      (
        await s.call('PUT', apiPaths.userProfile(self.id), {
          token: techToken,
          json: { ...mine, email: 'taken-over@example.com' },
        })
      ).status,
    ).toBe(403);
    // Another account's admin does not reach the root account's members.
    const south = await s.signIn(DEMO_USERS.south);
    expect((await s.call('GET', apiPaths.userProfile(tech.id), { token: south })).status).toBe(404);
  });

  it('keeps notification channels and a window of times', async () => {
    const tech = await member(DEMO_USERS.tech);
    const techToken = await s.signIn(DEMO_USERS.tech);
    expect(
      dataOf<NotificationSettings>(
        await s.call('GET', apiPaths.userNotifications(tech.id), { token: techToken }),
      ),
    ).toEqual({ channels: ['mail'], window: null });
    const settings: NotificationSettings = {
      channels: ['sms', 'push'],
      window: { days: [1, 2, 3, 4, 5], from: '07:00', to: '18:00', timezone: 'Europe/Berlin' },
    };
    const saved = await s.call('PUT', apiPaths.userNotifications(tech.id), {
      token: techToken,
      json: settings,
    });
    expect(dataOf<NotificationSettings>(saved)).toEqual(settings);
    const bad = await s.call('PUT', apiPaths.userNotifications(tech.id), {
      token: techToken,
      json: { ...settings, window: { ...settings.window, to: '24:30' } },
    });
    expect(bad.status).toBe(422);
    expect(
      dataOf<NotificationSettings>(
        await s.call('GET', apiPaths.userNotifications(tech.id), { token: admin }),
      ),
    ).toEqual(settings);
  });

  it('nobody below admin hands out admin or rights it lacks; the account keeps an admin', async () => {
    // A helpdesk role may edit users, nothing more.
    const helpdesk = dataOf<RoleAdmin>(
      await s.call('POST', apiPaths.roles(), { token: admin, json: { name: 'Helpdesk' } }),
    );
    await s.call('PUT', apiPaths.rolePermissions(helpdesk.id), {
      token: admin,
      json: { permissions: ['user::view', 'user::edit'] },
    });
    const tech = await member(DEMO_USERS.tech);
    await s.call('PUT', apiPaths.memberRole(tech.id, helpdesk.id), { token: admin });
    const techToken = await s.signIn(DEMO_USERS.tech);
    for (const slug of ['admin', 'supervisor']) {
      const raised = await s.call('PUT', apiPaths.memberRole(tech.id, await roleId(slug)), {
        token: techToken,
      });
      expect(raised.status).toBe(403);
      expect(raised.json).toMatchObject({ message: NOT_YOURS_TO_GIVE });
    }
    const invited = await s.call('POST', apiPaths.invitations(), {
      token: techToken,
      json: { email: 'my.second.address@example.com', role_id: await roleId('admin') },
    });
    expect(invited.status).toBe(403);
    expect((await member(DEMO_USERS.tech)).roles.map((r) => r.slug).sort()).toEqual([
      'helpdesk',
      'technician',
    ]);

    // The only admin keeps its role, and stays a member.
    const self = await member(DEMO_USERS.admin);
    await s.call('PUT', apiPaths.memberRole(self.id, await roleId('supervisor')), { token: admin });
    const last = await s.call('DELETE', apiPaths.memberRole(self.id, await roleId('admin')), {
      token: admin,
    });
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ message: LAST_ADMIN });
  });

  it('only the user changes its own e-mail address, with its password', async () => {
    const tech = await member(DEMO_USERS.tech);
    const profile = dataOf<UserProfile>(
      await s.call('GET', apiPaths.userProfile(tech.id), { token: admin }),
    );
    const byAdmin = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: admin,
      json: { ...profile, email: 'elsewhere@example.com' },
    });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json).toMatchObject({ message: EMAIL_CHANGE_OWN });
    const techToken = await s.signIn(DEMO_USERS.tech);
    const noPassword = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...profile, email: 'tomas@example.com' },
    });
    expect(noPassword.status).toBe(422);
    const wrong = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...profile, email: 'tomas@example.com', password: 'nope' },
    });
    expect(wrong.status).toBe(422);
    const moved = await s.call('PUT', apiPaths.userProfile(tech.id), {
      token: techToken,
      json: { ...profile, email: 'tomas@example.com', password: DEMO_PASSWORD },
    });
    expect(dataOf<UserProfile>(moved).email).toBe('tomas@example.com');
  });
});
