import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, TWO_FACTOR_TEXTS, type TwoFactorLogEntry } from '@plant/shared-schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { FakeAuthenticator } from './fake-authenticator';
import { totpAt } from './totp';

/**
 * Two-factor sign-in over HTTP (issue 38 item 2): the authenticator app with its recovery codes,
 * the password grant's `otp_required`, wrong codes counted like wrong passwords, an account's
 * rule with the set-up before sign-in, an admin's logged reset, and passkeys verified against
 * registrations and assertions made here with node:crypto keys.
 */

type Setup = { secret: string; otpauth_url: string };
type Codes = { recovery_codes: string[] };

function grantOf(s: TestServer) {
  return (username: string, extra: Record<string, unknown> = {}, from?: string) =>
    s.call('POST', apiPaths.token(), {
      json: {
        grant_type: 'password',
        client_id: s.clientId,
        username,
        password: DEMO_PASSWORD,
        ...extra,
      },
      ...(from === undefined ? {} : { from }),
    });
}

/** Turns the user's app on with a code of `now`; answers the secret and the recovery codes. */
async function enableTotp(s: TestServer, token: string, now: number) {
  const setup = dataOf<Setup>(await s.call('POST', apiPaths.twoFactorTotp(), { token }));
  const confirmed = await s.call('POST', apiPaths.twoFactorTotpConfirm(), {
    token,
    json: { code: totpAt(setup.secret, now) },
  });
  expect(confirmed.status).toBe(200);
  return { secret: setup.secret, codes: dataOf<Codes>(confirmed).recovery_codes };
}

