import fs from 'node:fs/promises';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ModbusTCPClient } from 'jsmodbus';
import mqtt from 'mqtt';
import {
  liveValuesSchema,
  topics,
  uuidv7,
  type LiveValues,
  type SyncedModel,
} from '@plant/shared-schema';
import { Agent } from '../gateway-agent/src/agent';
import { brokerUrlOf } from '../gateway-agent/src/config';
import { makeConnector } from '../gateway-agent/src/connectors';
import { silentLogger } from '../gateway-agent/src/logger';
import { startModbusTestServer } from '../gateway-agent/src/testing/modbus-server';
import { LIVE_INTERVAL_MS } from '../server/src/gateways/live-values';
import { readDemoAgentKeys } from '../server/src/seed/demo-agents';
import { quantile } from './browser-env';
import { signInDemoAdmin, startChild } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 40);
const WARM_UP = 5;
const INTERVAL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the time `check` first holds, polled on every event-loop turn it is given. */
function when(check: () => number | undefined, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + timeoutMs;
    const tick = () => {
      const at = check();
      if (at !== undefined) resolve(at);
      else if (performance.now() > deadline) reject(new Error('timed out'));
      else setTimeout(tick, 1);
    };
    tick();
  });
}

/**
 * From a value changing on a Modbus TCP device to the live message on the account's values topic
 * (agent poll every 100 ms -> buffer -> MQTT -> ingest -> store -> live publish -> broker -> a
 * browser's MQTT client). Baseline in the same run: a plain jsmodbus client polling the same
 * register at the same interval, which is the least any polling path can take (half an interval
 * on average). The device changes once every LIVE_INTERVAL_MS and a bit, so that each change is
 * the first point of its asset's second and goes out at once.
 */
export async function benchLiveLatency(): Promise<string[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-live-'));
  const server = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo' },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  const device = await startModbusTestServer();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const { headers, account } = await signInDemoAdmin(server.url);
    const api = async <T>(method: string, apiPath: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api/v1/${apiPath}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    };
    const key = readDemoAgentKeys(dataDir)[0];
    if (key === undefined) throw new Error('the demo seeding made no gateway keys');
    const { models } = await api<{ models: SyncedModel[] }>('GET', 'sync/snapshot?limit=2000');
    const asset = models.find((m) => m.type === 'asset' && m.attributes.gateway_id === key.gateway);
    const stream = models.find(
      (m) =>
        m.type === 'datastream' &&
        m.attributes.asset_id === asset?.id &&
        m.attributes.type === 'number',
    );
    if (asset === undefined || stream === undefined) throw new Error('no demo machine stream');
    // The simulator of the demo gateway is switched off: only the device feeds the asset.
    for (const c of models.filter(
      (m) => m.type === 'connection' && m.attributes.gateway_id === key.gateway,
    )) {
      await api('PUT', `connections/${c.id}`, { enabled: false });
    }
    const connection = await api<SyncedModel>('POST', 'connections', {
      gateway_id: key.gateway,
      name: 'Bench Modbus',
      protocol: 'modbus-tcp',
      settings: { host: device.host, port: device.port, unit_id: 1 },
      interval_ms: INTERVAL_MS,
      enabled: true,
    });
    await api('POST', 'datapoints', {
      connection_id: connection.id,
      datastream_id: stream.id,
      address: { area: 'holding', index: 0, datatype: 'uint16' },
      deadband: 0,
    });

    // A browser of the account, subscribed to the machine's live values.
    const creds = await api<{ username: string; clientid: string; password: string }>(
      'GET',
      `user/browser/mqtt?browser_id=bench-${uuidv7()}`,
    );
    const browser = await mqtt.connectAsync(`${server.url.replace('http', 'ws')}/mqtt`, {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      reconnectPeriod: 0,
    });
    cleanups.push(() => browser.endAsync(true));
    const liveAt = new Map<number, number>();
    browser.on('message', (_topic, payload) => {
      const at = performance.now();
      const message: LiveValues = liveValuesSchema.parse(JSON.parse(payload.toString()));
      for (const v of message.values) {
        if (v.stream !== stream.id) continue;
        for (const [, value] of v.points)
          if (typeof value === 'number' && !liveAt.has(value)) liveAt.set(value, at);
      }
    });
    await browser.subscribeAsync(topics.assetValues(account, asset.id), { qos: 0 });

    // The baseline: a plain client polling the same register at the same interval.
    const plainAt = new Map<number, number>();
    const socket = new Socket();
    const plain = new ModbusTCPClient(socket, 1, 2_000);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
      socket.connect({ host: device.host, port: device.port });
    });
    cleanups.push(() => Promise.resolve(socket.destroy()));
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        const { response } = await plain.readHoldingRegisters(0, 1);
        const value = response.body.valuesAsArray[0];
        if (value !== undefined && !plainAt.has(value)) plainAt.set(value, performance.now());
        await sleep(Math.max(0, INTERVAL_MS - (performance.now() - started)));
      }
    })();
    cleanups.push(async () => {
      polling = false;
      await poller;
    });

    const readAt = new Map<number, number>();
    const agentDir = path.join(dataDir, 'agent');
    const agent = new Agent({
      config: {
        brokerUrl: brokerUrlOf(server.url),
        gatewayId: key.gateway,
        key: key.key,
        dataDir: agentDir,
        logLevel: 'silent',
        bufferMaxPoints: undefined,
        batchPoints: 1_000,
      },
      log: silentLogger,
      // The agent's connectors, with a tap noting when each value was read off the device.
      makeConnector: (ctx, dir) =>
        makeConnector(
          {
            ...ctx,
            events: {
              ...ctx.events,
              values: (readings) => {
                const at = performance.now();
                for (const r of readings)
                  if (typeof r.value === 'number' && !readAt.has(r.value)) readAt.set(r.value, at);
                ctx.events.values(readings);
              },
            },
          },
          dir,
        ),
    });
    agent.start();
    cleanups.push(() => agent.stop());
    // Running: the device's first value arrives live.
    device.setRegisters('holding', 0, 1);
    await when(() => liveAt.get(1), 60_000);

    const ours: number[] = [];
    const base: number[] = [];
    const afterRead: number[] = [];
    for (let i = 0; i < ROUNDS + WARM_UP; i++) {
      // Past the asset's second, so that the change goes out at once; at a random phase of the
      // poll intervals, so that neither poller is favoured.
      await sleep(LIVE_INTERVAL_MS + 150 + Math.random() * INTERVAL_MS);
      const value = 1_000 + i;
      const changed = performance.now();
      device.setRegisters('holding', 0, value);
      const [live, polled] = await Promise.all([
        when(() => liveAt.get(value), 30_000),
        when(() => plainAt.get(value), 30_000),
      ]);
      if (i < WARM_UP) continue;
      ours.push(live - changed);
      base.push(polled - changed);
      afterRead.push(live - (readAt.get(value) ?? changed));
    }
    const line = (q: number, label: string) => {
      const o = quantile(ours, q);
      const b = quantile(base, q);
      return (
        `live-latency ${label}: ${(o / b).toFixed(2)} (ours/baseline) device change to live ` +
        `message ${o.toFixed(1)} ms, to a plain poller at the same ${INTERVAL_MS} ms interval ` +
        `${b.toFixed(1)} ms; the agent's read to the live message ` +
        `${quantile(afterRead, q).toFixed(1)} ms (${ours.length} changes)`
      );
    };
    return [line(0.5, 'p50'), line(0.95, 'p95')];
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await device.close();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
