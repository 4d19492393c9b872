import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, gatewayTopics, type PointValue, type SyncedModel } from '@plant/shared-schema';
import { dataOf } from '../../../server/src/testing/harness';
import { DEMO_USERS } from '../../../server/src/seed/demo';
import {
  connectGateway,
  demoGateway,
  makeGatewayCredentials,
} from '../../../server/src/testing/gateway-client';
import type { AssetValues, HistoryResult } from '../api';
import type { LeaderLock } from '../leader';
import { TAIL_WAIT_MS } from './values-hub';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import { SyncFixture, until, type Session } from '../testing/sync-fixture';

/*
 * Machine values in the worker against the real server and broker: an asset's latest values
 * (server, then live from a gateway's batch through ingest), its last day cached; a history
 * read from the cache with its gaps filled from the server, offline over what is cached and
 * filled again once the server is back; a follower tab gets live values through the leader.
 */
let f: SyncFixture;
let proxy: TcpProxy;
let admin: Session;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: MqttClient;
let seq = 0;
let storeSeq = 0;

beforeAll(async () => {
  f = await SyncFixture.start();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(f.server.url).port) });
  admin = await f.session(DEMO_USERS.admin);
  gw = await demoGateway(f.server, admin.accountId);
  // History the tests read (before any test caches the asset's day).
  const t0 = Date.now() - 2 * 3_600_000;
  await stored(
    Array.from({ length: 60 }, (_, i) => ({
      stream: stream('Spindle speed'),
      ts: t0 + i * 60_000,
      value: i,
    })),
  );
  const made = await makeGatewayCredentials(f.server, admin.token, gw.gatewayId);
  agent = await connectGateway(f.server, gw.gatewayId, made.secret);
});
afterAll(async () => {
  await agent.endAsync(true);
  await f.close();
  await proxy.close();
});

const stream = (name: string) => {
  const id = gw.streams[name];
  if (id === undefined) throw new Error(`no stream ${name}`);
  return id;
};

/** Points straight into the server's time-series store (history older than the test). */
async function stored(points: { stream: string; ts: number; value: PointValue }[]) {
  storeSeq += 1;
  await f.server.machineData.store.append({
    source: 'values-hub-test',
    seq: storeSeq,
    points: points.map((p) => ({ ...p, account: admin.accountId })),
  });
}

/** A batch as a gateway agent sends it: through ingest, stored, then live. */
async function sent(points: { stream: string; ts: number; value: PointValue }[]) {
  seq += 1;
  await agent.publishAsync(
    gatewayTopics.data(gw.gatewayId),
    JSON.stringify({ gateway: gw.gatewayId, buffer: 'values-hub-test', seq, points }),
    { qos: 1 },
  );
}

function collect<T>() {
  const seen: T[] = [];
  return { seen, callback: (x: T) => void seen.push(x), last: () => seen.at(-1) };
}

