import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrateToLatest, openDatabase, DATABASE_FILE } from '../server/src/db/database';
import { systemClock } from '../server/src/lib/clock';
import { AccountRepository } from '../server/src/repositories/account.repository';
import { ChangeFeed } from '../server/src/services/change-feed';
import { ModelService } from '../server/src/services/model.service';

const N = Number(process.env.BENCH_CHANGES ?? 3000);

/**
 * N asset renames through the service layer (validation, one transaction with the change, its
 * model-update row with the next seq, and the clock) against the same N plain row updates through
 * better-sqlite3 (one autocommit UPDATE each), on the same file, in the same run.
 */
export async function benchChangeLog(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-log-'));
  const db = openDatabase(dir);
  try {
    await migrateToLatest(db);
    const at = new Date().toISOString();
    await new AccountRepository(db).insert({
      id: 'bench',
      name: 'Bench',
      parent_id: null,
      created_at: at,
      updated_at: at,
      color1: null,
      color2: null,
      title: null,
      logo_desktop: null,
      logo_mobile: null,
      login_image: null,
    });
    const models = new ModelService(db, systemClock, new ChangeFeed());
    const created = await db.transaction().execute((trx) =>
      models.applyIn(trx, 'bench', {
        kind: 'create',
        collection: 'assets',
        body: { name: 'Bench asset' },
      }),
    );
    const id = created.answer.body.data?.id ?? '';

    const raw = new SQLite(path.join(dir, DATABASE_FILE));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    const update = raw.prepare('update models set attributes = ?, updated_at = ? where id = ?');
    const runRaw = () => {
      const t = performance.now();
      for (let i = 0; i < N; i++) {
        update.run(JSON.stringify({ name: `raw ${i}` }), new Date().toISOString(), id);
      }
      return performance.now() - t;
    };
    const runOurs = async () => {
      const t = performance.now();
      for (let i = 0; i < N; i++) {
        await db.transaction().execute((trx) =>
          models.applyIn(trx, 'bench', {
            kind: 'update',
            collection: 'assets',
            id,
            body: { name: `ours ${i}` },
          }),
        );
      }
      return performance.now() - t;
    };
    runRaw();
    await runOurs(); // warm-up
    const rawMs = [runRaw(), runRaw(), runRaw()].sort((a, b) => a - b)[1] ?? 1;
    const oursMs =
      [await runOurs(), await runOurs(), await runOurs()].sort((a, b) => a - b)[1] ?? 1;
    raw.close();
    return [
      `change-log overhead: ${(rawMs / oursMs).toFixed(2)} (ours/baseline throughput) ` +
        `${((N / oursMs) * 1000).toFixed(0)} updates/s through the service with their log rows, ` +
        `${((N / rawMs) * 1000).toFixed(0)} plain row updates/s through better-sqlite3; N=${N}, median of 3`,
    ];
  } finally {
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
