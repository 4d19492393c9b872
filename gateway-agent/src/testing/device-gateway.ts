import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiPaths, connectionModel, datapointModel, type SyncedModel } from '@plant/shared-schema';
import { demoGateway, makeGatewayCredentials } from '../../../server/src/testing/gateway-client';
import { dataOf, type TestServer } from '../../../server/src/testing/harness';
import { Agent } from '../agent';
import { brokerUrlOf } from '../config';
import { makeConnector } from '../connectors';
import { silentLogger } from '../logger';

/**
 * A demo gateway set up as an admin would for a real device: its simulator switched off, one
 * connection to the device (made through the API) feeding its machine's stream `streamName`,
 * and its agent running in this process against `server`. `stop` ends the agent and removes its
 * data folder.
 */
export async function deviceGateway(options: {
  readonly server: TestServer;
  readonly token: string;
  readonly accountId: string;
  readonly index: number;
  readonly connection: { protocol: string; settings: Record<string, unknown> };
  readonly address: Record<string, unknown>;
  readonly streamName?: string;
  readonly intervalMs?: number;
}): Promise<{ stream: string; assetId: string; gatewayId: string; stop: () => Promise<void> }> {
  const { server, token } = options;
  const create = async (collection: string, json: unknown) => {
    const res = await server.call('POST', apiPaths.collection(collection), { token, json });
    if (res.status !== 201) throw new Error(`${collection}: ${res.status} ${res.text}`);
    return dataOf<SyncedModel>(res);
  };
  const gw = await demoGateway(server, options.accountId, options.index);
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
      token,
      json: { enabled: false },
    });
    if (off.status !== 200) throw new Error(`simulator off: ${off.status} ${off.text}`);
  }
  const streamName = options.streamName ?? 'Motor temperature';
  const stream = gw.streams[streamName];
  if (stream === undefined) throw new Error(`no stream ${streamName}`);
  const made = await create(connectionModel.collection, {
    gateway_id: gw.gatewayId,
    name: `Test ${options.connection.protocol}`,
    interval_ms: options.intervalMs ?? 100,
    enabled: true,
    ...options.connection,
  });
  await create(datapointModel.collection, {
    connection_id: made.id,
    datastream_id: stream,
    address: options.address,
    deadband: 0,
  });
  const agent = await startAgent(server, token, gw.gatewayId);
  return { stream, assetId: gw.assetId, gatewayId: gw.gatewayId, stop: agent.stop };
}

/**
 * The agent of one gateway, running in this process against `server` with credentials made
 * through the API; it runs whatever configuration the server sends. `stop` ends it and removes
 * its data folder.
 */
export async function startAgent(
  server: TestServer,
  token: string,
  gatewayId: string,
): Promise<{ stop: () => Promise<void> }> {
  const key = (await makeGatewayCredentials(server, token, gatewayId)).secret;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-dev-'));
  const agent = new Agent({
    config: {
      brokerUrl: brokerUrlOf(server.url),
      serverUrl: server.url,
      gatewayId,
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
  return {
    stop: async () => {
      await agent.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
