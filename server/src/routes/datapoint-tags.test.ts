import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { demoGateway } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * Tag names (spec 001 §5 'Tagname already used'): a datapoint's tag is unique, ignoring case,
 * among the tags of its gateway, across its connections; another gateway may use the same name.
 */
let s: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  ids = await s.demoAccountIds();
});
afterAll(() => s.close());

const post = (collection: string, json: unknown) =>
  s.call('POST', apiPaths.collection(collection), { token: admin, json });

async function connection(gatewayId: string, name: string): Promise<string> {
  const res = await post('connections', {
    gateway_id: gatewayId,
    name,
    protocol: 'modbus-tcp',
    settings: { host: '127.0.0.1', port: 1502, unit_id: 1 },
  });
  expect(res.status, res.text).toBe(201);
  return dataOf<SyncedModel>(res).id;
}

const tagged = (connectionId: string, tag: string, stream: string | null = null) =>
  post('datapoints', {
    connection_id: connectionId,
    datastream_id: stream,
    tag,
    address: { area: 'holding', index: 1, datatype: 'uint16' },
  });

describe('tag names', () => {
  it("are unique among a gateway's tags, ignoring case; another gateway may reuse them", async () => {
    const gw = await demoGateway(s, ids.root, 5);
    const other = await demoGateway(s, ids.root, 6);
    const a = await connection(gw.gatewayId, 'PLC A');
    const b = await connection(gw.gatewayId, 'PLC B');
    const first = await tagged(a, 'Motor temp');
    expect(first.status, first.text).toBe(201);
    // The same name on another connection of the same gateway.
    const again = await tagged(b, ' motor TEMP ');
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ errors: { tag: ['Tagname already used'] } });
    // Another gateway: fine. Unnamed tags never clash.
    expect((await tagged(await connection(other.gatewayId, 'PLC C'), 'Motor temp')).status).toBe(
      201,
    );
    expect((await tagged(a, '')).status).toBe(201);
    expect((await tagged(b, '')).status).toBe(201);
    // Renaming onto a taken name is refused; keeping its own name is not a clash.
    const second = dataOf<SyncedModel>(await tagged(b, 'Oil pressure'));
    const rename = await s.call('PUT', apiPaths.model('datapoints', second.id), {
      token: admin,
      json: { tag: 'MOTOR temp' },
    });
    expect(rename.status).toBe(422);
    expect(rename.json).toMatchObject({ errors: { tag: ['Tagname already used'] } });
    const same = await s.call('PUT', apiPaths.model('datapoints', second.id), {
      token: admin,
      json: { tag: 'Oil pressure', deadband: 0.5 },
    });
    expect(same.status, same.text).toBe(200);
  });
});
