import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  ERROR_TEXTS,
  MAX_BODY_BYTES,
  MODELS,
  openApiDocumentSchema,
  uuidv7,
  type SyncedModel,
  toJsonSchema,
} from '@plant/shared-schema';
import { FakeAuthenticator } from './auth/fake-authenticator';
import { DEMO_USERS } from './seed/demo';
import { dataOf, startTestServer, type TestServer } from './testing/harness';
import {
  probeName,
  probesOf,
  seededRandom,
  shuffled,
  sweepRoutes,
  validRequestOf,
  type Probe,
  type SweepRoute,
  type ValidRequest,
  urlOf,
  validValue,
  watchWrites,
} from './testing/hostile-sweep';
import type { JsonSchema } from './testing/junk-input';

/*
 * The hostile-input sweep (issue 38 item 5): every route and field of the OpenAPI document gets
 * wrong types, huge values and unicode edge cases (testing/hostile-sweep.ts makes them), each
 * field alone while the others hold valid values. The admin (every permission) sends them all, a
 * plain member a sample. No answer may be a 5xx (nor hide one: a batch item's unknown error, an
 * error the server logs); a refused request (4xx) changes nothing stored (the database's tables
 * and the file store); the server answers its health check after every route and at the end.
 *
 * HOSTILE_SWEEP=full sends every value (about 120,000 requests, half an hour and more), else a
 * sample: per field and family one value (of the field's own type half the time). The sample and
 * the order come from HOSTILE_SWEEP_SEED (random when not given, printed with each failure);
 * HOSTILE_SWEEP_ONLY='<route> <field> <family>:<value>' sends just the probes so named.
 */

