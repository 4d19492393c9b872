import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  connectionModel,
  datapointModel,
  type OpcuaNodesAnswer,
  type StreamValues,
  type SyncedModel,
} from '@plant/shared-schema';
import { GATEWAY_OFFLINE } from '../../server/src/gateways/gateway-requests';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { demoGateway, makeGatewayCredentials } from '../../server/src/testing/gateway-client';
import {
  dataOf,
  startTestServer,
  type Answer,
  type TestServer,
} from '../../server/src/testing/harness';
import { Agent } from './agent';
import { brokerUrlOf } from './config';
import { makeConnector } from './connectors';
import { createLogger, silentLogger } from './logger';
import { startOpcuaTestServer, type OpcuaTestServer } from './testing/opcua-server';

/*
 * OPC UA browse and search through the agent (DESIGN.md §8, spec 001 §9), as an admin's browser
 * sees it: a real OPC UA server on loopback, an `opcua` connection made through the API, the
 * agent running what the server sends; the server's browse and search routes answer the device's
 * address space, a node picked from an answer becomes a datapoint, and its values reach the
 * store. Refused: a user without gateway::edit, another account's gateway, and (at once, not
 * after the request's minute) a gateway whose agent is not connected.
 */
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
let device: OpcuaTestServer;
const cleanups: (() => Promise<unknown>)[] = [];
const WAIT = { timeout: 50_000, interval: 100 };

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
  device = await startOpcuaTestServer();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await device.close();
  await server.close();
});

async function create(collection: string, json: unknown): Promise<SyncedModel> {
  const res = await server.call('POST', apiPaths.collection(collection), { token: admin, json });
  expect(res.status, res.text).toBe(201);
  return dataOf<SyncedModel>(res);
}

