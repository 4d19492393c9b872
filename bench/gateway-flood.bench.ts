import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import {
  apiPaths,
  gatewayAckSchema,
  gatewayBrokerLogin,
  gatewayConfigSchema,
  gatewayTopics,
  GATEWAY_LIMITS,
  type GatewayAck,
  type GatewayConfig,
} from '@plant/shared-schema';
import { brokerUrlOf } from '../gateway-agent/src/config';
import { readDemoAgentKeys } from '../server/src/seed/demo-agents';
import { median, signInDemoAdmin, startChild } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const BATCHES = 10;
/** How long requests are timed once the flood is sent. */
const WINDOW_MS = 3_000;

/**
 * One gateway floods the server with BATCHES batches of GATEWAY_LIMITS.pointsPerBatch points at
 * once, while a browser's request (GET user) is timed over and over for WINDOW_MS: the mean answer
 * time in that window (a stalled server answers late), against the same server idle. Once with
 * each gateway's rate (the default, GATEWAY_POINTS_PER_S) and once without (a rate no gateway
 * reaches), as before issue 28. A single batch still holds the event loop while it is stored: the
 * rate bounds how many do so per second, not one batch's cost.
 */
async function flood(
  env: Record<string, string>,
): Promise<{ idleMs: number; floodMs: number; deferred: number }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-flood-'));
  const server = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo', ...env },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  try {
    const key = readDemoAgentKeys(dataDir)[0];
    if (key === undefined) throw new Error('the demo seeding made no gateway keys');
    const { headers } = await signInDemoAdmin(server.url);
    const timed = async (): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/${apiPaths.user()}`, { headers });
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await timed());

    const login = gatewayBrokerLogin(key.gateway);
    const agent = await mqtt.connectAsync(brokerUrlOf(server.url), {
      protocolVersion: 4,
      clientId: login.clientId,
      username: login.username,
      password: key.key,
      keepalive: 30,
      reconnectPeriod: 0,
    });
    let config: GatewayConfig | undefined;
    const acks: GatewayAck[] = [];
    agent.on('message', (topic, payload: Buffer) => {
      if (topic === gatewayTopics.config(key.gateway))
        config = gatewayConfigSchema.parse(JSON.parse(payload.toString()));
      if (topic === gatewayTopics.ack(key.gateway))
        acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
    });
    await agent.subscribeAsync(
      [gatewayTopics.config(key.gateway), gatewayTopics.ack(key.gateway)],
      { qos: 1 },
    );
    while (config === undefined) await new Promise((r) => setTimeout(r, 10));
    const streams = config.connections
      .flatMap((c) => c.datapoints)
      .filter((d) => d.stream_type === 'number')
      .map((d) => d.datastream_id);
    const start = Date.now() - 3_600_000;
    let n = 0;
    for (let seq = 1; seq <= BATCHES; seq++) {
      const points = Array.from({ length: GATEWAY_LIMITS.pointsPerBatch }, () => {
        n += 1;
        return { stream: streams[n % streams.length] ?? '', ts: start + n, value: n % 100 };
      });
      agent.publish(
        gatewayTopics.data(key.gateway),
        JSON.stringify({ gateway: key.gateway, buffer: 'flood', seq, points }),
        { qos: 1 },
      );
    }
    const during: number[] = [];
    const end = performance.now() + WINDOW_MS;
    while (performance.now() < end) during.push(await timed());
    while (acks.length < BATCHES) await new Promise((r) => setTimeout(r, 10));
    await agent.endAsync(true);
    return {
      idleMs: median(idle),
      floodMs: during.reduce((a, b) => a + b, 0) / during.length,
      deferred: acks.filter((a) => a.status === 'deferred').length,
    };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench gateway-flood`. */
export async function benchGatewayFlood(): Promise<string[]> {
  const limited = await flood({});
  const unlimited = await flood({ GATEWAY_POINTS_PER_S: '100000000' });
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return [
    `gateway-flood: ratio ${(limited.floodMs / unlimited.floodMs).toFixed(2)} (mean GET user in ` +
      `the ${WINDOW_MS / 1000} s after one gateway sends ${BATCHES} x ` +
      `${GATEWAY_LIMITS.pointsPerBatch} points, with the ` +
      `gateway rate vs without: ${ms(limited.floodMs)} vs ${ms(unlimited.floodMs)}; idle ` +
      `median ${ms(limited.idleMs)}; ${limited.deferred} of ${BATCHES} batches deferred)`,
  ];
}