const FULL = process.env.HOSTILE_SWEEP === 'full';
const ONLY = process.env.HOSTILE_SWEEP_ONLY;
/** A pattern of route names (`PUT /assets`): only those routes are swept. */
const ROUTES = new RegExp(process.env.HOSTILE_SWEEP_ROUTES ?? '');
const SEED = Number(process.env.HOSTILE_SWEEP_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PROJECT = process.env.PLANT_TEST_DATABASE === 'postgres' ? 'server-postgres' : 'server';

/** The command that sends the same probes again (one, when named). */
function rerun(only?: string): string {
  const env = [
    `HOSTILE_SWEEP_SEED=${SEED}`,
    ...(FULL ? ['HOSTILE_SWEEP=full'] : []),
    ...(only === undefined ? [] : [`HOSTILE_SWEEP_ONLY='${only.replaceAll("'", "'\\''")}'`]),
  ];
  return `${env.join(' ')} npx vitest run --config vitest.workspace.ts --project ${PROJECT} server/src/hostile-sweep.test.ts`;
}

/**
 * Routes the sweep leaves out, by name, and why. None today: sign-out gets a token of its own
 * for every request (ENDS_TOKEN), and the broker's WebSocket (/mqtt) is not in the document.
 */
const EXCLUDED: Readonly<Record<string, string>> = {};

/** Routes that end the token they are called with: each request gets a token of its own. */
const ENDS_TOKEN: ReadonlySet<string> = new Set(['POST /logout']);

/** Deletes whose valid request names nobody: they would take what the rest of the sweep uses. */
const DELETES_NOTHING = 'deletes nothing the sweep uses';

/**
 * Routes whose valid request is refused on purpose, and why: what they would do with a request
 * that works (issue a token, delete what the rest of the sweep uses, reach a gateway that is not
 * connected) is not what the sweep is for; each field's own check still comes first. Every other
 * route's valid request must work (the sweep checks it), so probes reach each field's check.
 */
const REFUSED_BASES: Readonly<Record<string, string>> = {
  'POST /oauth/token': 'a wrong password: no token is issued',
  'POST /register': 'an address that is taken: no user is made',
  'POST /password/reset': 'no reset link was mailed',
  'DELETE /oauth/personal-access-tokens/{id}': DELETES_NOTHING,
  'DELETE /oauth/clients/{id}': DELETES_NOTHING,
  'DELETE /oauth/tokens/{id}': DELETES_NOTHING,
  'DELETE /account/roles/{id}': DELETES_NOTHING,
  'DELETE /account/users/{id}': DELETES_NOTHING,
  'POST /invitations/info': 'no invitation was mailed',
  'POST /invitations/accept': 'no invitation was mailed',
  'POST /gateways/{id}/opcua/browse': 'no agent is connected to answer',
  'POST /gateways/{id}/opcua/search': 'no agent is connected to answer',
  'PUT /files/{id}/upload': 'no upload is under way (a chunk would be stored)',
  'GET /gateway/releases/{id}/artifact': "a gateway's own credentials, which the sweep has not",
  'GET /alarm-recipients/confirm': 'no recipient invitation was mailed',
  'POST /alarm-recipients/confirm': 'no recipient invitation was mailed',
  'POST /service_requests/{id}/calls': 'no service agent is online to take the call',
  'POST /service_requests/{id}/calls/{callId}/end': 'no call is under way',
  'GET /gateways/{id}/terminal':
    'the terminal is for the internal tag, which the demo admin has not',
  'GET /files/{id}/thumbnail': 'no file of the demo has a thumbnail',
  // Two-factor sign-in: the valid request would need a code of an authenticator app or a
  // passkey's signature, which the sweep has not; the fields' own checks come first.
  'DELETE /user/2fa/totp': 'two-factor sign-in is not on for the admin',
  'POST /user/2fa/totp/confirm': 'a code of an authenticator app',
  'POST /user/2fa/recovery-codes': 'two-factor sign-in is not on for the admin',
  'POST /user/2fa/passkeys': "a passkey's signature",
  'DELETE /user/2fa/passkeys/{id}': 'the admin has no passkey',
  'POST /2fa/enrol/totp': 'an enrolment that a sign-in asked for',
  'POST /2fa/enrol/totp/confirm': 'an enrolment that a sign-in asked for',
  // Model types no request of a user makes or changes (the server's own, by design), or that
  // need what the demo has not.
  'POST /members': 'people join through an invitation',
  'POST /tags': "tags are given by the machine builder's staff",
  'PUT /tags/{id}': "tags are given by the machine builder's staff",
  'POST /alarm_acks': 'no alarm of the demo is raised',
  'PUT /alarm_acks/{id}': 'no alarm of the demo is raised',
  'POST /threedmodels': 'a 3D model needs uploaded files',
  'PUT /threedmodels/{id}': 'a 3D model needs uploaded files',
  'POST /hotspots': 'a hotspot needs a 3D model',
  'PUT /hotspots/{id}': 'a hotspot needs a 3D model',
  'POST /renderings': "a rendering starts Chromium on the leader: its scene is nobody's",
  'PUT /renderings/{id}': 'no rendering is made',
  'POST /deployments': 'a rollout needs a released version and gateways that run the agent',
  'PUT /deployments/{id}': 'a rollout needs a released version and gateways that run the agent',
  'POST /deployment_gateways': "the server's own",
  'PUT /deployment_gateways/{id}': "the server's own",
  'POST /task_states': "the server's own",
  'PUT /task_states/{id}': "the server's own",
  'PUT /form_versions/{id}': 'a form version is never changed',
  'PUT /form_entries/{id}': 'a filled-in form is never changed',
};

/** The relying party of the sweep's passkeys. */
const RP = { rpId: 'plant.test', origin: 'https://plant.test' } as const;
const ENROL_PASSWORD = 'sweep-password-1';
/**
 * Members who must set a second factor up before they sign in, one per passkey set-up call: the
 * registration's valid request registers a passkey, which closes the set-up for its member
 * (then 409), whichever of the two routes the sweep takes first.
 */
const ENROLLING = {
  options: 'sweep-enrol-options@example.com',
  passkey: 'sweep-enrol-passkey@example.com',
} as const;

let s: TestServer;
let admin = '';
let member = '';
/** The error lines the server logs (LOG_LEVEL=error): an error behind a 4xx is a hidden 5xx. */
const logged: string[] = [];
const stderrWrite = process.stderr.write.bind(process.stderr);

/** The demo data the valid requests are made of. */
interface Demo {
  readonly models: SyncedModel[];
  readonly adminId: string;
  readonly noroleId: string;
  readonly rootId: string;
  readonly northId: string;
  /** Every model of the admin's snapshot, the subaccounts' too. */
  readonly everything: SyncedModel[];
  readonly clientId: string;
  readonly roleId: string;
  readonly invitationId: string;
  readonly integrationId: string;
  /** An OPC UA connection of the first gateway (the demo's are simulators). */
  readonly opcuaId: string;
  idOf(type: string, pick?: (m: SyncedModel) => boolean): string;
}
let demo: Demo;
/** The notes of the database's writes (testing/hostile-sweep.ts `watchWrites`). */
let writes: Awaited<ReturnType<typeof watchWrites>>;

beforeAll(async () => {
  s = await startTestServer({
    // Errors logged on stderr, where the sweep reads them; nothing else. Passkeys of a relying
    // party the sweep's authenticator signs for (the set-up's registration, ENROLLING).
    env: { LOG_LEVEL: 'error', WEBAUTHN_RP_ID: RP.rpId, WEBAUTHN_ORIGINS: RP.origin },
    authLimits: {
      perEmailAndAddress: { limit: 100_000, windowMs: 60_000 },
      perEmail: { limit: 100_000, windowMs: 60_000 },
      perAddress: { limit: 100_000, windowMs: 60_000 },
      registerPerAddress: { limit: 100_000, windowMs: 60_000 },
    },
  });
  process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('"level":"error"')) {
      logged.push(text.trim());
      return true;
    }
    return stderrWrite(chunk, ...rest);
  };
  admin = await s.signIn(DEMO_USERS.admin);
  member = await s.signIn(DEMO_USERS.tech);
  demo = await demoData();
  for (const email of Object.values(ENROLLING)) await mustEnrol(email);
  // What the server records of requests by itself, refused ones too (security insights' counts):
  // the tables the harness's content hashes leave out, for the same reason.
  const hashed = new Set(Object.keys(await s.contentHashes()));
  writes = await watchWrites(s.db, (table) => !hashed.has(table));
  // SQLite takes no trigger on a virtual table or its shadow tables: the help centre's full-text
  // index (FTS5), written with the article texts, which are watched. Any other is a blind spot.
  expect(writes.unwatched.filter((t) => !t.startsWith('article_fts'))).toEqual([]);
}, 60_000);

