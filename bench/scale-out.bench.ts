import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { MqttClient } from 'mqtt';
import {
  createTestDatabase,
  postgresBin,
  startLocalPostgres,
} from '../server/src/testing/local-postgres';
import { redisInstalled, startLocalRedis } from '../server/src/testing/local-redis';
import { connectAll, measure, type Result } from './fanout.bench';
import { wholePathIngest } from './ingest.bench';
import { load, median, signInDemoAdmin, startChild, type Child, type Load } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const SUBSCRIBERS = 200;

/** Server processes of one setup (a database, maybe a Redis), stopped together. */
class Setup {
  readonly children: Child[] = [];
  private readonly dirs: string[] = [];

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<Child> {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-scale-'));
    this.dirs.push(dataDir);
    const child = await startChild(
      path.join(ROOT, 'server/src/main.ts'),
      { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo', ...this.env },
      /"msg":"server listening","url":"([^"]+)"/,
    );
    this.children.push(child);
    return child;
  }

  async stop(): Promise<void> {
    for (const child of this.children.splice(0)) await child.stop();
    for (const dir of this.dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
  }
}

/** One load spread over processes at once (the connections split between them), summed. */
async function spread(
  urls: readonly string[],
  headers: Record<string, string>,
  options: { method?: 'GET' | 'POST'; body?: string } = {},
): Promise<Load> {
  const per = Math.max(1, Math.floor(CONNECTIONS / urls.length));
  const loads = await Promise.all(
    urls.map((url) => load(url, headers, SECONDS, { connections: per, ...options })),
  );
  return {
    requestsPerSecond: loads.reduce((sum, l) => sum + l.requestsPerSecond, 0),
    p50Ms: median(loads.map((l) => l.p50Ms)),
    p99Ms: Math.max(...loads.map((l) => l.p99Ms)),
    non2xx: loads.reduce((sum, l) => sum + l.non2xx, 0),
  };
}

/** Paired rounds of two loads, alternating which goes first; the median of the round ratios. */
async function paired(a: () => Promise<Load>, b: () => Promise<Load>) {
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let x: Load;
    let y: Load;
    if (i % 2 === 0) {
      x = await a();
      y = await b();
    } else {
      y = await b();
      x = await a();
    }
    if (x.non2xx > 0 || y.non2xx > 0) throw new Error('non-2xx answers under load');
    as.push(x.requestsPerSecond);
    bs.push(y.requestsPerSecond);
    ratios.push(x.requestsPerSecond / y.requestsPerSecond);
  }
  return { ratio: median(ratios), a: median(as), b: median(bs), ratios };
}

const urlOf = (child: Child, p: string) => `${child.url}${p}`;

/**
 * Issue 14, the cost and the gain of scale-out, measured in one run on this machine (2 cores:
 * the processes, Postgres, Redis and the load generator share them, so more processes cannot
 * add cores here; the figures say what the shared parts cost and that nothing serialises):
 * 1. signed-in GET user on Postgres vs SQLite (one process each), and on two processes vs one
 *    (Postgres and Redis both);
 * 2. change-log writes (POST assets) per second with 1, 2 and 4 processes on Postgres, seq
 *    checked gapless after;
 * 3. fan-out of model updates to 200 subscribers spread over two processes vs all on one;
 * 4. ingest through the whole path (agent buffer, MQTT, checks, store, ack) on Postgres vs
 *    SQLite, alternating.
 */
