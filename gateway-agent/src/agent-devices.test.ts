import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  connectionModel,
  datapointModel,
  type LatestValues,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { demoGateway, makeGatewayCredentials } from '../../server/src/testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../../server/src/testing/harness';
import { Agent } from './agent';
import { brokerUrlOf } from './config';
import { makeConnector } from './connectors';
import { silentLogger } from './logger';
import { startModbusTestServer } from './testing/modbus-server';
import { startS7TestServer } from './testing/s7-server';

/*
 * Real devices to the store, as an admin sets them up: a Modbus TCP server and an S7 PLC on
 * loopback, a connection and a datapoint made through the API, the agent running what the server
 * sends; a value changed on the device arrives in the store, and after the device restarts the
 * connector reconnects by itself and values resume.
 */
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const cleanups: (() => Promise<unknown>)[] = [];
const WAIT = { timeout: 50_000, interval: 50 };

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => server.close());

async function create(collection: string, json: unknown): Promise<SyncedModel> {
  const res = await server.call('POST', apiPaths.collection(collection), { token: admin, json });
  expect(res.status, res.text).toBe(201);
  return dataOf<SyncedModel>(res);
}

/**
 * A demo gateway with its simulator switched off and one device connection feeding its
 * machine's first number stream; its agent running. Answers the stream and the machine.
 */
async function deviceGateway(
  index: number,
  connection: { protocol: string; settings: Record<string, unknown> },
  address: Record<string, unknown>,
) {
  const gw = await demoGateway(server, ids.root, index);
  const simulators = await server.db
    .selectFrom('models')
    .select('id')
    .where('type', '=', connectionModel.type)
    .where((eb) =>
      eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', gw.gatewayId),
    )
    .execute();
  for (const { id } of simulators) {
    const off = await server.call('PUT', apiPaths.model(connectionModel.collection, id), {
      token: admin,
      json: { enabled: false },
    });
    expect(off.status).toBe(200);
  }
  const stream = gw.streams['Motor temperature'];
  if (stream === undefined) throw new Error('no number stream');
  const made = await create(connectionModel.collection, {
    gateway_id: gw.gatewayId,
    name: `Test ${connection.protocol}`,
    interval_ms: 100,
    enabled: true,
    ...connection,
  });
  await create(datapointModel.collection, {
    connection_id: made.id,
    datastream_id: stream,
    address,
    deadband: 0,
  });
  const key = (await makeGatewayCredentials(server, admin, gw.gatewayId)).secret;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-dev-'));
  const agent = new Agent({
    config: {
      brokerUrl: brokerUrlOf(server.url),
      gatewayId: gw.gatewayId,
      key,
      dataDir,
      logLevel: 'silent',
      bufferMaxPoints: undefined,
      batchPoints: 100,
    },
    log: silentLogger,
    makeConnector,
    heartbeatMs: 500,
    reconnectMs: 200,
  });
  agent.start();
  cleanups.push(async () => {
    await agent.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { stream, assetId: gw.assetId };
}

/** The latest stored value of the stream, through the API a browser uses. */
async function latest(assetId: string, stream: string) {
  const res = await server.call('GET', apiPaths.latestValues(assetId), { token: admin });
  expect(res.status).toBe(200);
  return dataOf<LatestValues>(res).find((l) => l.stream === stream)?.value;
}

describe('devices to the store', () => {
  it('Modbus TCP: a changed register is stored; after the device restarts, values resume', async () => {
    const device = await startModbusTestServer();
    cleanups.push(() => device.close());
    device.setRegisters('holding', 4, 1234.5, { datatype: 'float32' });
    const { stream, assetId } = await deviceGateway(
      10,
      {
        protocol: 'modbus-tcp',
        settings: { host: device.host, port: device.port, unit_id: 1 },
      },
      { area: 'holding', index: 4, datatype: 'float32' },
    );
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(1234.5);
    device.setRegisters('holding', 4, -42.25, { datatype: 'float32' });
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(-42.25);

    await device.restart();
    device.setRegisters('holding', 4, 77.75, { datatype: 'float32' });
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(77.75);
  });

  it('Siemens S7: a changed DB value is stored; after the PLC restarts, values resume', async () => {
    const plc = await startS7TestServer();
    cleanups.push(() => plc.close());
    plc.set('DB1.DBW2', 'int', 1234);
    const { stream, assetId } = await deviceGateway(
      11,
      { protocol: 's7', settings: { host: plc.host, port: plc.port, rack: 0, slot: 1 } },
      { address: 'DB1.DBW2', datatype: 'int' },
    );
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(1234);
    plc.set('DB1.DBW2', 'int', -300);
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(-300);

    await plc.restart();
    plc.set('DB1.DBW2', 'int', 4321);
    await expect.poll(() => latest(assetId, stream), WAIT).toBe(4321);
  });
});