afterAll(async () => {
  process.stderr.write = stderrWrite;
  await s.close();
});

async function demoData(): Promise<Demo> {
  const models = await s.snapshot(admin);
  const users = await s.db.selectFrom('users').select(['id', 'email']).execute();
  const userId = (email: string) => users.find((u) => u.email === email)?.id ?? '';
  const adminId = userId(DEMO_USERS.admin);
  const accounts = await s.demoAccountIds();
  // The root account's own models (its snapshot holds the subaccounts' too).
  const own = new Set(
    (
      await s.db.selectFrom('models').select('id').where('account_id', '=', accounts.root).execute()
    ).map((r) => r.id),
  );
  const idOf = (type: string, pick: (m: SyncedModel) => boolean = () => true) =>
    models.find((m) => m.type === type && own.has(m.id) && pick(m))?.id ?? uuidv7();
  const made = async (method: string, url: string, json: unknown): Promise<string> => {
    const res = await s.call(method, url, { token: admin, json });
    const id = (res.json as { data?: { id?: unknown }; id?: unknown } | undefined)?.data?.id;
    if (res.status >= 300 || typeof id !== 'string') {
      throw new Error(`${method} ${url} for the sweep failed: ${res.status} ${res.text}`);
    }
    return id;
  };
  const roleId = await made('POST', apiPaths.roles(), { name: 'Sweep role' });
  const client = await s.call('POST', apiPaths.oauthClients(), {
    token: admin,
    json: { name: 'Sweep client', redirect: 'https://example.com/callback' },
  });
  const clientId = (client.json as { id?: unknown }).id;
  expect(client.status, client.text).toBe(201);
  const invitation = await s.call('POST', apiPaths.invitations(), {
    token: admin,
    json: { email: 'sweep-invitation@example.com', role_id: roleId },
  });
  expect(invitation.status, invitation.text).toBeLessThan(300);
  const invitationId =
    (await s.db.selectFrom('invitations').select('id').executeTakeFirst())?.id ?? uuidv7();
  const integrationId = await made('POST', apiPaths.collection('integrations'), {
    name: 'Sweep hook',
    kind: 'webhook',
    slug: 'sweep-hook',
    enabled: false,
    webhook: { url: 'https://example.com/hook' },
  });
  const opcuaId = await made('POST', apiPaths.collection('connections'), {
    gateway_id: idOf('gateway'),
    name: 'Sweep OPC UA',
    protocol: 'opcua',
    settings: { endpoint: 'opc.tcp://127.0.0.1:4840' },
    enabled: false,
  });
  return {
    opcuaId,
    models: (await s.snapshot(admin)).filter((m) => own.has(m.id) || m.type === 'tag'),
    adminId,
    noroleId: userId(DEMO_USERS.norole),
    rootId: accounts.root,
    northId: accounts.north,
    everything: await s.snapshot(admin),
    clientId: String(clientId),
    roleId,
    invitationId,
    integrationId,
    idOf,
  };
}

/** A user of an account of its own that requires a second factor of everyone: it has none. */
async function mustEnrol(email: string): Promise<void> {
  const made = await s.call('POST', apiPaths.register(), {
    json: { firstname: 'Sweep', lastname: 'Enrolling', email, password: ENROL_PASSWORD },
  });
  expect(made.status, made.text).toBe(201);
  const token = dataOf<{ access_token: string }>(made).access_token;
  const { account } = dataOf<{ account: string }>(await s.call('GET', apiPaths.user(), { token }));
  const rule = await s.call('PUT', apiPaths.accountTwoFactor(account), {
    token,
    json: { required: 'everyone' },
  });
  expect(rule.status, rule.text).toBe(200);
}

const enrolCredentials = (email: string) => ({
  client_id: s.clientId,
  username: email,
  password: ENROL_PASSWORD,
});

