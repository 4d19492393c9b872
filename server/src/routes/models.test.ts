import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  assetModel,
  modelUpdateSchema,
  mqttlogsAnswerSchema,
  snapshotPageSchema,
  sortKeyOf,
  uuidv7,
  type ModelUpdate,
  type SyncedModel,
  type Watermark,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { createLogger } from '../logger';
import { LogPruner } from '../services/log-pruner';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { openEveryAsset, roleId } from '../testing/access';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
let admin = '';
let tech = '';
let rootAccount = '';
const published: { accountId: string; updates: readonly ModelUpdate[] }[] = [];

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  rootAccount = dataOf<{ account: string }>(
    await s.call('GET', apiPaths.user(), { token: admin }),
  ).account;
  s.feed.subscribe((accountId, updates) => published.push({ accountId, updates }));
});
afterAll(() => s.close());

type WriteBody = { success: boolean; data: SyncedModel | null; _events: ModelUpdate[] };

const post = (collection: string, json: unknown, token = admin) =>
  s.call('POST', apiPaths.collection(collection), { token, json });
const put = (collection: string, id: string, json: unknown, token = admin) =>
  s.call('PUT', apiPaths.model(collection, id), { token, json });
const del = (collection: string, id: string, json: unknown = {}, token = admin) =>
  s.call('DELETE', apiPaths.model(collection, id), { token, json });

async function logRows(accountId: string) {
  return s.db
    .selectFrom('model_updates')
    .select(['seq', 'ts', 'msg'])
    .where('account_id', '=', accountId)
    .orderBy('seq')
    .execute();
}

async function newAsset(name = 'Test asset') {
  const res = await post('assets', { name });
  expect(res.status).toBe(201);
  return (res.json as WriteBody).data as SyncedModel;
}

