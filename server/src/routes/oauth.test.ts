import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, SCOPE_IDS, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS, TECHNICIAN_MACHINES } from '../seed/demo';
import { roleId } from '../testing/access';
import { startTestServer, type Answer, type TestServer } from '../testing/harness';

/*
 * The developer area (issue 18) as its clients meet it: a script written against Laravel
 * Passport's documented JSON API, third-party applications through the authorization-code grant,
 * and what a scoped token may and may not do.
 */
let s: TestServer;
let admin = '';
let accounts: Awaited<ReturnType<TestServer['demoAccountIds']>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  accounts = await s.demoAccountIds();
});
afterAll(() => s.close());

const json = <T>(answer: Answer) => answer.json as T;
const assetsIn = (models: readonly SyncedModel[]) => models.filter((m) => m.type === 'asset');

/**
 * A client script as one writes it from Passport's documentation ("Managing Personal Access
 * Tokens": GET/POST /oauth/personal-access-tokens, DELETE /oauth/personal-access-tokens/{id},
 * GET /oauth/scopes), with only fetch and the user's bearer token.
 */
function passportScript(base: string, bearer: string) {
  const headers = {
    Authorization: `Bearer ${bearer}`,
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    scopes: () => send('GET', '/oauth/scopes'),
    tokens: () => send('GET', '/oauth/personal-access-tokens'),
    create: (name: string, scopes: string[]) =>
      send('POST', '/oauth/personal-access-tokens', { name, scopes }),
    revoke: (id: string) => send('DELETE', `/oauth/personal-access-tokens/${id}`),
  };
}

/** Passport's Token model as its JSON API serialises it, field by field. */
function expectPassportToken(token: unknown, name: string, scopes: string[]) {
  const t = token as Record<string, unknown>;
  expect(typeof t.id).toBe('string');
  expect(typeof t.user_id).toBe('string');
  expect(typeof t.client_id).toBe('string');
  expect(t.name).toBe(name);
  expect(t.scopes).toEqual(scopes);
  expect(t.revoked).toBe(false);
  for (const field of ['created_at', 'updated_at', 'expires_at']) {
    expect(Number.isNaN(Date.parse(t[field] as string))).toBe(false);
  }
}

