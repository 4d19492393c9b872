import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_CHANGED_MESSAGE,
  ACCOUNT_HEADER,
  apiPaths,
  ERROR_TEXTS,
  uuidv7,
  type ModelUpdate,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { testsOnPostgres } from '../testing/test-database';

/**
 * Writes that touch more than their own model (references, copied attributes), writes made in
 * another account, reused mutation ids and batch items that fail unexpectedly.
 */
let s: TestServer;
let admin = '';
let rootAccount = '';
let northAccount = '';

type WriteBody = { success: boolean; data: SyncedModel | null; _events: ModelUpdate[] };

const write = (
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
) => s.call(method, path, { token: admin, json, headers });
const create = async (collection: string, json: Record<string, unknown>) => {
  const res = await write('POST', apiPaths.collection(collection), json);
  expect(res.status).toBe(201);
  return (res.json as WriteBody).data as SyncedModel;
};
const attributesOf = async (id: string) =>
  JSON.parse(
    (await s.db.selectFrom('models').select('attributes').where('id', '=', id).executeTakeFirst())
      ?.attributes ?? 'null',
  ) as Record<string, unknown> | null;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  const me = dataOf<{ account: string }>(await s.call('GET', apiPaths.user(), { token: admin }));
  rootAccount = me.account;
  northAccount = (await s.demoAccountIds()).north;
});
afterAll(() => s.close());

describe('references and copied attributes', () => {
  it('deleting a gateway clears it on its assets, logged, and the assets stay editable', async () => {
    const gateway = await create('gateways', { name: 'Gateway to go' });
    const asset = await create('assets', { name: 'Uses the gateway', gateway_id: gateway.id });
    const res = await write('DELETE', apiPaths.model('gateways', gateway.id), {});
    expect(res.status).toBe(200);
    const events = (res.json as WriteBody)._events;
    expect(events[0]).toMatchObject({
      action: 'attributes_updated',
      type: 'asset',
      id: asset.id,
      attributes: { gateway_id: null },
    });
    expect(events.map((e) => e.action)).toContain('item_deleted');
    expect((await attributesOf(asset.id))?.gateway_id).toBeNull();
    const edit = await write('PUT', apiPaths.model('assets', asset.id), { name: 'Still editable' });
    expect(edit.status).toBe(200);
  });

  it('an edit checks only the references it changes', async () => {
    const asset = await create('assets', { name: 'Stale reference' });
    // A reference left stale by data from before references were cleared on delete.
    const gone = uuidv7();
    await s.db
      .updateTable('models')
      .set({
        attributes: testsOnPostgres()
          ? sql`jsonb_set(attributes::jsonb, '{gateway_id}', to_jsonb(${gone}::text))::text`
          : sql`json_set(attributes, '$.gateway_id', ${gone})`,
      })
      .where('id', '=', asset.id)
      .execute();
    const edit = await write('PUT', apiPaths.model('assets', asset.id), { description: 'fine' });
    expect(edit.status).toBe(200);
    const bad = await write('PUT', apiPaths.model('assets', asset.id), { gateway_id: uuidv7() });
    expect(bad.json).toMatchObject({ errors: { gateway_id: ['Unknown gateway.'] } });
  });

  it('moving a stream group to another asset takes its streams along, each change logged', async () => {
    const from = await create('assets', { name: 'Asset from' });
    const to = await create('assets', { name: 'Asset to' });
    const group = await create('datastreamgroups', { asset_id: from.id, name: 'Moving group' });
    const streams = [
      await create('datastreams', { asset_id: from.id, group_id: group.id, name: 'One' }),
      await create('datastreams', { asset_id: from.id, group_id: group.id, name: 'Two' }),
    ];
    const res = await write('PUT', apiPaths.model('datastreamgroups', group.id), {
      asset_id: to.id,
    });
    expect(res.status).toBe(200);
    const events = (res.json as WriteBody)._events;
    for (const stream of streams) {
      expect((await attributesOf(stream.id))?.asset_id).toBe(to.id);
      expect(events).toContainEqual(
        expect.objectContaining({
          action: 'attributes_updated',
          type: 'datastream',
          id: stream.id,
          attributes: { asset_id: to.id },
        }),
      );
    }
    // The graph of the new asset has the group and its streams.
    const graph = dataOf<{ children: SyncedModel[] }>(
      await s.call('GET', apiPaths.graph('asset', to.id), { token: admin }),
    );
    expect(graph.children.map((c) => c.id).sort()).toEqual(
      [group.id, ...streams.map((x) => x.id)].sort(),
    );
    // Every seq of the account's log is still gapless.
    const seqs = (
      await s.db
        .selectFrom('model_updates')
        .select('seq')
        .where('account_id', '=', rootAccount)
        .orderBy('seq')
        .execute()
    ).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });
});