/** The set-up's passkey registration: options asked for, a new credential signed for them. */
async function enrolPasskeyBase(): Promise<Partial<ValidRequest>> {
  const credentials = enrolCredentials(ENROLLING.passkey);
  const options = await s.call('POST', apiPaths.twoFactorEnrolPasskeyOptions(), {
    json: credentials,
  });
  expect(options.status, options.text).toBe(200);
  const { challenge } = dataOf<{ challenge: string }>(options);
  const credential = new FakeAuthenticator(RP).register(challenge);
  return { body: { ...credentials, name: 'Sweep key', credential } };
}

/** Valid requests of the routes whose schemas alone do not make one (ids of the demo data). */
function knownBase(route: SweepRoute): Partial<ValidRequest> | undefined {
  const d = demo;
  const assetId = d.idOf('asset');
  const gatewayId = d.idOf('gateway');
  const streamId = d.idOf('datastream');
  const authorize = {
    response_type: 'code',
    client_id: d.clientId,
    redirect_uri: 'https://example.com/callback',
    scope: '',
    state: 'sweep-state',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  };
  const day = 86_400_000;
  const now = Date.now();
  const bases: Record<string, Partial<ValidRequest>> = {
    'POST /oauth/token': {
      body: {
        grant_type: 'password',
        client_id: s.clientId,
        username: DEMO_USERS.admin,
        password: 'wrong-password',
        scope: '',
      },
    },
    'POST /register': {
      body: {
        firstname: 'Valid',
        lastname: 'Person',
        email: DEMO_USERS.admin,
        password: 'password-1',
      },
    },
    'POST /password/forgot': { body: { email: 'nobody@example.com' } },
    'POST /password/reset': { body: { token: 'not-a-real-token', password: 'password-1' } },
    'POST /requestFailed': {
      body: { path: 'api/v1/x', status: 500, message: 'm', appUrl: 'http://a' },
    },
    'POST /oauth/personal-access-tokens': { body: { name: 'Sweep token', scopes: [] } },
    'POST /oauth/clients': {
      body: { name: 'Sweep client', redirect: 'https://example.com/callback' },
    },
    'PUT /oauth/clients/{id}': {
      path: { id: d.clientId },
      body: { name: 'Sweep client', redirect: 'https://example.com/callback' },
    },
    'POST /oauth/clients/{id}/secret': { path: { id: d.clientId } },
    'GET /oauth/authorize': { query: authorize },
    'POST /oauth/authorize': { body: { ...authorize, approve: false } },
    'POST /user/{id}/setActiveAccount/{accountid}': {
      path: { id: d.adminId, accountid: d.rootId },
    },
    'GET /user/browser/mqtt': { query: { browser_id: 'sweep-browser' } },
    'GET /users/{id}': { path: { id: d.noroleId } },
    'GET /style': { query: { account: d.rootId } },
    'GET /user/{id}/notificationtrigger': { path: { id: d.adminId } },
    'POST /subscriptions': {
      body: {
        endpoint: 'https://push.example.com/sweep',
        publicKey: 'abc_DEF-1',
        authToken: 'tok',
        contentEncoding: 'aes128gcm',
      },
    },
    'DELETE /subscriptions': { body: { endpoint: 'https://push.example.com/sweep' } },
    'GET /account/mqttlogs': { query: { from: '0' } },
    'GET /sync/snapshot': { query: { limit: '5' } },
    'GET /graph/{type}/{id}': { path: { type: 'asset', id: assetId } },
    'POST /account/roles': { body: { name: 'Sweep made' } },
    'PUT /account/roles/{id}': { path: { id: d.roleId }, body: { name: 'Sweep role' } },
    'PUT /account/roles/{id}/permissions': {
      path: { id: d.roleId },
      body: { permissions: ['asset::view'] },
    },
    'PUT /account/roles/{id}/access': { path: { id: d.roleId }, body: { all_assets: false } },
    'PUT /account/roles/{id}/assets/{assetId}': {
      path: { id: d.roleId, assetId },
      body: { edit: false },
    },
    'DELETE /account/roles/{id}/assets/{assetId}': { path: { id: d.roleId, assetId } },
    'PUT /account/roles/{id}/fields/{type}': {
      path: { id: d.roleId, type: 'asset' },
      body: { fields: null },
    },
    'PUT /account/users/{id}/roles/{roleId}': { path: { id: d.noroleId, roleId: d.roleId } },
    'DELETE /account/users/{id}/roles/{roleId}': { path: { id: d.noroleId, roleId: d.roleId } },
    'POST /account/users/{id}/password-reset': { path: { id: d.noroleId } },
    'GET /users/{id}/profile': { path: { id: d.adminId } },
    'PUT /users/{id}/profile': {
      path: { id: d.adminId },
      body: {
        firstname: 'Ada',
        lastname: 'Administrator',
        email: DEMO_USERS.admin,
        phone: '',
        language: 'en',
      },
    },
    'GET /users/{id}/notifications': { path: { id: d.adminId } },
    'PUT /users/{id}/notifications': {
      path: { id: d.adminId },
      body: {
        channels: ['mail'],
        window: { days: [1, 2], from: '08:00', to: '17:00', timezone: 'Europe/Berlin' },
      },
    },
    'POST /account/invitations': {
      body: { email: 'sweep-invited@example.com', role_id: d.roleId },
    },
    'POST /account/invitations/{id}/resend': { path: { id: d.invitationId } },
    'POST /account/invitations/{id}/revoke': { path: { id: d.invitationId } },
    'POST /invitations/info': { body: { token: 'not-a-real-token' } },
    'POST /invitations/accept': {
      body: {
        token: 'not-a-real-token',
        firstname: 'New',
        lastname: 'Person',
        password: 'password-1',
      },
    },
    'POST /account/subaccounts': { body: { name: 'Sweep sub', parent_id: d.rootId } },
    'GET /accounts/{id}': { path: { id: d.rootId } },
    'GET /theme-images/{id}': {
      path: { id: d.idOf('file', (m) => m.attributes.theme_id !== null) },
    },
    'PUT /account/value-retention': { body: { days: 365 } },
    'PUT /account/alarm-settings': { body: { critical_overrides_window: false } },
    'GET /linkGateway': { query: { id: gatewayId } },
    'POST /gateways/{id}/opcua/browse': {
      path: { id: gatewayId },
      body: { connection_id: d.opcuaId },
    },
    'POST /gateways/{id}/opcua/search': {
      path: { id: gatewayId },
      body: {
        connection_id: d.opcuaId,
        query: 'temperature',
        max_results: 10,
      },
    },
    'GET /datastreams/values': {
      query: { streams: streamId, from: String(now - day), to: String(now), points: '100' },
    },
    'GET /datastreams/{id}/values': {
      path: { id: streamId },
      query: { from: String(now - day), to: String(now), points: '100' },
    },
    'GET /datastreams/{id}/values.csv': {
      path: { id: streamId },
      query: { from: String(now - day), to: String(now) },
    },
    'POST /datastreams/{id}/preprocessing/try': {
      path: { id: streamId },
      body: { code: 'return $value * 2;', value: 1 },
    },
    'GET /assets/{id}/values/latest': { path: { id: assetId } },
    'GET /files/{id}/upload': { path: { id: d.idOf('file') } },
    'PUT /files/{id}/upload': { query: { offset: '0' } },
    'GET /files/{id}/content': { path: { id: d.idOf('file') } },
    'GET /files/{id}/thumbnail': {
      path: { id: d.idOf('file', (m) => m.attributes.thumbnail === true) },
    },
    'GET /alarms/{id}/history': { path: { id: d.idOf('alarm') }, query: { limit: '10' } },
    'GET /alarm-history': { query: { asset_id: assetId, limit: '10' } },
    'GET /releases/{id}/history': { path: { id: d.idOf('release') } },
    'GET /gateway/releases/{id}/artifact': { path: { id: d.idOf('release') } },
    'GET /articles/search': { query: { q: 'pump', lang: 'en' } },
    'GET /alarm-recipients/confirm': { query: { token: 'a'.repeat(32) } },
    'POST /alarm-recipients/confirm': { body: { token: 'a'.repeat(32), decision: 'decline' } },
    'POST /service_requests/{id}/calls': {
      path: { id: d.idOf('service_request') },
      body: { kind: 'video' },
    },
    'POST /service_requests/{id}/calls/{callId}/end': {
      path: { id: d.idOf('service_request'), callId: uuidv7() },
    },
    'POST /reports/{id}/send': { path: { id: d.idOf('report') } },
    'GET /reports/{id}/runs': { path: { id: d.idOf('report') } },
    'GET /assets/{id}/servicebooklet.pdf': {
      path: { id: assetId },
      query: { kinds: 'entry', lang: 'en', tz: 'UTC' },
    },
    'GET /integrations/{id}/deliveries': {
      path: { id: d.integrationId },
      query: { asset_id: assetId },
    },
    'GET /integrations/{id}/secret': { path: { id: d.integrationId } },
    'POST /integrations/{id}/secret': { path: { id: d.integrationId } },
    'POST /security-insights/checks/{id}/dismissal': {
      path: { id: 'admins' },
      body: { reason: 'Sweep', expires_at: now + 7 * day },
    },
    'DELETE /security-insights/checks/{id}/dismissal': { path: { id: 'admins' } },
    'POST /2fa/enrol/passkey/options': { body: enrolCredentials(ENROLLING.options) },
  };
  return bases[route.key];
}

