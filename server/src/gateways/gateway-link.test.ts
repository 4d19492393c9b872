import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  gatewayAckSchema,
  gatewayConfigSchema,
  gatewayTopics,
  topics,
  type GatewayAck,
  type GatewayCredentialList,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { connectGateway, demoGateway, makeGatewayCredentials } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, closing, fixedHeader, until, within } from '../testing/mqtt-client';

/*
 * A gateway agent's sign-in and what it may do on the broker (DESIGN.md §8): credentials made on
 * the gateway (shown once, stored hashed, rotated, revoked), its own topics only, its
 * configuration retained for it alone.
 */
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const open: MqttClient[] = [];
const browsers = brokerClients(() => server);

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
  await browsers.closeAll();
});
afterAll(() => server.close());

async function gateway(id: string, secret: string, options = {}) {
  const client = await connectGateway(server, id, secret, options);
  open.push(client);
  return client;
}

async function refused(id: string, secret: string, options = {}) {
  const error = await connectGateway(server, id, secret, options).then(
    (c) => {
      open.push(c);
      return undefined;
    },
    (err: unknown) => err as Error & { code?: number },
  );
  expect(error, 'the broker let the agent in').toBeDefined();
  return error;
}

describe('gateway credentials', () => {
  it('are shown once, kept hashed, listed without secret, for gateway::edit in the account only', async () => {
    const { gatewayId } = await demoGateway(server, ids.root, 1);
    const made = await makeGatewayCredentials(server, admin, gatewayId);
    expect(made.secret.length).toBeGreaterThanOrEqual(40);
    const listed = dataOf<GatewayCredentialList>(
      await server.call('GET', apiPaths.gatewayCredentials(gatewayId), { token: admin }),
    );
    expect(listed.map((c) => c.id)).toEqual([made.id]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    const rows = await server.db.selectFrom('gateway_credentials').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(made.secret);

    // The technician views gateways but may not edit them.
    const tech = await server.signIn(DEMO_USERS.tech);
    const asTech = await server.call('POST', apiPaths.gatewayCredentials(gatewayId), {
      token: tech,
    });
    expect(asTech.status).toBe(403);
    // A gateway of another account (Customer North) is not found from the root account.
    const north = await demoGateway(server, ids.north);
    const other = await server.call('POST', apiPaths.gatewayCredentials(north.gatewayId), {
      token: admin,
    });
    expect(other.status).toBe(404);
  });

  it('let the agent in with its own id only; rotating closes the old link, revoking the new', async () => {
    const { gatewayId } = await demoGateway(server, ids.root, 2);
    const first = await makeGatewayCredentials(server, admin, gatewayId);
    const client = await gateway(gatewayId, first.secret);
    await refused(gatewayId, 'x'.repeat(43));
    // The secret of one gateway opens no other.
    const { gatewayId: otherGateway } = await demoGateway(server, ids.root, 3);
    await refused(otherGateway, first.secret);
    // Right secret, but a client id or user name not of this gateway.
    await refused(gatewayId, first.secret, { clientId: 'someone-else' });
    await refused(gatewayId, first.secret, { username: `b-${gatewayId}` });

    const closed = closing(client);
    const second = await makeGatewayCredentials(server, admin, gatewayId);
    await closed;
    await refused(gatewayId, first.secret);
    const again = await gateway(gatewayId, second.secret);
    const closedAgain = closing(again);
    const revoked = await server.call('DELETE', apiPaths.gatewayCredentials(gatewayId), {
      token: admin,
    });
    expect(revoked.status).toBe(200);
    await closedAgain;
    await refused(gatewayId, second.secret);
  });

  it('of a deactivated account: the link closes at once, none opens, nothing is stored; reactivated, the same secret works', async () => {
    const { gatewayId, streams } = await demoGateway(server, ids.north, 2);
    // Credentials are made in the gateway's account: the admin works in North for that.
    const me = dataOf<{ id: string }>(await server.call('GET', apiPaths.user(), { token: admin }));
    const switchTo = async (account: string) =>
      expect(
        (await server.call('POST', apiPaths.setActiveAccount(me.id, account), { token: admin }))
          .status,
      ).toBe(200);
    await switchTo(ids.north);
    const made = await makeGatewayCredentials(server, admin, gatewayId);
    await switchTo(ids.root);
    const setActive = async (active: boolean) => {
      const answer = await server.call('PUT', apiPaths.accountById(ids.north), {
        token: admin,
        json: { active },
      });
      expect(answer.status).toBe(200);
    };
    try {
      const agent = await gateway(gatewayId, made.secret);
      const closed = closing(agent);
      await setActive(false);
      // At once, not at the broker's re-check (30 s).
      await within(closed, 5_000);
      await refused(gatewayId, made.secret);

      // Reactivated: the credentials were never revoked, the agent comes back as it was.
      await setActive(true);
      const back = await gateway(gatewayId, made.secret);
      const acks: GatewayAck[] = [];
      back.on('message', (topic, payload: Buffer) => {
        if (topic === gatewayTopics.ack(gatewayId))
          acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
      });
      await back.subscribeAsync(gatewayTopics.ack(gatewayId), { qos: 1 });

      // Deactivated behind this process's back (another process's write whose broadcast was
      // lost): a batch on the still open link stores nothing and gets no ack (the agent keeps
      // it), and the broker's re-check closes the link.
      await server.db
        .updateTable('accounts')
        .set({ active: 0 })
        .where('id', '=', ids.north)
        .execute();
      const stream = Object.values(streams)[0] ?? '';
      const ts = Date.now();
      const batch = JSON.stringify({
        gateway: gatewayId,
        buffer: 'deactivation',
        seq: 1,
        points: [{ stream, ts, value: 1 }],
      });
      await back.publishAsync(gatewayTopics.data(gatewayId), batch, { qos: 1 });
      await server.machineData.idle();
      const stored = async () => {
        const points = [];
        for await (const p of server.machineData.store.scan(stream, ts - 1, ts + 1)) points.push(p);
        return points;
      };
      expect(await stored()).toEqual([]);
      const closedBack = closing(back);
      await server.broker.refreshAccess();
      await within(closedBack, 5_000);
      expect(acks).toEqual([]);

      // Active again: the agent sends the batch it kept, and it is stored.
      await setActive(true);
      const last = await gateway(gatewayId, made.secret);
      const stored1: GatewayAck[] = [];
      last.on('message', (topic, payload: Buffer) => {
        if (topic === gatewayTopics.ack(gatewayId))
          stored1.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
      });
      await last.subscribeAsync(gatewayTopics.ack(gatewayId), { qos: 1 });
      await last.publishAsync(gatewayTopics.data(gatewayId), batch, { qos: 1 });
      await until(() => stored1.length > 0, 10_000);
      expect(stored1[0]).toMatchObject({ seq: 1, status: 'stored', stored: 1 });
      expect(await stored()).toHaveLength(1);
    } finally {
      await server.db
        .updateTable('accounts')
        .set({ active: 1 })
        .where('id', '=', ids.north)
        .execute();
    }
  });
});

describe('what a gateway may do on the broker', () => {
  it('gets its configuration retained, and nothing of another gateway or account', async () => {
    const mine = await demoGateway(server, ids.root, 4);
    const theirs = await demoGateway(server, ids.north);
    const made = await makeGatewayCredentials(server, admin, mine.gatewayId);
    const client = await gateway(mine.gatewayId, made.secret);
    const got: { topic: string; payload: string }[] = [];
    client.on('message', (topic, payload) => got.push({ topic, payload: payload.toString() }));

    await client.subscribeAsync(gatewayTopics.config(mine.gatewayId), { qos: 1 });
    await until(() => got.length > 0, 10_000);
    const config = gatewayConfigSchema.parse(JSON.parse(got[0]?.payload ?? ''));
    expect(config.gateway).toBe(mine.gatewayId);
    expect(config.connections[0]?.protocol).toBe('simulator');
    expect(config.connections[0]?.datapoints.map((d) => d.datastream_id).sort()).toEqual(
      Object.values(mine.streams).sort(),
    );

    // Wildcards and other gateways' or accounts' topics: refused in the SUBACK.
    for (const topic of [
      gatewayTopics.config(theirs.gatewayId),
      'gateway/+/down/config',
      'gateway/#',
      '#',
      topics.modelUpdates(ids.root),
      topics.assetValues(ids.root, '+'),
    ]) {
      await expect(client.subscribeAsync(topic, { qos: 1 }), topic).rejects.toThrow();
    }
    // Publishing on another gateway's topic closes the link; nothing arrives there.
    const closed = closing(client);
    client.publish(
      gatewayTopics.data(theirs.gatewayId),
      JSON.stringify({ gateway: theirs.gatewayId, buffer: 'b', seq: 1, points: [] }),
      { qos: 1 },
    );
    await closed;
    const before = got.length;
    expect(got.slice(before)).toEqual([]);
  });

  it('publishes nothing retained for it: a retained PUBLISH is taken as a plain one', async () => {
    const mine = await demoGateway(server, ids.root, 6);
    const made = await makeGatewayCredentials(server, admin, mine.gatewayId);
    const client = await gateway(mine.gatewayId, made.secret);
    const before = await server.broker.retainedTopics();
    expect(before).toContain(gatewayTopics.config(mine.gatewayId));
    // Every up/<name> would be a slot of its own, kept for good.
    for (const name of ['status', 'logs', 'anything']) {
      await client.publishAsync(`${gatewayTopics.upPrefix(mine.gatewayId)}${name}`, '{}', {
        qos: 1,
        retain: true,
      });
    }
    // The PUBACKs came after the broker took the messages: the link stays, nothing is kept.
    expect(client.connected).toBe(true);
    expect(await server.broker.retainedTopics()).toEqual(before);
  });

  it('a packet announcing more than a batch may be is cut off at its header', async () => {
    const mine = await demoGateway(server, ids.root, 7);
    const made = await makeGatewayCredentials(server, admin, mine.gatewayId);
    const client = await gateway(mine.gatewayId, made.secret);
    client.on('error', () => undefined);
    const cut = closing(client);
    // A PUBLISH of 2 MiB announced, its body never sent: the link ends at the header.
    client.stream.write(fixedHeader(0x30, 2 * 1024 * 1024));
    await within(cut, 5_000);
  });

  it("a browser cannot reach a gateway's topics", async () => {
    const { creds } = await browsers.session(DEMO_USERS.admin);
    const client = await browsers.connect(creds);
    const { gatewayId } = await demoGateway(server, ids.root, 5);
    for (const topic of [
      gatewayTopics.config(gatewayId),
      'gateway/#',
      gatewayTopics.data(gatewayId),
    ])
      await expect(client.subscribeAsync(topic), topic).rejects.toThrow();
  });
});
