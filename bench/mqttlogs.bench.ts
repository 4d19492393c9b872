import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../server/src/db/database';
import { loadConfig } from '../server/src/config';
import { startServer } from '../server/src/server';
import { signInDemoAdmin } from './lib';

const UPDATES = 10_000;

/**
 * Reading 10,000 updates through GET account/mqttlogs (paged by the server, 1000 a page, over
 * HTTP, as a client catching up) against the raw SQL select of the same rows.
 */
export async function benchMqttlogs(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-logs-'));
  const server = await startServer({
    config: loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', SEED: 'demo' }),
  });
  try {
    const { headers, account } = await signInDemoAdmin(server.url);

    // Fill the log: batches of creates, two updates each.
    const start = await server.db
      .selectFrom('account_clocks')
      .select(['seq', 'ts'])
      .where('account_id', '=', account)
      .executeTakeFirstOrThrow();
    for (let made = 0; made < UPDATES / 2; made += 250) {
      const batch = Array.from({ length: 250 }, (_, i) => ({
        batch_id: i,
        data: { name: `Log filler ${made + i}` },
      }));
      await fetch(`${server.url}/api/v1/assets`, {
        method: 'POST',
        headers,
        body: JSON.stringify(batch),
      });
    }

    const readOurs = async () => {
      const t = performance.now();
      let from = start.ts;
      let rows = 0;
      for (;;) {
        const res = (await (
          await fetch(`${server.url}/api/v1/account/mqttlogs?from=${from}`, { headers })
        ).json()) as {
          data: { ts: number }[];
          more: boolean;
        };
        rows += res.data.length;
        from = res.data.at(-1)?.ts ?? from;
        if (!res.more) break;
      }
      return { ms: performance.now() - t, rows };
    };
    const raw = new SQLite(path.join(dir, DATABASE_FILE), { readonly: true });
    const select = raw.prepare(
      'select ts, msg from model_updates where account_id = ? and ts > ? order by seq',
    );
    const readRaw = () => {
      const t = performance.now();
      const rows = select.all(account, start.ts).length;
      return { ms: performance.now() - t, rows };
    };
    await readOurs();
    readRaw();
    const ours = [await readOurs(), await readOurs(), await readOurs()].sort(
      (a, b) => a.ms - b.ms,
    )[1];
    const base = [readRaw(), readRaw(), readRaw()].sort((a, b) => a.ms - b.ms)[1];
    raw.close();
    if (ours === undefined || base === undefined || ours.rows !== base.rows)
      throw new Error('the reads disagree');
    return [
      `mqttlogs read: ${(base.ms / ours.ms).toFixed(2)} (ours/baseline throughput) ` +
        `${ours.rows} updates in ${ours.ms.toFixed(1)} ms through GET account/mqttlogs (HTTP, pages of 1000), ` +
        `${base.ms.toFixed(1)} ms raw SQL select; median of 3`,
    ];
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
