import { median, startBrowserBench } from './browser-env';

const COUNT = Number(process.env.BENCH_APPLY_COUNT ?? 5000);
const ROUNDS = 3;

/**
 * Model updates applied into the local store, in headless Chromium, in a worker: the replica's
 * path (apply layer, RxDB on Dexie, the cursor stored in the same write) against a raw Dexie
 * bulkPut of the very documents the store ended with, into a table with the same indexes, in
 * the same runs. Twice: in runs of 500 (a page of the log, a burst from the broker) and one at
 * a time (live updates as they come). Ratio: raw time / our time (1 = as fast as raw).
 */
export async function benchStoreApply(): Promise<string[]> {
  const bench = await startBrowserBench();
  let page = (await bench.freshTab()).page;
  const ours = (count: number, batch: number) =>
    page.evaluate(([c, b]) => window.bench.worker.applyOurs(c, b), [count, batch] as const);
  // The raw run writes the documents our run of the same tab ended with.
  const raw = (count: number, batch: number) =>
    page.evaluate(([c, b]) => window.bench.worker.applyRaw(c, b), [count, batch] as const);
  const lines: string[] = [];
  try {
    const cases = [
      { count: COUNT, batch: 500, label: 'runs of 500', target: 'target >= 0.5' },
      { count: Math.min(COUNT, 500), batch: 1, label: 'one at a time', target: 'no target' },
    ];
    for (const { count, batch, label, target } of cases) {
      await ours(Math.min(count, 200), batch); // warm-up: JIT, IndexedDB files
      await raw(Math.min(count, 200), batch);
      const o: { createMs: number; changeMs: number }[] = [];
      const r: { createMs: number; changeMs: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        page = (await bench.freshTab()).page;
        o.push(await ours(count, batch));
        r.push(await raw(count, batch));
      }
      for (const phase of ['createMs', 'changeMs'] as const) {
        const oursMs = median(o.map((x) => x[phase]));
        const rawMs = median(r.map((x) => x[phase]));
        const what = phase === 'createMs' ? 'new models' : 'changes';
        lines.push(
          `store-apply ${what}, ${label}: ${(rawMs / oursMs).toFixed(2)} (ours/baseline ` +
            `throughput = raw time / our time; ${target}) ` +
            `${rate(count, oursMs)} updates/s through Replica.receive, ` +
            `${rate(count, rawMs)} docs/s raw Dexie bulkPut (${count} updates, median of ${ROUNDS})`,
        );
      }
    }
  } finally {
    await bench.close();
  }
  return lines;
}

function rate(count: number, ms: number): string {
  return ((count / ms) * 1000).toFixed(0);
}
