import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  mqttlogsAnswerSchema,
  topics,
  type CurrentUser,
  type ModelUpdate,
  type SyncedModel,
  type UpdateMessage,
  type Watermark,
} from '@plant/shared-schema';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { DEMO_USERS, TECHNICIAN_MACHINES } from '../seed/demo';
import { roleId } from '../testing/access';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, collect, settle, until } from '../testing/mqtt-client';

/*
 * Access per asset and per field (DESIGN.md §10), as the demo technician meets it: its role sees
 * four of the root account's twelve machines, edits the first, and never sees a machine's
 * description. Every path obeys the same decision: snapshot, graph, mqttlogs, the live topic,
 * values and writes.
 */
let s: TestServer;
let admin = '';
let tech = '';
let account = '';
const { session, connect, closeAll } = brokerClients(() => s);

interface Snapshot {
  models: SyncedModel[];
  total: number;
  next_cursor: string | null;
}

const snapshotOf = (token: string) => s.snapshot(token);

const assets = (models: readonly SyncedModel[]) => models.filter((m) => m.type === 'asset');
const byName = async (name: string) => {
  const found = assets(await snapshotOf(admin)).find((m) => m.attributes.name === name);
  if (found === undefined) throw new Error(`no asset ${name}`);
  return found;
};
const put = (collection: string, id: string, json: unknown, token: string) =>
  s.call('PUT', apiPaths.model(collection, id), { token, json });

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  account = (await s.demoAccountIds()).root;
});
afterEach(() => closeAll());
afterAll(() => s.close());