describe('a Passport client script', () => {
  it('creates a personal access token, lists it, uses it, revokes it', async () => {
    const script = passportScript(`${s.url}/api/v1`, admin);

    const scopes = await script.scopes();
    expect(scopes.status).toBe(200);
    const list = scopes.body as { id: unknown; description: unknown }[];
    expect(list.map((x) => x.id)).toEqual(SCOPE_IDS);
    expect(list.every((x) => typeof x.description === 'string' && x.description !== '')).toBe(true);

    const created = await script.create('ERP export', ['assets:read', 'datastreams:read']);
    expect(created.status).toBe(200);
    const { accessToken, token } = created.body as { accessToken: string; token: unknown };
    expect(Object.keys(created.body as object).sort()).toEqual(['accessToken', 'token']);
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expectPassportToken(token, 'ERP export', ['assets:read', 'datastreams:read']);
    const id = (token as { id: string }).id;
    // A year, when the script gave no expiry.
    const expiresIn = Date.parse((token as { expires_at: string }).expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(364 * 86_400_000);
    expect(expiresIn).toBeLessThanOrEqual(365 * 86_400_000);

    const listed = await script.tokens();
    expect(listed.status).toBe(200);
    const rows = listed.body as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expectPassportToken(rows[0], 'ERP export', ['assets:read', 'datastreams:read']);
    expect(rows[0]?.id).toBe(id);
    expect(rows[0]?.client).toMatchObject({ personal_access_client: true, revoked: false });
    // The token is stored hashed: its text is nowhere in the database.
    const stored = await s.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === accessToken)).toBe(false);

    // It works, as the user, in the active account.
    const me = await s.call('GET', apiPaths.user(), { token: accessToken });
    expect(me.status).toBe(200);
    expect(json<{ data: { email: string } }>(me).data.email).toBe(DEMO_USERS.admin);

    const revoked = await script.revoke(id);
    expect(revoked).toEqual({ status: 204, body: undefined });
    expect((await script.tokens()).body).toEqual([]);
    expect((await s.call('GET', apiPaths.user(), { token: accessToken })).status).toBe(401);
    expect((await script.revoke(id)).status).toBe(404);
  });

  it('manages OAuth clients: the secret shown once and stored hashed, edit, delete', async () => {
    const res = await s.call('POST', apiPaths.oauthClients(), {
      token: admin,
      json: { name: 'MES', redirect: 'https://mes.example.com/callback' },
    });
    expect(res.status).toBe(201);
    const client = json<Record<string, unknown>>(res);
    expect(client).toMatchObject({
      name: 'MES',
      redirect: 'https://mes.example.com/callback',
      personal_access_client: false,
      password_client: false,
      revoked: false,
      confidential: true,
    });
    expect(typeof client.secret).toBe('string');
    expect(client.plainSecret).toBe(client.secret);
    const row = await s.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('id', '=', client.id as string)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toBe(client.secret);

    const listed = json<Record<string, unknown>[]>(
      await s.call('GET', apiPaths.oauthClients(), { token: admin }),
    );
    expect(listed.map((c) => c.id)).toEqual([client.id]);
    expect(listed[0]).not.toHaveProperty('secret');

    const updated = await s.call('PUT', apiPaths.oauthClient(client.id as string), {
      token: admin,
      json: { name: 'MES 2', redirect: 'https://mes.example.com/cb' },
    });
    expect(updated.status).toBe(200);
    expect(json(updated)).toMatchObject({ name: 'MES 2', redirect: 'https://mes.example.com/cb' });

    const pub = await s.call('POST', apiPaths.oauthClients(), {
      token: admin,
      json: { name: 'Phone app', redirect: 'http://127.0.0.1:9/cb', confidential: false },
    });
    expect(pub.status).toBe(201);
    expect(json(pub)).toMatchObject({ confidential: false, secret: null, plainSecret: null });

    for (const id of [client.id as string, json<{ id: string }>(pub).id]) {
      const gone = await s.call('DELETE', apiPaths.oauthClient(id), { token: admin });
      expect(gone.status).toBe(204);
      expect(gone.text).toBe('');
    }
    expect(json(await s.call('GET', apiPaths.oauthClients(), { token: admin }))).toEqual([]);
  });

  it('answers bad input with 422 { message, errors }', async () => {
    const res = await s.call('POST', apiPaths.personalAccessTokens(), {
      token: admin,
      json: { scopes: ['assets:read'] },
    });
    expect(res.status).toBe(422);
    expect(json(res)).toMatchObject({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
  });
});

/** A personal access token of the user behind `bearer`, with these scopes (and role). */
async function personalToken(bearer: string, scopes: string[], role_id?: string) {
  const res = await s.call('POST', apiPaths.personalAccessTokens(), {
    token: bearer,
    json: {
      name: `token ${scopes.join(' ')}`,
      scopes,
      ...(role_id === undefined ? {} : { role_id }),
    },
  });
  expect(res.status).toBe(200);
  return json<{ accessToken: string; token: { id: string } }>(res).accessToken;
}

describe('what a scoped token may do: scopes ∩ role ∩ membership', () => {
  it('a read-only token reads but cannot write, and sees only the areas of its scopes', async () => {
    const reader = await personalToken(admin, ['assets:read']);
    const models = await s.snapshot(reader);
    expect(assetsIn(models).length).toBeGreaterThan(0);
    // No gateway, data stream or alarm scope: none of those arrive.
    expect(models.some((m) => ['gateway', 'datastream', 'alarm'].includes(m.type))).toBe(false);

    const before = await s.contentHashes();
    const create = await s.call('POST', apiPaths.collection('assets'), {
      token: reader,
      json: { name: 'Made by a read-only token' },
    });
    expect(create.status).toBe(403);
    const asset = assetsIn(models)[0];
    if (asset === undefined) throw new Error('no asset');
    const edit = await s.call('PUT', apiPaths.model('assets', asset.id), {
      token: reader,
      json: { name: 'Renamed by a read-only token' },
    });
    expect(edit.status).toBe(403);
    // An inspection needs only sight of the asset in the app, but it is a write: not with a
    // read scope.
    const inspect = await s.call('POST', apiPaths.collection('inspections'), {
      token: reader,
      json: { asset_id: asset.id, at: Date.now() },
    });
    expect(inspect.status, inspect.text).toBe(403);
    // A route of another area (machine values) and a first-party route (making tokens).
    expect((await s.call('GET', apiPaths.latestValues(asset.id), { token: reader })).status).toBe(
      403,
    );
    expect(
      (
        await s.call('POST', apiPaths.personalAccessTokens(), {
          token: reader,
          json: { name: 'a token made by a token', scopes: [] },
        })
      ).status,
    ).toBe(403);
    expect(await s.contentHashes()).toEqual(before);

    const writer = await personalToken(admin, ['assets:write']);
    const made = await s.call('POST', apiPaths.collection('assets'), {
      token: writer,
      json: { name: 'Made by a write token' },
    });
    expect(made.status).toBe(201);
    const inspected = await s.call('POST', apiPaths.collection('inspections'), {
      token: writer,
      json: { asset_id: asset.id, at: Date.now() },
    });
    expect(inspected.status, inspected.text).toBe(201);
  });

  it("a token cannot make accounts, nor read another account's design", async () => {
    const writer = await personalToken(admin, ['account:write']);
    const before = await s.contentHashes();
    const made = await s.call('POST', apiPaths.collection('accounts'), {
      token: writer,
      json: { name: 'Made by a token', parent_id: accounts.root },
    });
    expect(made.status).toBe(403);
    expect(await s.contentHashes()).toEqual(before);
    // The token acts in the root account: North's design (the admin's other account) is not its.
    expect((await s.call('GET', apiPaths.style(accounts.north), { token: writer })).status).toBe(
      404,
    );
    expect((await s.call('GET', apiPaths.style(accounts.root), { token: writer })).status).toBe(
      200,
    );
    expect((await s.call('GET', apiPaths.style(accounts.north), { token: admin })).status).toBe(
      200,
    );
  });

  it("a token acts with its role: another account's role, or a role that sees four machines", async () => {
    const northAdmin = await roleId(s.db, accounts.north, 'admin');
    const northToken = await personalToken(admin, ['assets:read'], northAdmin);
    const north = assetsIn(await s.snapshot(northToken));
    const rootOnes = assetsIn(await s.snapshot(admin));
    expect(north.length).toBeGreaterThan(0);
    expect(north.every((a) => !rootOnes.some((r) => r.id === a.id))).toBe(true);
    const me = json<{ data: { account: string } }>(
      await s.call('GET', apiPaths.user(), { token: northToken }),
    );
    expect(me.data.account).toBe(accounts.north);

    const tech = await s.signIn(DEMO_USERS.tech);
    const techToken = await personalToken(tech, ['assets:read', 'datastreams:read']);
    expect(assetsIn(await s.snapshot(techToken))).toHaveLength(TECHNICIAN_MACHINES);
    // Scopes never widen: the technician may not create assets, write scope or not.
    const techWriter = await personalToken(tech, ['assets:write']);
    const made = await s.call('POST', apiPaths.collection('assets'), {
      token: techWriter,
      json: { name: 'Technician via token' },
    });
    expect(made.status).toBe(403);

    // A role that sees two machines, given to the technician besides its own: a token made with
    // that role reads those two and nothing else.
    const role = json<{ data: { id: string } }>(
      await s.call('POST', apiPaths.roles(), { token: admin, json: { name: 'Two machines' } }),
    ).data.id;
    await s.call('PUT', apiPaths.rolePermissions(role), {
      token: admin,
      json: { permissions: ['asset::view'] },
    });
    const two = rootOnes.slice(0, 2).map((a) => a.id);
    for (const id of two) {
      const given = await s.call('PUT', apiPaths.roleAsset(role, id), {
        token: admin,
        json: { edit: false },
      });
      expect(given.status).toBe(200);
    }
    const techId = json<{ data: { id: string } }>(
      await s.call('GET', apiPaths.user(), { token: tech }),
    ).data.id;
    expect((await s.call('PUT', apiPaths.memberRole(techId, role), { token: admin })).status).toBe(
      200,
    );
    const twoToken = await personalToken(tech, ['assets:read'], role);
    expect(
      assetsIn(await s.snapshot(twoToken))
        .map((a) => a.id)
        .sort(),
    ).toEqual([...two].sort());

    // An internal user's token acts with its role only, never as internal.
    const internal = await s.signIn(DEMO_USERS.internal);
    const internalToken = await personalToken(internal, ['gateways:write']);
    const terminal = await s.call('GET', apiPaths.user(), { token: internalToken });
    expect(json<{ data: { tags: unknown[] } }>(terminal).data).toBeDefined();
    expect(
      (
        await s.call('POST', apiPaths.collection('gateways'), {
          token: internalToken,
          json: { name: 'Gateway by an internal token' },
        })
      ).status,
    ).toBe(403);
  });
});

/** An RFC 7636 verifier and its S256 challenge. */
function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

describe('third-party applications', () => {
  const redirect = 'http://127.0.0.1:9/callback';
  let clientId = '';

  beforeAll(async () => {
    const res = await s.call('POST', apiPaths.oauthClients(), {
      token: admin,
      json: { name: 'Loopback app', redirect, confidential: false },
    });
    clientId = json<{ id: string }>(res).id;
  });

  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirect,
      scope: 'assets:read alarms:read',
      state: 'xyz',
      ...extra,
    });

  /** The consent screen's two calls: what it shows, then Authorize (the code) or Cancel. */
  async function authorize(challenge: string, approve = true) {
    const q = query({ code_challenge: challenge, code_challenge_method: 'S256' });
    const preview = await s.call('GET', apiPaths.oauthAuthorize(q.toString()), { token: admin });
    expect(preview.status).toBe(200);
    expect(json(preview)).toMatchObject({
      client: { id: clientId, name: 'Loopback app' },
      scopes: [{ id: 'assets:read' }, { id: 'alarms:read' }],
      redirect_uri: redirect,
    });
    const answer = await s.call('POST', apiPaths.oauthAuthorize(), {
      token: admin,
      json: { ...Object.fromEntries(q), approve },
    });
    expect(answer.status).toBe(200);
    return new URL(json<{ redirect: string }>(answer).redirect);
  }

  const exchange = (fields: Record<string, string>) =>
    s.call('POST', apiPaths.token(), {
      body: new URLSearchParams({ client_id: clientId, ...fields }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

  /** The application's tokens: consent, then the code exchanged with its verifier. */
  async function grantedTokens() {
    const { verifier, challenge } = pkce();
    const code = (await authorize(challenge)).searchParams.get('code') ?? '';
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(answer.status).toBe(200);
    return json<{ access_token: string; refresh_token: string }>(answer);
  }

  it('authorization code with PKCE, rotating refresh tokens, reuse detection', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(challenge);
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('xyz');
    const code = back.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    const wrong = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: pkce().verifier,
    });
    expect(wrong.status).toBe(400);
    expect(json(wrong)).toMatchObject({ error: 'invalid_grant' });

    const first = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(first.status).toBe(200);
    const tokens = json<{ access_token: string; refresh_token: string; token_type: string }>(first);
    expect(tokens.token_type).toBe('Bearer');
    expect((await s.call('GET', apiPaths.user(), { token: tokens.access_token })).status).toBe(200);
    // Scopes as granted: assets read, but no writes.
    expect(
      (
        await s.call('POST', apiPaths.collection('assets'), {
          token: tokens.access_token,
          json: { name: 'App-made' },
        })
      ).status,
    ).toBe(403);

    // Rotation: a new pair; the old access token is gone.
    const refreshed = await exchange({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const second = json<{ access_token: string; refresh_token: string }>(refreshed);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect((await s.call('GET', apiPaths.user(), { token: tokens.access_token })).status).toBe(401);
    expect((await s.call('GET', apiPaths.user(), { token: second.access_token })).status).toBe(200);

    // The old refresh token again: it leaked; the whole family is revoked.
    const reused = await exchange({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(reused.status).toBe(400);
    expect(json(reused)).toMatchObject({ error: 'invalid_grant' });
    expect((await s.call('GET', apiPaths.user(), { token: second.access_token })).status).toBe(401);
    const after = await exchange({
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token,
    });
    expect(json(after)).toMatchObject({ error: 'invalid_grant' });

    // The code again: refused, single use.
    const again = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(json(again)).toMatchObject({ error: 'invalid_grant' });
  });

  it('a code used twice revokes what it gave; Cancel answers access_denied', async () => {
    const { verifier, challenge } = pkce();
    const code = (await authorize(challenge)).searchParams.get('code') ?? '';
    const grant = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    };
    const first = json<{ access_token: string }>(await exchange(grant));
    expect((await exchange(grant)).status).toBe(400);
    expect((await s.call('GET', apiPaths.user(), { token: first.access_token })).status).toBe(401);

    const denied = await authorize(pkce().challenge, false);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('xyz');
    expect(denied.searchParams.has('code')).toBe(false);
  });

  it('the Authorized Applications list, and revoking from it', async () => {
    const granted = await grantedTokens();
    const apps = json<{ id: string; client: { name: string }; scopes: string[] }[]>(
      await s.call('GET', apiPaths.oauthTokens(), { token: admin }),
    );
    const mine = apps.find((a) => a.client.name === 'Loopback app');
    expect(mine?.scopes).toEqual(['assets:read', 'alarms:read']);
    const revoked = await s.call('DELETE', apiPaths.oauthToken(mine?.id ?? ''), { token: admin });
    expect(revoked.status).toBe(204);
    expect((await s.call('GET', apiPaths.user(), { token: granted.access_token })).status).toBe(
      401,
    );
    const refresh = await exchange({
      grant_type: 'refresh_token',
      refresh_token: granted.refresh_token,
    });
    expect(json(refresh)).toMatchObject({ error: 'invalid_grant' });
    const left = json<{ id: string }[]>(
      await s.call('GET', apiPaths.oauthTokens(), { token: admin }),
    );
    expect(left.some((a) => a.id === mine?.id)).toBe(false);
  });

  it('refuses requests the RFCs forbid, before anything is redirected or stored', async () => {
    const before = await s.contentHashes();
    const preview = (q: URLSearchParams) =>
      s.call('GET', apiPaths.oauthAuthorize(q.toString()), { token: admin });
    const { challenge } = pkce();
    const cases: [URLSearchParams, number, string][] = [
      // A public client without PKCE, or with the plain method.
      [query(), 400, 'invalid_request'],
      [
        query({ code_challenge: challenge, code_challenge_method: 'plain' }),
        400,
        'invalid_request',
      ],
      // Not the registered redirect (exact match: no extra path, no other port).
      [
        query({
          code_challenge: challenge,
          code_challenge_method: 'S256',
          redirect_uri: `${redirect}/x`,
        }),
        400,
        'invalid_request',
      ],
      [
        query({
          code_challenge: challenge,
          code_challenge_method: 'S256',
          redirect_uri: 'http://127.0.0.2:9/callback',
        }),
        400,
        'invalid_request',
      ],
      [
        query({ code_challenge: challenge, code_challenge_method: 'S256', response_type: 'token' }),
        400,
        'unsupported_response_type',
      ],
      [
        query({ code_challenge: challenge, code_challenge_method: 'S256', scope: 'everything' }),
        400,
        'invalid_scope',
      ],
      [
        query({ code_challenge: challenge, code_challenge_method: 'S256', client_id: 'nope' }),
        401,
        'invalid_client',
      ],
    ];
    for (const [q, status, error] of cases) {
      const res = await preview(q);
      expect({ q: q.toString(), status: res.status }).toEqual({ q: q.toString(), status });
      expect(json(res)).toMatchObject({ error });
      const post = await s.call('POST', apiPaths.oauthAuthorize(), {
        token: admin,
        json: { ...Object.fromEntries(q), approve: true },
      });
      expect(post.status).toBe(status);
    }
    // The web app's own client is no third party: no consent screen, no code.
    const own = await preview(
      query({ client_id: s.clientId, code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(json(own)).toMatchObject({ error: 'invalid_client' });
    // And a third party cannot use the password grant (RFC 9700 §2.4).
    const password = await s.call('POST', apiPaths.token(), {
      json: {
        grant_type: 'password',
        client_id: clientId,
        username: DEMO_USERS.admin,
        password: 'demo-pass-1',
      },
    });
    expect(json(password)).toMatchObject({ error: 'invalid_client' });
    expect(await s.contentHashes()).toEqual(before);
  });

  it('a loopback redirect may name any port (RFC 8252 §7.3); the exchange names it again', async () => {
    const { verifier, challenge } = pkce();
    const other = 'http://127.0.0.1:51234/callback';
    const q = query({
      code_challenge: challenge,
      code_challenge_method: 'S256',
      redirect_uri: other,
    });
    const answer = await s.call('POST', apiPaths.oauthAuthorize(), {
      token: admin,
      json: { ...Object.fromEntries(q), approve: true },
    });
    const back = new URL(json<{ redirect: string }>(answer).redirect);
    expect(`${back.origin}${back.pathname}`).toBe(other);
    const code = back.searchParams.get('code') ?? '';
    // The request named its redirect: the exchange must name the same one.
    const unnamed = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
    });
    expect(json(unnamed)).toMatchObject({ error: 'invalid_grant' });
    const named = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: other,
      code_verifier: verifier,
    });
    expect(named.status).toBe(200);
  });

  it('two refreshes with one refresh token at once: one wins, and the family ends', async () => {
    const granted = await grantedTokens();
    const both = await Promise.all(
      [0, 1].map(() =>
        exchange({ grant_type: 'refresh_token', refresh_token: granted.refresh_token }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = json<{ access_token: string; refresh_token: string }>(
      both.find((r) => r.status === 200) ?? both[0]!,
    );
    expect((await s.call('GET', apiPaths.user(), { token: winner.access_token })).status).toBe(401);
    const next = await exchange({
      grant_type: 'refresh_token',
      refresh_token: winner.refresh_token,
    });
    expect(json(next)).toMatchObject({ error: 'invalid_grant' });
  });

  it("signing the application's token out ends its refresh; a deleted client's tokens die", async () => {
    const granted = await grantedTokens();
    expect((await s.call('POST', apiPaths.logout(), { token: granted.access_token })).status).toBe(
      200,
    );
    const refresh = await exchange({
      grant_type: 'refresh_token',
      refresh_token: granted.refresh_token,
    });
    expect(json(refresh)).toMatchObject({ error: 'invalid_grant' });

    const made = json<{ id: string; secret: string }>(
      await s.call('POST', apiPaths.oauthClients(), {
        token: admin,
        json: { name: 'Short-lived', redirect: 'https://short.example.com/cb' },
      }),
    );
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: made.id,
      scope: 'assets:read',
    });
    const answer = await s.call('POST', apiPaths.oauthAuthorize(), {
      token: admin,
      json: { ...Object.fromEntries(q), approve: true },
    });
    const confidentialCode =
      new URL(json<{ redirect: string }>(answer).redirect).searchParams.get('code') ?? '';
    const basic = `Basic ${Buffer.from(`${made.id}:${made.secret}`).toString('base64')}`;
    // No challenge was sent: a verifier now would be a PKCE downgrade.
    const downgrade = await s.call('POST', apiPaths.token(), {
      headers: { Authorization: basic },
      json: {
        grant_type: 'authorization_code',
        code: confidentialCode,
        code_verifier: pkce().verifier,
      },
    });
    expect(json(downgrade)).toMatchObject({ error: 'invalid_grant' });
    // The secret both in HTTP Basic and in the body: refused.
    const twice = await s.call('POST', apiPaths.token(), {
      headers: { Authorization: basic },
      json: {
        grant_type: 'authorization_code',
        code: confidentialCode,
        client_secret: made.secret,
      },
    });
    expect(json(twice)).toMatchObject({ error: 'invalid_request' });
    // HTTP Basic (RFC 6749 §2.3.1), as Passport's clients may send it.
    const viaBasic = await s.call('POST', apiPaths.token(), {
      headers: { Authorization: basic },
      json: { grant_type: 'authorization_code', code: confidentialCode },
    });
    expect(viaBasic.status).toBe(200);
    const token = json<{ access_token: string }>(viaBasic).access_token;
    expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(200);
    expect((await s.call('DELETE', apiPaths.oauthClient(made.id), { token: admin })).status).toBe(
      204,
    );
    expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(401);
  });

  it('client credentials: a confidential client bound to a role, with its secret', async () => {
    // The technician makes it with its own role: its tokens see the technician's four machines.
    const tech = await s.signIn(DEMO_USERS.tech);
    const technician = await roleId(s.db, accounts.root, 'technician');
    const notMine = await s.call('POST', apiPaths.oauthClients(), {
      token: admin,
      json: { name: 'Not my role', redirect: 'https://erp.example.com/cb', role_id: technician },
    });
    expect(notMine.status).toBe(422);
    const made = await s.call('POST', apiPaths.oauthClients(), {
      token: tech,
      json: { name: 'Nightly export', redirect: 'https://erp.example.com/cb', role_id: technician },
    });
    expect(made.status).toBe(201);
    const client = json<{ id: string; secret: string; role_id: string }>(made);
    expect(client.role_id).toBe(technician);

    const noSecret = await s.call('POST', apiPaths.token(), {
      json: { grant_type: 'client_credentials', client_id: client.id, scope: 'assets:read' },
    });
    expect(noSecret.status).toBe(401);
    expect(json(noSecret)).toMatchObject({ error: 'invalid_client' });

    const granted = await s.call('POST', apiPaths.token(), {
      json: {
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
        scope: 'assets:read',
      },
    });
    expect(granted.status).toBe(200);
    const token = json<{ access_token: string; refresh_token?: string }>(granted);
    expect(token.refresh_token).toBeUndefined();
    expect(assetsIn(await s.snapshot(token.access_token))).toHaveLength(TECHNICIAN_MACHINES);

    // A client without a role has no client credentials.
    const plain = json<{ id: string; secret: string }>(
      await s.call('POST', apiPaths.oauthClients(), {
        token: admin,
        json: { name: 'No role', redirect: 'https://erp.example.com/cb' },
      }),
    );
    const refused = await s.call('POST', apiPaths.token(), {
      json: { grant_type: 'client_credentials', client_id: plain.id, client_secret: plain.secret },
    });
    expect(json(refused)).toMatchObject({ error: 'unauthorized_client' });
  });
});

describe('hostile input and other users', () => {
  it('every new route refuses bad input, and changes nothing', async () => {
    const before = await s.contentHashes();
    const long = 'x'.repeat(5000);
    const bad: [string, string, unknown][] = [
      ['POST', apiPaths.personalAccessTokens(), { name: '' }],
      ['POST', apiPaths.personalAccessTokens(), { name: 'x'.repeat(192) }],
      ['POST', apiPaths.personalAccessTokens(), { name: 'ok', scopes: ['root:everything'] }],
      ['POST', apiPaths.personalAccessTokens(), { name: 'ok', scopes: 'assets:read' }],
      ['POST', apiPaths.personalAccessTokens(), { name: 'ok', expires_at: '2020-01-01T00:00:00Z' }],
      [
        'POST',
        apiPaths.personalAccessTokens(),
        { name: 'ok', expires_at: new Date(Date.now() + 800 * 86_400_000).toISOString() },
      ],
      ['POST', apiPaths.personalAccessTokens(), { name: 'ok', expires_at: 'tomorrow' }],
      ['POST', apiPaths.personalAccessTokens(), { name: 'ok', role_id: 'not-my-role' }],
      ['POST', apiPaths.personalAccessTokens(), { name: { $gt: '' } }],
      ['POST', apiPaths.personalAccessTokens(), [1, 2]],
      ['POST', apiPaths.oauthClients(), { name: 'c', redirect: 'javascript:alert(1)' }],
      ['POST', apiPaths.oauthClients(), { name: 'c', redirect: 'http://evil.example.com/cb' }],
      ['POST', apiPaths.oauthClients(), { name: 'c', redirect: 'https://a.example.com/cb#frag' }],
      ['POST', apiPaths.oauthClients(), { name: 'c', redirect: `https://a.example.com/${long}` }],
      [
        'POST',
        apiPaths.oauthClients(),
        { name: 'c', redirect: 'https://a.example.com/cb', confidential: 'yes' },
      ],
      [
        'POST',
        apiPaths.oauthClients(),
        { name: 'c', redirect: 'https://a.example.com/cb', confidential: false, role_id: 'x' },
      ],
      ['POST', apiPaths.oauthClients(), { redirect: 'https://a.example.com/cb' }],
      [
        'POST',
        apiPaths.oauthAuthorize(),
        { client_id: long, response_type: 'code', approve: true },
      ],
      [
        'POST',
        apiPaths.oauthAuthorize(),
        { client_id: 'x', response_type: 'code', approve: 'yes' },
      ],
      ['GET', apiPaths.oauthAuthorize(`client_id=${long}&response_type=code`), undefined],
      ['DELETE', apiPaths.personalAccessToken(long), undefined],
      ['DELETE', apiPaths.oauthClient(long), undefined],
      ['DELETE', apiPaths.oauthToken(long), undefined],
      ['PUT', apiPaths.oauthClient('missing'), { name: 'c', redirect: 'https://a.example.com/cb' }],
    ];
    for (const [method, path, body] of bad) {
      const res = await s.call(method, path, {
        token: admin,
        ...(body === undefined ? {} : { json: body }),
      });
      expect({ method, path: path.slice(0, 80), body, ok: res.status < 400 }).toMatchObject({
        ok: false,
      });
      expect(res.status).toBeLessThan(500);
    }
    const malformed = await s.call('POST', apiPaths.oauthClients(), {
      token: admin,
      body: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const tokenGarbage = await s.call('POST', apiPaths.token(), {
      json: { grant_type: 'refresh_token', client_id: 'x', refresh_token: long },
    });
    expect(tokenGarbage.status).toBe(400);
    expect(json(tokenGarbage)).toMatchObject({ error: 'invalid_request' });
    // Without a sign-in, nothing.
    expect((await s.call('GET', apiPaths.oauthClients())).status).toBe(401);
    expect(
      (await s.call('POST', apiPaths.personalAccessTokens(), { json: { name: 'x' } })).status,
    ).toBe(401);
    expect(await s.contentHashes()).toEqual(before);
  });

  it("another user's tokens, clients and applications: 404, nothing changed", async () => {
    const adminToken = await personalToken(admin, ['assets:read']);
    const adminTokenId = json<{ id: string }[]>(
      await s.call('GET', apiPaths.personalAccessTokens(), { token: admin }),
    ).find(() => true)?.id;
    const client = json<{ id: string }>(
      await s.call('POST', apiPaths.oauthClients(), {
        token: admin,
        json: { name: 'Admin only', redirect: 'https://admin.example.com/cb' },
      }),
    );
    // A user of another account (South), and a user of the same account (the supervisor).
    for (const email of [DEMO_USERS.south, DEMO_USERS.internal]) {
      const other = await s.signIn(email);
      const before = await s.contentHashes();
      const calls: [string, string, unknown][] = [
        ['DELETE', apiPaths.personalAccessToken(adminTokenId ?? ''), undefined],
        ['DELETE', apiPaths.oauthClient(client.id), undefined],
        [
          'PUT',
          apiPaths.oauthClient(client.id),
          { name: 'Stolen', redirect: 'https://evil.example.com/cb' },
        ],
        ['DELETE', apiPaths.oauthToken(adminTokenId ?? ''), undefined],
      ];
      for (const [method, path, body] of calls) {
        const res = await s.call(method, path, {
          token: other,
          ...(body === undefined ? {} : { json: body }),
        });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      }
      const theirClients = json<{ id: string }[]>(
        await s.call('GET', apiPaths.oauthClients(), { token: other }),
      );
      expect(theirClients.some((c) => c.id === client.id)).toBe(false);
      const theirTokens = json<{ id: string }[]>(
        await s.call('GET', apiPaths.personalAccessTokens(), { token: other }),
      );
      expect(theirTokens.some((t) => t.id === adminTokenId)).toBe(false);
      expect(await s.contentHashes()).toEqual(before);
    }
    expect((await s.call('GET', apiPaths.user(), { token: adminToken })).status).toBe(200);
  });
});

describe('membership today', () => {
  it('a token whose user left the account stops working at once', async () => {
    const tech = await s.signIn(DEMO_USERS.tech);
    const techToken = await personalToken(tech, ['assets:read']);
    expect((await s.call('GET', apiPaths.user(), { token: techToken })).status).toBe(200);
    const me = json<{ data: { id: string } }>(
      await s.call('GET', apiPaths.user(), { token: tech }),
    );
    const removed = await s.call('DELETE', apiPaths.member(me.data.id), { token: admin });
    expect(removed.status).toBe(204);
    expect((await s.call('GET', apiPaths.user(), { token: techToken })).status).toBe(401);
    expect((await s.call('GET', apiPaths.snapshot(), { token: techToken })).status).toBe(401);
  });
});
