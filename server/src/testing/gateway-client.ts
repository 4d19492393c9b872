import mqtt, { type MqttClient } from 'mqtt';
import {
  apiPaths,
  gatewayAckSchema,
  gatewayBrokerLogin,
  gatewayModel,
  gatewayTopics,
  type ConnectionStatus,
  type GatewayAck,
  type GatewayCredentialsMade,
} from '@plant/shared-schema';
import { dataOf, type TestServer } from './harness';
import { until } from './mqtt-client';
import { attributeText } from '../db/database';

/**
 * A gateway agent played by hand in server tests: credentials made through the API as an admin
 * would, and a raw mqtt.js client that sends what a test wants (hostile batches included).
 */
export async function makeGatewayCredentials(
  server: TestServer,
  token: string,
  gatewayId: string,
): Promise<GatewayCredentialsMade> {
  const answer = await server.call('POST', apiPaths.gatewayCredentials(gatewayId), { token });
  if (answer.status !== 201) throw new Error(`credentials: ${answer.status} ${answer.text}`);
  return dataOf<GatewayCredentialsMade>(answer);
}

export function connectGateway(
  server: TestServer,
  gatewayId: string,
  secret: string,
  options: { clientId?: string; username?: string } = {},
): Promise<MqttClient> {
  const login = gatewayBrokerLogin(gatewayId);
  return mqtt.connectAsync(`${server.url.replace('http', 'ws')}/mqtt`, {
    protocolVersion: 4,
    clientId: options.clientId ?? login.clientId,
    username: options.username ?? login.username,
    password: secret,
    keepalive: 30,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
}

/** The demo account's gateways with their machines' streams, from the server's database. */
export async function demoGateway(server: TestServer, accountId: string, index = 0) {
  const gateways = await server.db
    .selectFrom('models')
    .select(['id'])
    .where('account_id', '=', accountId)
    .where('type', '=', gatewayModel.type)
    .orderBy('id')
    .execute();
  const gatewayId = gateways[index]?.id;
  if (gatewayId === undefined) throw new Error('no such demo gateway');
  const asset = await server.db
    .selectFrom('models')
    .select(['id'])
    .where('account_id', '=', accountId)
    .where('type', '=', 'asset')
    .where(attributeText(server.db, 'gateway_id'), '=', gatewayId)
    .executeTakeFirstOrThrow();
  const streams = await server.db
    .selectFrom('models')
    .select(['id', 'attributes'])
    .where('account_id', '=', accountId)
    .where('type', '=', 'datastream')
    .where(attributeText(server.db, 'asset_id'), '=', asset.id)
    // In the order they were made (ids are UUIDv7): tests take "the first other stream".
    .orderBy('id')
    .execute();
  const byName = Object.fromEntries(
    streams.map((s) => [(JSON.parse(s.attributes) as { name: string }).name, s.id]),
  );
  return { gatewayId, assetId: asset.id, streams: byName };
}

/** A point as a test sends it: the stream, the device's time, the value. */
export interface SentPoint {
  readonly stream: string;
  readonly ts: number;
  readonly value: number;
}

/**
 * A demo gateway's agent linked as a real one is (credentials, MQTT, its acks heard): `send`
 * publishes one batch and resolves once it is acknowledged, stored and evaluated.
 */
export async function linkedAgent(
  server: TestServer,
  adminToken: string,
  gatewayId: string,
  buffer: string,
) {
  const made = await makeGatewayCredentials(server, adminToken, gatewayId);
  const agent = await connectGateway(server, gatewayId, made.secret);
  const acks: GatewayAck[] = [];
  agent.on('message', (topic, payload: Buffer) => {
    if (topic === gatewayTopics.ack(gatewayId))
      acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
  });
  await agent.subscribeAsync(gatewayTopics.ack(gatewayId), { qos: 1 });
  let seq = 0;
  return {
    acks,
    /** `again`: under the last seq once more, as the agent sends a batch not yet stored. */
    async send(points: readonly SentPoint[], again = false): Promise<GatewayAck> {
      if (!again) seq += 1;
      const before = acks.length;
      const payload = JSON.stringify({ gateway: gatewayId, buffer, seq, points });
      await agent.publishAsync(gatewayTopics.data(gatewayId), payload, { qos: 1 });
      await until(() => acks.length > before, 10_000);
      await server.machineData.idle();
      const ack = acks[acks.length - 1];
      if (ack === undefined) throw new Error('no ack');
      return ack;
    },
    /** Reports its connections' states as the agent's `up/status` does; resolves once written. */
    async status(connections: readonly ConnectionStatus[]): Promise<void> {
      const payload = JSON.stringify({
        config_version: null,
        started_at: 0,
        agent_version: 'test',
        addresses: [],
        connections,
        buffer: { pending: 0, dropped: 0 },
      });
      await agent.publishAsync(gatewayTopics.status(gatewayId), payload, { qos: 1 });
      await server.machineData.idle();
    },
    close: () => agent.endAsync(true),
  };
}
