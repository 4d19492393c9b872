import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';

const DAY = 24 * 60 * 60 * 1000;

describe('sign-in (POST oauth/token)', () => {
  let s: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    s = await startTestServer({ clock });
  });
  afterAll(() => s.close());

  const grant = (username: string, password: string, extra: Record<string, unknown> = {}) =>
    s.call('POST', apiPaths.token(), {
      json: {
        grant_type: 'password',
        client_id: s.clientId,
        username,
        password,
        scope: '',
        ...extra,
      },
    });

  it.each([DEMO_USERS.admin, DEMO_USERS.tech, DEMO_USERS.internal, DEMO_USERS.south])(
    '%s signs in and gets a bearer token that opens GET user',
    async (email) => {
      const res = await grant(email, 'demo-pass-1');
      expect(res.status).toBe(200);
      const body = res.json as { access_token: string; token_type: string; expires_in: number };
      expect(body.token_type).toBe('Bearer');
      expect(body.expires_in).toBe(30 * 24 * 60 * 60);
      expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const me = await s.call('GET', apiPaths.user(), { token: body.access_token });
      expect(me.status).toBe(200);
      expect(dataOf(me).email).toBe(email);
    },
  );

  it('accepts the form-encoded body OAuth clients send', async () => {
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: s.clientId,
      username: DEMO_USERS.tech,
      password: 'demo-pass-1',
    });
    const res = await s.call('POST', apiPaths.token(), {
      body: form.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
  });

  it('e-mail is matched without regard to case and spaces', async () => {
    expect((await grant('  ADMIN@Demo.Local ', 'demo-pass-1')).status).toBe(200);
  });

  it('wrong password: 401 invalid_grant with a description, and no token stored', async () => {
    const before = (await s.rowCounts()).access_tokens;
    const res = await grant(DEMO_USERS.admin, 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Email or password is incorrect!',
    });
    expect((await s.rowCounts()).access_tokens).toBe(before);
  });

  it('unknown user answers exactly like a wrong password', async () => {
    const res = await grant('nobody@demo.local', 'demo-pass-1');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Email or password is incorrect!',
    });
  });

  it('a user whose only role is norole is refused with 403 and no token is issued', async () => {
    const before = (await s.rowCounts()).access_tokens;
    const res = await grant(DEMO_USERS.norole, 'demo-pass-1');
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: 'access_denied' });
    expect((res.json as { error_description: string }).error_description).toMatch(/no role/);
    expect((res.json as Record<string, unknown>).access_token).toBeUndefined();
    expect((await s.rowCounts()).access_tokens).toBe(before);
  });

  it('an unknown client is refused with invalid_client', async () => {
    const res = await grant(DEMO_USERS.admin, 'demo-pass-1', { client_id: 'not-a-client' });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: 'invalid_client' });
  });

  it('a grant type the server does not know is refused with unsupported_grant_type', async () => {
    const res = await grant(DEMO_USERS.admin, 'demo-pass-1', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('tokens stop working after their lifetime (30 days by default)', async () => {
    const token = await s.signIn(DEMO_USERS.tech);
    clock.advance(29 * DAY);
    expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(200);
    clock.advance(1 * DAY + 1000);
    const res = await s.call('GET', apiPaths.user(), { token });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ success: false, message: 'Unauthenticated.' });
  });

  it('tokens are stored only as their SHA-256', async () => {
    const token = await s.signIn(DEMO_USERS.tech);
    const { createHash } = await import('node:crypto');
    const rows = await s.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(
      rows.some((r) => r.token_hash === createHash('sha256').update(token).digest('hex')),
    ).toBe(true);
  });

  it('logout revokes the token; other sessions stay signed in', async () => {
    const a = await s.signIn(DEMO_USERS.admin);
    const b = await s.signIn(DEMO_USERS.admin);
    const out = await s.call('POST', apiPaths.logout(), { token: a });
    expect(out.status).toBe(200);
    expect((await s.call('GET', apiPaths.user(), { token: a })).status).toBe(401);
    expect((await s.call('GET', apiPaths.user(), { token: b })).status).toBe(200);
    expect((await s.call('POST', apiPaths.logout(), { token: a })).status).toBe(401);
  });

  it('requests without a token, or with a forged one, are refused', async () => {
    expect((await s.call('GET', apiPaths.user())).status).toBe(401);
    expect((await s.call('GET', apiPaths.user(), { token: 'A'.repeat(43) })).status).toBe(401);
    const res = await s.call('GET', apiPaths.user(), { headers: { Authorization: 'Basic abc' } });
    expect(res.status).toBe(401);
  });

  // At the platform's cost: this describe's servers take a test clock, so they seed their own
  // demo users (a server on the harness's seeded copy has cheaper demo hashes: harness.ts).
  it('passwords are stored as scrypt hashes', async () => {
    const row = await s.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', DEMO_USERS.admin)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(row.password_hash).not.toContain('demo-pass-1');
  });
});

