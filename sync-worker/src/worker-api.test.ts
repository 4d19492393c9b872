import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, uuidv7 } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import type { QueryResult, SyncStatus, SyncWorkerApi } from './api';
import { MemoryLogger } from './log';
import { valuesDatabaseName } from './store/database-name';
import { listDatabases } from './store/indexeddb';
import { FAST, SyncFixture, until, type Session } from './testing/sync-fixture';
import { createWorkerApi } from './worker-api';

/*
 * The worker's contract as the page uses it (here without the Comlink hop; Comlink itself is
 * covered by the browser tests): sessions, account switch, sign-out, reads and their guards.
 */
let f: SyncFixture;
let admin: Session;

beforeAll(async () => {
  f = await SyncFixture.start();
  admin = await f.session(DEMO_USERS.admin);
});
afterAll(() => f.close());

function workerApi(fetchImpl?: typeof fetch): SyncWorkerApi {
  return createWorkerApi({
    log: new MemoryLogger(),
    env: f.env,
    engine: {
      timings: FAST,
      multiInstance: false,
      ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
    },
  });
}

function options(session: Session) {
  return {
    origin: f.server.url,
    token: session.token,
    userId: session.userId,
    accountId: session.accountId,
    browserId: `b-${uuidv7()}`,
    appUrl: 'http://app.local/',
  };
}

async function loaded(api: SyncWorkerApi): Promise<SyncStatus> {
  let status: SyncStatus | undefined;
  const off = await api.status.subscribe((s) => (status = s));
  await until('loaded', () => status?.bootstrap.name === 'done');
  off();
  if (status === undefined) throw new Error('no status');
  return status;
}

async function assetNames(api: SyncWorkerApi): Promise<string[]> {
  let result: QueryResult<'asset'> | undefined;
  const off = await api.data.subscribe({ type: 'asset', limit: 1000 }, (r) => (result = r));
  await until('a result', () => result !== undefined);
  off();
  return (result?.items ?? []).map((m) => m.attributes.name);
}

const northName = 'Customer North';