describe('writes made in another account', () => {
  it('are refused with 409 when they name an account that is not the active one', async () => {
    const before = await s.rowCounts();
    const single = await write(
      'POST',
      apiPaths.collection('assets'),
      { name: 'Queued in North' },
      { [ACCOUNT_HEADER]: northAccount },
    );
    expect(single.status).toBe(409);
    expect(single.json).toMatchObject({ success: false, message: ACCOUNT_CHANGED_MESSAGE });
    const batch = await write(
      'POST',
      apiPaths.collection('assets'),
      [{ batch_id: 1, data: { name: 'Queued in North too' } }],
      { [ACCOUNT_HEADER]: northAccount },
    );
    expect(batch.status).toBe(409);
    expect(await s.rowCounts()).toEqual(before);
    const right = await write(
      'POST',
      apiPaths.collection('assets'),
      { name: 'Made here' },
      { [ACCOUNT_HEADER]: rootAccount },
    );
    expect(right.status).toBe(201);
  });
});

describe('mutation ids', () => {
  it('a mutation id used again for another change is refused, and changes nothing', async () => {
    const mutation_id = `m-${uuidv7()}`;
    const asset = await create('assets', { name: 'First use', mutation_id });
    const before = await s.contentHashes();
    const reused = await write('PUT', apiPaths.model('assets', asset.id), {
      name: 'Second use',
      mutation_id,
    });
    expect(reused.status).toBe(409);
    expect(reused.json).toMatchObject({
      errors: { mutation_id: ['This mutation id was already used for another change.'] },
    });
    expect(await s.contentHashes()).toEqual(before);
  });
});

describe('batch items that fail unexpectedly', () => {
  it('carry an error of their own; the items around them still apply', async () => {
    // A real failure inside the database for one name: the write throws something no rule
    // expected.
    if (testsOnPostgres()) {
      await sql`create function boom() returns trigger language plpgsql as $$
        begin raise exception 'boom'; end $$`.execute(s.db);
      await sql`create trigger boom before insert on models for each row
        when (new.attributes::jsonb ->> 'name' = 'Boom') execute function boom()`.execute(s.db);
    } else {
      await sql`create trigger boom before insert on models
        when json_extract(new.attributes, '$.name') = 'Boom'
        begin select raise(abort, 'boom'); end`.execute(s.db);
    }
    try {
      const res = await write('POST', apiPaths.collection('assets'), [
        { batch_id: 'a', data: { name: 'Before boom' } },
        { batch_id: 'b', data: { name: 'Boom' } },
        { batch_id: 'c', data: { name: 'After boom' } },
      ]);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        success: false,
        data: [
          { batch_id: 'a', data: { success: true } },
          { batch_id: 'b', data: { success: false, message: ERROR_TEXTS.unknown } },
          { batch_id: 'c', data: { success: true } },
        ],
      });
      const names = await s.db
        .selectFrom('models')
        .select('id')
        .where('attributes', 'like', '%boom%')
        .execute();
      expect(names).toHaveLength(2);
    } finally {
      if (testsOnPostgres()) {
        await sql`drop trigger boom on models`.execute(s.db);
        await sql`drop function boom()`.execute(s.db);
      } else {
        await sql`drop trigger boom`.execute(s.db);
      }
    }
  });
});
