import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALREADY_MEMBER,
  apiPaths,
  INVITATION_INVALID,
  INVITATION_TTL_MS,
  type CurrentUser,
  type InvitationInfo,
  type RoleAdmin,
} from '@plant/shared-schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { decoded, startSmtp } from '../testing/smtp';

/*
 * Invitations (spec 001 §6) over real SMTP: an admin invites a full e-mail address with a role;
 * the mailed link lets a new person set a password (or an existing user accept with its own),
 * after which it is signed in, in the account, with the role. The link works once and for a week.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let s: TestServer;
let admin = '';
let rootAccount = '';
const clock = new ManualClock();

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({
    clock,
    env: { SMTP_URL: smtp.url, APP_URL: 'https://plant.example' },
  });
  admin = await s.signIn(DEMO_USERS.admin);
  rootAccount = (await s.demoAccountIds()).root;
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const roleId = async (slug: string) => {
  const roles = dataOf<RoleAdmin[]>(await s.call('GET', apiPaths.roles(), { token: admin }));
  const found = roles.find((r) => r.slug === slug);
  if (found === undefined) throw new Error(`no role ${slug}`);
  return found.id;
};

/** Invites and waits for the mail; answers the link's token. */
async function invite(email: string, slug = 'technician', token = admin) {
  const sent = smtp.inbox.length;
  const res = await s.call('POST', apiPaths.invitations(), {
    token,
    json: { email, role_id: await roleId(slug) },
  });
  expect(res.status).toBe(201);
  await s.idle();
  expect(smtp.inbox.length).toBe(sent + 1);
  const mail = smtp.inbox.at(-1);
  expect(mail?.to).toEqual([email]);
  const text = decoded(mail?.raw ?? '');
  expect(text).toContain('Demo Machine Builder');
  const match = /\/user\/set-password\?invitation=([A-Za-z0-9_-]+)&email=/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no invitation link in:\n${text}`);
  return match[1];
}

const info = (token: string) => s.call('POST', apiPaths.invitationInfo(), { json: { token } });
const accept = (json: object) => s.call('POST', apiPaths.invitationAccept(), { json });

describe('invitations', () => {
  it('a new person sets a password through the mailed link and lands in the account with the role; the link works once', async () => {
    const token = await invite('new.person@example.com');
    // Stored only as its hash.
    const stored = await s.db.selectFrom('invitations').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);

    expect(dataOf<InvitationInfo>(await info(token))).toEqual({
      email: 'new.person@example.com',
      account: 'Demo Machine Builder',
      role: 'Technician',
      existing: false,
    });
    const missing = await accept({ token, password: 'secret-pass-1' });
    expect(missing.status).toBe(422);
    expect(missing.json).toMatchObject({ errors: { firstname: expect.any(Array) as unknown } });

    const joined = await accept({
      token,
      firstname: 'Nele',
      lastname: 'Newcomer',
      password: 'secret-pass-1',
    });
    expect(joined.status).toBe(200);
    const body = dataOf<{ access_token: string; user: CurrentUser }>(joined);
    expect(body.user.account).toBe(rootAccount);
    expect(body.user.activeRoles.map((r) => r.slug)).toEqual(['technician']);
    // Signed in: the token works, and the password signs in again later.
    expect((await s.call('GET', apiPaths.user(), { token: body.access_token })).status).toBe(200);
    expect(await s.signIn('new.person@example.com', 'secret-pass-1')).toBeTypeOf('string');

    // The link a second time: refused, and nothing changes.
    for (const answer of [
      await info(token),
      await accept({ token, firstname: 'Eve', lastname: 'Evildoer', password: 'other-pass-2' }),
    ]) {
      expect(answer.status).toBe(422);
      expect(answer.json).toMatchObject({ message: INVITATION_INVALID });
    }
    expect(await s.signIn('new.person@example.com', 'secret-pass-1')).toBeTypeOf('string');
  });

  it('an expired link is refused', async () => {
    const token = await invite('late.person@example.com');
    clock.advance(INVITATION_TTL_MS + 1_000);
    const late = await accept({
      token,
      firstname: 'Lara',
      lastname: 'Latecomer',
      password: 'secret-pass-1',
    });
    expect(late.status).toBe(422);
    expect(late.json).toMatchObject({ message: INVITATION_INVALID });
    expect((await info(token)).status).toBe(422);
    const users = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'late.person@example.com')
      .execute();
    expect(users).toEqual([]);
  });

  it('an existing user accepts with its own password; the account becomes its active one', async () => {
    const token = await invite(DEMO_USERS.south, 'supervisor');
    expect(dataOf<InvitationInfo>(await info(token)).existing).toBe(true);
    // 422, not 401: a signed-in user answering a link must not be signed out by a typo.
    const wrong = await accept({ token, password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.json).toMatchObject({ errors: { password: ['Wrong credentials!'] } });
    const ok = await accept({ token, password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    const user = dataOf<{ user: CurrentUser }>(ok).user;
    expect(user.account).toBe(rootAccount);
    expect(user.activeRoles.map((r) => r.slug)).toEqual(['supervisor']);
    // Its own account stays its own.
    expect(user.roles.map((r) => r.slug).sort()).toEqual(['admin', 'supervisor']);
  });

  it('only with user::edit; a member already is refused; norole and unknown roles are not offered', async () => {
    const tech = await s.signIn(DEMO_USERS.tech);
    const byTech = await s.call('POST', apiPaths.invitations(), {
      token: tech,
      json: { email: 'x@example.com', role_id: await roleId('technician') },
    });
    expect(byTech.status).toBe(403);
    const member = await s.call('POST', apiPaths.invitations(), {
      token: admin,
      json: { email: DEMO_USERS.tech, role_id: await roleId('supervisor') },
    });
    expect(member.status).toBe(409);
    expect(member.json).toMatchObject({ message: ALREADY_MEMBER });
    const norole = await s.call('POST', apiPaths.invitations(), {
      token: admin,
      json: { email: 'y@example.com', role_id: await roleId('norole') },
    });
    expect(norole.status).toBe(422);
    const unknown = await s.call('POST', apiPaths.invitations(), {
      token: admin,
      json: { email: 'z@example.com', role_id: 'no-such-role' },
    });
    expect(unknown.status).toBe(404);
    const bad = await s.call('POST', apiPaths.invitations(), {
      token: admin,
      json: { email: 'not an address', role_id: await roleId('technician') },
    });
    expect(bad.status).toBe(422);
    expect((await accept({ token: 'made-up', password: 'x' })).status).toBe(422);
  });
});
