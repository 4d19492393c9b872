import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  MODELS,
  openApiDocumentSchema,
  REQUEST_FAILED_PARAMS_MAX_CHARS,
  uuidv7,
} from '@plant/shared-schema';
import { MAX_BODY_BYTES } from './app';
import { ModelRepository } from './repositories/model.repository';
import { DEMO_USERS } from './seed/demo';
import { startTestServer, type TestServer } from './testing/harness';
import { inBatches, junkBodies, junkParameter, type JsonSchema } from './testing/junk-input';

/**
 * Every route gets wrong types, missing fields, huge strings, SQL and HTML fragments. None may
 * answer 500; refused input writes nothing; the few free-text fields that accept any text store it
 * verbatim (parameterised queries, no interpretation).
 */
let s: TestServer;
let token = '';
let userId = '';
let accountId = '';

beforeAll(async () => {
  s = await startTestServer({
    authLimits: {
      perEmailAndAddress: { limit: 10_000, windowMs: 60_000 },
      perEmail: { limit: 10_000, windowMs: 60_000 },
      perAddress: { limit: 10_000, windowMs: 60_000 },
      registerPerAddress: { limit: 10_000, windowMs: 60_000 },
    },
  });
  token = await s.signIn(DEMO_USERS.admin);
  const user = await s.db
    .selectFrom('users')
    .select(['id', 'active_account_id'])
    .where('email', '=', DEMO_USERS.admin)
    .executeTakeFirstOrThrow();
  userId = user.id;
  accountId = user.active_account_id ?? '';
});
afterAll(() => s.close());

const SQL = [
  "' OR 1=1 --",
  "admin@demo.local' --",
  "x'); DROP TABLE users; --",
  '1; DELETE FROM accounts',
];
const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>@x.io',
  '"><svg onload=alert(1)>',
];
const HUGE = 'x'.repeat(10_000);
const WRONG_TYPES: unknown[] = [42, true, null, [], {}, ['a', 'b'], { $ne: null }];

interface BodyRoute {
  name: string;
  path: string;
  auth: boolean;
  /** A body that passes validation (but, where that would write, fails later: no row is written). */
  valid: () => Record<string, unknown>;
  required: string[];
  /** Fields that take any text up to their limit; such input may be stored, verbatim. */
  freeText: string[];
  /** Fields of any JSON value. */
  anyValue?: string[];
  table?: string;
}

const routes: BodyRoute[] = [
  {
    name: 'POST oauth/token',
    path: apiPaths.token(),
    auth: false,
    // A wrong password: even accepted input must not issue a token.
    valid: () => ({
      grant_type: 'password',
      client_id: s.clientId,
      username: DEMO_USERS.admin,
      password: 'wrong-password',
      scope: '',
    }),
    required: ['grant_type', 'client_id', 'username', 'password'],
    freeText: ['scope', 'client_secret', 'password', 'grant_type', 'client_id'],
  },
  {
    name: 'POST register',
    path: apiPaths.register(),
    auth: false,
    // The address is taken: a valid body is refused by the service, nothing is written.
    valid: () => ({
      firstname: 'Valid',
      lastname: 'Person',
      email: DEMO_USERS.admin,
      password: 'password-1',
    }),
    required: ['firstname', 'lastname', 'email', 'password'],
    freeText: [],
  },
  {
    name: 'POST password/forgot',
    path: apiPaths.passwordForgot(),
    auth: false,
    valid: () => ({ email: 'nobody@example.com' }),
    required: ['email'],
    freeText: [],
  },
  {
    name: 'POST password/reset',
    path: apiPaths.passwordReset(),
    auth: false,
    valid: () => ({ token: 'not-a-real-token', password: 'password-1' }),
    required: ['token', 'password'],
    freeText: ['token'],
  },
  {
    name: 'POST requestFailed',
    path: apiPaths.requestFailed(),
    auth: true,
    valid: () => ({
      path: 'api/v1/x',
      params: { q: 1 },
      status: 500,
      message: 'm',
      appUrl: 'http://a',
    }),
    required: ['path', 'status'],
    freeText: ['path', 'message', 'appUrl'],
    anyValue: ['params'],
    table: 'client_errors',
  },
  {
    name: 'POST subscriptions',
    path: apiPaths.subscriptions(),
    auth: true,
    valid: () => ({
      endpoint: 'https://push.example.com/x',
      publicKey: 'abc_DEF-1',
      authToken: 'tok',
      contentEncoding: 'aes128gcm',
      deviceType: 'tablet',
      deviceBrand: 'Acme',
    }),
    required: ['endpoint', 'publicKey', 'authToken', 'contentEncoding'],
    freeText: ['deviceType', 'deviceBrand'],
    table: 'push_subscriptions',
  },
];