describe('generic writes and the change log', () => {
  it('create: the model, its updates in _events, the same rows in the log, published after commit', async () => {
    const before = (await logRows(rootAccount)).at(-1)?.seq ?? 0;
    published.length = 0;
    const res = await post('assets', { name: 'Lathe L-1', mac: '00:1B:44:11:3A:B7' });
    expect(res.status).toBe(201);
    const body = res.json as WriteBody;
    expect(body.data).toMatchObject({
      type: 'asset',
      parent_type: 'account',
      parent_id: rootAccount,
    });
    expect(body.data?.attributes).toMatchObject({
      name: 'Lathe L-1',
      mac: '00:1B:44:11:3A:B7',
      status: 'unknown',
    });
    expect(body._events.map((e) => [e.action, e.seq])).toEqual([
      ['updated', before + 1],
      ['child_created', before + 2],
    ]);
    expect(body._events[1]).toMatchObject({
      type: 'account',
      id: rootAccount,
      child_type: 'asset',
      child_id: body.data?.id,
    });
    const rows = await logRows(rootAccount);
    expect(rows.slice(-2).map((r) => modelUpdateSchema.parse(JSON.parse(r.msg)))).toEqual(
      body._events,
    );
    expect(published).toEqual([{ accountId: rootAccount, updates: body._events }]);
    expect(body.data?.last_seq).toBe(before + 1);
  });

  it('accepts a client-made UUIDv7 id; refuses another format and a taken id', async () => {
    const id = uuidv7();
    const made = await post('assets', { id, name: 'Made offline' });
    expect(made.status).toBe(201);
    expect((made.json as WriteBody).data?.id).toBe(id);
    const again = await post('assets', { id, name: 'Same id' });
    expect(again.status).toBe(409);
    const bad = await post('assets', { id: 'not-a-uuid', name: 'Bad id' });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ errors: { id: ['The id must be a UUIDv7.'] } });
  });

  it('update: attributes_updated with only the changed attributes; an unchanged write logs nothing', async () => {
    const asset = await newAsset('Before');
    const res = await put('assets', asset.id, { name: 'After', description: '' });
    expect(res.status).toBe(200);
    const body = res.json as WriteBody;
    expect(body._events).toHaveLength(1);
    expect(body._events[0]).toMatchObject({
      action: 'attributes_updated',
      type: 'asset',
      id: asset.id,
      attributes: { name: 'After' },
    });
    expect(body.data?.last_seq).toBe(body._events[0]?.seq);
    const last = (await logRows(rootAccount)).at(-1)?.seq;
    const same = await put('assets', asset.id, { name: 'After' });
    expect((same.json as WriteBody)._events).toEqual([]);
    expect((await logRows(rootAccount)).at(-1)?.seq).toBe(last);
  });

  it('delete: the asset with its groups and streams, item_deleted for each and child_deleted on the account', async () => {
    const asset = await newAsset('To delete');
    const group = (await post('datastreamgroups', { asset_id: asset.id, name: 'Drive' }))
      .json as WriteBody;
    const stream = await post('datastreams', {
      asset_id: asset.id,
      group_id: group.data?.id,
      name: 'Speed',
      unit: 'rpm',
    });
    expect(stream.status).toBe(201);
    const res = await del('assets', asset.id);
    expect(res.status).toBe(200);
    const events = (res.json as WriteBody)._events;
    expect(events.map((e) => [e.action, e.type])).toEqual([
      ['item_deleted', 'datastream'],
      ['item_deleted', 'datastreamgroup'],
      ['item_deleted', 'asset'],
      ['child_deleted', 'account'],
    ]);
    const left = await s.db
      .selectFrom('models')
      .select('id')
      .where('id', 'in', [asset.id, group.data?.id ?? ''])
      .execute();
    expect(left).toEqual([]);
    expect((await del('assets', asset.id)).status).toBe(404);
  });

  it('ordered lists: creating, moving and deleting stream groups sends updated_list on the asset', async () => {
    const asset = await newAsset('Ordered');
    const ids: string[] = [];
    for (const [order, name] of ['A', 'B', 'C'].entries()) {
      const res = await post('datastreamgroups', { asset_id: asset.id, name, order });
      const body = res.json as WriteBody;
      ids.push(body.data?.id ?? '');
      expect(body._events.at(-1)).toMatchObject({
        action: 'updated_list',
        type: 'asset',
        id: asset.id,
        child_type: 'datastreamgroup',
        list: ids,
      });
    }
    const moved = (await put('datastreamgroups', ids[0] ?? '', { order: 5 })).json as WriteBody;
    expect(moved._events.map((e) => e.action)).toEqual(['attributes_updated', 'updated_list']);
    expect(moved._events[1]?.list).toEqual([ids[1], ids[2], ids[0]]);
    const renamed = (await put('datastreamgroups', ids[1] ?? '', { name: 'B2' })).json as WriteBody;
    expect(renamed._events.map((e) => e.action)).toEqual(['attributes_updated']);
    const gone = (await del('datastreamgroups', ids[2] ?? '')).json as WriteBody;
    expect(gone._events.at(-1)).toMatchObject({ action: 'updated_list', list: [ids[1], ids[0]] });
  });

  it('a repeated mutation_id is answered again, not applied twice', async () => {
    const mutation_id = `m-${uuidv7()}`;
    const first = await post('assets', { name: 'Once only', mutation_id });
    const logAfterFirst = (await logRows(rootAccount)).length;
    const second = await post('assets', { name: 'Once only', mutation_id });
    expect(second.status).toBe(first.status);
    expect(second.json).toEqual(first.json);
    expect((await logRows(rootAccount)).length).toBe(logAfterFirst);
    const named = await s.db
      .selectFrom('models')
      .select('id')
      .where('attributes', 'like', '%Once only%')
      .execute();
    expect(named).toHaveLength(1);
  });

  it('a repeated mutation_id answers only its writer, and only while it passes the checks of a fresh write', async () => {
    const technician = await roleId(s.db, rootAccount, 'technician');
    const grants = new AssetAccessRepository(s.db);
    const hidden = await newAsset('Kept from the technician');
    const shared = await newAsset('Shared with the technician');
    await grants.grant(rootAccount, technician, shared.id, true);
    const south = await s.signIn(DEMO_USERS.south);
    // The admin's write on a machine the technician does not see: repeated by the technician,
    // it is unknown (as a fresh write would be); by another account's user, a fresh write there.
    const secret = `m-${uuidv7()}`;
    const first = await put('assets', hidden.id, { name: 'Secret name', mutation_id: secret });
    expect(first.status, first.text).toBe(200);
    for (const token of [tech, south]) {
      const again = await put(
        'assets',
        hidden.id,
        { name: 'Secret name', mutation_id: secret },
        token,
      );
      expect(again.status, again.text).toBe(404);
      expect(again.text).not.toContain('Secret name');
    }
    const made = `m-${uuidv7()}`;
    const mine = await post('assets', { name: 'Made by the admin', mutation_id: made });
    const theirs = await post('assets', { name: 'Made in South', mutation_id: made }, south);
    expect(theirs.status, theirs.text).toBe(201);
    expect((theirs.json as WriteBody).data?.id).not.toBe((mine.json as WriteBody).data?.id);
    expect(theirs.text).not.toContain('Made by the admin');
    // (South's machines are counted by the snapshot test below.)
    const southAsset = (theirs.json as WriteBody).data?.id ?? '';
    expect((await del('assets', southAsset, {}, south)).status).toBe(200);
    // On a machine both may edit: another writer's id is a conflict, alone or in a batch, and
    // neither gets the admin's answer nor changes the machine.
    const both = `m-${uuidv7()}`;
    expect(
      (await put('assets', shared.id, { name: 'Named by the admin', mutation_id: both })).status,
    ).toBe(200);
    const conflict = await put(
      'assets',
      shared.id,
      { name: 'Named by the admin', mutation_id: both },
      tech,
    );
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.text).not.toContain('Named by the admin');
    const batch = await s.call('PUT', apiPaths.collection('assets'), {
      token: tech,
      json: [
        { batch_id: 1, data: { id: shared.id, name: 'Named by the admin', mutation_id: both } },
      ],
    });
    expect(batch.json).toMatchObject({ success: false, data: [{ data: { success: false } }] });
    expect(batch.text).not.toContain('Named by the admin');
    // The technician's own write, retried: the same answer while it may, refused as a fresh
    // write would be once its machine is view only, then taken away.
    const own = `m-${uuidv7()}`;
    const write = () =>
      put('assets', shared.id, { name: 'Named by the technician', mutation_id: own }, tech);
    const done = await write();
    expect(done.status, done.text).toBe(200);
    expect((await write()).json).toEqual(done.json);
    await grants.grant(rootAccount, technician, shared.id, false);
    expect((await write()).status).toBe(403);
    await grants.revoke(rootAccount, technician, shared.id);
    const gone = await write();
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('Named by the technician');
  });

  it('batch mode: each item applies or fails on its own; the same batch again is applied once', async () => {
    const batch = [
      { batch_id: 'a', data: { name: 'Batch one', mutation_id: `b-${uuidv7()}` } },
      { batch_id: 'b', data: { name: '', mutation_id: `b-${uuidv7()}` } },
      { batch_id: 'c', data: { name: 'Batch three', mac: 'zz', mutation_id: `b-${uuidv7()}` } },
      { batch_id: 'd', data: { name: 'Batch four', mutation_id: `b-${uuidv7()}` } },
    ];
    const res = await post('assets', batch);
    expect(res.status).toBe(200);
    const body = res.json as {
      success: boolean;
      data: { batch_id: string; data: { success: boolean; errors?: Record<string, string[]> } }[];
    };
    expect(body.success).toBe(false);
    expect(body.data.map((d) => [d.batch_id, d.data.success])).toEqual([
      ['a', true],
      ['b', false],
      ['c', false],
      ['d', true],
    ]);
    expect(body.data[1]?.data.errors).toEqual({ name: ['Name is required'] });
    expect(body.data[2]?.data.errors?.mac?.[0]).toMatch(/MAC address/);
    const log = (await logRows(rootAccount)).length;
    const again = await post('assets', batch);
    expect((again.json as typeof body).data.map((d) => d.data.success)).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect((await logRows(rootAccount)).length).toBe(log);
    const named = await s.db
      .selectFrom('models')
      .select('id')
      .where('attributes', 'like', '%Batch %')
      .execute();
    expect(named).toHaveLength(2);
  });

  it('batch updates and deletes name the id in each item', async () => {
    const a = await newAsset('Batch edit A');
    const b = await newAsset('Batch edit B');
    const upd = await s.call('PUT', apiPaths.collection('assets'), {
      token: admin,
      json: [
        { batch_id: 1, data: { id: a.id, description: 'edited' } },
        { batch_id: 2, data: { id: uuidv7(), description: 'nobody' } },
      ],
    });
    expect(
      (upd.json as { data: { data: { success: boolean } }[] }).data.map((d) => d.data.success),
    ).toEqual([true, false]);
    const gone = await s.call('DELETE', apiPaths.collection('assets'), {
      token: admin,
      json: [{ batch_id: 1, data: { id: b.id } }],
    });
    expect((gone.json as { success: boolean }).success).toBe(true);
  });

  it('20 parallel writers: seq stays gapless and unique', async () => {
    const before = (await logRows(rootAccount)).at(-1)?.seq ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('assets', { name: `Parallel ${i}` })),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const seqs = (await logRows(rootAccount)).map((r) => r.seq).filter((q) => q > before);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => before + i + 1));
    const ts = (await logRows(rootAccount)).map((r) => r.ts);
    expect(ts.every((t, i) => i === 0 || t > (ts[i - 1] ?? 0))).toBe(true);
  });

  it('permissions and accounts: tech may edit but not create or delete; other accounts are 404', async () => {
    expect((await post('assets', { name: 'No' }, tech)).status).toBe(403);
    const asset = await newAsset('Tech edits');
    // Access per asset (DESIGN.md §10): unknown to the technician until given to its role,
    // refused while given without edit rights, then editable.
    expect((await put('assets', asset.id, { name: 'Tech edited' }, tech)).status).toBe(404);
    const technician = await roleId(s.db, rootAccount, 'technician');
    const grants = new AssetAccessRepository(s.db);
    await grants.grant(rootAccount, technician, asset.id, false);
    const refused = await put('assets', asset.id, { name: 'Tech edited' }, tech);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      message: 'Please ask your administrator for the necessary permissions',
    });
    await grants.grant(rootAccount, technician, asset.id, true);
    expect((await put('assets', asset.id, { name: 'Tech edited' }, tech)).status).toBe(200);
    expect((await del('assets', asset.id, {}, tech)).status).toBe(403);
    const south = await s.signIn(DEMO_USERS.south);
    expect((await put('assets', asset.id, { name: 'Stolen' }, south)).status).toBe(404);
    expect((await del('assets', asset.id, {}, south)).status).toBe(404);
    expect((await s.call('GET', apiPaths.graph('asset', asset.id), { token: south })).status).toBe(
      404,
    );
    expect((await post('gizmos', { name: 'x' })).status).toBe(404);
  });

  it('model rules: MAC, static gateway address, pre-processing code, references within the account', async () => {
    expect((await post('assets', { name: 'M', mac: '00:11:22:33:44' })).status).toBe(422);
    const gw = await post('gateways', { name: 'GW', ip_assignment: 'static' });
    expect(gw.status).toBe(422);
    expect((gw.json as { errors: Record<string, string[]> }).errors.ip?.[0]).toMatch(
      /Static IP configuration/,
    );
    const asset = await newAsset('Rules');
    const group = (
      (await post('datastreamgroups', { asset_id: asset.id, name: 'G' })).json as WriteBody
    ).data;
    const code = await post('datastreams', {
      asset_id: asset.id,
      group_id: group?.id,
      name: 'S',
      preprocessing: 'x = 1\nreturn x',
    });
    expect(code.json).toMatchObject({ errors: { preprocessing: ['This code is not valid'] } });
    const good = await post('datastreams', {
      asset_id: asset.id,
      group_id: group?.id,
      name: 'S',
      preprocessing: 'let $x = 2;\nreturn $x * 3;',
    });
    expect(good.status).toBe(201);
    const other = await newAsset('Other');
    const wrong = await post('datastreams', { asset_id: other.id, group_id: group?.id, name: 'S' });
    expect(wrong.json).toMatchObject({
      errors: { group_id: ['The group belongs to another asset.'] },
    });
    const missing = await post('assets', { name: 'R', gateway_id: uuidv7() });
    expect(missing.json).toMatchObject({ errors: { gateway_id: ['Unknown gateway.'] } });
  });

  it("copied attributes are the stored parent's: taken from it, followed on a move, a contradiction refused", async () => {
    const here = await newAsset('Copies here');
    const there = await newAsset('Copies there');
    const groupOf = async (assetId: string) =>
      (await post('datastreamgroups', { asset_id: assetId, name: 'G' })).json as WriteBody;
    const groupHere = (await groupOf(here.id)).data?.id ?? '';
    const groupThere = (await groupOf(there.id)).data?.id ?? '';
    // Created with its parent only (an alarm as issue 17's contract says): the asset is the
    // parent's, in the answer and in the store.
    const stream = await post('datastreams', { group_id: groupHere, name: 'Temp', unit: '°C' });
    expect(stream.status, stream.text).toBe(201);
    const streamId = (stream.json as WriteBody).data?.id ?? '';
    expect((stream.json as WriteBody).data?.attributes).toMatchObject({ asset_id: here.id });
    const alarm = await post('alarms', { datastream_id: streamId, name: 'Hot', upper_limit: 80 });
    expect(alarm.status, alarm.text).toBe(201);
    expect((alarm.json as WriteBody).data?.attributes).toMatchObject({ asset_id: here.id });
    const alarmId = (alarm.json as WriteBody).data?.id ?? '';
    // Naming the parent's own asset beside it (what the app sends) is fine; another is refused.
    const same = await post('alarms', {
      asset_id: here.id,
      datastream_id: streamId,
      name: 'Hotter',
      upper_limit: 90,
    });
    expect(same.status, same.text).toBe(201);
    const other = await post('alarms', {
      asset_id: there.id,
      datastream_id: streamId,
      name: 'Elsewhere',
      upper_limit: 90,
    });
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({
      errors: { datastream_id: ['The data stream belongs to another asset.'] },
    });
    const claim = await put('alarms', alarmId, { asset_id: there.id });
    expect(claim.status).toBe(422);
    // Batch mode takes the same path: the parent decides, a contradiction fails its item only.
    const batch = await post('alarms', [
      { batch_id: 'a', data: { datastream_id: streamId, name: 'B1', upper_limit: 1 } },
      {
        batch_id: 'b',
        data: { asset_id: there.id, datastream_id: streamId, name: 'B2', upper_limit: 1 },
      },
    ]);
    const items = (batch.json as { data: { data: WriteBody & { errors?: unknown } }[] }).data;
    expect(items[0]?.data.data?.attributes).toMatchObject({ asset_id: here.id });
    expect(items[1]?.data).toMatchObject({
      success: false,
      errors: { datastream_id: ['The data stream belongs to another asset.'] },
    });
    // Moved to a group on another asset without naming the asset: stream and alarm follow.
    const moved = await put('datastreams', streamId, { group_id: groupThere });
    expect(moved.status, moved.text).toBe(200);
    expect((moved.json as WriteBody).data?.attributes).toMatchObject({ asset_id: there.id });
    const stored = await s.db
      .selectFrom('models')
      .select(['id', 'asset_id'])
      .where('id', 'in', [streamId, alarmId])
      .execute();
    expect(stored.map((r) => r.asset_id)).toEqual([there.id, there.id]);
    const unknown = await post('alarms', { datastream_id: uuidv7(), name: 'X', upper_limit: 1 });
    expect(unknown.json).toMatchObject({ errors: { datastream_id: ['Unknown datastream.'] } });
  });
});