/** The demo gateway's connections (its simulator), switched off: only the device feeds it. */
async function simulatorsOff(gatewayId: string): Promise<void> {
  const rows = await server.db
    .selectFrom('models')
    .select('id')
    .where('type', '=', connectionModel.type)
    .where((eb) =>
      eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', gatewayId),
    )
    .execute();
  for (const { id } of rows) {
    const off = await server.call('PUT', apiPaths.model(connectionModel.collection, id), {
      token: admin,
      json: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);
  }
}

/** An `opcua` connection to the test device on a gateway, made through the API. */
async function opcuaConnectionOn(gatewayId: string): Promise<string> {
  const made = await create(connectionModel.collection, {
    gateway_id: gatewayId,
    name: 'Oven line OPC UA',
    protocol: 'opcua',
    settings: { endpoint: device.endpoint, security_mode: 'none' },
    interval_ms: 100,
    enabled: true,
  });
  return made.id;
}

/** Starts an agent for a demo gateway with fresh credentials, as an admin would set it up. */
async function startAgent(gatewayId: string): Promise<Agent> {
  const made = await makeGatewayCredentials(server, admin, gatewayId);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-opcua-'));
  const agent = new Agent({
    config: {
      brokerUrl: brokerUrlOf(server.url),
      serverUrl: server.url,
      gatewayId,
      key: made.secret,
      dataDir,
      logLevel: 'silent',
      bufferMaxPoints: undefined,
      batchPoints: 50,
    },
    // DEBUG_AGENT=1 prints the agent's log while a test runs.
    log: process.env.DEBUG_AGENT ? createLogger('debug') : silentLogger,
    makeConnector,
    heartbeatMs: 500,
    reconnectMs: 200,
  });
  agent.start();
  cleanups.push(async () => {
    await agent.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return agent;
}

/** A model's attributes as the server keeps them (and browsers sync them). */
async function attributesOf(id: string): Promise<Record<string, unknown>> {
  const row = await server.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as Record<string, unknown>;
}

/** The connection's state as the agent reported it. */
async function connectionState(connectionId: string): Promise<string | undefined> {
  const { status } = (await attributesOf(connectionId)) as { status: { state: string } | null };
  return status?.state;
}

function browse(gatewayId: string, body: Record<string, unknown>, token = admin) {
  return server.call('POST', apiPaths.opcuaBrowse(gatewayId), { token, json: body });
}

function search(gatewayId: string, body: Record<string, unknown>, token = admin) {
  return server.call('POST', apiPaths.opcuaSearch(gatewayId), { token, json: body });
}

function nodesOf(answer: Answer): OpcuaNodesAnswer {
  expect(answer.status, answer.text).toBe(200);
  return dataOf<OpcuaNodesAnswer>(answer);
}

/** The stored points of one stream, raw, through the API a browser uses. */
async function storedValues(stream: string): Promise<(number | string)[]> {
  const answer = await server.call(
    'GET',
    apiPaths.streamValues(stream, 0, Date.now() + 60_000, 10_000),
    { token: admin },
  );
  expect(answer.status, answer.text).toBe(200);
  const values = dataOf<StreamValues>(answer);
  expect(values.downsampled).toBe(false);
  return values.points.map(([, value]) => value);
}

describe('OPC UA browse and search through the agent', () => {
  it('browses and searches the device, and a node picked from the answer feeds a stream', async () => {
    const gw = await demoGateway(server, ids.root, 8);
    await simulatorsOff(gw.gatewayId);
    const connectionId = await opcuaConnectionOn(gw.gatewayId);
    const agent = await startAgent(gw.gatewayId);
    await expect.poll(() => connectionState(connectionId), WAIT).toBe('connected');

    // Browse: the Objects folder (no node id) holds the device's Plant folder…
    const objects = nodesOf(await browse(gw.gatewayId, { connection_id: connectionId }));
    expect(objects.truncated).toBe(false);
    expect(objects.nodes).toContainEqual(
      expect.objectContaining({
        node_id: device.folderId('Plant'),
        display_name: 'Plant',
        node_class: 'Object',
        has_children: true,
      }),
    );
    // …whose children are the lines and the archive…
    const plant = nodesOf(
      await browse(gw.gatewayId, {
        connection_id: connectionId,
        node_id: device.folderId('Plant'),
      }),
    );
    expect(plant.nodes.map((n) => n.node_id).sort()).toEqual(
      ['Archive', 'Line1', 'Line2'].map((f) => device.folderId(f)).sort(),
    );
    // …and the oven's folder lists its variables with their data types.
    const oven = nodesOf(
      await browse(gw.gatewayId, { connection_id: connectionId, node_id: device.folderId('Oven') }),
    );
    expect(oven.nodes).toContainEqual(
      expect.objectContaining({
        node_id: device.nodeId('Oven.Temperature'),
        display_name: 'Temperature',
        node_class: 'Variable',
        data_type: 'Double',
      }),
    );
    expect(oven.nodes.map((n) => n.display_name)).toEqual(
      expect.arrayContaining(['Temperature', 'Mode', 'Running', 'Recipe', 'CycleTime']),
    );

    // Search: a variable deep in the tree is found by part of its name, case-insensitively.
    const found = nodesOf(
      await search(gw.gatewayId, { connection_id: connectionId, query: 'gripforce' }),
    );
    expect(found.truncated).toBe(false);
    expect(found.nodes).toEqual([
      expect.objectContaining({
        node_id: device.nodeId('Gripper.GripForceActual'),
        display_name: 'GripForceActual',
        node_class: 'Variable',
        data_type: 'Double',
      }),
    ]);
    // A bounded search says it stopped early.
    const bounded = nodesOf(
      await search(gw.gatewayId, { connection_id: connectionId, query: 'Sensor', max_results: 5 }),
    );
    expect(bounded.nodes).toHaveLength(5);
    expect(bounded.truncated).toBe(true);

    // Pick: the node id of the search's answer is a datapoint's address; its values are stored.
    const picked = found.nodes[0]?.node_id ?? '';
    const stream = gw.streams['Motor temperature'];
    if (stream === undefined) throw new Error('no number stream');
    await create(datapointModel.collection, {
      connection_id: connectionId,
      datastream_id: stream,
      address: { node_id: picked },
    });
    await expect.poll(() => storedValues(stream), WAIT).toContain(12);
    device.set('Gripper.GripForceActual', 34.5);
    await expect.poll(() => storedValues(stream), WAIT).toContain(34.5);

    // The agent leaves: once the gateway shows offline, a browse is refused at once.
    await agent.stop();
    await expect
      .poll(() => attributesOf(gw.gatewayId).then((a) => a.connection), WAIT)
      .toBe('offline');
    const started = Date.now();
    const afterStop = await browse(gw.gatewayId, { connection_id: connectionId });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(afterStop.status, afterStop.text).toBe(409);
    expect(afterStop.json).toEqual({ success: false, message: GATEWAY_OFFLINE });
  });

  it('refuses a user without gateway::edit, and another account’s gateway', async () => {
    const gw = await demoGateway(server, ids.root, 8);
    const connectionId = await opcuaConnectionOn(gw.gatewayId);
    const body = { connection_id: connectionId };

    // The technician may view gateways but not edit them: browsing the device is an edit's.
    const tech = await server.signIn(DEMO_USERS.tech);
    for (const asked of [
      await browse(gw.gatewayId, body, tech),
      await search(gw.gatewayId, { ...body, query: 'Temperature' }, tech),
    ]) {
      expect(asked.status, asked.text).toBe(403);
      expect(asked.json).toEqual({
        success: false,
        message: 'Please ask your administrator for the necessary permissions',
      });
    }

    // Another account's gateway is not found in one's own (the admin's active account is root).
    const north = await demoGateway(server, ids.north, 0);
    const northConnection = await server.db
      .selectFrom('models')
      .select('id')
      .where('type', '=', connectionModel.type)
      .where((eb) =>
        eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', north.gatewayId),
      )
      .executeTakeFirstOrThrow();
    const foreign = await browse(north.gatewayId, { connection_id: northConnection.id });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.json).toEqual({ success: false, message: 'Gateway not found.' });

    // Nor is this account's gateway to an admin of another account (Customer South).
    const south = await server.signIn(DEMO_USERS.south);
    for (const asked of [
      await browse(gw.gatewayId, body, south),
      await search(gw.gatewayId, { ...body, query: 'Temperature' }, south),
    ]) {
      expect(asked.status, asked.text).toBe(404);
      expect(asked.json).toEqual({ success: false, message: 'Gateway not found.' });
    }
    // A connection of another gateway is not found on this one; one that is not OPC UA is refused.
    const elsewhere = await browse(gw.gatewayId, { connection_id: northConnection.id });
    expect(elsewhere.status, elsewhere.text).toBe(404);
    expect(elsewhere.json).toEqual({ success: false, message: 'Connection not found.' });
    const simulator = await server.db
      .selectFrom('models')
      .select('id')
      .where('type', '=', connectionModel.type)
      .where((eb) =>
        eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', gw.gatewayId),
      )
      .where((eb) =>
        eb(eb.fn('json_extract', ['attributes', eb.val('$.protocol')]), '=', 'simulator'),
      )
      .executeTakeFirstOrThrow();
    const notOpcua = await browse(gw.gatewayId, { connection_id: simulator.id });
    expect(notOpcua.status, notOpcua.text).toBe(422);
    expect(notOpcua.json).toMatchObject({
      message: 'This connection is not an OPC UA connection.',
    });
  });

  it('answers at once that a gateway whose agent is not connected is offline', async () => {
    const gw = await demoGateway(server, ids.root, 9);
    const connectionId = await opcuaConnectionOn(gw.gatewayId);
    const started = Date.now();
    const browsed = await browse(gw.gatewayId, { connection_id: connectionId });
    const searched = await search(gw.gatewayId, { connection_id: connectionId, query: 'Oven' });
    // Not after the request's minute: at once.
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const asked of [browsed, searched]) {
      expect(asked.status, asked.text).toBe(409);
      expect(asked.json).toEqual({ success: false, message: GATEWAY_OFFLINE });
    }
    expect(GATEWAY_OFFLINE).toBe(
      'The gateway is offline. Interactions are limited until it is back.',
    );
  });
});
