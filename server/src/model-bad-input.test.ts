import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  modelByCollection,
  MODELS,
  uuidv7,
  type SyncedModel,
  toJsonSchema,
} from '@plant/shared-schema';
import { MAX_BODY_BYTES } from './app';
import { DEMO_USERS } from './seed/demo';
import { dataOf, startTestServer, type TestServer } from './testing/harness';
import { inBatches, junkBodies, type JsonSchema } from './testing/junk-input';

/**
 * The model routes get junk in every field and every shape. Never a 500; refused input changes
 * no table; text fields store SQL and HTML verbatim.
 */
let s: TestServer;
let token = '';
let assetId = '';
let groupId = '';

beforeAll(async () => {
  s = await startTestServer();
  token = await s.signIn(DEMO_USERS.admin);
  const models = dataOf<{ models: SyncedModel[] }>(
    await s.call('GET', apiPaths.snapshot(undefined, 2000), { token }),
  ).models;
  assetId = models.find((m) => m.type === 'asset')?.id ?? '';
  groupId = models.find((m) => m.type === 'datastreamgroup' && m.parent_id === assetId)?.id ?? '';
  expect(assetId).not.toBe('');
  expect(groupId).not.toBe('');
});
afterAll(() => s.close());

const JUNK: unknown[] = [
  42,
  -1.5,
  true,
  null,
  [],
  {},
  ['a'],
  { $ne: null },
  'x'.repeat(10_000),
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '1e309',
  '../../etc/passwd',
];

const bodies = () => ({
  assets: {
    name: 'Junk target',
    mac: null,
    description: 'd',
    gateway_id: null,
    tags: [],
    status: 'ok',
  },
  gateways: { name: 'GW', serial: 's', ip_assignment: 'dhcp', ip: null, connection: 'online' },
  datastreamgroups: { asset_id: assetId, name: 'G', collapsible: true, order: 1 },
  datastreams: {
    asset_id: assetId,
    group_id: groupId,
    name: 'S',
    unit: 'bar',
    type: 'number',
    vis_min: 0,
  },
});