/**
 * Path parameters named as the demo data has them: an `{id}` after a model collection's name is
 * a model of it (`/gateways/{id}/logs`), after `accounts` the root account, after `users` the
 * admin, after `account/users` the member without a role; `{assetId}`, `{roleId}`, `{accountid}`
 * and `{type}` likewise. A new route under these names gets a valid request without more.
 */
function idsOf(route: SweepRoute): Record<string, string> {
  const d = demo;
  const out: Record<string, string> = {};
  for (const p of route.parameters.filter((q) => q.in === 'path')) {
    const before = route.pattern.split(`/{${p.name}}`)[0] ?? '';
    const collection = before.split('/').at(-1) ?? '';
    const model = MODELS.find((m) => m.collection === collection);
    const id = {
      assetId: d.idOf('asset'),
      roleId: d.roleId,
      accountid: d.rootId,
      type: 'asset',
    }[p.name];
    if (id !== undefined) out[p.name] = id;
    else if (p.name !== 'id') continue;
    else if (before.endsWith('/account/users')) out.id = d.noroleId;
    else if (collection === 'users' || collection === 'user') out.id = d.adminId;
    else if (collection === 'accounts') out.id = d.rootId;
    else if (collection === 'roles') out.id = d.roleId;
    else if (collection === 'clients') out.id = d.clientId;
    else if (collection === 'invitations') out.id = d.invitationId;
    else if (collection === 'integrations') out.id = d.integrationId;
    else if (model !== undefined) out.id = d.idOf(model.type);
  }
  return out;
}

