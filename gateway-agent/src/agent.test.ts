import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  connectionModel,
  gatewayModel,
  type GatewayAttributes,
  type StreamValues,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import {
  demoGateway,
  linkedAgent,
  makeGatewayCredentials,
} from '../../server/src/testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../../server/src/testing/harness';
import { startTcpProxy } from '../../sync-worker/src/testing/tcp-proxy';
import { Agent, type ConnectorMaker } from './agent';
import { brokerUrlOf, type AgentConfig } from './config';
import type { Reading } from './connectors/connector';
import { makeConnector } from './connectors';
import { createLogger, silentLogger, type Logger } from './logger';

/*
 * The agent against the real server (DESIGN.md §8): it runs the configuration the server sends
 * (and a changed one without a restart), its values reach the store, the gateway shows online
 * and offline, and points read while the server cannot be reached arrive once each, in order.
 */
let server: TestServer;
let admin: string;
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const cleanups: (() => Promise<unknown>)[] = [];
const WAIT = { timeout: 50_000, interval: 50 };
/** Data folders of restarted servers (a restarted server leaves its folder to its starter). */
const serverDirs: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  ids = await server.demoAccountIds();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await server.close();
  for (const dir of serverDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-'));
  cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The real connectors, each value they hand to the agent also kept in `read` while `open()`. */
function recordingConnector(read: Reading[], open: () => boolean): ConnectorMaker {
  return (ctx, dataDir) =>
    makeConnector(
      {
        ...ctx,
        events: {
          ...ctx.events,
          values: (readings) => {
            if (!open()) return;
            read.push(...readings);
            ctx.events.values(readings);
          },
        },
      },
      dataDir,
    );
}

/** Starts an agent for a demo gateway with fresh credentials, as an admin would set it up. */
async function startAgent(
  gatewayId: string,
  options: {
    serverUrl?: string;
    dataDir?: string;
    makeConnector?: ConnectorMaker;
    /** Another server than the suite's, with its admin's token. */
    on?: { server: TestServer; admin: string };
    log?: Logger;
    batchPoints?: number;
  } = {},
) {
  const target = options.on ?? { server, admin };
  const made = await makeGatewayCredentials(target.server, target.admin, gatewayId);
  const config: AgentConfig = {
    brokerUrl: brokerUrlOf(options.serverUrl ?? target.server.url),
    serverUrl: options.serverUrl ?? target.server.url,
    gatewayId,
    key: made.secret,
    dataDir: options.dataDir ?? tempDir(),
    logLevel: 'silent',
    bufferMaxPoints: undefined,
    batchPoints: options.batchPoints ?? 50,
  };
  const agent = new Agent({
    config,
    // DEBUG_AGENT=1 prints the agent's log while a test runs.
    log: options.log ?? (process.env.DEBUG_AGENT ? createLogger('debug') : silentLogger),
    makeConnector: options.makeConnector ?? makeConnector,
    heartbeatMs: 500,
    reconnectMs: 200,
  });
  agent.start();
  cleanups.push(() => agent.stop());
  return agent;
}

async function modelAttributes<T>(id: string): Promise<T> {
  const row = await server.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as T;
}

async function connectionOf(gatewayId: string): Promise<string> {
  const row = await server.db
    .selectFrom('models')
    .select('id')
    .where('type', '=', connectionModel.type)
    .where((eb) =>
      eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', gatewayId),
    )
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The stored points of one stream, raw, through the API a browser uses. */
async function storedPoints(
  stream: string,
  token = admin,
  on: TestServer = server,
): Promise<[number, number | string][]> {
  const answer = await on.call(
    'GET',
    apiPaths.streamValues(stream, 0, Date.now() + 60_000, 10_000),
    { token },
  );
  expect(answer.status).toBe(200);
  const values = dataOf<StreamValues>(answer);
  expect(values.downsampled).toBe(false);
  return values.points;
}

describe('the gateway agent with the server', () => {
  it('runs the configuration it is sent, reports it, and its values reach the store', async () => {
    const gw = await demoGateway(server, ids.root, 2);
    const agent = await startAgent(gw.gatewayId);
    const connectionId = await connectionOf(gw.gatewayId);

    // Online, with the configuration the server sent, the connection connected.
    await expect
      .poll(async () => (await modelAttributes<GatewayAttributes>(gw.gatewayId)).connection, WAIT)
      .toBe('online');
    await expect
      .poll(
        async () =>
          (await modelAttributes<{ status: { state: string } | null }>(connectionId)).status?.state,
        WAIT,
      )
      .toBe('connected');
    const reported = (await modelAttributes<GatewayAttributes>(gw.gatewayId)).agent;
    expect(reported?.config_version).toEqual(agent.status().config_version);
    expect(reported?.addresses.length).toBeGreaterThan(0);

    // The simulator's values arrive for every stream of the machine.
    for (const stream of Object.values(gw.streams)) {
      await expect.poll(async () => (await storedPoints(stream)).length, WAIT).toBeGreaterThan(0);
    }
    const latest = dataOf<{ stream: string }[]>(
      await server.call('GET', apiPaths.latestValues(gw.assetId), { token: admin }),
    );
    expect(latest.map((l) => l.stream).sort()).toEqual(Object.values(gw.streams).sort());

    // A changed configuration is applied without a restart.
    const startedAt = agent.status().started_at;
    const versionBefore = agent.status().config_version ?? 0;
    const changed = await server.call('PUT', apiPaths.model('connections', connectionId), {
      token: admin,
      json: { interval_ms: 1_000 },
    });
    expect(changed.status).toBe(200);
    await expect
      .poll(() => agent.status().config_version ?? 0, WAIT)
      .toBeGreaterThan(versionBefore);
    expect(agent.status().started_at).toBe(startedAt);
    await expect
      .poll(async () => (await modelAttributes<GatewayAttributes>(gw.gatewayId)).agent, WAIT)
      .toMatchObject({ config_version: agent.status().config_version });

    // A disabled connection stops and says so.
    await server.call('PUT', apiPaths.model('connections', connectionId), {
      token: admin,
      json: { enabled: false },
    });
    await expect
      .poll(
        async () =>
          (await modelAttributes<{ status: { state: string } | null }>(connectionId)).status?.state,
        WAIT,
      )
      .toBe('disabled');

    // The agent stops: the gateway goes offline, with the time it was last seen.
    await agent.stop();
    await expect
      .poll(async () => (await modelAttributes<GatewayAttributes>(gw.gatewayId)).connection, WAIT)
      .toBe('offline');
    expect((await modelAttributes<GatewayAttributes>(gw.gatewayId)).last_seen).not.toBeNull();
  });

  it('reports a static IP that is missing as a problem of the gateway', async () => {
    const gw = await demoGateway(server, ids.root, 3);
    const set = await server.call('PUT', apiPaths.model(gatewayModel.collection, gw.gatewayId), {
      token: admin,
      json: { ip_assignment: 'static', ip: '192.0.2.10', subnet_mask: '255.255.255.0' },
    });
    expect(set.status).toBe(200);
    await startAgent(gw.gatewayId);
    // This machine does not have 192.0.2.10: the agent says the static IP is wrong.
    await expect
      .poll(
        async () => (await modelAttributes<GatewayAttributes>(gw.gatewayId)).agent?.problems,
        WAIT,
      )
      .toEqual([expect.stringMatching(/Static IP configuration missing or wrong/)]);
  });
});

describe('store and forward', () => {
  it('keeps what it reads while the link is cut and the server restarts, and delivers each point once, in order', async () => {
    const gw = await demoGateway(server, ids.root, 6);
    const connectionId = await connectionOf(gw.gatewayId);
    // Reads every 100 ms, so that the cut holds many batches.
    await server.call('PUT', apiPaths.model('connections', connectionId), {
      token: admin,
      json: { interval_ms: 100 },
    });
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
    cleanups.push(() => proxy.close());

    // Every value the real simulator hands to the agent, until the tap is closed.
    const read: Reading[] = [];
    let tap = true;
    const recording = recordingConnector(read, () => tap);
    const agent = await startAgent(gw.gatewayId, {
      serverUrl: proxy.url('http'),
      makeConnector: recording,
    });
    await expect.poll(() => agent.status().config_version, WAIT).not.toBeNull();
    await expect.poll(() => read.length, WAIT).toBeGreaterThan(20);

    // The link is cut (silence, then the connections die), and the server restarts meanwhile.
    proxy.blackhole(true);
    const atCut = read.length;
    await expect.poll(() => read.length, WAIT).toBeGreaterThan(atCut + 100);
    proxy.resetAll();
    proxy.refuse(true);
    proxy.blackhole(false);
    await server.stop();
    await expect.poll(() => agent.bufferState().pending, WAIT).toBeGreaterThan(100);
    const dataDir = server.dataDir;
    const port = server.port;
    serverDirs.push(dataDir);
    server = await startTestServer({ dataDir, env: { PORT: String(port) } });
    admin = await server.signIn(DEMO_USERS.admin);
    const atRestart = read.length;
    await expect.poll(() => read.length, WAIT).toBeGreaterThan(atRestart + 20);
    proxy.refuse(false);

    // Back: the buffer drains; then reading stops and the last points are delivered too.
    await expect.poll(() => agent.bufferState().pending, WAIT).toBeLessThan(200);
    tap = false;
    await expect.poll(() => agent.bufferState().pending, WAIT).toBe(0);
    expect(agent.bufferState().dropped).toBe(0);

    for (const stream of Object.values(gw.streams)) {
      const sent = read
        .filter((r) => r.datapoint.datastream_id === stream)
        .map((r) => [r.ts, typeof r.value === 'boolean' ? Number(r.value) : r.value]);
      const stored = await storedPoints(stream);
      // Stored once each, in time order, none lost (the simulator reads at distinct times).
      expect(stored.length, stream).toBe(sent.length);
      expect(stored, stream).toEqual(sent.sort((a, b) => Number(a[0]) - Number(b[0])));
    }
  });

  it("keeps the batches the server defers (over the gateway's rate) and delivers them later, each once", async () => {
    const limited = await startTestServer({
      ingestRate: { pointsPerSecond: 4, burstPoints: 5_000 },
    });
    cleanups.push(() => limited.close());
    const token = await limited.signIn(DEMO_USERS.admin);
    const gw = await demoGateway(limited, (await limited.demoAccountIds()).root, 7);
    // The burst is spent by hand first, so that the agent's batches meet the rate at once (the
    // simulator at 100 ms reads about 9 values a second, by exception).
    const spender = await linkedAgent(limited, token, gw.gatewayId, 'by-hand');
    const first = Object.values(gw.streams)[0] ?? '';
    const t0 = Date.now() - 120_000;
    expect(
      await spender.send(
        Array.from({ length: 5_000 }, (_, i) => ({ stream: first, ts: t0 + i, value: i })),
      ),
    ).toMatchObject({ status: 'stored' });
    await spender.close();
    const connectionId = (
      await limited.db
        .selectFrom('models')
        .select('id')
        .where('type', '=', connectionModel.type)
        .where((eb) =>
          eb(eb.fn('json_extract', ['attributes', eb.val('$.gateway_id')]), '=', gw.gatewayId),
        )
        .executeTakeFirstOrThrow()
    ).id;
    await limited.call('PUT', apiPaths.model('connections', connectionId), {
      token,
      json: { interval_ms: 100 },
    });

    const read: Reading[] = [];
    let tap = true;
    const recording = recordingConnector(read, () => tap);
    const said: string[] = [];
    const log: Logger = {
      debug: () => undefined,
      info: (msg) => said.push(msg),
      warn: (msg) => said.push(msg),
      error: (msg) => said.push(msg),
    };
    const agent = await startAgent(gw.gatewayId, {
      on: { server: limited, admin: token },
      makeConnector: recording,
      log,
      // Small batches, so that a backlog is many of them, as after an outage.
      batchPoints: 4,
    });
    await expect.poll(() => said.includes('the server asks to slow down'), WAIT).toBe(true);
    await expect.poll(() => read.length, WAIT).toBeGreaterThan(60);
    tap = false;
    // Drained at the rate: nothing dropped, nothing refused.
    await expect.poll(() => agent.bufferState().pending, WAIT).toBe(0);
    expect(agent.bufferState().dropped).toBe(0);
    expect(said).not.toContain('the server refused a batch; its points are dropped');
    for (const stream of Object.values(gw.streams)) {
      const sent = read
        .filter((r) => r.datapoint.datastream_id === stream)
        .map((r) => [r.ts, typeof r.value === 'boolean' ? Number(r.value) : r.value]);
      const stored = (await storedPoints(stream, token, limited)).filter(
        ([ts]) => ts >= t0 + 5_000,
      );
      expect(stored, stream).toEqual(sent.sort((a, b) => Number(a[0]) - Number(b[0])));
    }
  }, 120_000);
});