describe('model routes with junk', () => {
  it('every field of every model, on create and update: never a 500, refused input writes nothing', async () => {
    for (const [collection, valid] of Object.entries(bodies())) {
      const created = await s.call('POST', apiPaths.collection(collection), { token, json: valid });
      expect(created.status, collection).toBe(201);
      const id = (created.json as { data: SyncedModel }).data.id;
      // Fields the server owns (a gateway's connection, …) ignore what a client sends.
      const serverOwned = new Set<string>(modelByCollection(collection)?.serverFields ?? []);
      const createdAttributes = (created.json as { data: SyncedModel }).data.attributes;
      // The database's state before each call: hashed again only after a call that wrote.
      let before = await s.contentHashes();
      for (const field of [...Object.keys(valid), 'id', 'mutation_id']) {
        for (const value of JUNK) {
          for (const [method, path] of [
            ['POST', apiPaths.collection(collection)],
            ['PUT', apiPaths.model(collection, id)],
          ] as const) {
            const res = await s.call(method, path, { token, json: { ...valid, [field]: value } });
            const label = `${method} ${collection}.${field}=${JSON.stringify(value).slice(0, 20)}`;
            expect(res.status, label).toBeLessThan(500);
            if (res.status >= 400) {
              expect(await s.contentHashes(), label).toEqual(before);
              continue;
            }
            before = await s.contentHashes();
            if (serverOwned.has(field)) {
              const saved = dataOf<SyncedModel>(res).attributes[field];
              expect(saved, label).toEqual(createdAttributes[field]);
            } else if (typeof value === 'string' && field !== 'mutation_id') {
              expect(res.text, label).toContain(JSON.stringify(value).slice(1, -1));
            }
          }
        }
      }
    }
  }, 120_000); // some 400 calls, each hashing every table after: long on a busy machine

  it('bodies that are not objects, malformed, oversized; odd ids and collections', async () => {
    const before = await s.contentHashes();
    for (const [method, path] of [
      ['POST', apiPaths.collection('assets')],
      ['PUT', apiPaths.model('assets', assetId)],
      ['DELETE', apiPaths.model('assets', uuidv7())],
      ['PUT', apiPaths.collection('assets')],
      ['DELETE', apiPaths.collection('assets')],
    ] as const) {
      for (const body of ['"text"', '42', 'null', '{', "{'a':1}", '[1,2]', '[{"batch_id":{}}]']) {
        const res = await s.call(method, path, {
          token,
          body,
          headers: { 'Content-Type': 'application/json' },
        });
        expect([400, 404, 422], `${method} ${path} ${body}`).toContain(res.status);
      }
      const big = await s.call(method, path, {
        token,
        body: `{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`,
      });
      expect(big.status).toBe(413);
    }
    for (const path of [
      apiPaths.model('assets', 'x'.repeat(5000)),
      apiPaths.model('assets', "1' OR '1'='1"),
      apiPaths.model('<svg>', assetId),
      apiPaths.graph('asset', 'x'.repeat(5000)),
      'sync/snapshot?cursor=not-base64!&limit=5',
      'sync/snapshot?limit=999999',
      'sync/snapshot?limit=-1',
      'account/mqttlogs?from=1e400',
      'account/mqttlogs',
      'user/browser/mqtt',
      'user/browser/mqtt?browser_id=%3Cscript%3E',
      `user/browser/mqtt?browser_id=${'x'.repeat(500)}`,
    ]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await s.call(method, path, {
          token,
          ...(method === 'GET' ? {} : { json: {} }),
        });
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      }
    }
    const batch = Array.from({ length: 501 }, (_, i) => ({ batch_id: i, data: { name: `b${i}` } }));
    expect(
      (await s.call('POST', apiPaths.collection('assets'), { token, json: batch })).status,
    ).toBe(422);
    expect(await s.contentHashes()).toEqual(before);
  });
});

describe('every model collection, from its shared schema', () => {
  /**
   * The bodies are made from each registry entry's attributes schema (so a new model is covered
   * the day it is added): every field missing, each field alone wrong-typed or oversized, posted
   * to the collection and put to a model of it that exists. Refusals are 4xx; a 500 is a bug (a
   * role posted without a name was one).
   */
  it('answers no 500 to missing, wrong-typed and oversized attributes', async () => {
    const models = await s.snapshot(token);
    const me = (await s.call('GET', apiPaths.user(), { token })).json as { data: { id: string } };
    // A model of each type to change; not the admin's own membership or a fixed role.
    const existing = (type: string) =>
      models.find((m) => m.type === type && m.id !== me.data.id && m.attributes.fixed !== true)
        ?.id ?? uuidv7();
    const calls: { label: string; method: string; path: string; body: unknown }[] = [];
    for (const def of MODELS) {
      const schema = toJsonSchema(def.attributes, {
        io: 'input',
        unrepresentable: 'any',
      }) as JsonSchema;
      const id = existing(def.type);
      for (const body of junkBodies(schema)) {
        for (const [method, path] of [
          ['POST', apiPaths.collection(def.collection)],
          ['PUT', apiPaths.model(def.collection, id)],
        ] as const) {
          calls.push({
            label: `${method} ${def.collection} ${body.label}`,
            method,
            path,
            body: body.value,
          });
        }
      }
    }
    expect(calls.length).toBeGreaterThan(200);
    const failed: string[] = [];
    await inBatches(calls, 12, async (call) => {
      const res = await s.call(call.method, call.path, { token, json: call.body });
      if (res.status >= 500) failed.push(`${call.label}: ${res.status} ${res.text.slice(0, 80)}`);
    });
    expect(failed).toEqual([]);
  }, 120_000);
});