/** Applies updates to a map of models the way a client would (idempotent by last_seq). */
function replay(models: Map<string, SyncedModel>, updates: readonly ModelUpdate[]) {
  for (const u of updates) {
    const key = `${u.type}:${u.id}`;
    const doc = models.get(key);
    if (doc !== undefined && u.seq <= doc.last_seq) continue;
    if (u.action === 'updated') {
      const parent = doc ?? {
        type: u.type,
        id: u.id,
        parent_type: '',
        parent_id: '',
        attributes: {},
        last_seq: 0,
      };
      models.set(key, { ...parent, attributes: { ...(u.attributes ?? {}) }, last_seq: u.seq });
    } else if (u.action === 'attributes_updated' && doc !== undefined) {
      models.set(key, {
        ...doc,
        attributes: { ...doc.attributes, ...u.attributes },
        last_seq: u.seq,
      });
    } else if (u.action === 'item_deleted') {
      models.delete(key);
    }
  }
}

describe('reads: mqttlogs, snapshot, graph', () => {
  it('mqttlogs returns what the log has after a timestamp, oldest first', async () => {
    const rows = await logRows(rootAccount);
    const from = rows.at(-5)?.ts ?? 0;
    const res = await s.call('GET', apiPaths.mqttlogs(from), { token: admin });
    expect(res.status).toBe(200);
    const body = res.json as {
      data: { ts: number; msg: ModelUpdate }[];
      more: boolean;
      resync: boolean;
    };
    expect(body.data.map((d) => d.msg.seq)).toEqual(rows.slice(-4).map((r) => r.seq));
    expect(body.more).toBe(false);
    expect(body.resync).toBe(false);
    expect((await s.call('GET', 'account/mqttlogs?from=abc', { token: admin })).status).toBe(422);
  });

  it('mqttlogs is capped at 1000 a call and says when there is more; paging on from gets the rest', async () => {
    const last = (await logRows(rootAccount)).at(-1);
    for (let round = 0; round < 2; round++) {
      const batch = Array.from({ length: 300 }, (_, i) => ({
        batch_id: i,
        data: { name: `Paged ${round}-${i}` },
      }));
      expect((await post('assets', batch)).status).toBe(200);
    }
    type Page = {
      data: { ts: number; msg: ModelUpdate }[];
      more: boolean;
      through: { ts: number; seq: number };
    };
    const first = (await s.call('GET', apiPaths.mqttlogs(last?.ts ?? 0), { token: admin }))
      .json as Page;
    expect(first.data).toHaveLength(1000);
    expect(first.more).toBe(true);
    expect(first.through).toEqual({ ts: first.data.at(-1)?.ts, seq: first.data.at(-1)?.msg.seq });
    const second = (
      await s.call('GET', apiPaths.mqttlogs(first.data.at(-1)?.ts ?? 0), { token: admin })
    ).json as Page;
    expect(second.more).toBe(false);
    const seqs = [...first.data, ...second.data].map((d) => d.msg.seq);
    expect(seqs).toEqual(Array.from({ length: 1200 }, (_, i) => (last?.seq ?? 0) + i + 1));
  });

  it('the snapshot plus the log from its watermark equals the database, with writes between pages', async () => {
    const models = new Map<string, SyncedModel>();
    let cursor: string | undefined;
    let watermark: Watermark | undefined;
    let firstTotal: number | undefined;
    let pages = 0;
    const extra = await newAsset('Changed during bootstrap');
    do {
      const res = await s.call('GET', apiPaths.snapshot(cursor, 40), { token: admin });
      expect(res.status).toBe(200);
      const page = snapshotPageSchema.parse(dataOf(res));
      watermark ??= page.watermark;
      firstTotal ??= page.total;
      expect(page.total).toBe(firstTotal);
      expect(page.watermark).toEqual(watermark);
      for (const m of page.models) models.set(`${m.type}:${m.id}`, m);
      cursor = page.next_cursor ?? undefined;
      pages += 1;
      if (pages === 1) {
        // Changes while the client is still paging.
        await put('assets', extra.id, { name: 'Renamed during bootstrap' });
        await newAsset('Born during bootstrap');
        await del('assets', (await newAsset('Dies during bootstrap')).id);
      }
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThan(3);
    // The total counted at the first page: what a progress bar divides by.
    expect(firstTotal).toBe(
      (await s.db.selectFrom('models').select('id').where('account_id', '=', rootAccount).execute())
        .length +
        [...models.values()].filter((m) => ['account', 'user', 'role', 'tag'].includes(m.type))
          .length -
        // Born during bootstrap, after the count.
        1,
    );
    const log = await s.call('GET', apiPaths.mqttlogs(watermark?.ts ?? 0), { token: admin });
    replay(
      models,
      (log.json as { data: { msg: ModelUpdate }[] }).data.map((d) => d.msg),
    );

    const truth = await s.db
      .selectFrom('models')
      .selectAll()
      .where('account_id', '=', rootAccount)
      .execute();
    const READ_MODELS = new Set(['account', 'user', 'role', 'tag']);
    const synced = [...models].filter(([, m]) => !READ_MODELS.has(m.type));
    expect(new Map(synced.map(([k, m]) => [k, m.attributes]))).toEqual(
      new Map(truth.map((r) => [`${r.type}:${r.id}`, JSON.parse(r.attributes) as unknown])),
    );
  });

  it('the first page brings the first rows of the list asked for, in list order', async () => {
    await newAsset('aaa First in order');
    await newAsset('AAA first in order');
    const res = await s.call(
      'GET',
      apiPaths.snapshot(undefined, 5, {
        type: 'asset',
        parent: { type: 'account', id: rootAccount },
      }),
      { token: admin },
    );
    expect(res.status).toBe(200);
    const page = snapshotPageSchema.parse(dataOf(res));
    const truth = await s.db
      .selectFrom('models')
      .select(['id', 'sort_key'])
      .where('account_id', '=', rootAccount)
      .where('type', '=', 'asset')
      .orderBy('sort_key')
      .orderBy('id')
      .limit(200)
      .execute();
    expect(page.first?.map((m) => m.id)).toEqual(truth.map((r) => r.id));
    expect(page.first?.every((m) => m.type === 'asset')).toBe(true);
    expect(page.first?.slice(0, 2).map((m) => (m.attributes.name as string).toLowerCase())).toEqual(
      ['aaa first in order', 'aaa first in order'],
    );
    // A later page brings them too when asked (a list opened during the load); a type the user
    // may not view brings none.
    const later = snapshotPageSchema.parse(
      dataOf(
        await s.call('GET', apiPaths.snapshot(page.next_cursor ?? '', 5, { type: 'asset' }), {
          token: admin,
        }),
      ),
    );
    expect(later.first?.map((m) => m.id)).toEqual(truth.map((r) => r.id));
    expect(
      snapshotPageSchema.parse(
        dataOf(await s.call('GET', apiPaths.snapshot(page.next_cursor ?? '', 5), { token: admin })),
      ).first,
    ).toBeUndefined();
    const unknown = snapshotPageSchema.parse(
      dataOf(
        await s.call('GET', apiPaths.snapshot(undefined, 5, { type: 'secret' }), { token: admin }),
      ),
    );
    expect(unknown.first).toBeUndefined();
    const bad = await s.call('GET', 'sync/snapshot?first_type=asset&first_parent=nocolon', {
      token: admin,
    });
    expect(bad.status).toBe(422);
  });

  it('on a database made with another collation (en-US, as a managed Postgres has it), snapshot pages and list order are in byte order', async () => {
    // Its own server: on Postgres a new database whose default collation is ICU's en-US (on
    // SQLite the same test: BINARY is byte order).
    const other = await startTestServer({ postgresLocale: { icu: 'en-US' } });
    try {
      const token = await other.signIn(DEMO_USERS.admin);
      const account = dataOf<{ account: string }>(
        await other.call('GET', apiPaths.user(), { token }),
      ).account;
      // Byte order: '-' < '0' < '_' < 'x' < '~'; en-US: '_' < '-' < '~' < '0' < 'x'.
      const names = [
        '~x list order',
        'x list order',
        '_x list order',
        '0x list order',
        '-x list order',
      ];
      for (const name of names) {
        const res = await other.call('POST', apiPaths.collection('assets'), {
          token,
          json: { name },
        });
        expect(res.status).toBe(201);
      }
      const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

      // The whole snapshot, three models a page, with the asset list's first rows.
      const READ_MODELS = new Set(['account', 'user', 'role', 'tag']);
      const synced: SyncedModel[] = [];
      let first: SyncedModel[] | undefined;
      let total: number | undefined;
      let read = 0;
      let cursor: string | undefined;
      do {
        const page = snapshotPageSchema.parse(
          dataOf(
            await other.call(
              'GET',
              apiPaths.snapshot(cursor, 3, cursor === undefined ? { type: 'asset' } : undefined),
              { token },
            ),
          ),
        );
        first ??= page.first;
        total ??= page.total;
        read += page.models.filter((m) => READ_MODELS.has(m.type)).length;
        synced.push(...page.models.filter((m) => !READ_MODELS.has(m.type)));
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);

      // Pages by id after the cursor's id: in byte order, none twice, none missed.
      const ids = synced.map((m) => m.id);
      for (let i = 1; i < ids.length; i++) {
        expect(bytewise(ids[i - 1] ?? '', ids[i] ?? '')).toBeLessThan(0);
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(read + synced.length).toBe(total);
      const stored = await other.db
        .selectFrom('models')
        .select('id')
        .where('account_id', '=', account)
        .execute();
      expect(new Set(ids)).toEqual(new Set(stored.map((r) => r.id)));

      // The list's first rows in list order (sort key, then id), byte by byte, as the browser
      // sorts them.
      const assets = synced
        .filter((m) => m.type === assetModel.type)
        .map((m) => ({ id: m.id, key: sortKeyOf(assetModel, m.attributes) }))
        .sort((a, b) => bytewise(a.key, b.key) || bytewise(a.id, b.id));
      expect(first?.map((m) => m.id)).toEqual(assets.slice(0, 200).map((a) => a.id));
      expect(
        first?.map((m) => m.attributes.name).filter((n) => names.includes(n as string)),
      ).toEqual([
        '-x list order',
        '0x list order',
        '_x list order',
        'x list order',
        '~x list order',
      ]);
    } finally {
      await other.close();
    }
  });

  it('a snapshot cursor pages only the account it was made in', async () => {
    const first = dataOf<{ next_cursor: string | null }>(
      await s.call('GET', apiPaths.snapshot(undefined, 5), { token: admin }),
    );
    expect(first.next_cursor).not.toBeNull();
    const south = await s.signIn(DEMO_USERS.south);
    const elsewhere = await s.call('GET', apiPaths.snapshot(first.next_cursor ?? '', 5), {
      token: south,
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json).toMatchObject({ errors: { cursor: ['Invalid cursor.'] } });
    const same = await s.call('GET', apiPaths.snapshot(first.next_cursor ?? '', 5), {
      token: admin,
    });
    expect(same.status).toBe(200);
  });

  it('the snapshot leaves out types the user may not view', async () => {
    const internal = await s.signIn(DEMO_USERS.internal);
    const res = await s.call('GET', apiPaths.snapshot(undefined, 2000), {
      token: internal,
      headers: { 'X-Disable-Internal-Features': '1' },
    });
    const all = dataOf<{ models: SyncedModel[] }>(res).models;
    const types = new Set(all.map((m) => m.type));
    expect(types).toEqual(
      new Set([
        'account',
        'user',
        'role',
        'tag',
        'asset',
        'gateway',
        // A gateway's connections and datapoints are read with gateway::view.
        'connection',
        'datapoint',
        'datastreamgroup',
        'datastream',
        // Files with asset::view: here the demo theme's logo (an image the sign-in page shows).
        'file',
        // The supervisor holds template::view (the demo template).
        'template',
        // And dashboard::view (the demo's Plant overview).
        'dashboard',
        // And helpcenter::view: the published articles, never their drafts.
        'article',
        'article_text',
        // And feedback::view: the demo's tickets, their messages and votes.
        'ticket',
        'ticket_message',
        'ticket_vote',
        // And servicerequest::view: the demo's request on a machine it sees.
        'service_request',
        // The demo's process diagram, read with asset::view (issue 37).
        'diagram',
      ]),
    );
    // With user::view (supervisor), every member of the account is a read model.
    expect(
      all
        .filter((m) => m.type === 'user')
        .map((m) => m.attributes.email)
        .sort(),
    ).toEqual([DEMO_USERS.admin, DEMO_USERS.internal, DEMO_USERS.norole, DEMO_USERS.tech]);
    expect(
      all
        .filter((m) => m.type === 'role')
        .map((m) => m.attributes.slug)
        .sort(),
    ).toEqual(['admin', 'norole', 'supervisor', 'technician']);
    // Without it, only oneself.
    const techModels = dataOf<{ models: SyncedModel[] }>(
      await s.call('GET', apiPaths.snapshot(undefined, 2000), { token: tech }),
    ).models;
    expect(techModels.filter((m) => m.type === 'user').map((m) => m.attributes.email)).toEqual([
      DEMO_USERS.tech,
    ]);
    expect(techModels.find((m) => m.type === 'account')?.attributes.name).toBe(
      'Demo Machine Builder',
    );
    const south = await s.signIn(DEMO_USERS.south);
    const southModels = dataOf<{ models: SyncedModel[] }>(
      await s.call('GET', apiPaths.snapshot(undefined, 2000), { token: south }),
    ).models;
    expect(southModels.filter((m) => m.type === 'asset').map((m) => m.attributes.name)).toEqual([
      'South Press line 1',
      'South Press line 2',
    ]);
  });

  it('graph: an asset with its groups and streams', async () => {
    const asset = (
      await s.db
        .selectFrom('models')
        .select('id')
        .where('account_id', '=', rootAccount)
        .where('type', '=', 'asset')
        .where('attributes', 'like', '%"Press line 1"%')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await s.call('GET', apiPaths.graph('asset', asset), { token: tech });
    expect(res.status).toBe(200);
    const data = dataOf<{ model: SyncedModel; children: SyncedModel[] }>(res);
    expect(data.model.attributes.name).toBe('Press line 1');
    expect(
      data.children.filter((c) => c.type === 'datastreamgroup').map((c) => c.attributes.name),
    ).toEqual(['Drive', 'Hydraulics']);
    expect(data.children.filter((c) => c.type === 'datastream')).toHaveLength(5);
    expect((await s.call('GET', apiPaths.graph('asset', uuidv7()), { token: tech })).status).toBe(
      404,
    );
    expect((await s.call('GET', apiPaths.graph('nothing', asset), { token: tech })).status).toBe(
      404,
    );
  });
});

describe('log retention', () => {
  it('asking mqttlogs from before what is kept answers resync; asking from within does not', async () => {
    const clock = new ManualClock(Date.now());
    const r = await startTestServer({ clock, env: { LOG_RETENTION_DAYS: '14' } });
    try {
      const token = await r.signIn(DEMO_USERS.admin);
      const early = await r.call('GET', apiPaths.mqttlogs(0), { token });
      expect((early.json as { resync: boolean; more: boolean }).resync).toBe(false);
      expect((early.json as { resync: boolean; more: boolean }).more).toBe(false);
      clock.advance(15 * 24 * 60 * 60 * 1000);
      const fresh = await r.call('POST', apiPaths.collection('assets'), {
        token,
        json: { name: 'After a fortnight' },
      });
      const freshTs = (fresh.json as WriteBody)._events[0]?.ts ?? 0;
      const removed = await new LogPruner(
        r.db,
        clock,
        14 * 24 * 60 * 60 * 1000,
        createLogger('silent'),
      ).pruneNow();
      expect(removed).toBeGreaterThan(100);
      const old = await r.call('GET', apiPaths.mqttlogs(0), { token });
      expect((old.json as { resync: boolean }).resync).toBe(true);
      const recent = await r.call('GET', apiPaths.mqttlogs(freshTs - 1), { token });
      expect(recent.json).toMatchObject({
        resync: false,
        data: [{ ts: freshTs }, { ts: freshTs + 1 }],
      });
    } finally {
      await r.close();
    }
  });
});

describe('updates a user may not see', () => {
  it('mqttlogs answers stand-ins for them, so seq stays gapless and nothing about them shows', async () => {
    const r = await startTestServer();
    try {
      const adminToken = await r.signIn(DEMO_USERS.admin);
      const account = dataOf<{ account: string }>(
        await r.call('GET', apiPaths.user(), { token: adminToken }),
      ).account;
      await r.db
        .deleteFrom('permissions')
        .where('name', '=', 'gateway::view')
        .where('account_id', '=', account)
        .execute();
      // Type permissions alone decide here: the technician's role opened to every asset.
      await openEveryAsset(r.db, account, 'technician');
      const techToken = await r.signIn(DEMO_USERS.tech);
      const before = (await r.call('GET', apiPaths.mqttlogs(0), { token: techToken })).json as {
        through: Watermark;
      };
      await r.call('POST', apiPaths.collection('gateways'), {
        token: adminToken,
        json: { name: 'Hidden gateway' },
      });
      await r.call('POST', apiPaths.collection('assets'), {
        token: adminToken,
        json: { name: 'Visible asset' },
      });
      const res = await r.call('GET', apiPaths.mqttlogs(before.through.ts), { token: techToken });
      const body = mqttlogsAnswerSchema.parse(res.json);
      const seqs = body.data.map((d) => d.msg.seq);
      expect(seqs).toEqual([1, 2, 3, 4].map((i) => before.through.seq + i));
      expect(body.data.map((d) => d.msg.action)).toEqual([
        'hidden',
        'hidden',
        'updated',
        'child_created',
      ]);
      expect(res.text).not.toContain('Hidden gateway');
      for (const hidden of body.data.slice(0, 2))
        expect(Object.keys(hidden.msg).sort()).toEqual(['action', 'muid', 'seq', 'ts']);
      // The admin, who may view gateways, gets them as they are.
      const adminView = mqttlogsAnswerSchema.parse(
        (await r.call('GET', apiPaths.mqttlogs(before.through.ts), { token: adminToken })).json,
      );
      expect(adminView.data.map((d) => d.msg.action)).toEqual([
        'updated',
        'child_created',
        'updated',
        'child_created',
      ]);
    } finally {
      await r.close();
    }
  });
});
