/**
 * The bench page: the e2e test page (the real worker on `window.plant`) plus the benchmarks'
 * worker and a plain mqtt.js subscriber as baselines (`window.bench`).
 */
import '../../e2e/page/main';
import * as Comlink from 'comlink';
import mqtt from 'mqtt';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { API_BASE, apiPaths, topics } from '@plant/shared-schema';
import { seenKey } from '../../e2e/page/contract';
import type { BenchWorker } from './bench-worker';
import type { HistoryResult } from '../../sync-worker/src/api';
import type { BenchPage, DrawRun } from './contract';

const worker = Comlink.wrap<BenchWorker>(
  new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'bench' }),
);
const rawSeen: Record<string, number> = {};
const valuesSeen = { ours: {} as Record<string, number>, raw: {} as Record<string, number> };
const at = () => performance.timeOrigin + performance.now();

async function brokerLogin(token: string, browser: string) {
  const res = await fetch(`${API_BASE}/${apiPaths.browserMqtt(browser)}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  return ((await res.json()) as { data: { username: string; clientid: string; password: string } })
    .data;
}

/** Resolves after the next frame is painted. */
const painted = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** Draws columns with uPlot into a fresh box; resolves once painted. */
async function draw(xs: ArrayLike<number>, ys: ArrayLike<number | null>): Promise<void> {
  document.getElementById('chart')?.remove();
  const box = document.createElement('div');
  box.id = 'chart';
  document.body.append(box);
  const plot = new uPlot(
    {
      width: 1000,
      height: 300,
      scales: { x: { time: true } },
      series: [{}, { stroke: '#228be6', width: 1.5, points: { show: false } }],
      legend: { show: false },
    },
    [xs as number[], ys as (number | null)[]],
    box,
  );
  await painted();
  plot.destroy();
}

/** The first answer of a history watch that is complete (nothing left to read). */
function firstComplete(
  streams: readonly string[],
  from: number,
  to: number,
  points: number,
): Promise<HistoryResult> {
  return new Promise((resolve, reject) => {
    let off: (() => unknown) | undefined;
    const callback = Comlink.proxy((result: HistoryResult) => {
      if (result.loading || result.offline) return;
      off?.();
      resolve(result);
    });
    window.plant.api.values
      .watchHistory({ streams, range: { from, to }, points }, callback)
      .then((u) => {
        off = u;
      }, reject);
  });
}

const bench: BenchPage = {
  worker,
  rawSeen,
  valuesSeen,
  async watchValues(token, accountId, assets) {
    for (const asset of assets) {
      await window.plant.api.values.watchAsset(
        asset,
        Comlink.proxy((values) => {
          const t = at();
          for (const [stream, point] of Object.entries(values.latest)) {
            valuesSeen.ours[`${stream}@${point[0]}`] ??= t;
          }
        }),
      );
    }
    const creds = await brokerLogin(token, 'bench-raw-values');
    const client = await mqtt.connectAsync(`ws://${location.host}/mqtt`, {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive: 55,
      reconnectPeriod: 0,
    });
    const decoder = new TextDecoder();
    client.on('message', (_topic, payload) => {
      const t = at();
      const msg = JSON.parse(decoder.decode(payload)) as {
        values: { stream: string; points: [number, unknown][] }[];
      };
      for (const v of msg.values)
        for (const p of v.points) valuesSeen.raw[`${v.stream}@${p[0]}`] ??= t;
    });
    await client.subscribeAsync(
      assets.map((a) => topics.assetValues(accountId, a)),
      { qos: 0 },
    );
  },
  async drawFromCache(stream, from, to, points): Promise<DrawRun> {
    const t = performance.now();
    const result = await firstComplete([stream], from, to, points);
    const series = result.series[0];
    const xs = (series?.ts ?? []).map((x) => x / 1000);
    const ys = (series?.values ?? []).map((v) => (typeof v === 'number' ? v : null));
    await draw(xs, ys);
    return { ms: performance.now() - t, points: xs.length };
  },
  async drawDirect(count): Promise<DrawRun> {
    const xs = new Float64Array(count);
    const ys = new Float64Array(count);
    const start = Date.now() / 1000 - count;
    for (let i = 0; i < count; i++) {
      xs[i] = start + i;
      ys[i] = 50 + 20 * Math.sin(i / 500) + (i % 97) / 10;
    }
    const [xa, ya] = [Array.from(xs), Array.from(ys)];
    const t = performance.now();
    await draw(xa, ya);
    return { ms: performance.now() - t, points: count };
  },
  async historyFromCache(streams, from, to, points): Promise<DrawRun> {
    const t = performance.now();
    const result = await firstComplete(streams, from, to, points);
    return {
      ms: performance.now() - t,
      points: result.series.reduce((n, s) => n + s.ts.length, 0),
    };
  },
  async rawSubscribe(token, accountId) {
    const creds = await brokerLogin(token, 'bench-raw-subscriber');
    const client = await mqtt.connectAsync(`ws://${location.host}/mqtt`, {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive: 55,
      reconnectPeriod: 0,
    });
    const decoder = new TextDecoder();
    client.on('message', (_topic, payload) => {
      const at = performance.timeOrigin + performance.now();
      const msg = JSON.parse(decoder.decode(payload)) as {
        id?: string;
        attributes?: { name?: unknown };
      };
      if (msg.id !== undefined && msg.attributes?.name !== undefined) {
        rawSeen[seenKey(msg.id, msg.attributes.name)] ??= at;
      }
    });
    await client.subscribeAsync(topics.modelUpdates(accountId), { qos: 0 });
  },
};

window.bench = bench;
