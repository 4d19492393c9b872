import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, median, signInDemoAdmin, startChild, type Load } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/**
 * Signed-in GET /api/v1/user (token lookup, user, roles, permissions, tags, flags from SQLite)
 * against a bare Hono route answering the same JSON, alternating rounds in the same run.
 * Target: ours/bare >= 0.5.
 */
export async function benchGetUser(): Promise<string[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-'));
  const ours = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo' },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  try {
    const { headers } = await signInDemoAdmin(ours.url);
    const body = await (await fetch(`${ours.url}/api/v1/user`, { headers })).text();

    const bare = await startChild(
      path.join(ROOT, 'bench/bare-server.ts'),
      { BARE_BODY: body },
      /bare listening (\S+)/,
    );
    try {
      const bareBody = await (await fetch(`${bare.url}/api/v1/user`)).text();
      if (bareBody !== body) throw new Error('the baseline does not answer the same JSON');
      const runs: { ours: Load[]; bare: Load[] } = { ours: [], bare: [] };
      await load(`${ours.url}/api/v1/user`, headers, 1); // warm-up
      await load(`${bare.url}/api/v1/user`, headers, 1);
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate which goes first, so neither always gets the warmer or quieter half.
        if (i % 2 === 0) {
          runs.bare.push(await load(`${bare.url}/api/v1/user`, headers, SECONDS));
          runs.ours.push(await load(`${ours.url}/api/v1/user`, headers, SECONDS));
        } else {
          runs.ours.push(await load(`${ours.url}/api/v1/user`, headers, SECONDS));
          runs.bare.push(await load(`${bare.url}/api/v1/user`, headers, SECONDS));
        }
      }
      if ([...runs.ours, ...runs.bare].some((r) => r.non2xx > 0))
        throw new Error('non-2xx answers under load');
      // Each round measures both back to back, so a round's ratio shares the machine's load of
      // the moment; the median of the rounds' ratios is what is reported.
      const ratios = runs.ours.map(
        (r, i) => r.requestsPerSecond / (runs.bare[i]?.requestsPerSecond ?? NaN),
      );
      const oursRps = median(runs.ours.map((r) => r.requestsPerSecond));
      const bareRps = median(runs.bare.map((r) => r.requestsPerSecond));
      return [
        `get-user throughput: ${median(ratios).toFixed(2)} (ours/baseline; target >= 0.5) ` +
          `ours ${oursRps.toFixed(0)} req/s, bare Hono ${bareRps.toFixed(0)} req/s, ${body.length} bytes, ` +
          `median of ${ROUNDS} paired rounds x ${SECONDS}s, 16 connections; ` +
          `round ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
        `get-user latency p99: ours ${median(runs.ours.map((r) => r.p99Ms))} ms, ` +
          `bare ${median(runs.bare.map((r) => r.p99Ms))} ms`,
      ];
    } finally {
      await bare.stop();
    }
  } finally {
    await ours.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