describe('access per asset and field', () => {
  it('the snapshot holds the machines given to the role, their groups and streams, and no description', async () => {
    const everything = await snapshotOf(admin);
    // The twelve demo machines and the demo smartphone.
    expect(assets(everything)).toHaveLength(13);
    expect(assets(everything).every((a) => typeof a.attributes.description === 'string')).toBe(
      true,
    );

    const seen = await snapshotOf(tech);
    const machines = assets(seen);
    expect(machines.map((m) => m.attributes.name).sort()).toEqual(
      ['Press line 1', 'Press line 2', 'Laser cutter LC-3000', 'Bending cell B4'].sort(),
    );
    expect(machines).toHaveLength(TECHNICIAN_MACHINES);
    for (const m of machines) expect(m.attributes).not.toHaveProperty('description');
    const given = new Set(machines.map((m) => m.id));
    const under = seen.filter((m) => m.type === 'datastreamgroup' || m.type === 'datastream');
    expect(under.length).toBeGreaterThan(0);
    for (const m of under) expect(given.has(String(m.attributes.asset_id))).toBe(true);
    // Exactly the streams of those machines, no more, no fewer.
    const theirs = everything.filter(
      (m) =>
        (m.type === 'datastreamgroup' || m.type === 'datastream') &&
        given.has(String(m.attributes.asset_id)),
    );
    expect(under.map((m) => m.id).sort()).toEqual(theirs.map((m) => m.id).sort());
    // The count the first page announces is what arrives.
    const first = dataOf<Snapshot>(
      await s.call('GET', apiPaths.snapshot(undefined, 100), { token: tech }),
    );
    expect(first.total).toBe(seen.length);
    // Not a word of a machine it does not see.
    expect(JSON.stringify(seen)).not.toContain('Packaging line P1');
  });

  it('graph, values and writes: a machine not given is unknown, one without edit rights refused, a hidden field refused', async () => {
    const edited = await byName('Press line 1');
    const viewed = await byName('Press line 2');
    const hidden = await byName('Packaging line P1');

    expect((await s.call('GET', apiPaths.graph('asset', hidden.id), { token: tech })).status).toBe(
      404,
    );
    const graph = dataOf<{ model: SyncedModel; children: SyncedModel[] }>(
      await s.call('GET', apiPaths.graph('asset', viewed.id), { token: tech }),
    );
    expect(graph.model.attributes).not.toHaveProperty('description');
    expect(graph.model.attributes.name).toBe('Press line 2');
    expect(graph.children.length).toBeGreaterThan(0);

    expect((await s.call('GET', apiPaths.latestValues(hidden.id), { token: tech })).status).toBe(
      404,
    );
    expect((await s.call('GET', apiPaths.latestValues(viewed.id), { token: tech })).status).toBe(
      200,
    );

    expect((await put('assets', hidden.id, { name: 'Taken' }, tech)).status).toBe(404);
    const refused = await put('assets', viewed.id, { name: 'Renamed' }, tech);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      message: 'Please ask your administrator for the necessary permissions',
    });
    expect((await put('assets', edited.id, { description: 'x' }, tech)).status).toBe(403);
    const changed = await put('assets', edited.id, { name: 'Press line 1 (serviced)' }, tech);
    expect(changed.status).toBe(200);
    const answer = changed.json as { data: SyncedModel; _events: ModelUpdate[] };
    expect(answer.data.attributes).not.toHaveProperty('description');
    expect(answer._events.map((e) => e.action)).toEqual(['attributes_updated']);
    // Nothing of the refused writes landed.
    expect((await byName('Press line 2')).attributes.name).toBe('Press line 2');
    expect((await byName('Packaging line P1')).attributes.name).toBe('Packaging line P1');
    await put('assets', edited.id, { name: 'Press line 1' }, admin);
  });

  it('mqttlogs and the live topic: a machine not given travels as stand-ins, a given one without hidden fields', async () => {
    const viewed = await byName('Press line 2');
    const hidden = await byName('Laser cutter LC-3000').then(() => byName('CNC mill M12'));
    const techSession = await session(DEMO_USERS.tech);
    const client = await connect(techSession.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.modelUpdates(account));
    const before = (await s.call('GET', apiPaths.mqttlogs(0), { token: tech })).json as {
      through: Watermark;
    };

    const events: ModelUpdate[] = [];
    for (const [id, json] of [
      [hidden.id, { name: 'CNC mill M12 (moved)' }],
      [viewed.id, { name: 'Press line 2 (checked)', description: 'Checked on Tuesday' }],
      [viewed.id, { description: 'Only the description' }],
    ] as const) {
      const res = await put('assets', id, json, admin);
      events.push(...(res.json as { _events: ModelUpdate[] })._events);
    }
    expect(events).toHaveLength(3);
    await until(() => got.length === 3);
    await settle();
    const live = got.map((g) => g.payload as UpdateMessage);
    const expected = [
      { action: 'hidden', seq: events[0]?.seq },
      {
        action: 'attributes_updated',
        seq: events[1]?.seq,
        attributes: { name: 'Press line 2 (checked)' },
      },
      { action: 'hidden', seq: events[2]?.seq },
    ];
    expect(live).toMatchObject(expected);
    expect((live[1] as ModelUpdate).attributes).toEqual({ name: 'Press line 2 (checked)' });
    const logs = mqttlogsAnswerSchema.parse(
      (await s.call('GET', apiPaths.mqttlogs(before.through.ts), { token: tech })).json,
    );
    expect(logs.data.map((d) => d.msg)).toEqual(live);
    for (const text of ['CNC mill', 'Checked on Tuesday', 'Only the description']) {
      expect(JSON.stringify(got)).not.toContain(text);
      expect(JSON.stringify(logs)).not.toContain(text);
    }
    for (const [id, name] of [
      [hidden.id, 'CNC mill M12'],
      [viewed.id, 'Press line 2'],
    ] as const) {
      await put('assets', id, { name }, admin);
    }
  });

  it('a group moved from a given machine to one not given leaves the technician as item_deleted, live and in mqttlogs', async () => {
    const from = await byName('Press line 2');
    const to = await byName('CNC mill M12');
    const all = await snapshotOf(admin);
    const group = all.find(
      (m) => m.type === 'datastreamgroup' && m.attributes.asset_id === from.id,
    );
    if (group === undefined) throw new Error('no group');
    const streams = all.filter(
      (m) => m.type === 'datastream' && m.attributes.group_id === group.id,
    );
    expect(streams.length).toBeGreaterThan(0);
    const techSession = await session(DEMO_USERS.tech);
    const client = await connect(techSession.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.modelUpdates(account));
    const before = (await s.call('GET', apiPaths.mqttlogs(0), { token: tech })).json as {
      through: Watermark;
    };

    const moved = await put('datastreamgroups', group.id, { asset_id: to.id }, admin);
    expect(moved.status).toBe(200);
    const events = (moved.json as { _events: ModelUpdate[] })._events;
    // The old asset's id is the server's to know: no answer carries it.
    expect(JSON.stringify(events)).not.toContain('asset_was');
    await until(() => got.length === events.length, 10_000);
    await settle();
    const live = got.map((g) => g.payload as UpdateMessage);
    const logs = mqttlogsAnswerSchema.parse(
      (await s.call('GET', apiPaths.mqttlogs(before.through.ts), { token: tech })).json,
    );
    expect(logs.data.map((d) => d.msg)).toEqual(live);
    // The group and each of its streams go from the technician's store; nothing names the
    // asset it went to.
    const gone = live.filter((m) => m.action === 'item_deleted').map((m) => (m as ModelUpdate).id);
    expect(gone.sort()).toEqual([group.id, ...streams.map((x) => x.id)].sort());
    expect(JSON.stringify(live)).not.toContain(to.id);
    expect(JSON.stringify(live)).not.toContain('asset_was');
    // The technician's graph of the old machine no longer has them.
    const graph = dataOf<{ children: SyncedModel[] }>(
      await s.call('GET', apiPaths.graph('asset', from.id), { token: tech }),
    );
    expect(graph.children.some((c) => c.id === group.id)).toBe(false);
    await put('datastreamgroups', group.id, { asset_id: from.id }, admin);
  });

  it("live values: a machine not given refuses its topic, and `+` carries only the given machines' values", async () => {
    const viewed = await byName('Press line 2');
    const hidden = await byName('Welding robot W7');
    const techSession = await session(DEMO_USERS.tech);
    const client = await connect(techSession.creds);
    const got = collect(client);
    await expect(client.subscribeAsync(topics.assetValues(account, hidden.id))).rejects.toThrow(
      /Subscribe error/,
    );
    const granted = await client.subscribeAsync(topics.assetValues(account, '+'));
    expect(granted.map((g) => g.qos)).toEqual([0]);
    for (const asset of [hidden, viewed]) {
      s.broker.publishValues(
        topics.assetValues(account, asset.id),
        JSON.stringify({ asset: asset.id, values: [] }),
      );
    }
    await until(() => got.length >= 1);
    await settle();
    expect(got.map((g) => g.topic)).toEqual([topics.assetValues(account, viewed.id)]);
  });

  it("GET user says which assets the user may change (the browser's pencils): the technician the first machine, the admin every one, and follows a change of the role", async () => {
    const access = async (token: string) =>
      dataOf<CurrentUser>(await s.call('GET', apiPaths.user(), { token })).access;
    const edited = await byName('Press line 1');
    const viewed = await byName('Press line 2');
    expect(await access(admin)).toEqual({ allAssets: true, edit: [], hidden: {} });
    expect(await access(tech)).toEqual({
      allAssets: false,
      edit: [edited.id],
      hidden: { asset: ['description'] },
    });
    // Another account's user is told of its own account only.
    expect(await access(await s.signIn(DEMO_USERS.south))).toMatchObject({ edit: [] });
    expect((await s.call('GET', apiPaths.user(), {})).status).toBe(401);
    const technician = await roleId(s.db, account, 'technician');
    const grants = new AssetAccessRepository(s.db);
    await grants.grant(account, technician, viewed.id, true);
    expect((await access(tech))?.edit.sort()).toEqual([edited.id, viewed.id].sort());
    await grants.grant(account, technician, viewed.id, false);
    expect((await access(tech))?.edit).toEqual([edited.id]);
  });

  it('a change of the role reaches its users at once: an asset given is in the snapshot, taken away it is gone', async () => {
    const welding = await byName('Welding robot W7');
    const technician = await roleId(s.db, account, 'technician');
    const grants = new AssetAccessRepository(s.db);
    await grants.grant(account, technician, welding.id, false);
    expect(assets(await snapshotOf(tech)).map((m) => m.id)).toContain(welding.id);
    await grants.revoke(account, technician, welding.id);
    expect(assets(await snapshotOf(tech)).map((m) => m.id)).not.toContain(welding.id);
  });

  it('a user whose roles see only given machines sees and edits the machine it creates', async () => {
    const technician = await roleId(s.db, account, 'technician');
    await s.db
      .insertInto('permissions')
      .values({
        id: `perm-create-${Date.now()}`,
        name: 'asset::create',
        role_id: technician,
        user_id: null,
        guard_name: 'api',
        account_id: account,
      })
      .execute();
    const made = await s.call('POST', apiPaths.collection('assets'), {
      token: tech,
      json: { name: 'Made by the technician' },
    });
    expect(made.status).toBe(201);
    const id = (made.json as { data: SyncedModel }).data.id;
    expect(assets(await snapshotOf(tech)).map((m) => m.id)).toContain(id);
    expect((await put('assets', id, { name: 'Made and renamed' }, tech)).status).toBe(200);
  });

  it('a role that grants no view of assets widens nothing, even with every asset open', async () => {
    // The help centre's view: nothing of it lives under assets (dashboards do since issue 31).
    const dashboards = `role-dashboards-${Date.now()}`;
    await s.db
      .insertInto('roles')
      .values({
        id: dashboards,
        account_id: account,
        slug: dashboards,
        name: 'Dashboards',
        all_assets: 1,
      })
      .execute();
    await s.db
      .insertInto('permissions')
      .values({
        id: `${dashboards}-p`,
        name: 'helpcenter::view',
        role_id: dashboards,
        user_id: null,
        guard_name: 'api',
        account_id: account,
      })
      .execute();
    const techId = (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.tech)
        .executeTakeFirstOrThrow()
    ).id;
    await s.db
      .insertInto('memberships')
      .values({
        user_id: techId,
        account_id: account,
        role_id: dashboards,
        created_at: new Date().toISOString(),
      })
      .execute();
    const seen = assets(await snapshotOf(tech));
    expect(seen.length).toBeLessThan(12);
    for (const m of seen) expect(m.attributes).not.toHaveProperty('description');
  });

  it('a field-restricted user writes from the app: the write meta is no hidden field', async () => {
    const edited = await byName('Press line 1');
    const answer = await put(
      'assets',
      edited.id,
      { name: 'Press line 1', mutation_id: `m-${Date.now()}`, id: edited.id },
      tech,
    );
    expect(answer.status).toBe(200);
  });
});