/** A delete that names nobody (DELETES_NOTHING): an id no model has. */
function freshIds(route: SweepRoute): Partial<ValidRequest> | undefined {
  if (REFUSED_BASES[route.key] !== DELETES_NOTHING) return undefined;
  return { path: { id: uuidv7() } };
}

/** The newest run of the demo report (made by the sweep's send), for its files' route. */
async function reportRunBase(): Promise<Partial<ValidRequest>> {
  const reportId = demo.idOf('report');
  const runs = dataOf<{ id: string }[]>(
    await s.call('GET', apiPaths.reportRuns(reportId), { token: admin }),
  );
  return { path: { id: reportId, runid: runs[0]?.id ?? uuidv7(), index: '0' } };
}

/** The valid request of a route: its schemas' values, the demo data's ids, a model's attributes. */
async function baseOf(route: SweepRoute): Promise<ValidRequest> {
  const schema = validRequestOf(route);
  let known = knownBase(route) ?? freshIds(route);
  if (route.key === 'GET /reports/{id}/runs/{runid}/files/{index}') known = await reportRunBase();
  if (route.key === 'POST /2fa/enrol/passkey') known = await enrolPasskeyBase();
  if (route.collection !== undefined) known = modelBase(route);
  return {
    path: { ...schema.path, ...idsOf(route), ...known?.path },
    query: { ...schema.query, ...known?.query },
    ...(known?.body !== undefined
      ? { body: known.body }
      : schema.body === undefined
        ? {}
        : { body: schema.body }),
  };
}

/** Models the valid creates of the sweep made, by collection: updated where the demo has none. */
const created = new Map<string, string>();

/** The model a collection's update and batch change: not the admin's own membership or account. */
function modelTarget(type: string): SyncedModel | undefined {
  const d = demo;
  const id =
    type === 'user'
      ? d.noroleId
      : type === 'role'
        ? d.roleId
        : type === 'account'
          ? d.northId
          : undefined;
  return id === undefined
    ? d.models.find((m) => m.type === type)
    : d.everything.find((m) => m.type === type && m.id === id);
}

/** Attributes of a new model where the demo has none: the schema's, its references the demo's. */
function madeAttributes(schema: JsonSchema): Record<string, unknown> {
  const made = validValue(schema) as Record<string, unknown>;
  for (const name of Object.keys(made)) {
    const model = MODELS.find((m) => m.type === name.replace(/_id$/, ''));
    if (name.endsWith('_id') && model !== undefined)
      made[name] = created.get(model.collection) ?? demo.idOf(model.type);
  }
  return made;
}

/**
 * Creates that a copy of the demo's model would not pass for reasons of their own (a name, an
 * address or a language taken; a state a new one cannot start in; an owner to name): what is
 * posted instead. Once one is made, the next are refused as taken, after their fields' checks.
 */
const CREATE_AS: Readonly<
  Record<string, (copy: Record<string, unknown>) => Record<string, unknown>>
> = {
  role: () => ({ name: 'Sweep role copy' }),
  job: (a) => ({ ...a, slug: 'sweep-job' }),
  article: (a) => ({ ...a, state: 'draft' }),
  article_text: (a) => ({ ...a, lang: 'pt' }),
  article_draft: (a) => ({ ...a, lang: 'pt' }),
  translation: () => ({ key: `sweep.text.${uuidv7()}`, texts: { en: 'Sweep' } }),
  service_request: (a) => ({ ...a, state: 'open', assigned_to: null }),
  release: (a) => ({ ...a, state: 'draft', version: '9.9.9' }),
  scene: (a) => ({ ...a, asset_id: demo.idOf('asset') }),
  // No scene of that id: a rendering made would start Chromium on the leader.
  rendering: (a) => ({ ...a, scene_id: uuidv7() }),
};

