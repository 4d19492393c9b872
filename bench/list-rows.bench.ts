import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_HEADER, apiPaths, BATCH_MAX_ITEMS } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from '../e2e/support/fixture';
import { buildPage } from '../e2e/support/web';
import { median } from './lib';

const TOTAL = 10_000;
const ROWS = 50;
const ROUNDS = 15;

interface Round {
  readonly ours: number;
  readonly raw: number;
  readonly oursRows: number;
  readonly rawRows: number;
}

/**
 * Runs in the page (as text: the bench runs under tsx, whose helpers the page does not have).
 * Ours: a live query's first result, as the list asks for its first window. Raw: the same
 * database, the index the query uses, the first `rows` asset records.
 */
const MEASURE_IN_PAGE = `async function (rows, round) {
  const name = 'first-rows-' + round;
  const t0 = performance.timeOrigin + performance.now();
  await window.plant.watch(name, { type: 'asset', limit: rows });
  while ((window.plant.watched[name]?.calls ?? 0) === 0) {
    await new Promise(function (r) { setTimeout(r, 0); });
  }
  const ours = Math.min(...Object.values(window.plant.watched[name].firstSeen)) - t0;
  const oursRows = window.plant.watched[name].latest.items.length;
  await window.plant.unwatch(name);

  const names = (await indexedDB.databases()).map(function (d) { return d.name || ''; });
  const dbName = names.find(function (n) { return n.endsWith('--models'); });
  if (dbName === undefined) throw new Error('no models database in ' + names.join(', '));
  const t1 = performance.timeOrigin + performance.now();
  const db = await new Promise(function (resolve, reject) {
    const open = indexedDB.open(dbName);
    open.onsuccess = function () { resolve(open.result); };
    open.onerror = function () { reject(new Error(String(open.error))); };
  });
  const storeName = 'docs';
  const store = db.transaction(storeName, 'readonly').objectStore(storeName);
  const indexName = Array.from(store.indexNames).find(function (i) {
    return i.includes('type') && i.includes('sort_key') && !i.includes('parent');
  });
  if (indexName === undefined) throw new Error('no type index: ' + Array.from(store.indexNames));
  const records = await new Promise(function (resolve, reject) {
    const out = [];
    const cursor = store.index(indexName).openCursor();
    cursor.onsuccess = function () {
      const c = cursor.result;
      if (c === null || out.length >= rows) { resolve(out); return; }
      if (c.value.type === 'asset') out.push(c.value);
      c.continue();
    };
    cursor.onerror = function () { reject(new Error(String(cursor.error))); };
  });
  const raw = performance.timeOrigin + performance.now() - t1;
  db.close();
  return { ours: ours, raw: raw, oursRows: oursRows, rawRows: records.length };
}`;

/**
 * The first screen of the asset list: the first 50 assets in list order of an account with
 * 10,000, as the client asks the worker (a live query: worker, RxDB, Comlink back to the page)
 * against a raw IndexedDB read of the same rows from the same database in the same page (the
 * models store's type + sort key index, 50 records), same run, headless Chromium.
 */
export async function benchListRows(): Promise<string[]> {
  const dist = await buildPage(fileURLToPath(new URL('../e2e/page', import.meta.url)), {
    minify: true,
  });
  const e2e = await E2e.start(dist);
  try {
    const admin = await e2e.session(DEMO_USERS.admin);
    const have = (await e2e.serverModels(admin.accountId, 'asset')).length;
    for (let from = 1; from <= TOTAL - have; from += BATCH_MAX_ITEMS) {
      const count = Math.min(BATCH_MAX_ITEMS, TOTAL - have - from + 1);
      const items = Array.from({ length: count }, (_, i) => ({
        batch_id: from + i,
        data: { name: `Zone asset ${String(from + i).padStart(5, '0')}` },
      }));
      const answer = await e2e.server.call('POST', apiPaths.collection('assets'), {
        token: admin.token,
        headers: { [ACCOUNT_HEADER]: admin.accountId },
        json: items,
      });
      if (answer.status !== 200) throw new Error(`seeding failed: ${answer.status}`);
    }
    const profile = await e2e.browser();
    const tab = await e2e.open(profile);
    await tab.start(admin);
    await tab.waitUntilBootstrapped();

    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(await tab.page.evaluate<Round>(`(${MEASURE_IN_PAGE})(${ROWS}, ${round})`));
    }
    const measured = rounds.slice(2); // the first rounds warm the worker's and the page's caches
    const ours = median(measured.map((r) => r.ours));
    const raw = median(measured.map((r) => r.raw));
    const rowsOk = measured.every((r) => r.oursRows === ROWS && r.rawRows === ROWS);
    return [
      `list-rows: ${(ours / raw).toFixed(2)} (ours/raw IndexedDB) first ${ROWS} of ${TOTAL} assets: ` +
        `live query ${ours.toFixed(1)} ms, raw index read ${raw.toFixed(1)} ms (medians of ` +
        `${measured.length})${rowsOk ? '' : ' ROW COUNTS DIFFER'}`,
    ];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}