export async function benchScaleOut(): Promise<string[]> {
  if (postgresBin() === undefined || !redisInstalled()) {
    return ['scale-out: skipped, needs postgresql and redis-server (apt-get install -y ...)'];
  }
  const postgres = await startLocalPostgres();
  const redis = await startLocalRedis();
  const out: string[] = [];
  try {
    // 1a. GET user: SQLite vs Postgres, one process each.
    {
      const lite = new Setup({});
      const db = await createTestDatabase(postgres.url);
      const onPg = new Setup({ DATABASE_URL: db.url });
      try {
        const [l, p] = [await lite.start(), await onPg.start()];
        const hl = (await signInDemoAdmin(l.url)).headers;
        const hp = (await signInDemoAdmin(p.url)).headers;
        await load(urlOf(l, '/api/v1/user'), hl, 1);
        await load(urlOf(p, '/api/v1/user'), hp, 1);
        const r = await paired(
          () => load(urlOf(p, '/api/v1/user'), hp, SECONDS),
          () => load(urlOf(l, '/api/v1/user'), hl, SECONDS),
        );
        out.push(
          `scale-out get-user postgres: ${r.ratio.toFixed(2)} (Postgres/SQLite, one process ` +
            `each) ${r.a.toFixed(0)} vs ${r.b.toFixed(0)} req/s, ${CONNECTIONS} connections, ` +
            `median of ${ROUNDS} paired rounds x ${SECONDS}s; rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`,
        );
      } finally {
        await lite.stop();
        await onPg.stop();
        await db.drop();
      }
    }

    // 1b. GET user: two processes vs one, on Postgres and Redis.
    {
      const db = await createTestDatabase(postgres.url);
      const cluster = new Setup({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      try {
        const a = await cluster.start();
        const b = await cluster.start();
        const { headers } = await signInDemoAdmin(a.url);
        await spread([urlOf(a, '/api/v1/user'), urlOf(b, '/api/v1/user')], headers);
        const r = await paired(
          () => spread([urlOf(a, '/api/v1/user'), urlOf(b, '/api/v1/user')], headers),
          () => spread([urlOf(a, '/api/v1/user')], headers),
        );
        out.push(
          `scale-out get-user two processes: ${r.ratio.toFixed(2)} (two/one, Postgres + Redis) ` +
            `${r.a.toFixed(0)} vs ${r.b.toFixed(0)} req/s, ${CONNECTIONS} connections in all; ` +
            `rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`,
        );
      } finally {
        await cluster.stop();
        await db.drop();
      }
    }

    // 2. Change-log writes with 1, 2 and 4 processes.
    {
      const db = await createTestDatabase(postgres.url);
      const cluster = new Setup({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      try {
        const first = await cluster.start();
        const { headers, account } = await signInDemoAdmin(first.url);
        const body = JSON.stringify({ name: 'Bench write' });
        const rates: Record<number, number[]> = { 1: [], 2: [], 4: [] };
        for (const n of [1, 2, 4]) while (cluster.children.length < n) await cluster.start();
        await spread([urlOf(first, '/api/v1/assets')], headers, { method: 'POST', body });
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? [1, 2, 4] : [4, 2, 1];
          for (const n of order) {
            const urls = cluster.children.slice(0, n).map((c) => urlOf(c, '/api/v1/assets'));
            const l = await spread(urls, headers, { method: 'POST', body });
            if (l.non2xx > 0) throw new Error(`${l.non2xx} writes failed with ${n} processes`);
            rates[n]?.push(l.requestsPerSecond);
          }
        }
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        const { rows } = await client.query<{
          n: number;
          lo: number;
          hi: number;
          distinct: number;
        }>(
          `select count(*)::int as n, min(seq)::int as lo, max(seq)::int as hi,
                  count(distinct seq)::int as distinct
             from model_updates where account_id = $1`,
          [account],
        );
        await client.end();
        const seq = rows[0];
        const gapless =
          seq !== undefined && seq.n === seq.distinct && seq.hi - seq.lo + 1 === seq.n;
        if (!gapless) throw new Error(`seq is not gapless: ${JSON.stringify(seq)}`);
        const [one, two, four] = [1, 2, 4].map((n) => median(rates[n] ?? []));
        out.push(
          `scale-out change-log writes: ${((two ?? 0) / (one ?? 1)).toFixed(2)} (2/1 processes), ` +
            `${((four ?? 0) / (one ?? 1)).toFixed(2)} (4/1) POST assets on Postgres: ` +
            `${one?.toFixed(0)}, ${two?.toFixed(0)}, ${four?.toFixed(0)} writes/s with 1, 2, 4 ` +
            `processes (${CONNECTIONS} connections in all, medians of ${ROUNDS}); seq gapless ` +
            `over ${seq.n} updates`,
        );
      } finally {
        await cluster.stop();
        await db.drop();
      }
    }

    // 3. Fan-out to 200 subscribers: spread over two processes vs all on one.
    {
      const db = await createTestDatabase(postgres.url);
      const cluster = new Setup({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      const clients: MqttClient[] = [];
      try {
        const a = await cluster.start();
        const b = await cluster.start();
        const { headers, account } = await signInDemoAdmin(a.url);
        const topic = `account/${account}/_modelupdates`;
        const created = (await (
          await fetch(`${a.url}/api/v1/assets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: 'Fan-out' }),
          })
        ).json()) as { data: { id: string } };
        const subscribers = async (spreadOver: readonly Child[]) => {
          const made: MqttClient[] = [];
          const per = SUBSCRIBERS / spreadOver.length;
          for (const [k, child] of spreadOver.entries()) {
            const creds: { username: string; clientid: string; password: string }[] = [];
            for (let i = 0; i < per; i++) {
              const res = (await (
                await fetch(`${child.url}/api/v1/user/browser/mqtt?browser_id=bench-${k}-${i}`, {
                  headers,
                })
              ).json()) as { data: (typeof creds)[number] };
              creds.push(res.data);
            }
            made.push(
              ...(await connectAll(
                `${child.url.replace('http', 'ws')}/mqtt`,
                (i) => ({
                  clientId: creds[i]?.clientid ?? '',
                  username: creds[i]?.username ?? '',
                  password: creds[i]?.password ?? '',
                }),
                topic,
                per,
              )),
            );
          }
          clients.push(...made);
          return made;
        };
        const run = async (over: readonly Child[]): Promise<Result> => {
          const subs = await subscribers(over);
          const result = await measure(subs, async (n) => {
            const via = over[n % over.length] ?? a;
            await fetch(`${via.url}/api/v1/assets/${created.data.id}`, {
              method: 'PUT',
              headers,
              body: JSON.stringify({ name: `Fan-out ${n}` }),
            });
          });
          await Promise.all(subs.map((c) => c.endAsync(true)));
          return result;
        };
        const one = await run([a]);
        const two = await run([a, b]);
        const fmt = (r: Result) =>
          `${r.perSecond.toFixed(0)} msg/s delivered (${(r.delivered * 100).toFixed(1)}%), ` +
          `p50 ${r.p50} ms, p95 ${r.p95} ms`;
        out.push(
          `scale-out fan-out: ${(two.perSecond / one.perSecond).toFixed(2)} (two processes/one, ` +
            `delivered per second) ${SUBSCRIBERS} subscribers; two: ${fmt(two)}; one: ${fmt(one)}`,
        );
      } finally {
        await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
        await cluster.stop();
        await db.drop();
      }
    }
    // 4. Ingest, whole path: Postgres vs SQLite, alternating which goes first.
    {
      const rates: { pg: number[]; lite: number[] } = { pg: [], lite: [] };
      const onPg = async () => {
        const db = await createTestDatabase(postgres.url);
        try {
          rates.pg.push((await wholePathIngest({ DATABASE_URL: db.url })).perSecond);
        } finally {
          await db.drop();
        }
      };
      const onLite = async () => {
        rates.lite.push((await wholePathIngest()).perSecond);
      };
      for (let round = 0; round < 2; round++) {
        if (round % 2 === 0) {
          await onPg();
          await onLite();
        } else {
          await onLite();
          await onPg();
        }
      }
      const [p, l] = [median(rates.pg), median(rates.lite)];
      out.push(
        `scale-out ingest postgres: ${(p / l).toFixed(2)} (Postgres/SQLite, whole path) ` +
          `${p.toFixed(0)} vs ${l.toFixed(0)} points/s (medians of 2, alternating)`,
      );
    }
    return out;
  } finally {
    await redis.stop();
    await postgres.stop();
  }
}