describe('the worker API', () => {
  it('live queries: search, windows and totals, and a change appears without asking again', async () => {
    const api = workerApi();
    await api.session.start(options(admin));
    await loaded(api);
    const results: QueryResult<'asset'>[] = [];
    const off = await api.data.subscribe(
      { type: 'asset', search: { text: 'press', fields: ['name'] }, limit: 2 },
      (r) => results.push(r),
    );
    await until('first result', () => results.length === 1);
    const first = results[0];
    expect(first?.items).toHaveLength(2);
    expect(first?.total).toBeGreaterThan(2);
    expect(first?.items.every((m) => m.attributes.name.toLowerCase().includes('press'))).toBe(true);
    const made = await api.writes.create('asset', { name: 'Another press' });
    expect('data' in made).toBe(true);
    await until('a changed result', () => results.length === 2);
    expect(results[1]?.total).toBe((first?.total ?? 0) + 1);
    off();
    await api.session.stop();
  });

  it('read: the graph into the store, with the spec 000 §5 guards', async () => {
    const graphCalls: string[] = [];
    const api = workerApi((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/graph/')) graphCalls.push(url);
      return fetch(input, init);
    });
    await api.session.start(options(admin));
    await loaded(api);
    const list = await assetNames(api);
    expect(list.length).toBeGreaterThan(0);
    expect(await api.data.read('gizmo', 'x')).toEqual({
      error: { kind: 'unknown-type', message: 'Invalid id or type given.' },
    });
    expect(await api.data.read('asset', '')).toMatchObject({
      error: { message: 'Invalid id or type given.' },
    });
    let result: QueryResult | undefined;
    const off = await api.data.subscribe({ type: 'asset', limit: 1 }, (r) => (result = r));
    await until('an asset', () => result !== undefined);
    off();
    const id = result?.items[0]?.id ?? '';
    const calls = () =>
      f.server.db
        .selectFrom('client_errors')
        .select('id')
        .execute()
        .then(() => undefined);
    await calls();
    const [a, b] = await Promise.all([api.data.read('asset', id), api.data.read('asset', id)]);
    expect(a).toMatchObject({ data: { id } });
    expect(b).toEqual({
      error: { kind: 'busy', message: 'The component already has a running request!' },
    });
    // Within a second the same read is answered from the first, not asked again.
    const again = await api.data.read('asset', id);
    expect(again).toEqual(a);
    expect(graphCalls).toHaveLength(1);
    await api.session.stop();
  });

  it('account switch: the old account’s models go, its unsent writes stay; the new account loads', async () => {
    const api = workerApi();
    await api.session.start(options(admin));
    await loaded(api);
    expect(await assetNames(api)).toContain('Press line 1');
    const north = await f.server.db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', northName)
      .executeTakeFirstOrThrow();
    // The server switches the active account first (the page calls setActiveAccount).
    const switched = await f.server.call(
      'POST',
      apiPaths.setActiveAccount(admin.userId, north.id),
      { token: admin.token },
    );
    expect(switched.status).toBe(200);
    const valuesDb = valuesDatabaseName(admin.userId, admin.accountId);
    expect(await listDatabases(f.env.indexedDB, () => [])).toContain(valuesDb);
    const result = await api.session.switchAccount(north.id, admin.token);
    expect('data' in result).toBe(true);
    await loaded(api);
    // The old account's cached machine values go with its models.
    expect(await listDatabases(f.env.indexedDB, () => [])).not.toContain(valuesDb);
    const names = await assetNames(api);
    expect(names).not.toContain('Press line 1');
    expect(names.length).toBeGreaterThan(0);
    // Back to the root account for the other tests.
    await f.server.call('POST', apiPaths.setActiveAccount(admin.userId, admin.accountId), {
      token: admin.token,
    });
    await api.session.switchAccount(admin.accountId, admin.token);
    await loaded(api);
    expect(await assetNames(api)).toContain('Press line 1');
    await api.session.stop();
  });

  it('sign-out deletes every IndexedDB database of the user', async () => {
    const api = workerApi();
    await api.session.start(options(admin));
    await loaded(api);
    // The models' databases and the machine values' cache.
    const mine = (n: string) => n.startsWith('rxdb-dexie-plant-') || n.startsWith('plant-values-');
    const before = (await listDatabases(f.env.indexedDB, () => [])).filter(mine);
    expect(before).toContain(valuesDatabaseName(admin.userId, admin.accountId));
    expect(before.length).toBeGreaterThan(1);
    await api.session.signOut();
    const after = (await listDatabases(f.env.indexedDB, () => [])).filter(mine);
    expect(after).toEqual([]);
  });

  it('calls before any session: sign-in and the current user through the worker, errors as values', async () => {
    const api = workerApi();
    expect(await api.http.call('GET', apiPaths.staticconf())).toMatchObject({
      error: { kind: 'not-started' },
    });
    api.http.configure({ origin: f.server.url, appUrl: 'http://app.local/' });
    const conf = await api.http.call('GET', apiPaths.staticconf());
    if (!('data' in conf)) throw new Error('staticconf failed');
    const clientId = (conf.data as { client_id: string }).client_id;
    const wrong = await api.http.call(
      'POST',
      apiPaths.token(),
      {
        grant_type: 'password',
        client_id: clientId,
        username: DEMO_USERS.admin,
        password: 'wrong-pass',
      },
      { quiet: true },
    );
    expect(wrong).toMatchObject({ error: { kind: 'http', status: 401 } });
    const me = await api.http.call('GET', apiPaths.user(), undefined, { token: admin.token });
    expect(me).toMatchObject({ data: { data: { id: admin.userId } } });
    const anonymous = await api.http.call('GET', apiPaths.user());
    expect(anonymous).toMatchObject({ error: { status: 401 } });
  });

  it("a call made while the session starts waits for it and carries the session's token", async () => {
    const api = workerApi();
    // The page renders the stored session at once and may call before the worker has opened it.
    const started = api.session.start(options(admin));
    const me = await api.http.call('GET', apiPaths.user());
    expect(me).toMatchObject({ data: { data: { id: admin.userId } } });
    await started;
    await api.session.stop();
  });

  it('session operations run one after another: two switches at once end in the last one', async () => {
    const api = workerApi();
    await api.session.start(options(admin));
    await loaded(api);
    const north = await f.server.db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', northName)
      .executeTakeFirstOrThrow();
    await f.server.call('POST', apiPaths.setActiveAccount(admin.userId, north.id), {
      token: admin.token,
    });
    // Both asked at once (a scan link and the start-up check): the second waits for the first.
    const [first, second] = await Promise.all([
      api.session.switchAccount(north.id, admin.token),
      api.session.switchAccount(admin.accountId, admin.token),
    ]);
    // The second switch ran after the first, from north back to the root account.
    expect('data' in first && first.data.accountId === north.id).toBe(true);
    expect('data' in second && second.data.accountId === admin.accountId).toBe(true);
    let status: SyncStatus | undefined;
    const off = await api.status.subscribe((st) => (status = st));
    off();
    expect(status?.accountId).toBe(admin.accountId);
    await f.server.call('POST', apiPaths.setActiveAccount(admin.userId, admin.accountId), {
      token: admin.token,
    });
    await api.session.stop();
  });

  it("sign-out without a running session deletes the named user's databases", async () => {
    const first = workerApi();
    await first.session.start(options(admin));
    await loaded(first);
    await first.session.stop();
    const prefix = 'rxdb-dexie-plant-';
    const names = async () =>
      (await listDatabases(f.env.indexedDB, () => [])).filter((n) => n.startsWith(prefix));
    expect((await names()).length).toBeGreaterThan(0);
    const fresh = workerApi();
    await fresh.session.signOut(admin.userId);
    expect(await names()).toEqual([]);
  });

  it('failure reports name the page the user is on now, as the page tells it', async () => {
    const api = workerApi();
    await api.session.start(options(admin));
    api.http.configure({ origin: f.server.url, appUrl: 'http://app.local/app/devices/list' });
    const failed = await api.http.call('GET', apiPaths.graph('asset', 'no-such-asset-1'));
    expect(failed).toMatchObject({ error: { status: 404 } });
    await until('the report', async () => {
      const rows = await f.server.db
        .selectFrom('client_errors')
        .select('app_url')
        .where('path', '=', 'graph/asset/no-such-asset-1')
        .execute();
      return rows.some((r) => r.app_url === 'http://app.local/app/devices/list');
    });
    await api.session.stop();
  });
});
