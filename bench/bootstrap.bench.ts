import { seedAssets } from '../server/src/testing/seed-assets';
import { median, startBrowserBench } from './browser-env';

const MODELS = Number(process.env.BENCH_BOOTSTRAP_MODELS ?? 50_000);
const ROUNDS = 5;
/** Issue 29: the worker's bootstrap takes at most this many times the baseline's time. */
const BUDGET = 1.2;
/** The worker's snapshot page (sync/bootstrap.ts SNAPSHOT_PAGE): the baseline asks the same. */
const PAGE = 2000;

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The first load of an account with 50,000 models in headless Chromium: the real worker's
 * bootstrap (session.start until the status says done: snapshot pages, zod, apply, RxDB, the
 * log replay) against fetching the same snapshot pages and a raw Dexie bulkPut of their models,
 * in the same run, alternating, each in a new browser profile. Ratio: our time / baseline time,
 * checked against BUDGET (the line says whether it is within; every round's figures follow).
 */
export async function benchBootstrap(): Promise<string[]> {
  const bench = await startBrowserBench();
  const { session, e2e } = bench;
  try {
    const seedStart = performance.now();
    await seedAssets(e2e.server, session.accountId, MODELS);
    const seedMs = performance.now() - seedStart;
    const raw = async () =>
      (await bench.freshTab()).page.evaluate(
        ([origin, token, size]) => window.bench.worker.bootstrapRaw(origin, token, size),
        [e2e.web.url, session.token, PAGE] as const,
      );
    const ours = async () => {
      const tab = await bench.freshTab();
      const t = performance.now();
      await tab.start(session);
      await tab.waitUntilBootstrapped();
      const elapsed = performance.now() - t;
      await tab.watch('assets', { type: 'asset', limit: 1 });
      // The watch's first answer may be the quick first rows; the count is final once complete.
      await tab.page.waitForFunction(() => window.plant.watched.assets?.latest?.complete === true);
      const { total } = await tab.result('assets');
      return { ms: elapsed, total };
    };
    await raw(); // warm-up: the server's statement cache, the browser's JIT
    const oursMs: number[] = [];
    const rawMs: number[] = [];
    let models = 0;
    let total = 0;
    for (let i = 0; i < 2 * ROUNDS; i++) {
      // Alternating which goes first.
      if ((i + Math.floor(i / 2)) % 2 === 0) {
        const o = await ours();
        oursMs.push(o.ms);
        total = o.total;
      } else {
        const r = await raw();
        rawMs.push(r.ms);
        models = r.models;
      }
    }
    if (total < MODELS) throw new Error(`the worker shows ${total} assets of ${MODELS}`);
    const parts = await (
      await bench.freshTab()
    ).page.evaluate(
      ([origin, token, size]) => window.bench.worker.bootstrapParts(origin, token, size),
      [e2e.web.url, session.token, PAGE] as const,
    );
    const o = median(oursMs);
    const r = median(rawMs);
    const ratio = o / r;
    const verdict = ratio <= BUDGET ? 'within' : 'OVER';
    return [
      `bootstrap ${MODELS} models: ${ratio.toFixed(2)} (ours/baseline time; ${verdict} the ` +
        `budget of ${BUDGET}) ` +
        `worker ${(o / 1000).toFixed(2)} s, fetch + raw Dexie bulkPut of the same ${models} ` +
        `snapshot models ${(r / 1000).toFixed(2)} s (median of ${ROUNDS}; seeding took ` +
        `${(seedMs / 1000).toFixed(1)} s)`,
      `bootstrap rounds: worker ${oursMs.map(sec).join(', ')}; baseline ${rawMs.map(sec).join(', ')}`,
      `bootstrap steps of the worker, timed apart: fetch + JSON ${sec(parts.fetchMs)}, zod ` +
        `${sec(parts.zodMs)}, Replica.putModels (apply + RxDB) ${sec(parts.putMs)}`,
    ];
  } finally {
    await bench.close();
  }
}