/** The tables whose content changed between two snapshots (any insert, update or delete). */
function diff(a: Record<string, string>, b: Record<string, string>): Record<string, true> {
  const out: Record<string, true> = {};
  for (const key of Object.keys(b)) if (b[key] !== a[key]) out[key] = true;
  return out;
}

async function send(route: BodyRoute, body: string) {
  const before = await s.contentHashes();
  const res = await s.call('POST', route.path, {
    body,
    headers: { 'Content-Type': 'application/json' },
    ...(route.auth ? { token } : {}),
  });
  const written = diff(before, await s.contentHashes());
  return { res, written };
}

describe.each(routes)('$name', (route) => {
  const fields = () => [...new Set([...Object.keys(route.valid()), ...route.required])];

  it('missing required fields: 422 naming each field, nothing written', async () => {
    for (const field of route.required) {
      const body = route.valid();
      delete body[field];
      const { res, written } = await send(route, JSON.stringify(body));
      expect(res.status, field).toBe(422);
      expect(
        (res.json as { errors: Record<string, string[]> }).errors[field]?.length,
        field,
      ).toBeGreaterThan(0);
      expect(written, field).toEqual({});
    }
  });

  it('wrong types in every field: 422, nothing written', async () => {
    for (const field of fields().filter((f) => !(route.anyValue ?? []).includes(f))) {
      const right = route.valid()[field];
      for (const value of WRONG_TYPES.filter((v) => typeof v !== typeof right || v === null)) {
        const { res, written } = await send(
          route,
          JSON.stringify({ ...route.valid(), [field]: value }),
        );
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(422);
        expect(written).toEqual({});
      }
    }
  });

  it('huge strings, SQL and HTML fragments: refused, or stored verbatim in a free-text field; never a 500', async () => {
    for (const field of fields()) {
      for (const value of [HUGE, ...SQL, ...HTML]) {
        const { res, written } = await send(
          route,
          JSON.stringify({ ...route.valid(), [field]: value }),
        );
        const label = `${field}=${value.slice(0, 30)}`;
        expect(res.status, label).toBeLessThan(500);
        if (res.status < 300) {
          expect(
            route.freeText.includes(field) || (route.anyValue ?? []).includes(field),
            label,
          ).toBe(true);
          const anyValue = (route.anyValue ?? []).includes(field);
          if (!anyValue) expect(value, label).not.toBe(HUGE);
          if (route.table === 'client_errors') {
            const row = await s.db
              .selectFrom('client_errors')
              .selectAll()
              .orderBy('id', 'desc')
              .executeTakeFirstOrThrow();
            if (anyValue)
              expect(row.params?.length).toBeLessThanOrEqual(REQUEST_FAILED_PARAMS_MAX_CHARS);
            else expect(JSON.stringify(row), label).toContain(JSON.stringify(value).slice(1, -1));
          }
          expect(
            Object.keys(written).every((t) => t === route.table),
            label,
          ).toBe(true);
        } else {
          expect(written, label).toEqual({});
        }
      }
    }
    // The database is whole: users and accounts are all still there.
    expect((await s.rowCounts()).accounts).toBeGreaterThanOrEqual(3);
    expect((await s.rowCounts()).users).toBeGreaterThanOrEqual(5);
  });

  it('a body that is not an object: 422; malformed JSON: 400; oversized: 413', async () => {
    for (const body of ['[]', '"text"', '42', 'null', '[{"a":1}]']) {
      const { res, written } = await send(route, body);
      expect(res.status, body).toBe(422);
      expect(res.json).toMatchObject({
        success: false,
        errors: { body: ['The request body must be a JSON object.'] },
      });
      expect(written).toEqual({});
    }
    for (const body of ['{', '{"a":', "{'single': 1}", '\u0000\u0001']) {
      const { res, written } = await send(route, body);
      expect(res.status, body).toBe(400);
      expect(res.json).toMatchObject({
        success: false,
        message: 'The request body is not valid JSON.',
      });
      expect(written).toEqual({});
    }
    const big = JSON.stringify({ ...route.valid(), pad: 'x'.repeat(MAX_BODY_BYTES + 10) });
    const { res, written } = await send(route, big);
    expect(res.status).toBe(413);
    expect(written).toEqual({});
  });
});

