/**
 * The bench page: the e2e test page (the real worker on `window.plant`) plus the benchmarks'
 * worker and a plain mqtt.js subscriber as baselines (`window.bench`).
 */
import '../../e2e/page/main';
import * as Comlink from 'comlink';
import mqtt from 'mqtt';
import { API_BASE, apiPaths, topics } from '@plant/shared-schema';
import { seenKey } from '../../e2e/page/contract';
import type { BenchWorker } from './bench-worker';
import type { BenchPage } from './contract';

const worker = Comlink.wrap<BenchWorker>(
  new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'bench' }),
);
const rawSeen: Record<string, number> = {};

const bench: BenchPage = {
  worker,
  rawSeen,
  async rawSubscribe(token, accountId) {
    const res = await fetch(`${API_BASE}/${apiPaths.browserMqtt('bench-raw-subscriber')}`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
    });
    const creds = (
      (await res.json()) as {
        data: { username: string; clientid: string; password: string };
      }
    ).data;
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