describe('the authenticator app and the password grant', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const grant = (...args: Parameters<ReturnType<typeof grantOf>>) => grantOf(s)(...args);
  beforeAll(async () => {
    // Five failures a minute per address and e-mail, so that the test reaches it.
    s = await startTestServer({
      clock,
      authLimits: {
        perEmailAndAddress: { limit: 5, windowMs: 60_000 },
        perEmail: { limit: 100, windowMs: 5 * 60_000 },
        perAddress: { limit: 30, windowMs: 60_000 },
        registerPerAddress: { limit: 20, windowMs: 60 * 60_000 },
      },
    });
  });
  afterAll(() => s.close());

  it('turns on with a code, answers otp_required without one, takes each code once and a recovery code once', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const setup = dataOf<Setup>(await s.call('POST', apiPaths.twoFactorTotp(), { token }));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toContain(`secret=${setup.secret}`);
    // Not on before it is confirmed: signing in needs no code yet.
    expect((await grant(DEMO_USERS.admin)).status).toBe(200);
    const wrong = await s.call('POST', apiPaths.twoFactorTotpConfirm(), {
      token,
      json: { code: totpAt(setup.secret, clock.now() + 5 * 60_000) },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json).toMatchObject({ errors: { code: [TWO_FACTOR_TEXTS.codeWrong] } });
    const confirmed = await s.call('POST', apiPaths.twoFactorTotpConfirm(), {
      token,
      json: { code: totpAt(setup.secret, clock.now()) },
    });
    expect(confirmed.status).toBe(200);
    const codes = dataOf<Codes>(confirmed).recovery_codes;
    expect(codes).toHaveLength(10);

    // The secret is kept sealed, never in the database as it is, and never handed out again.
    const row = await s.db.selectFrom('user_totp').selectAll().executeTakeFirstOrThrow();
    expect(row.sealed_secret).not.toContain(setup.secret);
    const stored = await s.db.selectFrom('user_recovery_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash).join()).not.toContain(codes[0]?.slice(0, 5));
    const status = await s.call('GET', apiPaths.twoFactor(), { token });
    expect(dataOf(status)).toEqual({
      totp: true,
      recovery_codes_left: 10,
      passkeys: [],
      required: false,
    });
    expect(status.text).not.toContain(setup.secret);
    expect((await s.call('POST', apiPaths.twoFactorTotp(), { token })).status).toBe(409);

    // From now on the grant without a second factor is refused with otp_required.
    const asked = await grant(DEMO_USERS.admin);
    expect(asked.status).toBe(401);
    expect(asked.json).toMatchObject({
      error: 'otp_required',
      errors: { otp: [TWO_FACTOR_TEXTS.codeRequired] },
    });
    expect(asked.json).not.toHaveProperty('access_token');
    // A wrong password still says only that.
    expect((await grant(DEMO_USERS.admin, { password: 'wrong-one' })).json).toMatchObject({
      error: 'invalid_grant',
    });
    // The code of the step in which it was confirmed was taken: it does not count again.
    const replay = await grant(DEMO_USERS.admin, { otp: totpAt(setup.secret, clock.now()) });
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ error: 'invalid_otp' });
    clock.advance(30_000);
    const code = totpAt(setup.secret, clock.now());
    const signedIn = await grant(DEMO_USERS.admin, { otp: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toHaveProperty('access_token');
    expect((await grant(DEMO_USERS.admin, { otp: code })).status).toBe(401);

    // A recovery code signs in once, as typed (upper case, spaces), and never twice.
    const recovery = codes[3] ?? '';
    const typed = ` ${recovery.toUpperCase().replace('-', ' ')} `;
    expect((await grant(DEMO_USERS.admin, { otp: typed })).status).toBe(200);
    const again = await grant(DEMO_USERS.admin, { otp: recovery });
    expect(again.status).toBe(401);
    expect(again.json).toMatchObject({ error: 'invalid_otp' });
    expect(dataOf(await s.call('GET', apiPaths.twoFactor(), { token }))).toMatchObject({
      recovery_codes_left: 9,
    });
    const log = await s.db.selectFrom('two_factor_log').select('action').orderBy('at').execute();
    expect(log.map((l) => l.action)).toEqual(['totp_on', 'recovery_code_used']);

    // Turning the app off takes a code; a wrong one changes nothing.
    clock.advance(30_000);
    const offWrong = await s.call('DELETE', apiPaths.twoFactorTotp(), {
      token,
      json: { otp: '000000' },
    });
    expect(offWrong.status).toBe(422);
    const off = await s.call('DELETE', apiPaths.twoFactorTotp(), {
      token,
      json: { otp: totpAt(setup.secret, clock.now()) },
    });
    expect(off.status).toBe(200);
    expect((await grant(DEMO_USERS.admin)).status).toBe(200);
  });

  it('counts wrong codes like wrong passwords, and per user from anywhere: then 429 even for the right code', async () => {
    const token = await s.signIn(DEMO_USERS.internal);
    const { secret } = await enableTotp(s, token, clock.now());
    clock.advance(30_000);
    const right = () => totpAt(secret, clock.now());
    // Wrong codes spend the password's counters: five from one machine lock it out for the
    // minute even with the right code, as five wrong passwords would; another machine goes on.
    for (let i = 0; i < 5; i++) {
      const answer = await grant(DEMO_USERS.internal, { otp: '123456' }, '127.0.1.1');
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({
        error: 'invalid_otp',
        errors: { otp: [TWO_FACTOR_TEXTS.codeWrong] },
      });
    }
    const locked = await grant(DEMO_USERS.internal, { otp: right() }, '127.0.1.1');
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ error: 'too_many_attempts' });
    expect((await grant(DEMO_USERS.internal, { otp: right() }, '127.0.1.2')).status).toBe(200);
    // And they count per user from anywhere: ten in 15 minutes, then even the right code waits.
    clock.advance(30_000);
    for (let i = 0; i < 5; i++) {
      const answer = await grant(DEMO_USERS.internal, { otp: '123456' }, `127.0.1.${i + 3}`);
      expect(answer.status).toBe(401);
    }
    const blocked = await grant(DEMO_USERS.internal, { otp: right() }, '127.0.1.20');
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ error: 'too_many_attempts' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
    // The lock ends with its window (15 minutes).
    clock.advance(15 * 60_000 + 1000);
    const later = await grant(DEMO_USERS.internal, { otp: right() }, '127.0.1.21');
    expect(later.status).toBe(200);
  });
});