describe('sign-in rate limits', () => {
  let s: TestServer;
  const clock = new ManualClock();
  beforeAll(async () => {
    s = await startTestServer({
      clock,
      authLimits: {
        perEmailAndAddress: { limit: 3, windowMs: 60_000 },
        perEmail: { limit: 8, windowMs: 5 * 60_000 },
        perAddress: { limit: 6, windowMs: 60_000 },
        registerPerAddress: { limit: 2, windowMs: 60 * 60_000 },
      },
    });
  });
  afterAll(() => s.close());

  const grant = (username: string, password: string, from?: string) =>
    s.call('POST', apiPaths.token(), {
      json: { grant_type: 'password', client_id: s.clientId, username, password },
      ...(from === undefined ? {} : { from }),
    });
  const nextWindow = () => clock.advance(5 * 60_000 + 1000);

  it('after the limit of failures, 429 with Retry-After even with the right password; over after the window', async () => {
    for (let i = 0; i < 3; i++)
      expect((await grant(DEMO_USERS.tech, 'wrong-one')).status).toBe(401);
    const blocked = await grant(DEMO_USERS.tech, 'demo-pass-1');
    expect(blocked.status).toBe(429);
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(blocked.json).toMatchObject({ error: 'too_many_attempts' });
    // Another user from the same address is not locked out by tech's failures.
    expect((await grant(DEMO_USERS.admin, 'demo-pass-1')).status).toBe(200);
    // The real tech, at another machine, is not locked out by a stranger's guessing.
    expect((await grant(DEMO_USERS.tech, 'demo-pass-1', '127.0.0.2')).status).toBe(200);
    // And the lock-out ends with its window: at most a minute.
    clock.advance(61_000);
    expect((await grant(DEMO_USERS.tech, 'demo-pass-1')).status).toBe(200);
  });

  it('a parallel burst gets no more tries than the limit', async () => {
    nextWindow();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => grant(DEMO_USERS.internal, 'wrong-guess')),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 401)).toHaveLength(3);
    expect(statuses.filter((st) => st === 429)).toHaveLength(9);
  });

  it('successful sign-ins do not count', async () => {
    nextWindow();
    for (let i = 0; i < 8; i++)
      expect((await grant(DEMO_USERS.admin, 'demo-pass-1')).status).toBe(200);
  });

  it('per address: failures across many e-mails are limited too', async () => {
    nextWindow();
    const emails = ['a1@x.io', 'a2@x.io', 'a3@x.io', 'a4@x.io', 'a5@x.io', 'a6@x.io'];
    for (const email of emails) expect((await grant(email, 'whatever')).status).toBe(401);
    const res = await grant('a7@x.io', 'whatever');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    // Other machines are not affected.
    expect((await grant(DEMO_USERS.admin, 'demo-pass-1', '127.0.0.3')).status).toBe(200);
  });

  it('per e-mail from anywhere: guessing spread over machines meets a backstop that ends', async () => {
    nextWindow();
    const machines = ['127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    for (const from of machines) {
      for (let i = 0; i < 2; i++)
        expect((await grant(DEMO_USERS.south, 'guess', from)).status).toBe(401);
    }
    const res = await grant(DEMO_USERS.south, 'demo-pass-1', '127.0.0.8');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(5 * 60);
    nextWindow();
    expect((await grant(DEMO_USERS.south, 'demo-pass-1', '127.0.0.8')).status).toBe(200);
  });

  it('registrations per address are limited', async () => {
    const reg = (n: number) =>
      s.call('POST', apiPaths.register(), {
        json: {
          firstname: 'Reggie',
          lastname: 'Ster',
          email: `reg${n}@x.io`,
          password: 'password-1',
        },
      });
    expect((await reg(1)).status).toBe(201);
    expect((await reg(2)).status).toBe(201);
    const third = await reg(3);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).not.toBeNull();
  });
});

