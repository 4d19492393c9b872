import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  gatewayConfigSchema,
  type AgentDatapoint,
  type GatewayConfig,
  type PointValue,
} from '@plant/shared-schema';
import { PointBuffer } from '../gateway-agent/src/buffer/buffer';
import { brokerUrlOf } from '../gateway-agent/src/config';
import { silentLogger } from '../gateway-agent/src/logger';
import { Uplink } from '../gateway-agent/src/uplink/uplink';
import { readDemoAgentKeys } from '../server/src/seed/demo-agents';
import { startChild } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const POINTS = Number(process.env.BENCH_INGEST_POINTS ?? 200_000);
const BATCH = 1_000;

/** A value that fits the stream's type (the server refuses the others). */
function valueFor(dp: AgentDatapoint, i: number): PointValue {
  switch (dp.stream_type) {
    case 'number':
      return 50 + 20 * Math.sin(i / 100);
    case 'state':
      return i % 4;
    case 'boolean':
      return i % 2 === 0;
    case 'text':
      return `state ${i % 7}`;
  }
}

/** The points of the run: `POINTS` spread over the gateway's streams, one every 10 ms each. */
function pointsOf(config: GatewayConfig, start: number, count: number) {
  const dps = config.connections.flatMap((c) => c.datapoints);
  const points: { stream: string; ts: number; value: PointValue }[] = [];
  for (let i = 0; points.length < count; i++) {
    for (const dp of dps) {
      if (points.length >= count) break;
      points.push({ stream: dp.datastream_id, ts: start + i * 10, value: valueFor(dp, i) });
    }
  }
  return points;
}

function until(check: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error('timed out'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

/**
 * Points per second through the whole path for a server started with `env` added (SQLite by
 * default; DATABASE_URL for Postgres): the agent's buffer (SQLite) -> its uplink (MQTT over
 * WebSocket) -> the server's broker -> ingest (checks, store in one transaction per batch with its
 * (gateway, seq), ack) -> live values. Answers the rate and the points it sent.
 */
export async function wholePathIngest(
  env: Record<string, string> = {},
  options: {
    /** Points to send (default BENCH_INGEST_POINTS or 200,000). */
    readonly points?: number;
    /** Runs once the gateway's configuration is known, before the timed part (alarm rules). */
    readonly prepare?: (origin: string, dataDir: string, config: GatewayConfig) => Promise<void>;
    /** Runs once the timed part is over, before the server stops (what else got done). */
    readonly after?: (origin: string, dataDir: string) => Promise<void>;
  } = {},
): Promise<{ perSecond: number; points: { stream: string; ts: number; value: PointValue }[] }> {
  const count = options.points ?? POINTS;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-ingest-'));
  const server = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SEED: 'demo',
      // The pipeline's own speed: no gateway's share of the server (gateways/batch-rate.ts).
      GATEWAY_POINTS_PER_S: '100000000',
      ...env,
    },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  const agentDir = path.join(dataDir, 'agent');
  await fs.mkdir(agentDir);
  try {
    const key = readDemoAgentKeys(dataDir)[0];
    if (key === undefined) throw new Error('the demo seeding made no gateway keys');
    const buffer = PointBuffer.open(agentDir, key.gateway, {
      maxPoints: count * 2,
      batchPoints: BATCH,
    });
    let config: GatewayConfig | undefined;
    const link = (onConfig: (payload: string) => void) =>
      new Uplink({
        brokerUrl: brokerUrlOf(server.url),
        gatewayId: key.gateway,
        key: key.key,
        buffer,
        log: silentLogger,
        events: { config: onConfig, request: () => undefined, connected: () => undefined },
      });
    // First the configuration (which streams the gateway feeds), with an empty buffer.
    const first = link((payload) => {
      config = gatewayConfigSchema.parse(JSON.parse(payload));
    });
    first.start();
    await until(() => config !== undefined, 30_000);
    await first.stop();
    if (config === undefined) throw new Error('no configuration');
    await options.prepare?.(server.url, dataDir, config);

    const points = pointsOf(config, Date.now() - count * 10, count);
    for (let i = 0; i < points.length; i += 10_000) buffer.add(points.slice(i, i + 10_000));

    // The whole path: from the link's start until the last batch is acknowledged.
    const started = performance.now();
    const uplink = link(() => undefined);
    uplink.start();
    await until(() => buffer.state().pending === 0, 600_000);
    const oursMs = performance.now() - started;
    await uplink.stop();
    buffer.close();
    await options.after?.(server.url, dataDir);
    return { perSecond: (count / oursMs) * 1_000, points };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The whole path (wholePathIngest, SQLite) against plain batched better-sqlite3 inserts of the
 * same points into a WITHOUT ROWID (stream, ts) table, in the same run.
 */
export async function benchIngest(): Promise<string[]> {
  const { perSecond: ours, points } = await wholePathIngest();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-ingest-plain-'));
  try {
    const plain = new Database(path.join(dataDir, 'plain.sqlite'));
    plain.pragma('journal_mode = WAL');
    plain.pragma('synchronous = NORMAL');
    plain.exec(
      'CREATE TABLE points (stream TEXT NOT NULL, ts INTEGER NOT NULL, value, PRIMARY KEY (stream, ts)) WITHOUT ROWID',
    );
    const insert = plain.prepare('INSERT INTO points (stream, ts, value) VALUES (?, ?, ?)');
    const insertBatch = plain.transaction((batch: typeof points) => {
      for (const p of batch)
        insert.run(p.stream, p.ts, typeof p.value === 'boolean' ? Number(p.value) : p.value);
    });
    const plainStarted = performance.now();
    for (let i = 0; i < points.length; i += BATCH) insertBatch(points.slice(i, i + BATCH));
    const plainMs = performance.now() - plainStarted;
    plain.close();

    const base = (POINTS / plainMs) * 1_000;
    return [
      `ingest: ${(ours / base).toFixed(2)} (whole path / plain inserts, target >= 0.3) ` +
        `${POINTS} points in batches of ${BATCH}`,
      `  whole path (agent buffer -> MQTT -> ingest -> store -> live): ${ours.toFixed(0)} points/s`,
      `  plain better-sqlite3 inserts, WITHOUT ROWID (stream, ts):     ${base.toFixed(0)} points/s`,
    ];
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
