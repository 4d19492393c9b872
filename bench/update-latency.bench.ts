import { apiPaths } from '@plant/shared-schema';
import { seenKey } from '../e2e/page/contract';
import { ms, quantile, startBrowserBench } from './browser-env';

const WRITES = Number(process.env.BENCH_LATENCY_WRITES ?? 200);

/**
 * From an API write by another client to the page's `data.subscribe` callback with the new
 * value, in headless Chromium with the real worker (broker message, apply, store, live query,
 * Comlink back to the page). Baseline, same writes: a plain mqtt.js client on the same page
 * receiving the update message (what any client gets before doing anything with it). Writes go
 * one at a time; clocks are `performance.timeOrigin + now()` in Node and in the page.
 */
export async function benchUpdateLatency(): Promise<string[]> {
  const bench = await startBrowserBench();
  const { session, e2e } = bench;
  try {
    const tab = await bench.freshTab();
    const { page } = tab;
    await tab.start(session);
    await tab.waitUntilBootstrapped();
    await tab.waitUntilLive();
    await tab.watch('assets', { type: 'asset' });
    await page.evaluate(([t, a]) => window.bench.rawSubscribe(t, a), [
      session.token,
      session.accountId,
    ] as const);
    const [asset] = await e2e.serverModels(session.accountId, 'asset');
    if (asset === undefined) throw new Error('the demo account has no assets');
    const now = () => performance.timeOrigin + performance.now();
    const sentAt = new Map<string, number>();
    for (let i = 0; i < WRITES + 20; i++) {
      const name = `Latency ${i}`;
      const key = seenKey(asset.id, name);
      const t = now();
      const res = await e2e.server.call('PUT', apiPaths.model('assets', asset.id), {
        token: session.token,
        json: { name },
      });
      if (res.status !== 200) throw new Error(`write ${i} failed: ${res.status} ${res.text}`);
      // The first 20 warm up (JIT, statement caches) and are not counted.
      if (i >= 20) sentAt.set(key, t);
      await page.waitForFunction(
        (k) => window.plant.watched.assets?.firstSeen[k] !== undefined && k in window.bench.rawSeen,
        key,
        { polling: 5 },
      );
    }
    const { firstSeen } = await tab.watched('assets');
    const rawSeen = await page.evaluate(() => window.bench.rawSeen);
    const ours: number[] = [];
    const raw: number[] = [];
    const inWorker: number[] = [];
    for (const [key, t] of sentAt) {
      const o = firstSeen[key];
      const r = rawSeen[key];
      if (o === undefined || r === undefined) throw new Error(`no arrival for ${key}`);
      ours.push(o - t);
      raw.push(r - t);
      inWorker.push(o - r);
    }
    const line = (q: number, label: string) => {
      const o = quantile(ours, q);
      const r = quantile(raw, q);
      return (
        `update-latency ${label}: ${(o / r).toFixed(2)} (ours/baseline) write to query ` +
        `callback ${ms(o)}, write to raw MQTT message in the page ${ms(r)}, message to ` +
        `callback ${ms(quantile(inWorker, q))} (${sentAt.size} writes)`
      );
    };
    return [line(0.5, 'p50'), line(0.95, 'p95')];
  } finally {
    await bench.close();
  }
}
