import type { MqttClient } from 'mqtt';
import { gatewayTopics } from '@plant/shared-schema';
import {
  connectGateway,
  demoGateway,
  makeGatewayCredentials,
} from '../server/src/testing/gateway-client';
import { valuesDatabaseName } from '../sync-worker/src/store/database-name';
import { median, ms, quantile, startBrowserBench } from './browser-env';

const SAMPLES = Number(process.env.BENCH_VALUES_SAMPLES ?? 200);
const ROUNDS = 3;
const HISTORY_ROUNDS = 6;

/**
 * Machine values on screen (issue 12), in headless Chromium with the real worker:
 * - live: a gateway's point through ingest and the broker, to the page's `values.watchAsset`
 *   callback, against a plain mqtt.js client in the same page receiving the same message (what
 *   the worker adds: parse, cache write, one post per frame, Comlink);
 * - diagram: 100,000 points of one stream from the values cache, downsampled to twice the
 *   chart's width and drawn by uPlot, against uPlot drawing all 100,000 already in the page;
 * - history: 24 h of 20 streams (one point every 10 s) from the cache, against reading the same
 *   points from IndexedDB stored one record per point; and the same read again, answered from
 *   the worker's memory of the cache, against the read before it.
 */
export async function benchValuesScreen(): Promise<string[]> {
  const bench = await startBrowserBench();
  const { session, e2e } = bench;
  const agents: MqttClient[] = [];
  try {
    const tab = await bench.freshTab();
    const { page } = tab;
    await tab.start(session);
    await tab.waitUntilBootstrapped();
    await tab.waitUntilLive();

    // ---- live ----------------------------------------------------------------------------
    const gateways: Awaited<ReturnType<typeof demoGateway>>[] = [];
    for (let i = 0; i < 12; i++) {
      const gw = await demoGateway(e2e.server, session.accountId, i);
      const made = await makeGatewayCredentials(e2e.server, session.token, gw.gatewayId);
      agents.push(await connectGateway(e2e.server, gw.gatewayId, made.secret));
      gateways.push(gw);
    }
    await page.evaluate(([t, a, assets]) => window.bench.watchValues(t, a, assets), [
      session.token,
      session.accountId,
      gateways.map((g) => g.assetId),
    ] as const);
    let seq = 0;
    const lastSent = new Map<number, number>();
    const send = async (i: number) => {
      const gw = gateways[i % gateways.length];
      const agent = agents[i % agents.length];
      if (gw === undefined || agent === undefined) throw new Error('no gateway');
      // One message per asset per second at most (the live publisher's window): wait it out.
      const since = Date.now() - (lastSent.get(i % gateways.length) ?? 0);
      if (since < 1_100) await new Promise((r) => setTimeout(r, 1_100 - since));
      const stream = Object.values(gw.streams)[0] ?? '';
      const ts = Date.now();
      seq += 1;
      lastSent.set(i % gateways.length, ts);
      const sentAt = performance.timeOrigin + performance.now();
      await agent.publishAsync(
        gatewayTopics.data(gw.gatewayId),
        JSON.stringify({
          gateway: gw.gatewayId,
          buffer: `bench${i % gateways.length}`,
          seq: Math.floor(seq / gateways.length) + 1,
          points: [{ stream, ts, value: seq }],
        }),
        { qos: 1 },
      );
      const key = `${stream}@${ts}`;
      await page.waitForFunction(
        (k) => k in window.bench.valuesSeen.ours && k in window.bench.valuesSeen.raw,
        key,
        { polling: 5, timeout: 30_000 },
      );
      return { key, sentAt };
    };
    // Warm-up: every asset once (the subscriptions are in place when each arrives).
    for (let i = 0; i < gateways.length; i++) await send(i);
    const sent: { key: string; sentAt: number }[] = [];
    for (let i = 0; i < SAMPLES; i++) sent.push(await send(gateways.length + i));
    const seen = await page.evaluate(() => window.bench.valuesSeen);
    const inWorker: number[] = [];
    const toRaw: number[] = [];
    for (const { key, sentAt } of sent) {
      const o = seen.ours[key];
      const r = seen.raw[key];
      if (o === undefined || r === undefined) throw new Error(`no arrival for ${key}`);
      inWorker.push(o - r);
      toRaw.push(r - sentAt);
    }
    const frame = 1000 / 60;
    const live = (q: number, label: string) =>
      `values-live ${label}: message to page callback ${ms(quantile(inWorker, q))} ` +
      `(${(quantile(inWorker, q) / frame).toFixed(2)} of a 60 Hz frame); gateway publish to the ` +
      `raw message in the page ${ms(quantile(toRaw, q))} (${sent.length} points)`;

    // ---- diagram of 100,000 points -----------------------------------------------------------
    const dbName = valuesDatabaseName(session.userId, session.accountId);
    const all = gateways.flatMap((g) => Object.values(g.streams));
    const diagramStream = all[0] ?? '';
    const count = 100_000;
    const from = Date.now() - count * 1_000 - 3_600_000;
    const to = from + (count - 1) * 1_000;
    await page.evaluate(
      ([db, s, f, n]) => window.bench.worker.fillValuesCache(db, [s], f, n, 1_000),
      [dbName, diagramStream, from, count] as const,
    );
    const ours: number[] = [];
    const direct: number[] = [];
    let drawn = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // Read from IndexedDB each round, not from the worker's memory of the last.
      await page.evaluate(([db, s]) => window.bench.worker.touchValues(db, [s]), [
        dbName,
        diagramStream,
      ] as const);
      const o = await page.evaluate(([s, f, t]) => window.bench.drawFromCache(s, f, t, 2_000), [
        diagramStream,
        from,
        to,
      ] as const);
      ours.push(o.ms);
      drawn = o.points;
      direct.push((await page.evaluate((n) => window.bench.drawDirect(n), count)).ms);
    }
    const diagram =
      `values-diagram: ${(median(ours) / median(direct)).toFixed(2)} (ours/baseline) ` +
      `100,000 cached points to a painted uPlot chart ${ms(median(ours))} (${drawn} points ` +
      `drawn), uPlot drawing all 100,000 already in the page ${ms(median(direct))}`;

    // ---- history of 24 h for 20 streams ------------------------------------------------------
    const twenty = all.slice(1, 21);
    const perStream = 8_640;
    const dayFrom = Date.now() - 2 * 86_400_000;
    const dayTo = dayFrom + (perStream - 1) * 10_000;
    await page.evaluate(
      ([db, s, f, n]) => window.bench.worker.fillValuesCache(db, s, f, n, 10_000),
      [dbName, twenty, dayFrom, perStream] as const,
    );
    await page.evaluate(([s, f, n]) => window.bench.worker.fillRawPoints(s, f, n, 10_000), [
      twenty,
      dayFrom,
      perStream,
    ] as const);
    const cached: number[] = [];
    const again: number[] = [];
    const raw: number[] = [];
    let rawPoints = 0;
    let cachedPoints = 0;
    const fromCache = () =>
      page.evaluate(([s, f, t]) => window.bench.historyFromCache(s, f, t, 1_000), [
        twenty,
        dayFrom,
        dayTo,
      ] as const);
    for (let r = 0; r < HISTORY_ROUNDS; r++) {
      // From IndexedDB (as after another tab's write), then the same again from memory.
      await page.evaluate(([db, s]) => window.bench.worker.touchValues(db, s), [
        dbName,
        twenty,
      ] as const);
      const o = await fromCache();
      cached.push(o.ms);
      cachedPoints = o.points;
      again.push((await fromCache()).ms);
      const b = await page.evaluate(([s, f, t]) => window.bench.worker.readRawPoints(s, f, t), [
        twenty,
        dayFrom,
        dayTo,
      ] as const);
      raw.push(b.ms);
      rawPoints = b.points;
    }
    await page.evaluate(() => window.bench.worker.dropRawPoints());
    const history =
      `values-history: ${(median(cached) / median(raw)).toFixed(2)} (ours/baseline) 24 h of ` +
      `${twenty.length} streams from the values cache to the page ${ms(median(cached))} ` +
      `(${cachedPoints} points after M4), the same ${rawPoints} points read from IndexedDB ` +
      `stored one record per point ${ms(median(raw))}`;
    const memory =
      `values-history-again: ${(median(again) / median(cached)).toFixed(2)} (ours/baseline) ` +
      `the same 24 h of ${twenty.length} streams read again, from the worker's memory of the ` +
      `cache ${ms(median(again))}, against the read from IndexedDB before it ` +
      `${ms(median(cached))} (${HISTORY_ROUNDS} rounds)`;

    return [live(0.5, 'p50'), live(0.95, 'p95'), diagram, history, memory];
  } finally {
    for (const a of agents) await a.endAsync(true).catch(() => undefined);
    await bench.close();
  }
}