describe("an account's rule and an admin's reset", () => {
  let s: TestServer;
  const grant = (...args: Parameters<ReturnType<typeof grantOf>>) => grantOf(s)(...args);
  let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
  /** South's admin, signed in with its second factor by the first test. */
  let southToken = '';
  beforeAll(async () => {
    s = await startTestServer();
    ids = await s.demoAccountIds();
  });
  afterAll(() => s.close());

  const userId = async (email: string) =>
    (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  it('leads a member who must have a second factor to set one up before it gets a token', async () => {
    southToken = await s.signIn(DEMO_USERS.south);
    const techToken = await s.signIn(DEMO_USERS.tech);
    // Only who may edit the account sets the rule; anyone of it may read it.
    const refused = await s.call('PUT', apiPaths.accountTwoFactor(ids.root), {
      token: techToken,
      json: { required: 'everyone' },
    });
    expect(refused.status).toBe(403);
    const set = await s.call('PUT', apiPaths.accountTwoFactor(ids.south), {
      token: southToken,
      json: { required: 'admins' },
    });
    expect(set.status).toBe(200);
    expect(
      dataOf(await s.call('GET', apiPaths.accountTwoFactor(ids.south), { token: southToken })),
    ).toEqual({ required: 'admins' });
    // Another account's rule is not in reach.
    expect(
      (await s.call('GET', apiPaths.accountTwoFactor(ids.root), { token: southToken })).status,
    ).toBe(404);

    const asked = await grant(DEMO_USERS.south);
    expect(asked.status).toBe(403);
    expect(asked.json).toMatchObject({
      error: 'second_factor_setup_required',
      errors: { otp: [TWO_FACTOR_TEXTS.setupRequired] },
    });
    // The set-up proves who it is with the grant's credentials.
    const credentials = { client_id: s.clientId, username: DEMO_USERS.south };
    const badPassword = await s.call('POST', apiPaths.twoFactorEnrol(), {
      json: { ...credentials, password: 'wrong' },
    });
    expect(badPassword.status).toBe(401);
    const started = await s.call('POST', apiPaths.twoFactorEnrol(), {
      json: { ...credentials, password: DEMO_PASSWORD },
    });
    expect(started.status).toBe(200);
    const { secret } = dataOf<Setup>(started);
    const done = await s.call('POST', apiPaths.twoFactorEnrolConfirm(), {
      json: { ...credentials, password: DEMO_PASSWORD, code: totpAt(secret, Date.now()) },
    });
    expect(done.status).toBe(200);
    const enrolled = dataOf<Codes & { token: { access_token: string } }>(done);
    expect(enrolled.recovery_codes).toHaveLength(10);
    expect(
      (await s.call('GET', apiPaths.user(), { token: enrolled.token.access_token })).status,
    ).toBe(200);
    // Set up once: the set-up route is closed, the grant asks for the code.
    expect(
      (
        await s.call('POST', apiPaths.twoFactorEnrol(), {
          json: { ...credentials, password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(409);
    expect((await grant(DEMO_USERS.south)).json).toMatchObject({ error: 'otp_required' });
    const withCode = await grant(DEMO_USERS.south, { otp: enrolled.recovery_codes[0] });
    expect(withCode.status).toBe(200);
    southToken = (withCode.json as { access_token: string }).access_token;
    // The last factor cannot go while the rule stands.
    const off = await s.call('DELETE', apiPaths.twoFactorTotp(), {
      token: enrolled.token.access_token,
      json: { otp: enrolled.recovery_codes[1] },
    });
    expect(off.status).toBe(409);
    // The technician, no member of South, is not touched by South's rule.
    expect((await grant(DEMO_USERS.tech)).status).toBe(200);
  });

  it("resets a member's factors by an admin, logged; refuses it outside the admin's accounts", async () => {
    const adminToken = await s.signIn(DEMO_USERS.admin);
    const techToken = await s.signIn(DEMO_USERS.tech);
    await enableTotp(s, techToken, Date.now());
    expect((await grant(DEMO_USERS.tech)).json).toMatchObject({ error: 'otp_required' });
    const [techId, adminId] = await Promise.all([
      userId(DEMO_USERS.tech),
      userId(DEMO_USERS.admin),
    ]);
    const members = dataOf<{ id: string; totp: boolean }[]>(
      await s.call('GET', apiPaths.membersTwoFactor(), { token: adminToken }),
    );
    expect(members.find((m) => m.id === techId)).toMatchObject({ totp: true, passkeys: 0 });

    // A technician (no user::edit) may not reset anyone's.
    expect(
      (await s.call('DELETE', apiPaths.memberTwoFactor(adminId), { token: techToken })).status,
    ).toBe(403);

    const reset = await s.call('DELETE', apiPaths.memberTwoFactor(techId), { token: adminToken });
    expect(reset.status).toBe(200);
    expect(reset.json).toMatchObject({ message: TWO_FACTOR_TEXTS.resetDone });
    const logged = await s.db
      .selectFrom('two_factor_log')
      .selectAll()
      .where('action', '=', 'admin_reset')
      .execute();
    expect(logged).toEqual([
      expect.objectContaining({ user_id: techId, actor_id: adminId, account_id: ids.root }),
    ]);
    expect(
      await s.db.selectFrom('user_totp').where('user_id', '=', techId).selectAll().execute(),
    ).toEqual([]);
    expect((await grant(DEMO_USERS.tech)).status).toBe(200);
    // The admins read it: the reset and the member's own change before it, newest first.
    const historyOf = async (token: string) =>
      dataOf<TwoFactorLogEntry[]>(await s.call('GET', apiPaths.twoFactorLog(), { token }));
    const history = await historyOf(adminToken);
    expect(
      history.filter((e) => e.member.id === techId).map((e) => [e.action, e.actor.email]),
    ).toEqual([
      ['admin_reset', DEMO_USERS.admin],
      ['totp_on', DEMO_USERS.tech],
    ]);
    // Not the technician (no user::view).
    expect((await s.call('GET', apiPaths.twoFactorLog(), { token: techToken })).status).toBe(403);

    // South's admin manages South only: the technician, made an admin there too, also works in
    // the account above, which South's admin does not manage.
    const southAdminRole = await s.db
      .selectFrom('roles')
      .select('id')
      .where('account_id', '=', ids.south)
      .where('slug', '=', 'admin')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('memberships')
      .values({
        user_id: techId,
        account_id: ids.south,
        role_id: southAdminRole.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const outside = await s.call('DELETE', apiPaths.memberTwoFactor(techId), {
      token: southToken,
    });
    expect(outside.status).toBe(403);
    expect(outside.json).toMatchObject({ message: TWO_FACTOR_TEXTS.resetOutsideReach });
    // Root's admin may not either now: the technician works in South too, which it does not manage.
    expect(
      (await s.call('DELETE', apiPaths.memberTwoFactor(techId), { token: adminToken })).status,
    ).toBe(403);
    // South's admins read their members' own changes, not what was done in the account above.
    const south = await historyOf(southToken);
    expect(south.some((e) => e.member.id === techId && e.action === 'totp_on')).toBe(true);
    expect(south.some((e) => e.action === 'admin_reset')).toBe(false);
    // Now an admin of South, under South's rule: the technician is led to set a factor up.
    expect((await grant(DEMO_USERS.tech)).json).toMatchObject({
      error: 'second_factor_setup_required',
    });
  });
});

describe('passkeys', () => {
  let s: TestServer;
  const grant = (...args: Parameters<ReturnType<typeof grantOf>>) => grantOf(s)(...args);
  const rpId = 'plant.test';
  const origin = 'https://plant.test';
  beforeAll(async () => {
    s = await startTestServer({ env: { WEBAUTHN_RP_ID: rpId, WEBAUTHN_ORIGINS: origin } });
  });
  afterAll(() => s.close());

  const signInChallenge = async () =>
    dataOf<{ challenge: string; rpId: string }>(
      await s.call('POST', apiPaths.passkeySignInOptions()),
    );

  it('registers a passkey verified with node:crypto and takes it as the second factor, each challenge once', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const device = new FakeAuthenticator({ rpId, origin });
    const options = dataOf<{
      challenge: string;
      rp: { id: string };
      authenticatorSelection: { residentKey: string };
    }>(await s.call('POST', apiPaths.twoFactorPasskeyOptions(), { token }));
    expect(options.rp.id).toBe(rpId);
    expect(options.authenticatorSelection.residentKey).toBe('required');

    // Another site's page cannot register one.
    const foreign = await s.call('POST', apiPaths.twoFactorPasskeys(), {
      token,
      json: {
        name: 'Phishing',
        credential: device.register(options.challenge, { origin: 'https://evil.example' }),
      },
    });
    expect(foreign.status).toBe(422);
    const made = await s.call('POST', apiPaths.twoFactorPasskeys(), {
      token,
      json: { name: 'Laptop', credential: device.register(options.challenge) },
    });
    expect(made.status).toBe(201);
    const passkeyId = dataOf<{ id: string }>(made).id;
    // The registration challenge was taken.
    const again = await s.call('POST', apiPaths.twoFactorPasskeys(), {
      token,
      json: { name: 'Again', credential: device.register(options.challenge) },
    });
    expect(again.status).toBe(422);

    expect((await grant(DEMO_USERS.admin)).json).toMatchObject({ error: 'otp_required' });
    const challenge = await signInChallenge();
    expect(challenge.rpId).toBe(rpId);
    const assertion = device.assert(challenge.challenge);
    const signedIn = await grant(DEMO_USERS.admin, { webauthn: assertion });
    expect(signedIn.status).toBe(200);
    // The same assertion again: its challenge is used up.
    expect((await grant(DEMO_USERS.admin, { webauthn: assertion })).status).toBe(401);
    // A challenge nobody issued, and another user's passkey, prove nothing.
    const made2 = device.assert('x'.repeat(43));
    expect((await grant(DEMO_USERS.admin, { webauthn: made2 })).status).toBe(401);
    const status = dataOf<{
      passkeys: { id: string; name: string; last_used_at: number | null }[];
    }>(await s.call('GET', apiPaths.twoFactor(), { token }));
    expect(status.passkeys.map((k) => [k.id, k.name, typeof k.last_used_at])).toEqual([
      [passkeyId, 'Laptop', 'number'],
    ]);

    // Removed, it no longer signs in, and the user needs no second factor any more.
    expect((await s.call('DELETE', apiPaths.twoFactorPasskey(passkeyId), { token })).status).toBe(
      204,
    );
    expect((await grant(DEMO_USERS.admin)).status).toBe(200);
  });

  it('sets a passkey up before the sign-in where an account requires one, then signs in with it', async () => {
    const southToken = await s.signIn(DEMO_USERS.south);
    const { south } = await s.demoAccountIds();
    const rule = await s.call('PUT', apiPaths.accountTwoFactor(south), {
      token: southToken,
      json: { required: 'everyone' },
    });
    expect(rule.status).toBe(200);
    expect((await grant(DEMO_USERS.south)).json).toMatchObject({
      error: 'second_factor_setup_required',
    });
    const credentials = { client_id: s.clientId, username: DEMO_USERS.south };
    const enrol = (path: string, json: Record<string, unknown>, from?: string) =>
      s.call('POST', path, {
        json: { ...credentials, password: DEMO_PASSWORD, ...json },
        ...(from === undefined ? {} : { from }),
      });
    const passkeysOfSouth = () =>
      s.db
        .selectFrom('user_passkeys')
        .innerJoin('users', 'users.id', 'user_passkeys.user_id')
        .select(['user_passkeys.name', 'users.id as user_id'])
        .where('users.email', '=', DEMO_USERS.south)
        .execute();

    // A wrong password is refused in the grant's shape and counted as the grant counts it: ten
    // from one machine, and even the right password waits there.
    const guesser = '127.0.3.1';
    for (let i = 0; i < 10; i++) {
      const wrong = await enrol(
        apiPaths.twoFactorEnrolPasskeyOptions(),
        { password: 'guess' },
        guesser,
      );
      expect(wrong.status).toBe(401);
      expect(wrong.json).toMatchObject({ error: 'invalid_grant' });
    }
    const limited = await enrol(apiPaths.twoFactorEnrolPasskeyOptions(), {}, guesser);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: 'too_many_attempts' });

    const options = await enrol(apiPaths.twoFactorEnrolPasskeyOptions(), {});
    expect(options.status).toBe(200);
    const made = dataOf<{
      challenge: string;
      rp: { id: string };
      user: { id: string; name: string };
      excludeCredentials: unknown[];
    }>(options);
    expect(made.rp.id).toBe(rpId);
    expect(made.user.name).toBe(DEMO_USERS.south);
    expect(made.excludeCredentials).toEqual([]);
    const device = new FakeAuthenticator({ rpId, origin });
    // A valid attestation with a wrong password registers nothing (the challenge stays unused).
    const stolen = await enrol(apiPaths.twoFactorEnrolPasskey(), {
      password: 'guess',
      name: 'Phone',
      credential: device.register(made.challenge),
    });
    expect(stolen.status).toBe(401);
    expect(stolen.json).toMatchObject({ error: 'invalid_grant' });
    expect(await passkeysOfSouth()).toEqual([]);
    // Another site's page cannot register one.
    const foreign = await enrol(apiPaths.twoFactorEnrolPasskey(), {
      name: 'Phishing',
      credential: device.register(made.challenge, { origin: 'https://evil.example' }),
    });
    expect(foreign.status).toBe(422);

    const registered = await enrol(apiPaths.twoFactorEnrolPasskey(), {
      name: 'Phone',
      credential: device.register(made.challenge),
    });
    expect(registered.status).toBe(201);
    expect(dataOf(registered)).toMatchObject({ name: 'Phone', last_used_at: null });
    expect(registered.json).not.toHaveProperty('data.token');
    const [key] = await passkeysOfSouth();
    expect(key?.name).toBe('Phone');
    const log = await s.db
      .selectFrom('two_factor_log')
      .select(['action', 'actor_id', 'account_id'])
      .where('user_id', '=', key?.user_id ?? '')
      .execute();
    expect(log).toEqual([
      { action: 'rule_everyone', actor_id: key?.user_id, account_id: south },
      { action: 'passkey_added', actor_id: key?.user_id, account_id: null },
    ]);

    // The sign-in is finished with the new passkey; the password alone no longer does.
    expect((await grant(DEMO_USERS.south)).json).toMatchObject({ error: 'otp_required' });
    const signedIn = await grant(DEMO_USERS.south, {
      webauthn: device.assert((await signInChallenge()).challenge),
    });
    expect(signedIn.status).toBe(200);
    const token = (signedIn.json as { access_token: string }).access_token;
    // The rule is met: South's members list it, and the set-up is closed to whoever has the
    // password now (no second passkey, no app, through the signed-out calls).
    const members = dataOf<{ email: string; passkeys: number; required: boolean }[]>(
      await s.call('GET', apiPaths.membersTwoFactor(), { token }),
    );
    expect(members.find((m) => m.email === DEMO_USERS.south)).toMatchObject({
      passkeys: 1,
      required: true,
    });
    expect((await enrol(apiPaths.twoFactorEnrolPasskeyOptions(), {})).status).toBe(409);
    expect((await enrol(apiPaths.twoFactorEnrol(), {})).status).toBe(409);
  });

  it("refuses another user's passkey as a second factor", async () => {
    const techToken = await s.signIn(DEMO_USERS.tech);
    const internalToken = await s.signIn(DEMO_USERS.internal);
    const register = async (token: string) => {
      const device = new FakeAuthenticator({ rpId, origin });
      const { challenge } = dataOf<{ challenge: string }>(
        await s.call('POST', apiPaths.twoFactorPasskeyOptions(), { token }),
      );
      const made = await s.call('POST', apiPaths.twoFactorPasskeys(), {
        token,
        json: { name: 'Key', credential: device.register(challenge) },
      });
      expect(made.status).toBe(201);
      return device;
    };
    const techKey = await register(techToken);
    await register(internalToken);
    const theirs = techKey.assert((await signInChallenge()).challenge);
    const answer = await grant(DEMO_USERS.internal, { webauthn: theirs });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ error: 'invalid_otp' });
    // The technician's own still works with a fresh challenge.
    const own = techKey.assert((await signInChallenge()).challenge);
    expect((await grant(DEMO_USERS.tech, { webauthn: own })).status).toBe(200);
  });
});