/**
 * A generic model route's valid request: a model of the collection as it is stored (or made from
 * the schema where the demo has none), which the update changes and the create copies; deletes
 * name no model.
 */
function modelBase(route: SweepRoute): Partial<ValidRequest> {
  const def = MODELS.find((m) => m.collection === route.collection);
  if (def === undefined) throw new Error(`no model for ${route.key}`);
  const target = modelTarget(def.type);
  const made = () =>
    madeAttributes(toJsonSchema(def.attributes, { io: 'input', unrepresentable: 'any' }));
  const create = (a: Record<string, unknown>) => (CREATE_AS[def.type] ?? ((c) => c))(a);
  // The demo's model, else the one the sweep's create made (as it was posted).
  const attributes = target?.attributes ?? create(made());
  const id = target?.id ?? created.get(def.collection) ?? uuidv7();
  const path = { collection: def.collection };
  if (route.key.endsWith('(batch)')) {
    const data =
      route.method === 'POST'
        ? attributes
        : route.method === 'PUT'
          ? { ...attributes, id }
          : { id: uuidv7() };
    return { path, body: [{ batch_id: 1, data }] };
  }
  if (route.method === 'POST') return { path, body: create(target?.attributes ?? made()) };
  if (route.method === 'PUT') return { path: { ...path, id }, body: attributes };
  return { path: { ...path, id: uuidv7() } };
}

/** The file store's files by name and size: what a refusal must not change besides the tables. */
function storedFiles(): string {
  const dir = path.join(s.dataDir, 'files');
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return `${path.relative(dir, full)}:${fs.statSync(full).size}`;
    })
    .sort()
    .join('\n');
}

/** What the server still does after an answer: wait for it before the next fingerprint. */
async function settled(): Promise<void> {
  await s.idle();
  await s.tasks.idle();
  // The gateways' configurations follow committed changes a moment later.
  await s.machineData.configs.flush();
}

