import pg from 'pg';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  gatewayAckSchema,
  gatewayBrokerLogin,
  gatewayTopics,
  type GatewayAck,
  type GatewayCredentialsMade,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf } from '../testing/harness';
import { signedIn, TestCluster, until, type ClusterProcess } from '../testing/cluster';
import { decoded, startSmtp } from '../testing/smtp';

/**
 * Issue 17 with two server processes on one Postgres and one Redis (DESIGN.md §11): a value over
 * its limit sent to one process is one alarm and one mail, although both processes run the
 * dispatcher and race for the event and its delivery. Runs in the `server-postgres` project.
 */
let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let db: pg.Client;

beforeAll(async () => {
  smtp = await startSmtp();
  cluster = await TestCluster.create();
  [a, b] = await Promise.all([
    cluster.start(0, { SMTP_URL: smtp.url }),
    cluster.start(0, { SMTP_URL: smtp.url }),
  ]);
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db.end();
  await cluster.close();
  await smtp.close();
}, 60_000);

describe('alarms with two server processes', () => {
  it('a value over its limit, sent to one of them: one alarm, one mail', async () => {
    const admin = await signedIn(a.api, DEMO_USERS.admin);
    const { rows } = await db.query<{ gateway: string; asset: string; stream: string }>(
      `select g.id as gateway, a.id as asset, s.id as stream
         from models g
         join models a on a.type = 'asset' and a.attributes::jsonb ->> 'gateway_id' = g.id
         join models s on s.type = 'datastream' and s.attributes::jsonb ->> 'asset_id' = a.id
        where g.type = 'gateway' and g.account_id = $1
          and s.attributes::jsonb ->> 'name' = 'Spindle speed'
        order by g.id limit 1`,
      [admin.user.account],
    );
    const found = rows[0];
    if (found === undefined) throw new Error('no demo gateway with a spindle');
    const alarm = await b.api.call('POST', apiPaths.collection('alarms'), {
      token: (await signedIn(b.api, DEMO_USERS.admin)).token,
      json: {
        asset_id: found.asset,
        datastream_id: found.stream,
        name: 'Spindle overspeed (cluster)',
        upper_limit: 5_000,
        recipients: [{ user_id: admin.user.id, channels: ['mail'] }],
      },
    });
    expect(alarm.status, alarm.text).toBe(201);
    const alarmId = dataOf<{ id: string }>(alarm).id;

    const made = await a.api.call('POST', apiPaths.gatewayCredentials(found.gateway), {
      token: admin.token,
    });
    expect(made.status, made.text).toBe(201);
    const login = gatewayBrokerLogin(found.gateway);
    const agent: MqttClient = await mqtt.connectAsync(`${a.url.replace('http', 'ws')}/mqtt`, {
      protocolVersion: 4,
      clientId: login.clientId,
      username: login.username,
      password: dataOf<GatewayCredentialsMade>(made).secret,
      keepalive: 30,
      reconnectPeriod: 0,
    });
    try {
      const acks: GatewayAck[] = [];
      agent.on('message', (topic, payload: Buffer) => {
        if (topic === gatewayTopics.ack(found.gateway))
          acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
      });
      await agent.subscribeAsync(gatewayTopics.ack(found.gateway), { qos: 1 });
      const t = Date.now();
      await agent.publishAsync(
        gatewayTopics.data(found.gateway),
        JSON.stringify({
          gateway: found.gateway,
          buffer: 'cluster-alarm',
          seq: 1,
          points: [
            { stream: found.stream, ts: t - 2_000, value: 4_000 },
            { stream: found.stream, ts: t - 1_000, value: 6_000 },
          ],
        }),
        { qos: 1 },
      );
      await until('the batch stored', () => Promise.resolve(acks.length > 0 ? true : undefined));
      await until('the mail', () => Promise.resolve(smtp.inbox.length > 0 ? true : undefined));
      expect(decoded(smtp.inbox[0]?.raw ?? '')).toContain('Spindle overspeed (cluster)');
      // One delivery row (each is unique per event, recipient and channel, claimed before it is
      // sent), sent once, whichever process took it.
      await until('the delivery recorded as sent', async () => {
        const r = await db.query<{ state: string }>(
          `select state from alarm_deliveries where alarm_id = $1`,
          [alarmId],
        );
        return r.rows.length === 1 && r.rows[0]?.state === 'sent' ? true : undefined;
      });
      expect(smtp.inbox).toHaveLength(1);
      const events = await db.query<{ kind: string }>(
        `select kind from alarm_events where alarm_id = $1`,
        [alarmId],
      );
      expect(events.rows.map((e) => e.kind)).toEqual(['raised']);
    } finally {
      await agent.endAsync(true);
    }
  });
});
