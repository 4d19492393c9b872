import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayModel, gatewayTopics, type GatewayStatus } from '@plant/shared-schema';
import { ModelRepository } from '../repositories/model.repository';
import { DEMO_USERS } from '../seed/demo';
import { connectGateway, demoGateway, makeGatewayCredentials } from '../testing/gateway-client';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * A gateway's status (`up/status`) as its agent sends it, stored on the gateway's model: texts
 * that come over MQTT are stored as JSON every database reads (Postgres's JSON refuses a lone
 * surrogate; the model's account then failed every query reading attributes as JSON).
 */
let server: TestServer;
let agent: MqttClient;
let gatewayId = '';
let accountId = '';

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.signIn(DEMO_USERS.admin);
  accountId = (await server.demoAccountIds()).root;
  gatewayId = (await demoGateway(server, accountId)).gatewayId;
  const made = await makeGatewayCredentials(server, admin, gatewayId);
  agent = await connectGateway(server, gatewayId, made.secret);
});
afterAll(async () => {
  await agent.endAsync(true);
  await server.close();
});

async function storedAgent(): Promise<{ version?: string; problems?: string[] } | undefined> {
  const row = await new ModelRepository(server.db).find(accountId, gatewayModel.type, gatewayId);
  const attributes = JSON.parse(row?.attributes ?? '{}') as {
    agent?: { version?: string; problems?: string[] };
  };
  return attributes.agent;
}

describe('a gateway’s status', () => {
  it('is stored with lone surrogates as U+FFFD, and the account’s JSON queries still work', async () => {
    const status: GatewayStatus = {
      config_version: null,
      started_at: Date.now(),
      agent_version: '1.0.\ud800',
      addresses: [],
      connections: [],
      buffer: { pending: 0, dropped: 0 },
      problems: ['\udc00 static IP', 'paired 😀 stays'],
    };
    // JSON.stringify writes each lone surrogate as its escape: valid JSON, refused by Postgres's.
    await agent.publishAsync(gatewayTopics.status(gatewayId), JSON.stringify(status), { qos: 1 });
    await expect.poll(storedAgent, { timeout: 20_000, interval: 50 }).toMatchObject({
      version: '1.0.\ufffd',
      problems: ['\ufffd static IP', 'paired 😀 stays'],
    });
    const found = await new ModelRepository(server.db).referencing(
      accountId,
      gatewayModel.type,
      'name',
      'no such name',
    );
    expect(found).toEqual([]);
  });
});