describe('registration (POST register)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('creates the user with an account of its own and signs it in', async () => {
    const res = await s.call('POST', apiPaths.register(), {
      json: {
        firstname: 'Grace',
        lastname: 'Hopper',
        email: 'Grace@Example.com',
        password: 'cobol-1959',
      },
    });
    expect(res.status).toBe(201);
    const data = dataOf<{
      access_token: string;
      user: { email: string; activeRoles: { slug: string }[]; activeAccount: { name: string } };
    }>(res);
    expect(data.user.email).toBe('grace@example.com');
    expect(data.user.activeRoles.map((r) => r.slug)).toEqual(['admin']);
    expect(data.user.activeAccount.name).toBe('Grace Hopper');
    const me = await s.call('GET', apiPaths.user(), { token: data.access_token });
    expect(dataOf(me).email).toBe('grace@example.com');
    // The new password signs in too.
    expect(await s.signIn('grace@example.com', 'cobol-1959')).toBeTypeOf('string');
  });

  it('SQL and HTML in names are stored and answered verbatim, as text', async () => {
    const firstname = "Robert'); DROP TABLE users; --";
    const lastname = '<script>alert(1)</script>';
    const res = await s.call('POST', apiPaths.register(), {
      json: { firstname, lastname, email: 'bobby@example.com', password: 'tables-1' },
    });
    expect(res.status).toBe(201);
    const user = dataOf<{
      user: { firstname: string; lastname: string; activeAccount: { name: string } };
    }>(res).user;
    expect(user.firstname).toBe(firstname);
    expect(user.lastname).toBe(lastname);
    expect(user.activeAccount.name).toBe(`${firstname} ${lastname}`);
    expect(res.headers.get('content-type')).toContain('application/json');
    const row = await s.db
      .selectFrom('users')
      .select(['firstname', 'lastname'])
      .where('email', '=', 'bobby@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ firstname, lastname });
    expect((await s.rowCounts()).users).toBeGreaterThan(5);
  });

  it('an address that is taken is refused with 422 on the email field, nothing written', async () => {
    const before = await s.rowCounts();
    const res = await s.call('POST', apiPaths.register(), {
      json: {
        firstname: 'Other',
        lastname: 'Admin',
        email: DEMO_USERS.admin,
        password: 'password-1',
      },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      errors: { email: ['This email address is already registered.'] },
    });
    expect(await s.rowCounts()).toEqual(before);
  });

  it('two registrations of one address at once: one wins, the other gets 422', async () => {
    const body = {
      firstname: 'Twin',
      lastname: 'Racer',
      email: 'twin@example.com',
      password: 'password-1',
    };
    const [a, b] = await Promise.all([
      s.call('POST', apiPaths.register(), { json: body }),
      s.call('POST', apiPaths.register(), { json: body }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const users = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'twin@example.com')
      .execute();
    expect(users).toHaveLength(1);
  });
});
