import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  gatewayConfigSchema,
  type GatewayConfig,
  type GatewayCredentialsMade,
} from '@plant/shared-schema';
import { PointBuffer } from '../../../gateway-agent/src/buffer/buffer';
import { brokerUrlOf } from '../../../gateway-agent/src/config';
import { silentLogger } from '../../../gateway-agent/src/logger';
import { Uplink } from '../../../gateway-agent/src/uplink/uplink';
import { DEMO_USERS } from '../seed/demo';
import { dataOf } from '../testing/harness';
import { freePort } from '../testing/local-postgres';
import { signedIn, startNginx, TestCluster, until, type ClusterProcess } from '../testing/cluster';

/**
 * Issue 14: a gateway agent behind the load balancer (deploy/nginx-plant.conf) sending its
 * buffer when the process it is linked to is killed mid-batch. It reconnects through nginx to
 * the other process and sends what was not acknowledged again: every point is stored once, none
 * is lost, and no batch counts twice.
 */
const POINTS = 6_000;
const BATCH = 50;

let cluster: TestCluster;
let nginx: { url: string; stop(): Promise<void> };
let db: pg.Client;
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await TestCluster.create();
  const [portA, portB] = [await freePort(), await freePort()];
  await Promise.all([cluster.start(portA), cluster.start(portB)]);
  nginx = await startNginx([portA, portB]);
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db.end();
  await nginx.stop();
  await cluster.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The process whose Redis links name the gateway (each process logs its cluster id). */
async function linkedProcess(gatewayId: string): Promise<ClusterProcess> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(process.env.PLANT_TEST_REDIS_URL ?? '');
  try {
    return await until('the agent to be linked', async () => {
      const fields = Object.keys(await redis.hgetall(`plant:links:${gatewayId}`));
      return cluster.processes.find((p) =>
        fields.some((id) => p.process.output().includes(`"process":"${id}"`)),
      );
    });
  } finally {
    redis.disconnect();
  }
}

describe('a gateway agent whose process is killed mid-batch', () => {
  it('reconnects through nginx to the other: nothing lost, nothing doubled', async () => {
    const first = cluster.processes[0];
    if (first === undefined) throw new Error('no process');
    const admin = await signedIn(first.api, DEMO_USERS.admin);
    const { rows } = await db.query<{ id: string }>(
      `select id from models where type = 'gateway' and account_id = $1 order by id limit 1`,
      [admin.user.account],
    );
    const gatewayId = rows[0]?.id;
    if (gatewayId === undefined) throw new Error('no demo gateway');
    const made = await first.api.call('POST', apiPaths.gatewayCredentials(gatewayId), {
      token: admin.token,
    });
    const key = dataOf<GatewayCredentialsMade>(made).secret;

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-failover-'));
    dirs.push(dir);
    const buffer = PointBuffer.open(dir, gatewayId, { maxPoints: POINTS * 2, batchPoints: BATCH });
    let config: GatewayConfig | undefined;
    const link = (onConfig: (payload: string) => void) =>
      new Uplink({
        brokerUrl: brokerUrlOf(nginx.url),
        gatewayId,
        key,
        buffer,
        log: silentLogger,
        reconnectMs: 200,
        events: { config: onConfig, request: () => undefined, connected: () => undefined },
      });
    // Its configuration first (which streams it feeds), with an empty buffer.
    const configured = link((payload) => {
      config = gatewayConfigSchema.parse(JSON.parse(payload));
    });
    configured.start();
    await until('the configuration', () => Promise.resolve(config));
    await configured.stop();
    const streams = (config?.connections ?? [])
      .flatMap((c) => c.datapoints)
      .filter((d) => d.stream_type === 'number')
      .map((d) => d.datastream_id);
    const stream = streams[0];
    if (stream === undefined) throw new Error('the gateway feeds no number stream');

    const start = Date.parse('2026-11-20T00:00:00Z');
    buffer.add(Array.from({ length: POINTS }, (_, i) => ({ stream, ts: start + i, value: i })));
    const stored = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from ts_points p join ts_series s on s.id = p.series
            where s.stream = $1 and p.ts >= $2 and p.ts < $3`,
          [stream, start, start + POINTS],
        )
      ).rows[0]?.n ?? 0;

    const uplink = link(() => undefined);
    uplink.start();
    try {
      const linked = await linkedProcess(gatewayId);
      // Mid-way: some batches stored, more waiting in the buffer.
      await until('the first batches stored', async () =>
        (await stored()) > 0 ? true : undefined,
      );
      expect(buffer.state().pending).toBeGreaterThan(0);
      linked.process.child.kill('SIGKILL');
      await linked.process.exited;
      await until(
        'every point acknowledged',
        () => Promise.resolve(buffer.state().pending === 0 ? true : undefined),
        60_000,
      );
    } finally {
      await uplink.stop();
      buffer.close();
    }

    // Every point once, with its value.
    const { rows: points } = await db.query<{ ts: number; value: number }>(
      `select p.ts::float8 as ts, p.value from ts_points p join ts_series s on s.id = p.series
        where s.stream = $1 and p.ts >= $2 and p.ts < $3 order by p.ts`,
      [stream, start, start + POINTS],
    );
    expect(points).toHaveLength(POINTS);
    expect(points.every((p, i) => p.ts === start + i && p.value === i)).toBe(true);
    // A batch applied twice would count its points twice in the rollups.
    const { rows: minutes } = await db.query<{ n: number }>(
      `select coalesce(sum(m.count), 0)::int as n from ts_minute m
         join ts_series s on s.id = m.series where s.stream = $1`,
      [stream],
    );
    expect(minutes[0]?.n).toBe(POINTS);
  }, 120_000);
});