/** The answer to a probe: its status (0: none, the connection was cut) and its text. */
interface Reply {
  readonly status: number;
  readonly text: string;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends a probe as it is written: its path goes to the server byte for byte (fetch would resolve
 * `..` and `%2e%2e` itself and call another route; a client of our own need not). A request the
 * server cuts off (a body over the limit answered 413 and the connection closed while the rest
 * was being written) has no answer to read: status 0, a refusal like any other; the health check
 * after the route tells a server that fell over. Each request has a connection of its own: a kept
 * one the server closed as idle just as it was reused was cut (ECONNRESET), and sending it again
 * sent some twice (a create, then "taken": the control requests of POST /roles, /translations and
 * /article_texts failed so in busy runs).
 */
function send(probe: Probe, token: string | undefined): Promise<Reply> {
  const url = new URL(s.url);
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (probe.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    // Node's client would send a DELETE's body without a length (then read as the next request).
    headers['Content-Length'] = String(Buffer.byteLength(probe.body));
  }
  return new Promise<Reply>((resolve) => {
    let answered = false;
    const req = http.request(
      {
        agent: false,
        host: url.hostname,
        port: url.port,
        method: probe.method,
        path: `${API_BASE}/${probe.url}`,
        headers,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => resolve({ status: res.statusCode ?? 0, text: '' }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered) resolve({ status: 0, text: `no answer: ${err.code ?? err.message}` });
    });
    req.end(probe.body);
  });
}

interface Tally {
  sent: number;
  refused: number;
  failures: string[];
}

/** Sends one probe and checks its answer, the stored state, and the server's log. */
async function check(probe: Probe, who: 'admin' | 'member', tally: Tally): Promise<void> {
  let token = who === 'admin' ? admin : member;
  if (ENDS_TOKEN.has(probe.route)) {
    token = await s.signIn(who === 'admin' ? DEMO_USERS.admin : DEMO_USERS.tech);
  }
  // What was written since the last look is not this request's (a sign-in, an earlier write).
  await writes.take();
  const files = storedFiles();
  logged.length = 0;
  const res = await send(probe, token);
  tally.sent++;
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  else if (res.text.includes(ERROR_TEXTS.unknown))
    problems.push('an unknown error inside the answer');
  await settled();
  if (res.status >= 400 || res.status === 0) {
    tally.refused++;
    const changed = await writes.take();
    if (storedFiles() !== files) changed.push('the file store');
    if (changed.length > 0)
      problems.push(`refused with ${res.status}, yet changed ${changed.join(', ')}`);
  }
  if (logged.length > 0) problems.push(`logged ${logged.join(' | ').slice(0, 400)}`);
  if (problems.length === 0) return;
  const name = probeName(probe);
  tally.failures.push(
    [
      `${name} (as ${who}): ${problems.join('; ')}`,
      `  ${probe.method} ${probe.url.slice(0, 200)} body ${probe.body?.slice(0, 200) ?? '-'}`,
      `  reply ${res.status} ${res.text.slice(0, 300)}`,
      `  again: ${rerun(name)}`,
    ].join('\n'),
  );
}

/**
 * The health check: the public configuration answers, and the admin is still signed in, in the
 * account the sweep works in (a probe that moved it elsewhere would leave the rest untested).
 */
async function healthy(): Promise<string | undefined> {
  const conf = await s.call('GET', apiPaths.staticconf());
  const me = await s.call('GET', apiPaths.user(), { token: admin });
  const account = (me.json as { data?: { activeAccount?: { id?: unknown } | null } } | undefined)
    ?.data?.activeAccount?.id;
  if (conf.status === 200 && me.status === 200 && account === demo.rootId) return undefined;
  return `health check: staticconf ${conf.status}, user ${me.status} in ${String(account)} ${me.text.slice(0, 200)}`;
}

describe('the hostile-input sweep of the OpenAPI document', () => {
  it(
    `answers no 5xx, changes nothing it refuses, and stays up (seed ${SEED})`,
    async () => {
      const doc = openApiDocumentSchema.parse((await s.call('GET', apiPaths.openapi())).json);
      const collections = MODELS.map((m) => ({
        collection: m.collection,
        attributes: toJsonSchema(m.attributes, {
          io: 'input',
          unrepresentable: 'any',
        }),
      }));
      const routes = sweepRoutes(doc, collections).filter(
        (r) => !(r.key in EXCLUDED) && ROUTES.test(r.key),
      );
      const random = seededRandom(SEED);
      const admins: Tally = { sent: 0, refused: 0, failures: [] };
      const members: Tally = { sent: 0, refused: 0, failures: [] };
      const started = performance.now();
      for (const route of routes) {
        const base = await baseOf(route);
        const probes = shuffled(
          probesOf(route, base, {
            full: FULL || ONLY !== undefined,
            seed: SEED,
            random,
            maxBodyBytes: MAX_BODY_BYTES,
          }),
          random,
        ).filter((p) => ONLY === undefined || probeName(p) === ONLY);
        if (ONLY !== undefined && probes.length === 0) continue;
        // The valid request first: it must work (or be refused on purpose), else the probes
        // would only meet the refusal of another field.
        const control = await send(
          {
            route: route.key,
            field: '',
            family: 'type',
            variant: '',
            method: route.method,
            url: urlOf(route, base),
            body: route.method === 'GET' ? undefined : JSON.stringify(base.body ?? {}),
          },
          ENDS_TOKEN.has(route.key) ? await s.signIn(DEMO_USERS.admin) : admin,
        );
        await settled();
        // The write watch must see what a create writes, or every "changed nothing" is blind.
        const noted = await writes.take();
        if (control.status === 201 && noted.length === 0) {
          admins.failures.push(`${route.key}: created (201), yet the write watch noted nothing`);
        }
        const madeId = (jsonOf(control.text) as { data?: { id?: unknown } } | undefined)?.data?.id;
        if (route.collection !== undefined && route.method === 'POST' && typeof madeId === 'string')
          created.set(route.collection, madeId);
        const refusedOnPurpose =
          REFUSED_BASES[route.key] ??
          (route.collection !== undefined && route.method === 'DELETE'
            ? DELETES_NOTHING
            : undefined);
        if (control.status >= 300 && refusedOnPurpose === undefined) {
          admins.failures.push(
            `${route.key}: its valid request was refused (${control.status} ${control.text.slice(0, 200)}): give it one in knownBase, or name it in REFUSED_BASES with the reason`,
          );
        }
        for (const probe of probes) await check(probe, 'admin', admins);
        // A plain member (the technician) sends a sample: one probe of each route.
        const sample = probes[0];
        if (route.access !== 'public' && sample !== undefined) {
          await check(sample, 'member', members);
        }
        const health = await healthy();
        if (health !== undefined) admins.failures.push(`after ${route.key}: ${health}`);
      }
      // At the end the server still answers, signs in, and writes.
      const health = await healthy();
      if (health !== undefined) admins.failures.push(`at the end: ${health}`);
      const fresh = await s.signIn(DEMO_USERS.admin);
      const asset = await s.call('POST', apiPaths.collection('assets'), {
        token: fresh,
        json: { name: 'After the sweep' },
      });
      if (asset.status !== 201) {
        admins.failures.push(`at the end a valid write failed: ${asset.status} ${asset.text}`);
      }
      const failures = [...admins.failures, ...members.failures];
      const summary = `seed ${SEED}: ${admins.sent} requests as the admin, ${members.sent} as a member, ${admins.refused + members.refused} refused, in ${Math.round(performance.now() - started)} ms`;
      expect(
        failures,
        `${failures.length} failures (${summary}; all again: ${rerun()}):\n${failures.join('\n')}`,
      ).toEqual([]);
    },
    FULL ? 24 * 3_600_000 : 600_000,
  );
});
