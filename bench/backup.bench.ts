import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
import { signInDemoAdmin, startChild } from './lib';

/*
 * Issue 38 item 3: `npm run backup` of a 1 GB DATA_DIR while a gateway's agent floods ingest,
 * against the same ingest without a backup, in the same run. The 1 GB is big files in the file
 * store (blobs written straight to DATA_DIR/files, as uploads leave them); the ingest is the whole
 * path of bench/ingest.bench.ts (agent buffer -> MQTT -> ingest -> store). The backup runs as
 * the real command (`node --import tsx scripts/backup.ts`, its own process at its own priority).
 * Ingest is measured as points acknowledged per second: a window before the backup, the backup's
 * own run, a window after; the baseline is the mean of the two windows around it (the machine's
 * other work moves a single 8 s window by a third). BENCH_BACKUP_BYTES (1 GiB of files),
 * BENCH_BACKUP_WINDOW_MS (15 s), BENCH_BACKUP_NORMAL=1 (the backup at the normal priority).
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA_BYTES = Number(process.env.BENCH_BACKUP_BYTES ?? 1024 ** 3);
const FILE_BYTES = 64 * 1024 ** 2;
const WINDOW_MS = Number(process.env.BENCH_BACKUP_WINDOW_MS ?? 15_000);
const BATCH = 1_000;

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

function until(check: () => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error('timed out'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

/** DATA_DIR's file store filled with `bytes` of big blobs of the account (64 MB each). */
async function fillFileStore(dataDir: string, account: string, bytes: number): Promise<number> {
  const block = randomBytes(1024 ** 2);
  const body = Buffer.alloc(FILE_BYTES);
  for (let at = 0; at < FILE_BYTES; at += block.length) block.copy(body, at);
  let written = 0;
  for (let n = 0; written < bytes; n++) {
    body.writeUInt32BE(n, 0);
    const sha256 = createHash('sha256').update(body).digest('hex');
    const dir = path.join(dataDir, 'files', 'blobs', account, sha256.slice(0, 2));
    await fs.mkdir(dir, { recursive: true });
    // On disk before the ingest is measured: their writeback is not the backup's doing.
    const file = await fs.open(path.join(dir, sha256), 'w');
    try {
      await file.writeFile(body);
      await file.sync();
    } finally {
      await file.close();
    }
    written += body.length;
  }
  return written;
}

/** Runs `npm run backup` as it runs: its own process, DATA_DIR from the environment. */
function backupCommand(dataDir: string, out: string): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/backup.ts'), '--out', out],
      {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          // BENCH_BACKUP_NORMAL=1: the backup at the normal priority, for comparison (the script
          // then does its work in the first process, as the copy it starts would).
          ...(process.env.BENCH_BACKUP_NORMAL === '1' ? { PLANT_BACKUP_LOWERED: '1' } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve({ ms: performance.now() - started, output });
      else reject(new Error(`backup exited with ${code}: ${output}`));
    });
  });
}

export async function benchBackup(): Promise<string[]> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-backup-'));
  const dataDir = path.join(root, 'data');
  const out = path.join(root, 'backup');
  const server = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SEED: 'demo',
      // The pipeline's own pace: no gateway's share of the server (gateways/batch-rate.ts).
      GATEWAY_POINTS_PER_S: '100000000',
    },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  let buffer: PointBuffer | undefined;
  let uplink: Uplink | undefined;
  let refill: NodeJS.Timeout | undefined;
  try {
    const { account } = await signInDemoAdmin(server.url);
    const filled = await fillFileStore(dataDir, account, DATA_BYTES);

    const key = readDemoAgentKeys(dataDir)[0];
    if (key === undefined) throw new Error('the demo seeding made no gateway keys');
    // The agent's buffer outside DATA_DIR: it is the edge box's, not the server's.
    const agentBuffer = PointBuffer.open(path.join(root, 'agent'), key.gateway, {
      maxPoints: 4_000_000,
      batchPoints: BATCH,
    });
    buffer = agentBuffer;
    let config: GatewayConfig | undefined;
    const link = new Uplink({
      brokerUrl: brokerUrlOf(server.url),
      gatewayId: key.gateway,
      key: key.key,
      buffer: agentBuffer,
      log: silentLogger,
      events: {
        config: (payload) => {
          config ??= gatewayConfigSchema.parse(JSON.parse(payload));
        },
        request: () => undefined,
        connected: () => undefined,
      },
    });
    uplink = link;
    link.start();
    await until(() => config !== undefined, 30_000);
    const dps = config?.connections.flatMap((c) => c.datapoints);
    if (dps === undefined || dps.length === 0) throw new Error('the gateway feeds no stream');

    // A steady flood: the buffer topped up whenever fewer than 100,000 points wait.
    let added = 0;
    let i = 0;
    const start = Date.now() - 3_600_000;
    const topUp = () => {
      if (agentBuffer.state().pending >= 100_000) return;
      const points: { stream: string; ts: number; value: PointValue }[] = [];
      while (points.length < 100_000) {
        for (const dp of dps)
          points.push({ stream: dp.datastream_id, ts: start + i, value: valueFor(dp, i) });
        i += 1;
      }
      agentBuffer.add(points);
      added += points.length;
      link.pointsAdded();
    };
    topUp();
    refill = setInterval(topUp, 100);
    const acked = () => added - agentBuffer.state().pending;
    const rate = async (during: () => Promise<unknown>) => {
      const before = acked();
      const t0 = performance.now();
      await during();
      return ((acked() - before) / (performance.now() - t0)) * 1000;
    };
    const window = () => new Promise((resolve) => setTimeout(resolve, WINDOW_MS));

    await rate(() => new Promise((resolve) => setTimeout(resolve, 2_000))); // warm-up
    const before = await rate(window);
    let backup: { ms: number; output: string } | undefined;
    const during = await rate(async () => {
      backup = await backupCommand(dataDir, out);
    });
    const after = await rate(window);
    const base = (before + after) / 2;
    const manifest = JSON.parse(await fs.readFile(path.join(out, 'manifest.json'), 'utf8')) as {
      summary: { bytes: number; models: number; files: number };
    };
    const gb = (n: number) => (n / 1e9).toFixed(2);
    return [
      `backup-ingest: ${(during / base).toFixed(2)} (ingest points/s during a ${gb(manifest.summary.bytes)} GB ` +
        `backup / without, target >= 0.8)`,
      `  during the backup (${((backup?.ms ?? 0) / 1000).toFixed(1)} s, ${gb(manifest.summary.bytes)} GB ` +
        `of which ${gb(filled)} GB big files): ${during.toFixed(0)} points/s`,
      `  without: ${before.toFixed(0)} points/s before, ${after.toFixed(0)} after (${WINDOW_MS / 1000} s each)`,
    ];
  } finally {
    clearInterval(refill);
    await uplink?.stop();
    buffer?.close();
    await server.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}
