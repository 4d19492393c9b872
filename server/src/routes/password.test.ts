import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  appPaths,
  FORGOT_ACCEPTED_MESSAGE,
  RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  type ClientCreated,
  type OAuthClientView,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { roleId } from '../testing/access';
import { ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { decoded, startSmtp } from '../testing/smtp';

/** The reset token out of a mail. */
function tokenIn(raw: string): string {
  const text = decoded(raw);
  const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in mail:\n${raw}`);
  return match[1];
}

describe('forgot and reset password over real SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let s: TestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startTestServer({
      clock,
      env: { SMTP_URL: smtp.url, APP_URL: 'https://plant.example' },
    });
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  /** Asks for a reset link and waits until its mail (if any) has gone out. */
  const forgot = async (email: string) => {
    const res = await s.call('POST', apiPaths.passwordForgot(), { json: { email } });
    await s.idle();
    return res;
  };
  const reset = (token: string, password: string) =>
    s.call('POST', apiPaths.passwordReset(), { json: { token, password } });

  it('mails a reset link; the link sets a new password once; old sessions end', async () => {
    const oldSession = await s.signIn(DEMO_USERS.tech);
    const res = await forgot(DEMO_USERS.tech);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, message: FORGOT_ACCEPTED_MESSAGE });
    const mail = smtp.inbox.at(-1);
    expect(mail?.to).toEqual([DEMO_USERS.tech]);
    expect(decoded(mail?.raw ?? '')).toContain('https://plant.example/user/reset-password?token=');
    const token = tokenIn(mail?.raw ?? '');
    // The token is stored only as its hash.
    const stored = await s.db.selectFrom('password_resets').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);

    const done = await reset(token, 'new-secret-9');
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      message: 'Password-reset successful, log in with new credentials.',
    });
    expect(await s.signIn(DEMO_USERS.tech, 'new-secret-9')).toBeTypeOf('string');
    expect((await s.call('GET', apiPaths.user(), { token: oldSession })).status).toBe(401);

    const again = await reset(token, 'another-pw-1');
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({
      message: RESET_TOKEN_INVALID_MESSAGE,
      errors: { token: [RESET_TOKEN_INVALID_MESSAGE] },
    });
    expect(await s.signIn(DEMO_USERS.tech, 'new-secret-9')).toBeTypeOf('string');
  });

  it('a successful reset voids the other links the user was sent', async () => {
    await forgot(DEMO_USERS.admin);
    const first = tokenIn(smtp.inbox.at(-1)?.raw ?? '');
    await forgot(DEMO_USERS.admin);
    const second = tokenIn(smtp.inbox.at(-1)?.raw ?? '');
    expect(second).not.toBe(first);
    expect((await reset(second, 'second-link-1')).status).toBe(200);
    const old = await reset(first, 'first-link-1');
    expect(old.status).toBe(422);
    expect(await s.signIn(DEMO_USERS.admin, 'second-link-1')).toBeTypeOf('string');
  });

  it('the answer does not wait for the mail: unknown and known addresses answer alike', async () => {
    const known = await s.call('POST', apiPaths.passwordForgot(), {
      json: { email: DEMO_USERS.tech },
    });
    const unknown = await s.call('POST', apiPaths.passwordForgot(), {
      json: { email: 'x@example.com' },
    });
    expect(known.text).toBe(unknown.text);
    expect(known.status).toBe(unknown.status);
    await s.idle();
  });

  it('a link older than 60 minutes is refused', async () => {
    await forgot(DEMO_USERS.internal);
    const token = tokenIn(smtp.inbox.at(-1)?.raw ?? '');
    clock.advance(60 * 60 * 1000 + 1000);
    const res = await reset(token, 'too-late-pw1');
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ message: RESET_TOKEN_INVALID_MESSAGE });
    expect(await s.signIn(DEMO_USERS.internal)).toBeTypeOf('string');
  });

  it('an unknown address gets the same answer and no mail', async () => {
    const before = smtp.inbox.length;
    const res = await forgot('stranger@example.com');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: FORGOT_ACCEPTED_MESSAGE });
    expect(smtp.inbox.length).toBe(before);
  });

  it('a made-up token is refused and the new password is checked (8 to 16)', async () => {
    expect((await reset('made-up-token', 'valid-pass-1')).status).toBe(422);
    const weak = await reset('made-up-token', 'short');
    expect(weak.status).toBe(422);
    expect(weak.json).toMatchObject({
      errors: { password: ['The password must be between 8 and 16 characters'] },
    });
  });

  it('at most three mails per address per quarter hour; the answer stays the same', async () => {
    clock.advance(16 * 60 * 1000);
    const before = smtp.inbox.length;
    for (let i = 0; i < 5; i++) expect((await forgot(DEMO_USERS.south)).status).toBe(200);
    expect(smtp.inbox.length - before).toBe(3);
  });

  it("ends the secrets of the user's client-credentials clients, names them, and a new secret works", async () => {
    const user = DEMO_USERS.internal;
    const session = await s.signIn(user);
    const supervisor = await roleId(s.db, (await s.demoAccountIds()).root, 'supervisor');
    const makeClient = async (body: object) => {
      const made = await s.call('POST', apiPaths.oauthClients(), { token: session, json: body });
      expect(made.status).toBe(201);
      return made.json as ClientCreated;
    };
    // Acts as the user without it (client credentials); the other needs the user's consent.
    const acting = await makeClient({
      name: 'Nightly export',
      redirect: 'https://erp.example.com/cb',
      role_id: supervisor,
    });
    const consenting = await makeClient({
      name: 'Web app',
      redirect: 'https://app.example.com/cb',
    });
    const grant = (clientId: string, secret: string | null) =>
      s.call('POST', apiPaths.token(), {
        json: {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
          scope: 'assets:read',
        },
      });
    const minted = await grant(acting.id, acting.secret);
    expect(minted.status).toBe(200);
    const mintedToken = (minted.json as { access_token: string }).access_token;
    const personal = await s.call('POST', apiPaths.personalAccessTokens(), {
      token: session,
      json: { name: 'script', scopes: ['assets:read'] },
    });
    expect(personal.status).toBe(200);
    const personalToken = (personal.json as { accessToken: string }).accessToken;

    await forgot(user);
    const done = await reset(tokenIn(smtp.inbox.at(-1)?.raw ?? ''), 'after-reset-1');
    expect(done.status).toBe(200);
    expect(done.json).toEqual({
      success: true,
      message: RESET_SUCCESS_MESSAGE,
      revoked_clients: [{ id: acting.id, name: 'Nightly export' }],
    });
    // The old secret mints nothing more: the token endpoint's own error shape.
    const refused = await grant(acting.id, acting.secret);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({
      error: 'invalid_client',
      error_description: 'Client authentication failed',
    });
    // Like every token of the user: what the client minted, the personal token, the sign-in.
    for (const token of [mintedToken, personalToken, session]) {
      expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(401);
    }

    // The mail names the client and where to make its new secret.
    await s.idle();
    const mail = smtp.inbox.at(-1);
    expect(mail?.to).toEqual([user]);
    const text = decoded(mail?.raw ?? '');
    expect(text).toContain('- Nightly export');
    expect(text).not.toContain('Web app');
    const me = await s.signIn(user, 'after-reset-1');
    const userId = (
      (await s.call('GET', apiPaths.user(), { token: me })).json as { data: { id: string } }
    ).data.id;
    expect(text).toContain(`https://plant.example${appPaths.accessTokens(userId)}`);

    // The developer area shows it as needing a new secret; a new one mints again.
    const listed = async () =>
      (await s.call('GET', apiPaths.oauthClients(), { token: me })).json as OAuthClientView[];
    const needs = (list: OAuthClientView[], id: string) =>
      list.find((c) => c.id === id)?.needs_new_secret;
    expect(needs(await listed(), acting.id)).toBe(true);
    expect(needs(await listed(), consenting.id)).toBe(false);
    const renewed = await s.call('POST', apiPaths.oauthClientSecret(acting.id), { token: me });
    expect(renewed.status).toBe(200);
    const secret = (renewed.json as ClientCreated).secret;
    expect((await grant(acting.id, secret)).status).toBe(200);
    expect(needs(await listed(), acting.id)).toBe(false);
  });
});

describe('forgot password without SMTP_URL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('writes the mail as an .eml file under DATA_DIR/mail, and its link works', async () => {
    const res = await s.call('POST', apiPaths.passwordForgot(), {
      json: { email: DEMO_USERS.admin },
    });
    expect(res.status).toBe(200);
    await s.idle();
    const dir = path.join(s.dataDir, 'mail');
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = await fs.readFile(path.join(dir, files[0] ?? ''), 'utf8');
    expect(raw).toContain(`To: ${DEMO_USERS.admin}`);
    const done = await s.call('POST', apiPaths.passwordReset(), {
      json: { token: tokenIn(raw), password: 'file-mail-1' },
    });
    expect(done.status).toBe(200);
    expect(await s.signIn(DEMO_USERS.admin, 'file-mail-1')).toBeTypeOf('string');
  });
});
