import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { uuidv7 } from '@plant/shared-schema';
import { loadConfig } from '../server/src/config';
import { AssetAccessRepository } from '../server/src/repositories/asset-access.repository';
import { DEMO_USERS } from '../server/src/seed/demo';
import { startServer } from '../server/src/server';
import { roleId } from '../server/src/testing/access';
import { connectAll, measure, type Result } from './fanout.bench';
import { median, signInDemo } from './lib';

const MODELS = 50_000;
const SHARE = 0.1;
const PAGE = 2000;
const ROUNDS = 3;
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);

type Headers = Record<string, string>;

/** Every snapshot page of the signed-in user, as a bootstrap reads them; answers ms and models. */
async function readSnapshot(url: string, headers: Headers) {
  const t = performance.now();
  let models = 0;
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? `limit=${PAGE}` : `cursor=${cursor}&limit=${PAGE}`;
    const page = (await (
      await fetch(`${url}/api/v1/sync/snapshot?${query}`, { headers })
    ).json()) as {
      data: { models: unknown[]; next_cursor: string | null };
    };
    models += page.data.models.length;
    cursor = page.data.next_cursor;
  } while (cursor !== null);
  return { ms: performance.now() - t, models };
}

async function credentials(url: string, headers: Headers, prefix: string) {
  const creds: { username: string; clientid: string; password: string }[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const res = (await (
      await fetch(`${url}/api/v1/user/browser/mqtt?browser_id=${prefix}-${i}`, { headers })
    ).json()) as { data: (typeof creds)[number] };
    creds.push(res.data);
  }
  return creds;
}

/**
 * Access per asset (issue 15): a snapshot of 50,000 models for a user whose role sees 10% of the
 * assets against the admin's whole snapshot; and one account's live updates to 200 subscribers
 * of a role that sees some assets and not every field (each update checked per subscriber,
 * stand-ins and projections) against 200 of the admin, who sees everything.
 */
export async function benchAccess(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-access-'));
  const server = await startServer({
    config: loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', SEED: 'demo' }),
  });
  const clients: MqttClient[] = [];
  try {
    const admin = await signInDemo(server.url, DEMO_USERS.admin);
    const account = admin.account;
    // 50,000 assets straight into the models table (a read benchmark: how they were written
    // does not matter), a tenth of them given to the technician.
    const at = new Date().toISOString();
    const ids: string[] = [];
    for (let made = 0; made < MODELS; made += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const id = uuidv7();
        ids.push(id);
        const name = `Bench asset ${String(made + i).padStart(6, '0')}`;
        return {
          id,
          type: 'asset',
          account_id: account,
          parent_type: 'account',
          parent_id: account,
          sort_key: name.toLowerCase(),
          attributes: JSON.stringify({ name, description: 'A benchmark machine', tags: [] }),
          last_seq: 0,
          created_at: at,
          updated_at: at,
          asset_id: id,
        };
      });
      await server.db.insertInto('models').values(rows).execute();
    }
    const technician = await roleId(server.db, account, 'technician');
    await server.db.transaction().execute(async (trx) => {
      const inTrx = new AssetAccessRepository(trx);
      for (let i = 0; i < ids.length * SHARE; i++) {
        await inTrx.grant(account, technician, ids[Math.floor(i / SHARE)] ?? '', false);
      }
    });
    const tech = await signInDemo(server.url, DEMO_USERS.tech);

    const adminRuns: { ms: number; models: number }[] = [];
    const techRuns: { ms: number; models: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      adminRuns.push(await readSnapshot(server.url, admin.headers));
      techRuns.push(await readSnapshot(server.url, tech.headers));
    }
    const adminMs = median(adminRuns.map((r) => r.ms));
    const techMs = median(techRuns.map((r) => r.ms));

    // Live fan-out: renames alternate between a machine the technician sees (it gets the name,
    // not the description) and one it does not (a stand-in).
    const seen = ids[0] ?? '';
    const unseen = ids[1] ?? '';
    const topic = `account/${account}/_modelupdates`;
    const wsUrl = `${server.url.replace('http', 'ws')}/mqtt`;
    const fanout = async (who: { headers: Headers }, prefix: string): Promise<Result> => {
      const creds = await credentials(server.url, who.headers, prefix);
      const subscribers = await connectAll(
        wsUrl,
        (i) => ({
          clientId: creds[i]?.clientid ?? '',
          username: creds[i]?.username ?? '',
          password: creds[i]?.password ?? '',
        }),
        topic,
        SUBSCRIBERS,
      );
      clients.push(...subscribers);
      const result = await measure(subscribers, async (n) => {
        await fetch(`${server.url}/api/v1/assets/${n % 2 === 0 ? seen : unseen}`, {
          method: 'PUT',
          headers: admin.headers,
          body: JSON.stringify({ name: `Renamed ${n}`, description: `Changed ${n}` }),
        });
      });
      await Promise.all(subscribers.map((c) => c.endAsync(true)));
      return result;
    };
    const whole = await fanout(admin, 'bench-admin');
    const filtered = await fanout(tech, 'bench-tech');

    const fmt = (r: Result) =>
      `${r.perSecond.toFixed(0)} msg/s (${(r.delivered * 100).toFixed(1)}% delivered), p50 ${r.p50} ms, p95 ${r.p95} ms`;
    return [
      `access snapshot: ${(techMs / adminMs).toFixed(2)} (role seeing ${SHARE * 100}% / admin) ` +
        `${techMs.toFixed(0)} ms for ${techRuns[0]?.models ?? 0} models vs ${adminMs.toFixed(0)} ms ` +
        `for ${adminRuns[0]?.models ?? 0} (median of ${ROUNDS}, pages of ${PAGE})`,
      `access fan-out throughput: ${(whole.perSecond / Math.max(1, filtered.perSecond)).toFixed(2)} ` +
        `(unfiltered/filtered msg/s, at most 2 wanted) ${SUBSCRIBERS} subscribers each`,
      `access fan-out p95: ${(filtered.p95 / Math.max(1, whole.p95)).toFixed(2)} (filtered/unfiltered)`,
      `  admin, sees everything:      ${fmt(whole)}`,
      `  technician, per asset+field: ${fmt(filtered)}`,
    ];
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