describe('values in the worker', () => {
  it("an asset's latest values: the server's first, then live ones; its last day is cached", async () => {
    const temp = stream('Motor temperature');
    const now = Date.now();
    await stored([
      { stream: temp, ts: now - 3 * 3_600_000, value: 40 },
      { stream: temp, ts: now - 60_000, value: 55.5 },
    ]);
    const engine = await f.engine(admin);
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    const watch = collect<AssetValues>();
    const stop = engine.values.watchAsset(gw.assetId, watch.callback);
    await until('latest from the server', () => watch.last()?.latest[temp]?.[1] === 55.5);
    expect(watch.last()?.offline).toBe(false);
    // The day is cached: the three-hour-old point is there without asking the server.
    await until(
      'day cached',
      async () => (await engine.values.cache.read(temp, now - 4 * 3_600_000, now)).ts.length === 2,
    );

    const liveTs = Date.now();
    await sent([{ stream: temp, ts: liveTs, value: 71.25 }]);
    await until('live value', () => watch.last()?.latest[temp]?.[1] === 71.25);
    expect(watch.last()?.latest[temp]).toEqual([liveTs, 71.25]);
    // Live points go into the cache too.
    expect((await engine.values.cache.last(temp))?.[1]).toBe(71.25);
    stop();
    await f.stopEngine(engine);
  });

  it('history: the cache first, gaps from the server; offline it says so, back online the gap fills', async () => {
    const speed = stream('Spindle speed');
    const engine = await f.engine(admin, { origin: proxy.url('http') });
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    const query = { streams: [speed], range: { last: 3 * 3_600_000 }, points: 500 } as const;
    const first = collect<HistoryResult>();
    const stopFirst = engine.values.watchHistory(query, first.callback);
    await until('history read', () => {
      const r = first.last();
      return r !== undefined && !r.loading && r.series[0]?.ts.length === 60;
    });
    expect(first.last()?.offline).toBe(false);
    expect(first.last()?.series[0]?.values.slice(0, 3)).toEqual([0, 1, 2]);
    stopFirst();

    // The server out of reach: what was read is still there, and the watch says it is offline.
    proxy.refuse(true);
    proxy.resetAll();
    const gapTs = Date.now() - 5_000;
    await stored([{ stream: speed, ts: gapTs, value: 999 }]);
    const second = collect<HistoryResult>();
    const stopSecond = engine.values.watchHistory(query, second.callback);
    await until(
      'offline answer',
      () => second.last()?.offline === true && second.last()?.loading === false,
    );
    expect(second.last()?.series[0]?.ts).toHaveLength(60);
    // It says which part of the range the cache holds: from the start to the first read's end.
    const offline = second.last();
    const held = offline?.series[0]?.held ?? [];
    expect(held).toHaveLength(1);
    expect(held[0]?.from).toBe(offline?.from);
    expect(held[0]?.to).toBeLessThan(gapTs);

    // Back: the value stored meanwhile arrives without a new watch.
    proxy.refuse(false);
    await until(
      'gap filled',
      () =>
        second.last()?.offline === false && second.last()?.series[0]?.values.includes(999) === true,
      20_000,
    );
    expect(second.last()?.series[0]?.held.at(-1)?.to).toBeGreaterThanOrEqual(gapTs);
    stopSecond();
    await f.stopEngine(engine);
  });

  it('opened again, a moving range draws from the cache and reads its newest moments a moment later', async () => {
    const speed = stream('Spindle speed');
    const engine = await f.engine(admin);
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    const query = { streams: [speed], range: { last: 3 * 3_600_000 }, points: 400 } as const;
    const first = collect<HistoryResult>();
    const stopFirst = engine.values.watchHistory(query, first.callback);
    await until('history read', () => {
      const r = first.last();
      return r !== undefined && !r.loading && (r.series[0]?.ts.length ?? 0) >= 60;
    });
    stopFirst();

    // The server's reads of the stream's values from now on, with when they were asked.
    const asked: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes(speed) && url.includes('/values')) asked.push(Date.now());
      return realFetch(input, init);
    };
    try {
      const second = collect<HistoryResult>();
      const opened = Date.now();
      const stopSecond = engine.values.watchHistory(query, second.callback);
      await until('answered from the cache', () => second.seen.length > 0);
      expect(second.seen[0]?.series[0]?.ts.length).toBeGreaterThanOrEqual(60);
      expect(second.seen[0]?.loading).toBe(false);
      await until('the newest moments read', () => asked.length > 0, 20_000);
      // Not while the page draws what the cache gave: after TAIL_WAIT_MS.
      expect((asked[0] ?? 0) - opened).toBeGreaterThanOrEqual(TAIL_WAIT_MS);
      stopSecond();
    } finally {
      globalThis.fetch = realFetch;
    }
    await f.stopEngine(engine);
  });

  it("a follower tab gets live values through the leader's connection", async () => {
    const temp = stream('Motor temperature');
    const leader = await f.engine(admin);
    await until('loaded', () => leader.status.bootstrap.name === 'done');
    const never: LeaderLock = { acquire: () => () => undefined };
    const follower = await f.engine(admin, { leader: never });
    expect(follower.status.leader).toBe(false);
    const watch = collect<AssetValues>();
    const stop = follower.values.watchAsset(gw.assetId, watch.callback);
    // The leader subscribes for the follower in a moment: values go on being sent until one
    // reaches it (a value sent before the subscription reaches no one).
    let sentTs = 0;
    await until(
      'live value in the follower',
      async () => {
        const got = watch.last()?.latest[temp]?.[0];
        if (got !== undefined && got === sentTs) return true;
        if (Date.now() - sentTs > 500) {
          sentTs = Date.now();
          await sent([{ stream: temp, ts: sentTs, value: sentTs % 1000 }]);
        }
        return false;
      },
      20_000,
    );
    stop();
    await f.stopEngine(follower);
    await f.stopEngine(leader);
  });

  it('a stream that leaves the store takes its cached values with it', async () => {
    const models = dataOf<{ models: SyncedModel[] }>(
      await f.server.call('GET', apiPaths.snapshot(undefined, 2000), { token: admin.token }),
    ).models;
    const group = models.find(
      (m) => m.type === 'datastreamgroup' && m.attributes.asset_id === gw.assetId,
    );
    if (group === undefined) throw new Error('no group');
    const made = dataOf<SyncedModel>(
      await f.server.call('POST', apiPaths.collection('datastreams'), {
        token: admin.token,
        json: { asset_id: gw.assetId, group_id: group.id, name: 'Short-lived' },
      }),
    );
    const kept = stream('Motor temperature');
    const engine = await f.engine(admin);
    await until('loaded', () => engine.status.bootstrap.name === 'done');
    await until('live', () => {
      const c = engine.status.connection;
      return c.name === 'connected' && c.subscribed;
    });
    const now = Date.now();
    await engine.values.cache.put(made.id, [[now - 1000, 1]]);
    await engine.values.cache.put(kept, [[now - 1000, 2]]);
    expect((await engine.values.cache.read(made.id, now - 5000, now)).ts).toHaveLength(1);
    const keptBefore = (await engine.values.cache.read(kept, now - 5000, now)).ts.length;
    expect(keptBefore).toBeGreaterThan(0);

    // Deleted elsewhere: the live item_deleted removes the doc and its cached hours.
    await f.server.call('DELETE', apiPaths.model('datastreams', made.id), {
      token: admin.token,
      json: {},
    });
    await until(
      'values gone',
      async () => (await engine.values.cache.read(made.id, now - 5000, now)).ts.length === 0,
    );
    // The other streams keep theirs.
    expect((await engine.values.cache.read(kept, now - 5000, now)).ts).toHaveLength(keptBefore);
    await f.stopEngine(engine);
  });
});
