import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  DASHBOARD_TEXTS,
  mqttlogsAnswerSchema,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_DASHBOARD, DEMO_USERS } from '../seed/demo';
import { roleId } from '../testing/access';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * Dashboards (issue 31 item 1) through the generic model routes: the demo's "Plant overview",
 * who sees which (an account's dashboard by its type's permission; an asset's only by who sees
 * the asset) and who may change them (dashboard::edit, and for an asset's the asset's edit right).
 */
let s: TestServer;
let admin = '';
let tech = '';
let account = '';

const ofType = (models: readonly SyncedModel[], type: string) =>
  models.filter((m) => m.type === type);
const assetNamed = async (name: string) => {
  const found = ofType(await s.snapshot(admin), 'asset').find((m) => m.attributes.name === name);
  if (found === undefined) throw new Error(`no asset ${name}`);
  return found;
};
const create = async (json: Record<string, unknown>, token = admin) => {
  const made = await s.call('POST', apiPaths.collection('dashboards'), { token, json });
  expect(made.status).toBe(201);
  return (made.json as { data: SyncedModel }).data;
};
const put = (id: string, json: unknown, token: string) =>
  s.call('PUT', apiPaths.model('dashboards', id), { token, json });

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  account = (await s.demoAccountIds()).root;
});
afterAll(() => s.close());

describe('dashboards', () => {
  it("the demo's Plant overview is the account's, with six kinds of widget over its machines' streams", async () => {
    const models = await s.snapshot(admin);
    const overview = ofType(models, 'dashboard').find((d) => d.attributes.name === DEMO_DASHBOARD);
    expect(overview?.attributes.asset_id).toBeNull();
    const widgets = overview?.attributes.widgets as { type: string; streams: string[] }[];
    expect(new Set(widgets.map((w) => w.type))).toEqual(
      new Set(['value', 'line', 'gauge', 'state', 'alarms', 'table']),
    );
    const streams = new Set(ofType(models, 'datastream').map((m) => m.id));
    const named = widgets.flatMap((w) => w.streams);
    expect(named.length).toBeGreaterThan(6);
    for (const id of named) expect(streams.has(id)).toBe(true);
  });

  it("a technician sees the account's dashboards and those of the assets it sees, changes none without dashboard::edit", async () => {
    const seen = await assetNamed('Press line 2');
    const unseen = await assetNamed('Packaging line P1');
    const ofSeen = await create({ name: 'Press 2 board', asset_id: seen.id });
    const ofUnseen = await create({ name: 'Packaging board', asset_id: unseen.id });
    const ofAccount = await create({ name: 'Hall board' });

    const names = ofType(await s.snapshot(tech), 'dashboard').map((d) => d.attributes.name);
    expect(names).toContain(DEMO_DASHBOARD);
    expect(names).toContain('Hall board');
    expect(names).toContain('Press 2 board');
    expect(names).not.toContain('Packaging board');
    expect(
      (await s.call('GET', apiPaths.graph('dashboard', ofAccount.id), { token: tech })).status,
    ).toBe(200);
    // One it does not see is unknown to it.
    expect(
      (await s.call('GET', apiPaths.graph('dashboard', ofUnseen.id), { token: tech })).status,
    ).toBe(404);

    // dashboard::view only: every change is refused, the account's and an asset's alike.
    for (const d of [ofAccount, ofSeen]) {
      const refused = await put(d.id, { name: 'Changed' }, tech);
      expect(refused.status).toBe(403);
    }
    const made = await s.call('POST', apiPaths.collection('dashboards'), {
      token: tech,
      json: { name: 'Mine' },
    });
    expect(made.status).toBe(403);
    // The change log says so too: the account's change whole, the unseen asset's a stand-in.
    const before = mqttlogsAnswerSchema.parse(
      (await s.call('GET', apiPaths.mqttlogs(0), { token: tech })).json,
    ).through;
    expect((await put(ofAccount.id, { name: 'Hall overview' }, admin)).status).toBe(200);
    expect((await put(ofUnseen.id, { name: 'Packaging overview' }, admin)).status).toBe(200);
    const logs = mqttlogsAnswerSchema.parse(
      (await s.call('GET', apiPaths.mqttlogs(before?.ts ?? 0), { token: tech })).json,
    );
    const messages = logs.data.map((d) => d.msg);
    expect(messages).toMatchObject([
      { action: 'attributes_updated', attributes: { name: 'Hall overview' } },
      { action: 'hidden' },
    ]);
    expect(JSON.stringify(logs)).not.toContain('Packaging');
  });

  it("with dashboard::edit, the account's dashboards are changed by the permission alone, an asset's by the asset's edit right", async () => {
    const viewed = await assetNamed('Press line 2'); // seen, not edited
    const edited = await assetNamed('Press line 1'); // seen and edited
    const ofViewed = await create({ name: 'Viewed board', asset_id: viewed.id });
    const ofEdited = await create({ name: 'Edited board', asset_id: edited.id });
    const ofAccount = await create({ name: 'Account board' });
    const technician = await roleId(s.db, account, 'technician');
    await s.db
      .insertInto('permissions')
      .values({
        id: `perm-dashboard-edit-${Date.now()}`,
        name: 'dashboard::edit',
        role_id: technician,
        user_id: null,
        guard_name: 'api',
        account_id: account,
      })
      .execute();
    const widgets = [{ id: 'w1', type: 'text', x: 0, y: 0, w: 6, h: 4, options: {} }];
    expect((await put(ofAccount.id, { widgets }, tech)).status).toBe(200);
    expect((await put(ofEdited.id, { widgets }, tech)).status).toBe(200);
    expect((await put(ofViewed.id, { widgets }, tech)).status).toBe(403);
    // An asset's dashboard stays its asset's: it cannot be moved to the account.
    expect((await put(ofEdited.id, { asset_id: null }, tech)).status).toBe(422);
  });

  it("an asset's dashboard shows that asset's streams only, as the server has them stored", async () => {
    const one = await assetNamed('Press line 1');
    const two = await assetNamed('Press line 2');
    const streams = ofType(await s.snapshot(admin), 'datastream');
    const ofOne = streams.find((m) => m.attributes.asset_id === one.id);
    const ofTwo = streams.find((m) => m.attributes.asset_id === two.id);
    if (ofOne === undefined || ofTwo === undefined) throw new Error('no streams');
    const line = (stream: string) => [
      { id: 'w1', type: 'line', x: 0, y: 0, w: 12, h: 8, streams: [stream], options: {} },
    ];
    const board = await create({
      name: 'Press 1 board',
      asset_id: one.id,
      widgets: line(ofOne.id),
    });
    const refused = await put(board.id, { widgets: line(ofTwo.id) }, admin);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(DASHBOARD_TEXTS.streamOfOtherAsset);
    const made = await s.call('POST', apiPaths.collection('dashboards'), {
      token: admin,
      json: { name: 'Mixed board', asset_id: one.id, widgets: line(ofTwo.id) },
    });
    expect(made.status).toBe(422);
    // The account's dashboard may show both.
    const shared = await create({ name: 'Both', widgets: line(ofTwo.id) });
    expect((await put(shared.id, { widgets: line(ofOne.id) }, admin)).status).toBe(200);
  });
});
