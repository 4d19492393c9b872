import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  gatewayRequestSchema,
  gatewayTopics,
  TERMINAL_PING_REFUSED,
  TERMINAL_UNKNOWN,
  topics,
  type TerminalAudit,
  type TerminalOut,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { connectGateway, demoGateway, makeGatewayCredentials } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, closing, collect, settle, until, within } from '../testing/mqtt-client';

/*
 * The gateway terminal over the broker (issue 12; DESIGN.md invariant 7): a browser of a user
 * with the internal tag publishes a command on its terminal topic; the server checks it against
 * the allowlist, keeps it in the audit list, asks the gateway's agent (played here by a raw
 * client that answers requests) and publishes the answer. Without the tag: no subscription, a
 * publish closes the connection, nothing runs, nothing is recorded.
 */
let s: TestServer;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: MqttClient;
const asked: unknown[] = [];
const clients = brokerClients(() => s);

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.signIn(DEMO_USERS.admin);
  const ids = await s.demoAccountIds();
  gw = await demoGateway(s, ids.root, 8);
  const made = await makeGatewayCredentials(s, admin, gw.gatewayId);
  agent = await connectGateway(s, gw.gatewayId, made.secret);
  agent.on('message', (topic, payload) => {
    if (topic !== gatewayTopics.request(gw.gatewayId)) return;
    const request = gatewayRequestSchema.parse(JSON.parse(payload.toString()));
    asked.push(request);
    if (request.op !== 'terminal') return;
    agent.publish(
      gatewayTopics.response(gw.gatewayId),
      JSON.stringify({ id: request.id, ok: true, output: `ran ${request.command.op}` }),
    );
  });
  await agent.subscribeAsync(gatewayTopics.request(gw.gatewayId), { qos: 1 });
  // The gateway is online once the server has seen its link.
  await until(() => s.broker.connectedGateways().has(gw.gatewayId), 5_000);
});
afterEach(() => clients.closeAll());
afterAll(async () => {
  await agent.endAsync(true);
  await s.close();
});

describe('the gateway terminal', () => {
  it('runs an allowed command on the agent, answers it, and keeps it in the audit list', async () => {
    const { token, user, creds } = await clients.session(DEMO_USERS.internal);
    const browser = await clients.connect(creds);
    const got = collect(browser);
    const out = topics.terminalOut(user.account, gw.gatewayId);
    const granted = await browser.subscribeAsync(out, { qos: 0 });
    expect(granted[0]?.qos).toBe(0);
    const send = (id: string, line: string) =>
      browser.publishAsync(
        topics.terminalIn(user.account, gw.gatewayId),
        JSON.stringify({ id, line }),
      );

    await send('c1', 'status');
    await until(() => got.some((m) => (m.payload as TerminalOut).id === 'c1'), 10_000);
    expect(got.find((m) => (m.payload as TerminalOut).id === 'c1')?.payload).toMatchObject({
      gateway: gw.gatewayId,
      line: 'status',
      user: DEMO_USERS.internal,
      ok: true,
      output: 'ran status',
    });
    // Outside the allowlist: refused by the server, never sent to the agent.
    const before = asked.length;
    await send('c2', 'rm -rf /');
    await until(() => got.some((m) => (m.payload as TerminalOut).id === 'c2'), 10_000);
    expect(got.find((m) => (m.payload as TerminalOut).id === 'c2')?.payload).toMatchObject({
      ok: false,
      output: TERMINAL_UNKNOWN,
    });
    expect(asked.length).toBe(before);

    const audit = dataOf<TerminalAudit>(
      await s.call('GET', apiPaths.terminalAudit(gw.gatewayId), { token }),
    );
    expect(audit.map((a) => [a.line, a.user, a.ok])).toEqual([
      ['rm -rf /', DEMO_USERS.internal, false],
      ['status', DEMO_USERS.internal, true],
    ]);
  });

  it("pings only its connections' hosts and its own network; anything else is refused before the agent", async () => {
    const admin = await s.signIn(DEMO_USERS.admin);
    const plc = await s.call('POST', apiPaths.collection('connections'), {
      token: admin,
      json: {
        gateway_id: gw.gatewayId,
        name: 'PLC 7',
        protocol: 'modbus-tcp',
        settings: { host: 'plc-7.plant.local', port: 502 },
        enabled: false,
      },
    });
    expect(plc.status, plc.text).toBe(201);
    const network = await s.call('PUT', apiPaths.model('gateways', gw.gatewayId), {
      token: admin,
      json: { ip_assignment: 'static', ip: '192.168.50.10', subnet_mask: '255.255.255.0' },
    });
    expect(network.status, network.text).toBe(200);

    const { user, creds } = await clients.session(DEMO_USERS.internal);
    const browser = await clients.connect(creds);
    const got = collect(browser);
    await browser.subscribeAsync(topics.terminalOut(user.account, gw.gatewayId), { qos: 0 });
    const run = async (id: string, line: string) => {
      await browser.publishAsync(
        topics.terminalIn(user.account, gw.gatewayId),
        JSON.stringify({ id, line }),
      );
      await until(() => got.some((m) => (m.payload as TerminalOut).id === id), 10_000);
      return got.find((m) => (m.payload as TerminalOut).id === id)?.payload as TerminalOut;
    };
    const pings = () => asked.filter((a) => JSON.stringify(a).includes('"ping"')).length;

    const before = pings();
    for (const [i, line] of [
      'ping 169.254.169.254 80',
      'ping 8.8.8.8 53',
      'ping 192.168.51.1 22',
      'ping localhost 5432',
      'ping 127.0.0.1 22',
      'ping plc-8.plant.local 502',
    ].entries()) {
      expect(await run(`r${i}`, line), line).toMatchObject({
        ok: false,
        output: TERMINAL_PING_REFUSED,
      });
    }
    expect(pings()).toBe(before);
    for (const [i, line] of [
      'ping plc-7.plant.local 502',
      'ping PLC-7.plant.local 80',
      'ping 192.168.50.77 22',
    ].entries()) {
      expect(await run(`a${i}`, line), line).toMatchObject({ ok: true, output: 'ran ping' });
    }
    expect(pings()).toBe(before + 3);
  });

  it('without the internal tag: no answers, a publish closes the connection, nothing runs', async () => {
    const { token, user, creds } = await clients.session(DEMO_USERS.admin);
    const browser = await clients.connect(creds);
    const out = topics.terminalOut(user.account, gw.gatewayId);
    // Refused in the SUBACK (0x80), which mqtt.js 5 turns into a rejection.
    await expect(browser.subscribeAsync(out, { qos: 0 })).rejects.toThrow(/Subscribe error/);
    const before = asked.length;
    const closed = closing(browser);
    browser.publish(
      topics.terminalIn(user.account, gw.gatewayId),
      JSON.stringify({ id: 'x', line: 'status' }),
    );
    await within(closed, 5_000);
    await settle(300);
    expect(asked.length).toBe(before);
    expect((await s.call('GET', apiPaths.terminalAudit(gw.gatewayId), { token })).status).toBe(403);
    const internal = await s.signIn(DEMO_USERS.internal);
    const audit = dataOf<TerminalAudit>(
      await s.call('GET', apiPaths.terminalAudit(gw.gatewayId), { token: internal }),
    );
    expect(audit.some((a) => a.id === 'x' || a.user === DEMO_USERS.admin)).toBe(false);
  });
});