describe('ids in paths and queries', () => {
  const badIds = ['x'.repeat(5000), ...SQL, ...HTML, '..%2F..%2Fetc', '%00', ' '];
  const cases: [string, (id: string) => string][] = [
    ['GET', (id) => apiPaths.userById(id)],
    ['POST', (id) => apiPaths.setActiveAccount(userId, id)],
    ['POST', (id) => apiPaths.setActiveAccount(id, accountId)],
    ['GET', (id) => apiPaths.style(id)],
    ['GET', (id) => apiPaths.linkGateway(id)],
  ];

  it('answer 404 or 422, never a 500, and write nothing', async () => {
    for (const [method, path] of cases) {
      for (const id of badIds) {
        const before = await s.contentHashes();
        const res = await s.call(method, path(id), { token });
        expect([404, 422], `${method} ${path(id).slice(0, 60)}`).toContain(res.status);
        expect(diff(before, await s.contentHashes())).toEqual({});
      }
    }
  });

  it('JSON nested thousands deep is refused with 422, not a stack overflow', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const before = await s.contentHashes();
    const res = await s.call('POST', apiPaths.requestFailed(), {
      body: `{"path":"x","status":1,"params":${deep}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      errors: { params: ['The value is nested too deeply or too large.'] },
    });
    expect(diff(before, await s.contentHashes())).toEqual({});
  });

  it('a NUL in a form field, a query or a path parameter: 422 naming it (Postgres stores none)', async () => {
    const form = (fields: Record<string, string>) =>
      s.call('POST', apiPaths.token(), {
        body: new URLSearchParams(fields).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    for (const field of ['client_id', 'grant_type', 'client_secret']) {
      const res = await form({ grant_type: 'client_credentials', client_id: 'x', [field]: 'a\0b' });
      expect(res.status, field).toBe(422);
      expect(res.json, field).toMatchObject({ errors: { [field]: [expect.any(String)] } });
    }
    const query = await s.call('GET', apiPaths.style('a\0b'), { token });
    expect(query.status).toBe(422);
    expect(query.json).toMatchObject({ errors: { account: [expect.any(String)] } });
  });

  it('a lone surrogate in a text is stored as U+FFFD: the account’s JSON queries still work (Postgres refuses it in JSON)', async () => {
    const id = uuidv7();
    // JSON.stringify writes a lone surrogate as its escape, as a browser's client would send it.
    const made = await s.call('POST', apiPaths.collection('assets'), {
      token,
      body: JSON.stringify({ id, name: 'Pump \ud800 A', description: 'x\udc00' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(made.status, made.text).toBe(201);
    const stored = (await s.snapshot(token)).find((m) => m.id === id);
    expect(stored?.attributes).toMatchObject({ name: 'Pump \ufffd A', description: 'x\ufffd' });
    // A pair stays a pair.
    const pair = await s.call('POST', apiPaths.collection('assets'), {
      token,
      body: JSON.stringify({ name: 'Pump \ud83d\ude00' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(pair.json).toMatchObject({ data: { attributes: { name: 'Pump 😀' } } });
    // What failed on Postgres before: reading every model of the account's attributes as JSON.
    const found = await new ModelRepository(s.db).referencing(
      accountId,
      'asset',
      'name',
      'Pump \ufffd A',
    );
    expect(found.map((row) => row.id)).toEqual([id]);
  });

  it('logout with an oversized body is refused before anything happens', async () => {
    const res = await s.call('POST', apiPaths.logout(), {
      token,
      body: 'x'.repeat(MAX_BODY_BYTES + 10),
    });
    expect(res.status).toBe(413);
    expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(200);
  });
});

describe('every route of the OpenAPI document', () => {
  /**
   * The calls made from the document itself (so a new route is covered the day it is listed):
   * each body with every field missing, each field alone wrong-typed or oversized, each query and
   * path parameter oversized or of the wrong kind. Expected refusals are 4xx; a 500 is a bug.
   */
  it('answers no 500 to missing, wrong-typed and oversized fields', async () => {
    const doc = openApiDocumentSchema.parse((await s.call('GET', apiPaths.openapi())).json);
    const models = await s.snapshot(token);
    const idOf = (type: string, pick: (a: Record<string, unknown>) => boolean = () => true) =>
      models.find((m) => m.type === type && pick(m.attributes))?.id ?? uuidv7();
    // Ids that exist, so a call gets past "not found" to its checks; deletes get new ids (a
    // delete that worked would take the rest of the calls' target, or the admin's membership).
    const real: Record<string, string> = {
      user: userId,
      users: userId,
      accounts: accountId,
      roles: idOf('role', (a) => a.fixed !== true),
      datastreams: idOf('datastream'),
    };
    const valueOf = (path: string, name: string, method: string): string => {
      const collection = MODELS.find((m) => path.startsWith(`/${m.collection}/`));
      if (name === 'accountid') return accountId;
      if (name === 'type') return 'asset';
      if (name === 'assetId') return idOf('asset');
      if (name === 'roleId') return real.roles ?? uuidv7();
      if (method === 'delete') return uuidv7();
      if (name === 'id' && collection !== undefined) return idOf(collection.type);
      const area = path.split('/').filter((p) => p !== '' && p !== 'account')[0] ?? '';
      return real[area] ?? uuidv7();
    };
    interface Call {
      label: string;
      method: string;
      path: string;
      body?: unknown;
    }
    const calls: Call[] = [];
    // The generic model routes once per model collection of the registry.
    const patterns = Object.entries(doc.paths).flatMap(([pattern, operations]) =>
      pattern.includes('{collection}')
        ? MODELS.map((m) => [pattern.replace('{collection}', m.collection), operations] as const)
        : [[pattern, operations] as const],
    );
    for (const [pattern, operations] of patterns) {
      for (const [method, op] of Object.entries(operations)) {
        const params = op.parameters ?? [];
        const fill = (junk?: { name: string; value: string }) => {
          let path = pattern.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(junk?.name === name ? junk.value : valueOf(pattern, name, method)),
          );
          const query = params
            .filter((p) => p.in === 'query' && junk?.name === p.name)
            .map((p) => `${p.name}=${encodeURIComponent(junk?.value ?? '')}`);
          if (query.length > 0) path += `?${query.join('&')}`;
          return path.slice(1);
        };
        const label = `${method.toUpperCase()} ${pattern}`;
        const schema = op.requestBody?.content['application/json']?.schema as
          JsonSchema | undefined;
        const hasBody = method !== 'get';
        for (const body of schema === undefined ? [] : junkBodies(schema)) {
          calls.push({ label: `${label} ${body.label}`, method, path: fill(), body: body.value });
        }
        // A path parameter that the collection's own path filled in has no junk of its own.
        for (const p of params.filter((q) => q.in === 'query' || pattern.includes(`{${q.name}}`))) {
          for (const value of junkParameter(p.schema)) {
            calls.push({
              label: `${label} ${p.name}=${value.slice(0, 24)}`,
              method,
              path: fill({ name: p.name, value }),
              ...(hasBody ? { body: {} } : {}),
            });
          }
        }
        if (schema === undefined && params.length === 0)
          calls.push({ label, method, path: fill(), ...(hasBody ? { body: {} } : {}) });
      }
    }
    expect(calls.length).toBeGreaterThan(300);
    const failed: string[] = [];
    await inBatches(calls, 12, async (call) => {
      // Signing out ends the token it is called with: that call gets a token of its own.
      const own = call.path === apiPaths.logout() ? await s.signIn(DEMO_USERS.admin) : token;
      const res = await s.call(call.method.toUpperCase(), call.path, {
        token: own,
        ...(call.body === undefined ? {} : { json: call.body }),
      });
      if (res.status >= 500) failed.push(`${call.label}: ${res.status} ${res.text.slice(0, 80)}`);
    });
    expect(failed).toEqual([]);
    // The admin is still signed in and still in its account.
    expect((await s.call('GET', apiPaths.user(), { token })).status).toBe(200);
  }, 120_000);
});
