import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryResult } from '../api';
import { MemoryLogger } from '../log';
import { until } from '../testing/sync-fixture';
import { ApiClient } from '../transport/http';
import { ValuesCache } from './cache';
import { LIVE_AFTER_MS, ValuesHub } from './values-hub';

/*
 * When a history watch subscribes to its streams' live values (values-hub.ts LIVE_AFTER_MS):
 * opened over what the cache holds, the page is drawing the first answer, and the assets' lookups
 * and the broker's subscription wait; opened over a gap, the page waits for the server, and the
 * subscription goes beside that read. The hub here leads with a broker that notes what
 * it is asked to carry, and a fetch that notes the server's reads and never answers them.
 */
const STREAM = 'stream-1';
const ASSET = 'asset-1';
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

async function hubOver(cached: boolean) {
  const cache = await ValuesCache.open(`plant-values-live-${cached}`, {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  const now = Date.now();
  if (cached) {
    // The last three hours read from the server at a fine step, up to a few seconds ago: what
    // a dashboard opened again finds.
    const from = now - 3 * 3_600_000;
    const points = Array.from(
      { length: 180 },
      (_, i) => [from + i * 60_000, i] as [number, number],
    );
    await cache.put(STREAM, points, { from, to: now - 5_000, step: 1_000 });
  }
  const reads: string[] = [];
  const api = new ApiClient({
    origin: 'http://127.0.0.1:9',
    token: () => 'token',
    appUrl: () => 'http://127.0.0.1:9/app',
    log: new MemoryLogger(),
    fetch: (input) => {
      reads.push(input instanceof Request ? input.url : input.toString());
      return new Promise<Response>(() => undefined);
    },
  });
  const hub = new ValuesHub({
    api,
    log: new MemoryLogger(),
    cache,
    channel: `plant-values-live-${cached}`,
    assetStreams: () => Promise.resolve([STREAM]),
    streamAsset: (stream) => Promise.resolve(stream === STREAM ? ASSET : undefined),
  });
  const carried: { at: number; assets: string[] }[] = [];
  hub.lead({ setValueAssets: (assets) => carried.push({ at: Date.now(), assets: [...assets] }) });
  stops.push(() => hub.stop());
  const answers: HistoryResult[] = [];
  const opened = Date.now();
  stops.push(
    hub.watchHistory({ streams: [STREAM], range: { last: 3 * 3_600_000 }, points: 400 }, (r) =>
      answers.push(r),
    ),
  );
  const subscribed = () => carried.find((c) => c.assets.includes(ASSET));
  return { opened, answers, reads, subscribed };
}

describe("a history watch's live subscription", () => {
  it('waits while the page draws what the cache gave', async () => {
    const { opened, answers, subscribed } = await hubOver(true);
    await until('answered from the cache', () => answers.length > 0);
    expect(answers[0]?.series[0]?.ts.length).toBeGreaterThan(100);
    expect(answers[0]?.loading).toBe(false);
    await until('subscribed', () => subscribed() !== undefined);
    expect((subscribed()?.at ?? 0) - opened).toBeGreaterThanOrEqual(LIVE_AFTER_MS);
  });

  it("goes beside the server's read when the cache lacks the range", async () => {
    const { answers, reads, subscribed } = await hubOver(false);
    await until('asked the server', () => reads.length > 0);
    await until('subscribed', () => subscribed() !== undefined);
    // The server has not answered: the page is told it waits for the values (the answer that
    // says so is posted on the next frame after the read went: waited for, CI once looked
    // before it came), and is given none.
    await until('told it is loading', () => answers.at(-1)?.loading === true);
    expect(answers.every((a) => a.series[0]?.ts.length === 0)).toBe(true);
    expect(answers.at(-1)?.loading).toBe(true);
  });
});
