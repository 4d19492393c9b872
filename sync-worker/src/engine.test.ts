import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { localState, SyncFixture, until, type Session } from './testing/sync-fixture';

let f: SyncFixture;
let admin: Session;

beforeAll(async () => {
  f = await SyncFixture.start();
  admin = await f.session(DEMO_USERS.admin);
});
afterAll(() => f.close());

describe('the sync engine against the real server and broker', () => {
  it('bootstraps the account into the local store, equal to the server', async () => {
    const engine = await f.engine(admin, { snapshotPage: 25 });
    const progress: number[] = [];
    engine.onStatus((s) => {
      if (s.bootstrap.name === 'loading') progress.push(s.bootstrap.progress);
    });
    await until('bootstrap', () => engine.status.bootstrap.name === 'done');
    expect(await localState(engine)).toEqual(await f.serverState(admin.accountId));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(engine.status.bootstrap).toEqual({ name: 'done' });
    await f.stopEngine(engine);
  });

  it('a change by another client arrives through the broker', async () => {
    const engine = await f.engine(admin);
    await until('connected and subscribed', () => {
      const c = engine.status.connection;
      return engine.status.bootstrap.name === 'done' && c.name === 'connected' && c.subscribed;
    });
    const res = await f.server.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Made elsewhere' },
    });
    const id = (res.json as { data: { id: string } }).data.id;
    await until('the new asset', async () => (await engine.get('asset', id)) !== null);
    expect((await engine.get('asset', id))?.attributes.name).toBe('Made elsewhere');
    await f.stopEngine(engine);
  });

  it('a local write shows at once, is sent, and the server has it once', async () => {
    const engine = await f.engine(admin);
    await until('bootstrap', () => engine.status.bootstrap.name === 'done');
    const created = await engine.create('asset', { name: 'Made here' });
    if (!('data' in created)) throw new Error(created.error.message);
    const local = await engine.get('asset', created.data.id);
    expect(local?.attributes.name).toBe('Made here');
    expect(local?.pending).toBe(true);
    await until('sent', () => engine.status.pendingWrites === 0);
    const rows = await f.server.db
      .selectFrom('models')
      .select('id')
      .where('id', '=', created.data.id)
      .execute();
    expect(rows).toHaveLength(1);
    await until(
      'confirmed',
      async () => (await engine.get('asset', created.data.id))?.pending === false,
    );
    await f.stopEngine(engine);
  });

  it('a write the server refuses is rolled back and reported with its message', async () => {
    const engine = await f.engine(admin);
    await until('bootstrap', () => engine.status.bootstrap.name === 'done');
    const created = await engine.create('asset', { name: 'To be renamed' });
    if (!('data' in created)) throw new Error(created.error.message);
    await until('sent', () => engine.status.pendingWrites === 0);
    const events: string[] = [];
    engine.onEvent((e) => {
      if (e.name === 'write-rejected') events.push(e.message);
    });
    // A reference the server does not know: valid by the schema, refused by the server.
    await engine.update('asset', created.data.id, {
      gateway_id: '01890a5d-ac96-774b-bcce-b302099a8057',
    });
    expect((await engine.get('asset', created.data.id))?.attributes.gateway_id).toBe(
      '01890a5d-ac96-774b-bcce-b302099a8057',
    );
    await until('rejected', () => events.length === 1);
    expect(events).toEqual(['Unknown gateway.']);
    expect((await engine.get('asset', created.data.id))?.attributes.gateway_id).toBeNull();
    expect(engine.status.failedWrites).toBe(1);
    await f.stopEngine(engine);
  });
});
