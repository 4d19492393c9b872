import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import mqtt from 'mqtt';
import {
  apiPaths,
  gatewayBrokerLogin,
  gatewayRequestSchema,
  gatewayTopics,
  topics,
  uuidv7,
  type GatewayCredentialsMade,
  type ModelUpdate,
  type SyncedModel,
  type TerminalOut,
} from '@plant/shared-schema';
import { DEFAULT_AUTH_LIMITS } from '../services/auth.service';
import { DEMO_USERS } from '../seed/demo';
import { dataOf } from '../testing/harness';
import { nextMessage, signedIn, TestCluster, until, type ClusterProcess } from '../testing/cluster';
import { LEADER_APPLICATION } from './leader';

/**
 * Two server processes on one Postgres database and one Redis (DESIGN.md §11, issue 14), each
 * the real entry point in a child process on its own port: what one process does, the other's
 * clients see. Runs in the `server-postgres` project (its globalSetup starts both services).
 */
let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;

/**
 * Which server process holds the leader lock now (its pid), from Postgres's own view: in this
 * test's database only (other cluster tests may run at the same time, each in its own).
 */
async function leaderPid(): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select a.application_name as name from pg_locks l
         join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and a.application_name like $1
          and l.database = (select oid from pg_database where datname = current_database())`,
      [`${LEADER_APPLICATION}-%`],
    );
    if (rows.length > 1) throw new Error(`${rows.length} processes hold the leader lock`);
    const name = rows[0]?.name;
    return name === undefined ? undefined : Number(name.slice(LEADER_APPLICATION.length + 1));
  } finally {
    await client.end();
  }
}

/**
 * The cluster's liveness pace (config.ts): a process's alive key lives 3 heartbeats, the
 * leader's sweep runs every 2, a leader is replaced within 1. At the default 5 s the dead
 * process's gateway took up to 25 s to go offline (29 s of the file's 41); at 1 s, 5 s. Not
 * shorter: a process whose renewals stall for 3 heartbeats on a busy machine counts as dead, and
 * its gateways would go offline under the test that checks they stay online.
 */
const HEARTBEAT_MS = 1_000;

beforeAll(async () => {
  cluster = await TestCluster.create({ CLUSTER_HEARTBEAT_MS: String(HEARTBEAT_MS) });
  // Both at once: the start-up steps (migrations, first-party client, demo seed) take turns.
  [a, b] = await Promise.all([cluster.start(), cluster.start()]);
}, 120_000);

afterAll(() => cluster.close(), 60_000);

describe('two server processes on Postgres and Redis', () => {
  it('started at once, they seeded the demo once and share one first-party client', () => {
    expect(a.api.clientId).toBe(b.api.clientId);
    const seeded = cluster.processes.filter((r) => r.process.output().includes('demo data seeded'));
    expect(seeded).toHaveLength(1);
  });

  it('a rename made through one reaches a browser connected to the other within 2 s', async () => {
    const onA = await signedIn(a.api, DEMO_USERS.admin);
    const onB = await signedIn(b.api, DEMO_USERS.admin);
    const browser = await cluster.browser(a.url, onA.token);
    await browser.subscribeAsync(topics.modelUpdates(onA.user.account));
    const created = await b.api.call('POST', apiPaths.collection('assets'), {
      token: onB.token,
      json: { name: 'Press 7' },
    });
    expect(created.status).toBe(201);
    const id = dataOf<SyncedModel>(created).id;
    const arrived = nextMessage(
      browser,
      (_topic, payload) => {
        const update = JSON.parse(payload.toString()) as ModelUpdate;
        return update.id === id && update.attributes?.name === 'Press 7 renamed'
          ? update
          : undefined;
      },
      2_000,
    );
    const renamed = await b.api.call('PUT', apiPaths.model('assets', id), {
      token: onB.token,
      json: { name: 'Press 7 renamed' },
    });
    expect(renamed.status).toBe(200);
    const update = await arrived;
    expect(update.type).toBe('asset');
  });

  it('a logout on one closes that token’s broker connection on the other', async () => {
    const onA = await signedIn(a.api, DEMO_USERS.tech);
    const browser = await cluster.browser(b.url, onA.token);
    // Told through Redis, not found by the other's re-check of open connections (every 30 s).
    const closed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still open after 10 s')), 10_000);
      browser.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    expect((await a.api.call('POST', apiPaths.logout(), { token: onA.token })).status).toBe(200);
    await closed;
    expect(browser.connected).toBe(false);
  });

  it('20 writers at once, spread over both, leave seq gapless and unique in the account', async () => {
    const onA = await signedIn(a.api, DEMO_USERS.admin);
    const onB = await signedIn(b.api, DEMO_USERS.admin);
    const before = dataOf<{ seq: number }[]>(
      await a.api.call('GET', apiPaths.mqttlogs(0), { token: onA.token }),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).api.call('POST', apiPaths.collection('assets'), {
          token: i % 2 === 0 ? onA.token : onB.token,
          json: { name: `Writer ${i}` },
        }),
      ),
    );
    expect(answers.map((x) => x.status)).toEqual(Array.from({ length: 20 }, () => 201));
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ seq: number }>(
        'select seq::int as seq from model_updates where account_id = $1 order by seq',
        [onA.user.account],
      );
      const seqs = rows.map((r) => r.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      const first = seqs[0] ?? 0;
      expect(seqs).toEqual(seqs.map((_, i) => first + i));
      expect(seqs.length).toBeGreaterThanOrEqual(before.length + 20);
    } finally {
      await client.end();
    }
  });

  it('sign-in failures counted on one process hold on the other', async () => {
    const { limit } = DEFAULT_AUTH_LIMITS.perEmailAndAddress;
    const email = `guess-${uuidv7()}@demo.local`;
    const attempt = (at: ClusterProcess) =>
      at.api.call('POST', apiPaths.token(), {
        json: {
          grant_type: 'password',
          client_id: at.api.clientId,
          username: email,
          password: 'wrong-password-1',
        },
      });
    // Half on each: neither process alone saw the limit.
    for (let i = 0; i < limit; i++) expect((await attempt(i % 2 === 0 ? a : b)).status).toBe(401);
    const [onA, onB] = [await attempt(a), await attempt(b)];
    expect([onA.status, onB.status]).toEqual([429, 429]);
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a terminal command from a browser on one reaches a gateway linked to the other, and back', async () => {
    const admin = await signedIn(a.api, DEMO_USERS.admin);
    const internal = await signedIn(a.api, DEMO_USERS.internal);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>(
        `select id from models where type = 'gateway' and account_id = $1 order by id limit 1`,
        [internal.user.account],
      );
      const gatewayId = rows[0]?.id;
      if (gatewayId === undefined) throw new Error('no demo gateway');
      const made = await a.api.call('POST', apiPaths.gatewayCredentials(gatewayId), {
        token: admin.token,
      });
      expect(made.status).toBe(201);
      // The agent, played by hand, linked to B; it answers every terminal request.
      const login = gatewayBrokerLogin(gatewayId);
      const agent = await mqtt.connectAsync(`${b.url.replace('http', 'ws')}/mqtt`, {
        protocolVersion: 4,
        clientId: login.clientId,
        username: login.username,
        password: dataOf<GatewayCredentialsMade>(made).secret,
        keepalive: 30,
        reconnectPeriod: 0,
      });
      try {
        agent.on('message', (_topic, payload: Buffer) => {
          const request = gatewayRequestSchema.parse(JSON.parse(payload.toString()));
          if (request.op !== 'terminal') return;
          agent.publish(
            gatewayTopics.response(gatewayId),
            JSON.stringify({ id: request.id, ok: true, output: 'ran on the agent' }),
          );
        });
        await agent.subscribeAsync(gatewayTopics.request(gatewayId), { qos: 1 });
        await until('the gateway online', async () => {
          const r = await db.query<{ c: string }>(
            `select attributes::jsonb ->> 'connection' as c from models where id = $1`,
            [gatewayId],
          );
          return r.rows[0]?.c === 'online' ? true : undefined;
        });
        const browser = await cluster.browser(a.url, internal.token);
        await browser.subscribeAsync(topics.terminalOut(internal.user.account, gatewayId));
        const answered = nextMessage(
          browser,
          (_topic, payload) => {
            const out = JSON.parse(payload.toString()) as TerminalOut;
            return out.id === 'c1' ? out : undefined;
          },
          10_000,
        );
        await browser.publishAsync(
          topics.terminalIn(internal.user.account, gatewayId),
          JSON.stringify({ id: 'c1', line: 'status' }),
        );
        expect(await answered).toMatchObject({ id: 'c1', gateway: gatewayId });
        expect(JSON.stringify(await answered)).toContain('ran on the agent');
      } finally {
        await agent.endAsync(true);
      }
    } finally {
      await db.end();
    }
  });

  it("deactivating an account on one closes its gateway's link on the other at once", async () => {
    const admin = await signedIn(a.api, DEMO_USERS.admin);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const north = (
      await db.query<{ id: string }>(`select id from accounts where name = 'Customer North'`)
    ).rows[0]?.id;
    if (north === undefined) throw new Error('no demo account North');
    const setActive = async (active: boolean) =>
      expect(
        (
          await a.api.call('PUT', apiPaths.accountById(north), {
            token: admin.token,
            json: { active },
          })
        ).status,
      ).toBe(200);
    try {
      const { rows } = await db.query<{ id: string }>(
        `select id from models where type = 'gateway' and account_id = $1 order by id limit 1`,
        [north],
      );
      const gatewayId = rows[0]?.id;
      if (gatewayId === undefined) throw new Error('no demo gateway');
      // Credentials are made in the gateway's account: the admin works in North for that.
      const switchTo = async (account: string) =>
        expect(
          (
            await a.api.call('POST', apiPaths.setActiveAccount(admin.user.id, account), {
              token: admin.token,
            })
          ).status,
        ).toBe(200);
      await switchTo(north);
      const made = await a.api.call('POST', apiPaths.gatewayCredentials(gatewayId), {
        token: admin.token,
      });
      await switchTo(admin.user.account);
      expect(made.status).toBe(201);
      const login = gatewayBrokerLogin(gatewayId);
      const agent = await mqtt.connectAsync(`${b.url.replace('http', 'ws')}/mqtt`, {
        protocolVersion: 4,
        clientId: login.clientId,
        username: login.username,
        password: dataOf<GatewayCredentialsMade>(made).secret,
        keepalive: 30,
        reconnectPeriod: 0,
      });
      try {
        // Told through Redis, not found by B's re-check of open connections (every 30 s).
        const closed = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('still open after 10 s')), 10_000);
          agent.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        await setActive(false);
        await closed;
        expect(agent.connected).toBe(false);
      } finally {
        await agent.endAsync(true);
      }
    } finally {
      await setActive(true);
      await db.end();
    }
  });

  it('an agent that moves to the other process stays online; one whose process dies goes offline', async () => {
    const admin = await signedIn(a.api, DEMO_USERS.admin);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const redis = new Redis(process.env.PLANT_TEST_REDIS_URL ?? '');
    const agents: mqtt.MqttClient[] = [];
    try {
      const { rows } = await db.query<{ id: string }>(
        `select id from models where type = 'gateway' and account_id = $1 order by id desc limit 1`,
        [admin.user.account],
      );
      const gatewayId = rows[0]?.id;
      if (gatewayId === undefined) throw new Error('no demo gateway');
      const made = await a.api.call('POST', apiPaths.gatewayCredentials(gatewayId), {
        token: admin.token,
      });
      const secret = dataOf<GatewayCredentialsMade>(made).secret;
      const login = gatewayBrokerLogin(gatewayId);
      const link = async (at: ClusterProcess) => {
        const agent = await mqtt.connectAsync(`${at.url.replace('http', 'ws')}/mqtt`, {
          protocolVersion: 4,
          clientId: login.clientId,
          username: login.username,
          password: secret,
          keepalive: 30,
          reconnectPeriod: 0,
        });
        agents.push(agent);
        return agent;
      };
      const stored = async () =>
        (
          await db.query<{ c: string }>(
            `select attributes::jsonb ->> 'connection' as c from models where id = $1`,
            [gatewayId],
          )
        ).rows[0]?.c;
      const storedIs = (want: string) =>
        until(`the gateway ${want}`, async () => ((await stored()) === want ? true : undefined));

      // Linked to A, then to B. B's link takes A's over (one client id), so A hears of its
      // link's end before or after B counted its own: either way the last word is "online".
      const onA = await link(a);
      await storedIs('online');
      await link(b);
      await onA.endAsync(true);
      await until('A to finish with its link', () =>
        Promise.resolve(
          new RegExp(
            `gateway link (moved to another process|ended)","gateway":"${gatewayId}"`,
          ).test(a.process.output())
            ? true
            : undefined,
        ),
      );
      await until('B to count its link', async () =>
        (await redis.hlen(`plant:links:${gatewayId}`)) >= 1 ? true : undefined,
      );
      await storedIs('online');

      // A third process holds the link and dies without a word: the leader's sweep notices.
      const c = await cluster.start();
      await link(c);
      for (const agent of agents.slice(0, 2)) await agent.endAsync(true);
      c.process.child.kill('SIGKILL');
      await c.process.exited;
      // Its alive key expires (3 heartbeats), then the next sweep (every 2) finds no live link.
      await until(
        'the gateway offline',
        async () => ((await stored()) === 'offline' ? true : undefined),
        60_000,
      );
    } finally {
      for (const agent of agents) await agent.endAsync(true).catch(() => undefined);
      await db.end();
      redis.disconnect();
    }
  }, 90_000);

  // Last: it kills a process.
  it('one process leads the periodic work; when it dies the other takes it', async () => {
    const pid = await until('a leader', leaderPid);
    const live = cluster.processes.filter(
      (r) => r.process.child.exitCode === null && r.process.child.signalCode === null,
    );
    const pids = live.map((r) => r.process.child.pid);
    expect(pids).toContain(pid);
    const leader = live.find((r) => r.process.child.pid === pid);
    const other = live.find((r) => r.process.child.pid !== pid);
    if (leader === undefined || other === undefined) throw new Error('no leader among them');
    // Only the leader ran the pruners (each logs its start of work).
    expect(leader.process.output()).toContain('leading the cluster');
    expect(other.process.output()).not.toContain('leading the cluster');
    leader.process.child.kill('SIGKILL');
    await leader.process.exited;
    const next = await until('another leader', async () => {
      const now = await leaderPid();
      return now !== undefined && now !== pid ? now : undefined;
    });
    expect(next).toBe(other.process.child.pid);
    await until('the log line', () =>
      Promise.resolve(other.process.output().includes('leading the cluster') ? true : undefined),
    );
  }, 60_000);
});
