import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, ERROR_TEXTS } from '@plant/shared-schema';
import { DEMO_USERS } from '../../../server/src/seed/demo';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness';
import { MemoryLogger } from '../log';
import { ApiClient, type Feedback } from './http';

/*
 * The API client against a scripted HTTP server (to answer what our server never would: empty
 * bodies, junk) and against the real server (requestFailed really stored, auth headers).
 */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let scripted: http.Server;
let origin = '';
const seen: Seen[] = [];
const answers = new Map<string, { status: number; body: string }>();

beforeAll(async () => {
  scripted = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      // A server (or a proxy on the way) that took the request and never answers.
      if (req.url?.startsWith('/api/v1/silent') === true) return;
      const answer = answers.get(req.url ?? '') ?? { status: 200, body: '{"data":null}' };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => scripted.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      scripted.close(() => r());
      scripted.closeAllConnections();
    }),
);

function client(token: string | null = 'tok') {
  const feedback: Feedback[] = [];
  const events: unknown[] = [];
  const checks: unknown[] = [];
  const api = new ApiClient({
    origin,
    token: () => token,
    appUrl: () => 'http://app.local/app/devices',
    log: new MemoryLogger(),
  });
  api.listen({
    feedback: (f) => feedback.push(f),
    events: (e) => events.push(...e),
    permissionChecks: (c) => checks.push(...c),
  });
  return { api, feedback, events, checks };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('the API client', () => {
  it('sends the bearer token and the XMLHttpRequest marker under /api/v1/', async () => {
    const { api } = client('secret-token');
    await api.get('user');
    const last = seen.at(-1);
    expect(last?.url).toBe('/api/v1/user');
    expect(last?.headers.authorization).toBe('Bearer secret-token');
    expect(last?.headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it('applies the envelope: _events, _permissionChecks, message with translationParams', async () => {
    const update = {
      action: 'attributes_updated',
      type: 'asset',
      id: 'a1',
      muid: 'm1',
      ts: 5,
      seq: 3,
      attributes: { name: 'x' },
    };
    answers.set('/api/v1/envelope', {
      status: 200,
      body: JSON.stringify({
        data: 1,
        message: 'Saved {name}',
        translationParams: { name: 'Press' },
        _events: [update, { junk: true }],
        _permissionChecks: [{ permission: 'asset::edit' }],
      }),
    });
    const { api, feedback, events, checks } = client();
    const result = await api.get('envelope');
    expect(result).toMatchObject({ ok: true, data: { data: 1 } });
    expect(events).toEqual([update]);
    expect(checks).toEqual([{ permission: 'asset::edit' }]);
    expect(feedback).toEqual([
      { kind: 'success', message: 'Saved {name}', translationParams: { name: 'Press' } },
    ]);
  });

  it("an empty body is 'Error in endpoint occured', reported to requestFailed", async () => {
    answers.set('/api/v1/empty', { status: 200, body: '' });
    const before = seen.length;
    const { api, feedback } = client();
    const result = await api.get('empty');
    expect(result).toEqual({
      ok: false,
      error: { kind: 'empty', status: 200, message: ERROR_TEXTS.emptyBody },
    });
    expect(feedback).toEqual([{ kind: 'error', message: ERROR_TEXTS.emptyBody }]);
    await settle();
    const report = seen.slice(before).find((s) => s.url === '/api/v1/requestFailed');
    expect(JSON.parse(report?.body ?? '{}')).toEqual({
      path: 'empty',
      status: 200,
      message: ERROR_TEXTS.emptyBody,
      appUrl: 'http://app.local/app/devices',
      params: { method: 'GET' },
    });
  });

  it('a 204 without a body is a success: no feedback, nothing reported', async () => {
    answers.set('/api/v1/gone', { status: 204, body: '' });
    const before = seen.length;
    const { api, feedback } = client();
    expect(await api.call('DELETE', 'gone')).toEqual({ ok: true, status: 204, data: null });
    expect(feedback).toEqual([]);
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/api/v1/gone']);
  });

  it("a failure without a message is 'An unknown error occured.'; with one, its message and fields", async () => {
    answers.set('/api/v1/bare', { status: 500, body: '{}' });
    answers.set('/api/v1/said', {
      status: 422,
      body: JSON.stringify({
        success: false,
        message: 'Name is required',
        errors: { name: ['Name is required'] },
      }),
    });
    const { api, feedback } = client();
    expect(await api.get('bare')).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 500, message: ERROR_TEXTS.unknown },
    });
    expect(await api.get('said')).toMatchObject({
      ok: false,
      error: { status: 422, message: 'Name is required', fields: { name: ['Name is required'] } },
    });
    expect(feedback.map((f) => f.message)).toEqual([ERROR_TEXTS.unknown, 'Name is required']);
  });

  it('a raw call answers status and body as they came, and nothing else happens', async () => {
    const update = { action: 'item_deleted', type: 'asset', id: 'a1', muid: 'm', ts: 1, seq: 1 };
    answers.set('/api/v1/raw-refused', {
      status: 403,
      body: JSON.stringify({ success: false, message: 'Not allowed', _events: [update] }),
    });
    answers.set('/api/v1/raw-text', { status: 200, body: 'not json' });
    const { api, feedback, events } = client();
    expect(await api.get('raw-refused', { raw: true })).toEqual({
      ok: true,
      status: 403,
      data: { status: 403, body: { success: false, message: 'Not allowed', _events: [update] } },
    });
    expect(await api.get('raw-text', { raw: true })).toMatchObject({
      data: { status: 200, body: 'not json' },
    });
    expect(feedback).toEqual([]);
    expect(events).toEqual([]);
  });

  it('never reports a failure of requestFailed itself or of terminalBridge', async () => {
    await settle(); // reports of the tests before have arrived
    answers.set('/api/v1/requestFailed', { status: 500, body: '' });
    answers.set('/api/v1/terminalBridge/x', { status: 500, body: '' });
    const before = seen.length;
    const { api } = client();
    await api.call('POST', apiPaths.requestFailed(), { body: { path: 'x', status: 1 } });
    await api.get('terminalBridge/x');
    await settle();
    expect(seen.slice(before).map((s) => s.url)).toEqual([
      '/api/v1/requestFailed',
      '/api/v1/terminalBridge/x',
    ]);
    answers.delete('/api/v1/requestFailed');
  });

  it('no answer at all is a network failure: nothing to report, nothing shown', async () => {
    const { feedback } = client();
    const api = new ApiClient({
      origin: 'http://127.0.0.1:1',
      token: () => null,
      appUrl: () => '',
      log: new MemoryLogger(),
    });
    const result = await api.get('user');
    expect(result).toMatchObject({ ok: false, error: { kind: 'network', status: 0 } });
    expect(feedback).toEqual([]);
  });

  it('a call not answered in time ends as no answer, and the next call is answered', async () => {
    const feedback: Feedback[] = [];
    const api = new ApiClient({
      origin,
      token: () => 'tok',
      appUrl: () => '',
      log: new MemoryLogger(),
      answerWithinMs: 300,
    });
    api.listen({ feedback: (f) => feedback.push(f) });
    const result = await api.call('POST', 'silent/assets', { body: [{ name: 'A' }], quiet: true });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'network', status: 0, message: 'No answer within 1 s.' },
    });
    expect(seen.at(-1)?.url).toBe('/api/v1/silent/assets');
    expect(await api.get('user')).toMatchObject({ ok: true, status: 200 });
    expect(feedback).toEqual([]);
  });

  it("a caller's own stop still ends the call as before, not as no answer in time", async () => {
    const api = new ApiClient({
      origin,
      token: () => 'tok',
      appUrl: () => '',
      log: new MemoryLogger(),
      answerWithinMs: 60_000,
    });
    const stop = new AbortController();
    const pending = api.get('silent/stopped', { signal: stop.signal, quiet: true });
    setTimeout(() => stop.abort(), 100);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { kind: 'network', status: 0 } });
    expect(result.ok ? '' : result.error.message).not.toMatch(/^No answer within/);
  });
});

