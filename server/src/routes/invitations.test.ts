import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALREADY_MEMBER,
  apiPaths,
  INVITATION_CLOSED,
  INVITATION_INVALID,
  INVITATION_RESENDS,
  INVITATION_REVOKED,
  INVITATION_TTL_MS,
  type CurrentUser,
  type InvitationInfo,
  type RoleAdmin,
  type SentInvitation,
} from '@plant/shared-schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { decoded, startSmtp } from '../testing/smtp';
import { totpAt } from '../auth/totp';

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

/** Waits for the one mail a call sent; answers its link's token. */
async function mailedToken(email: string, before: number) {
  await s.idle();
  expect(smtp.inbox.length).toBe(before + 1);
  const mail = smtp.inbox.at(-1);
  expect(mail?.to).toEqual([email]);
  const match = /\/user\/set-password\?invitation=([A-Za-z0-9_-]+)&email=/.exec(
    decoded(mail?.raw ?? ''),
  );
  if (match?.[1] === undefined) throw new Error('no invitation link');
  return match[1];
}

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

  it('an existing user with a second factor joins by its password, but is signed in only with the factor', async () => {
    const email = 'two.factor@invited.test';
    const password = 'invited-pass-1';
    const made = await s.call('POST', apiPaths.register(), {
      json: { firstname: 'Two', lastname: 'Factor', email, password },
    });
    expect(made.status, made.text).toBe(201);
    const own = dataOf<{ access_token: string }>(made).access_token;
    const setup = dataOf<{ secret: string }>(
      await s.call('POST', apiPaths.twoFactorTotp(), { token: own }),
    );
    const on = await s.call('POST', apiPaths.twoFactorTotpConfirm(), {
      token: own,
      json: { code: totpAt(setup.secret, clock.now()) },
    });
    expect(on.status, on.text).toBe(200);

    const token = await invite(email, 'supervisor');
    const joined = await accept({ token, password });
    expect(joined.status, joined.text).toBe(200);
    // No token: the password alone is not the sign-in this user has.
    expect(joined.json).toEqual({ success: true, data: { second_factor: true } });
    expect(JSON.stringify(joined.json)).not.toContain('access_token');
    // The membership stands; the sign-in asks for the code.
    const member = await s.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .select('roles.slug')
      .where('users.email', '=', email)
      .where('memberships.account_id', '=', rootAccount)
      .execute();
    expect(member.map((m) => m.slug)).toEqual(['supervisor']);
    const grant = (extra: Record<string, unknown>) =>
      s.call('POST', apiPaths.token(), {
        json: {
          grant_type: 'password',
          client_id: s.clientId,
          username: email,
          password,
          ...extra,
        },
      });
    const without = await grant({});
    expect(without.status).toBe(401);
    expect(without.json).toMatchObject({ error: 'otp_required' });
    clock.advance(60_000);
    expect((await grant({ otp: totpAt(setup.secret, clock.now()) })).status).toBe(200);
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

describe('sent invitations (issue 30 item 10)', () => {
  const listed = async (token = admin) => {
    const res = await s.call('GET', apiPaths.invitations(), { token });
    expect(res.status).toBe(200);
    return dataOf<SentInvitation[]>(res);
  };
  const byEmail = async (email: string) => {
    const found = (await listed()).find((i) => i.email === email);
    if (found === undefined) throw new Error(`${email} not listed`);
    return found;
  };

  it('are listed with role, time and state: pending, accepted, expired, revoked', async () => {
    const at = clock.now();
    const pendingToken = await invite('listed.pending@example.com', 'supervisor');
    const pending = await byEmail('listed.pending@example.com');
    expect(pending).toMatchObject({
      role: 'Supervisor',
      state: 'pending',
      sent_at: new Date(at).toISOString(),
      expires_at: new Date(at + INVITATION_TTL_MS).toISOString(),
    });
    const accepted = await accept({
      token: pendingToken,
      firstname: 'Lis',
      lastname: 'Listed',
      password: 'secret-pass-1',
    });
    expect(accepted.status).toBe(200);
    expect((await byEmail('listed.pending@example.com')).state).toBe('accepted');

    const revokedToken = await invite('listed.revoked@example.com');
    const toRevoke = await byEmail('listed.revoked@example.com');
    const revoke = await s.call('POST', apiPaths.invitationRevoke(toRevoke.id), { token: admin });
    expect(revoke.status).toBe(200);
    expect(dataOf<SentInvitation>(revoke).state).toBe('revoked');
    expect((await byEmail('listed.revoked@example.com')).state).toBe('revoked');
    const twice = await s.call('POST', apiPaths.invitationRevoke(toRevoke.id), { token: admin });
    expect(twice.status).toBe(200);
    expect(dataOf<SentInvitation>(twice).state).toBe('revoked');
    // The revoked link says so, and lets nobody in.
    for (const answer of [
      await info(revokedToken),
      await accept({
        token: revokedToken,
        firstname: 'R',
        lastname: 'R',
        password: 'secret-pass-1',
      }),
    ]) {
      expect(answer.status).toBe(422);
      expect(answer.json).toMatchObject({ message: INVITATION_REVOKED });
    }
    // A revoked one is not sent again; an accepted one is neither revoked nor sent again.
    const again = await s.call('POST', apiPaths.invitationResend(toRevoke.id), { token: admin });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ message: INVITATION_CLOSED });
    const acceptedId = (await byEmail('listed.pending@example.com')).id;
    for (const path of [
      apiPaths.invitationRevoke(acceptedId),
      apiPaths.invitationResend(acceptedId),
    ]) {
      expect((await s.call('POST', path, { token: admin })).status).toBe(409);
    }

    await invite('listed.expired@example.com');
    clock.advance(INVITATION_TTL_MS + 1_000);
    expect((await byEmail('listed.expired@example.com')).state).toBe('expired');
    expect((await byEmail('listed.revoked@example.com')).state).toBe('revoked');
    // Newest first.
    const emails = (await listed()).map((i) => i.email);
    expect(emails.indexOf('listed.expired@example.com')).toBeLessThan(
      emails.indexOf('listed.revoked@example.com'),
    );
  });

  it('sending again mails a new link for a new week, the old link dies; limited per invitation', async () => {
    const oldToken = await invite('resent.person@example.com');
    clock.advance(INVITATION_TTL_MS + 1_000);
    const expired = await byEmail('resent.person@example.com');
    expect(expired.state).toBe('expired');

    const before = smtp.inbox.length;
    const res = await s.call('POST', apiPaths.invitationResend(expired.id), { token: admin });
    expect(res.status).toBe(200);
    const resent = dataOf<SentInvitation>(res);
    expect(resent).toMatchObject({
      id: expired.id,
      state: 'pending',
      sent_at: new Date(clock.now()).toISOString(),
      expires_at: new Date(clock.now() + INVITATION_TTL_MS).toISOString(),
    });
    const newToken = await mailedToken('resent.person@example.com', before);
    expect(newToken).not.toBe(oldToken);
    const stored = await s.db.selectFrom('invitations').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === newToken)).toBe(false);
    expect((await info(oldToken)).json).toMatchObject({ message: INVITATION_INVALID });
    expect(dataOf<InvitationInfo>(await info(newToken)).email).toBe('resent.person@example.com');

    // A pending one again: each send kills the link before it.
    const second = smtp.inbox.length;
    expect(
      (await s.call('POST', apiPaths.invitationResend(expired.id), { token: admin })).status,
    ).toBe(200);
    const third = await mailedToken('resent.person@example.com', second);
    expect((await info(newToken)).status).toBe(422);
    expect((await info(third)).status).toBe(200);

    // INVITATION_RESENDS.limit sends an hour, then 429 with Retry-After, and no mail.
    for (let i = 2; i < INVITATION_RESENDS.limit; i++) {
      expect(
        (await s.call('POST', apiPaths.invitationResend(expired.id), { token: admin })).status,
      ).toBe(200);
    }
    await s.idle();
    const mails = smtp.inbox.length;
    const limited = await s.call('POST', apiPaths.invitationResend(expired.id), { token: admin });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await s.idle();
    expect(smtp.inbox.length).toBe(mails);
    clock.advance(INVITATION_RESENDS.windowMs);
    expect(
      (await s.call('POST', apiPaths.invitationResend(expired.id), { token: admin })).status,
    ).toBe(200);
    await s.idle();
  });

  it('need user::edit in the account the invitation belongs to', async () => {
    await invite('guarded.person@example.com');
    const { id } = await byEmail('guarded.person@example.com');
    const tech = await s.signIn(DEMO_USERS.tech);
    expect((await s.call('GET', apiPaths.invitations(), { token: tech })).status).toBe(403);
    for (const path of [apiPaths.invitationResend(id), apiPaths.invitationRevoke(id)]) {
      expect((await s.call('POST', path, { token: tech })).status).toBe(403);
    }
    // Another account's admin neither sees it nor reaches it by its id.
    const south = await s.signIn(DEMO_USERS.south);
    const southUser = dataOf<CurrentUser>(await s.call('GET', apiPaths.user(), { token: south }));
    const southAccount = (await s.demoAccountIds()).south;
    const switched = await s.call('POST', apiPaths.setActiveAccount(southUser.id, southAccount), {
      token: south,
    });
    expect(switched.status).toBe(200);
    expect((await listed(south)).some((i) => i.id === id)).toBe(false);
    for (const path of [apiPaths.invitationResend(id), apiPaths.invitationRevoke(id)]) {
      expect((await s.call('POST', path, { token: south })).status).toBe(404);
    }
    expect((await byEmail('guarded.person@example.com')).state).toBe('pending');
  });
});