describe('against the real server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('a failed call is stored by the server as a client report', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const api = new ApiClient({
      origin: s.url,
      token: () => token,
      appUrl: () => 'http://app.local/x',
      log: new MemoryLogger(),
    });
    const result = await api.get(apiPaths.graph('asset', 'no-such-asset'));
    expect(result).toMatchObject({ ok: false, error: { status: 404 } });
    let reports: { path: string; status: number }[] = [];
    for (let i = 0; i < 40 && reports.length === 0; i++) {
      await settle();
      reports = await s.db.selectFrom('client_errors').select(['path', 'status']).execute();
    }
    expect(reports).toEqual([{ path: 'graph/asset/no-such-asset', status: 404 }]);
  });

  it('a DELETE answered 204 (a revoked access token) is a success, with nothing reported', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const made = await s.call('POST', apiPaths.personalAccessTokens(), {
      token,
      json: { name: 'to revoke', scopes: [] },
    });
    const id = (made.json as { token: { id: string } }).token.id;
    const api = new ApiClient({
      origin: s.url,
      token: () => token,
      appUrl: () => 'http://app.local/x',
      log: new MemoryLogger(),
    });
    expect(await api.call('DELETE', apiPaths.personalAccessToken(id))).toEqual({
      ok: true,
      status: 204,
      data: null,
    });
    expect(await s.db.selectFrom('client_errors').select('path').execute()).not.toContainEqual({
      path: apiPaths.personalAccessToken(id),
    });
  });

  it('a text answer (the account stylesheet) comes back as the string itself', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const api = new ApiClient({
      origin: s.url,
      token: () => token,
      appUrl: () => 'http://app.local/x',
      log: new MemoryLogger(),
    });
    const result = await api.call<string>('GET', apiPaths.style(), { text: true });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.data).toMatch(/^:root \{/);
  });
});
