import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  datastreamModel,
  gatewayAckSchema,
  gatewayTopics,
  liveValuesSchema,
  topics,
  type GatewayAck,
  type LiveValues,
  type StreamValues,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import {
  connectGateway,
  demoGateway,
  linkedAgent,
  makeGatewayCredentials,
} from '../testing/gateway-client';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, closing, until } from '../testing/mqtt-client';
import { POINT_REFUSALS } from './ingest';
import { LIVE_INTERVAL_MS } from './live-values';

/*
 * Ingest (DESIGN.md §8) as an agent sees it: a batch is acknowledged after it is stored, a
 * repeated one is acknowledged as a duplicate and stores nothing, hostile values are refused
 * point by point or batch by batch, and stored points reach the account's browsers as live values.
 */
let server: TestServer;
let admin: string;
let agent: MqttClient;
let gw: Awaited<ReturnType<typeof demoGateway>>;
const acks: GatewayAck[] = [];
const browsers = brokerClients(() => server);
let seq = 0;
const BUFFER = 'test-buffer';

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  const ids = await server.demoAccountIds();
  gw = await demoGateway(server, ids.root);
  const made = await makeGatewayCredentials(server, admin, gw.gatewayId);
  agent = await connectGateway(server, gw.gatewayId, made.secret);
  agent.on('message', (topic, payload) => {
    if (topic === gatewayTopics.ack(gw.gatewayId))
      acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
  });
  await agent.subscribeAsync(gatewayTopics.ack(gw.gatewayId), { qos: 1 });
});
afterAll(async () => {
  await agent.endAsync(true);
  await browsers.closeAll();
  await server.close();
});

const stream = (name: string) => {
  const id = gw.streams[name];
  if (id === undefined) throw new Error(`no stream ${name}`);
  return id;
};

/** Sends a batch as the agent would and waits for its ack. */
async function send(points: unknown[], options: { seq?: number; raw?: string } = {}) {
  const n = options.seq ?? (seq += 1);
  const payload =
    options.raw ?? JSON.stringify({ gateway: gw.gatewayId, buffer: BUFFER, seq: n, points });
  const before = acks.length;
  await agent.publishAsync(gatewayTopics.data(gw.gatewayId), payload, { qos: 1 });
  await until(() => acks.length > before, 10_000);
  return acks[acks.length - 1] as GatewayAck;
}

async function values(streamId: string, from = 0, to = Date.now() + 60_000) {
  return dataOf<StreamValues>(
    await server.call('GET', apiPaths.streamValues(streamId, from, to, 1000), { token: admin }),
  ).points;
}

describe('ingest', () => {
  it('stores a batch once, acks it, and a repeat is a duplicate', async () => {
    const now = Date.now();
    const temp = stream('Motor temperature');
    const batch = [
      { stream: temp, ts: now - 2_000, value: 61.5 },
      { stream: temp, ts: now - 1_000, value: 62.25 },
      { stream: stream('Running'), ts: now - 1_000, value: true },
      { stream: stream('Operating mode'), ts: now - 1_000, value: 2 },
    ];
    const ack = await send(batch);
    expect(ack).toMatchObject({ seq: seq, status: 'stored', stored: 4, refused: [] });
    expect(await values(temp)).toEqual([
      [now - 2_000, 61.5],
      [now - 1_000, 62.25],
    ]);
    expect(await values(stream('Running'))).toEqual([[now - 1_000, 1]]);
    // The same seq again (an ack lost in a cut): acknowledged, not stored twice.
    const again = await send([{ stream: temp, ts: now, value: 99 }], { seq });
    expect(again).toMatchObject({ seq, status: 'duplicate' });
    expect(await values(temp)).toHaveLength(2);
    const latest = dataOf<{ stream: string; value: number }[]>(
      await server.call('GET', apiPaths.latestValues(gw.assetId), { token: admin }),
    );
    expect(latest.find((l) => l.stream === temp)?.value).toBe(62.25);
  });

  it('refuses hostile values point by point, and keeps the good ones', async () => {
    const now = Date.now();
    const temp = stream('Motor temperature');
    const ids = await server.demoAccountIds();
    const north = await demoGateway(server, ids.north);
    const ack = await send([
      { stream: temp, ts: now - 10, value: 'NaN' },
      { stream: temp, ts: now - 9, value: '12' },
      { stream: stream('Running'), ts: now - 8, value: 'yes' },
      { stream: stream('Operating mode'), ts: now - 7, value: true },
      { stream: 'no-such-stream', ts: now - 6, value: 1 },
      { stream: Object.values(north.streams)[0], ts: now - 5, value: 1 },
      { stream: temp, ts: now + 3_600_000, value: 1 },
      { stream: temp, ts: 1_000, value: 1 },
      { stream: temp, ts: now - 4, value: 1e308 },
    ]);
    expect(ack.status).toBe('stored');
    expect(ack.stored).toBe(1);
    expect(ack.refused.map((r) => r.reason)).toEqual([
      POINT_REFUSALS.number,
      POINT_REFUSALS.number,
      POINT_REFUSALS.boolean,
      POINT_REFUSALS.state,
      POINT_REFUSALS.unknownStream,
      POINT_REFUSALS.unknownStream,
      POINT_REFUSALS.future,
      POINT_REFUSALS.past,
    ]);
    expect((await values(temp, now - 100)).map((p) => p[1])).toEqual([1e308]);
  });

  it("keeps a machine's texts as every database can: a NUL padding dropped, other NULs and lone surrogates as U+FFFD, live alike", async () => {
    // A controller's fixed-length text comes padded with NULs (an S7 CHAR array); Postgres stores
    // no NUL in text, and that one value failed its whole batch there, never acknowledged.
    const label = stream('Spindle speed');
    const retype = await server.call('PUT', apiPaths.model('datastreams', label), {
      token: admin,
      json: { type: 'text', unit: '' },
    });
    expect(retype.status, retype.text).toBe(200);
    const { creds } = await browsers.session(DEMO_USERS.admin);
    const browser = await browsers.connect(creds);
    const live: LiveValues[] = [];
    browser.on('message', (_t, payload) =>
      live.push(liveValuesSchema.parse(JSON.parse(payload.toString()))),
    );
    const ids = await server.demoAccountIds();
    await browser.subscribeAsync(topics.assetValues(ids.root, gw.assetId));
    const now = Date.now();
    const ack = await send([
      { stream: label, ts: now - 3, value: 'READY\u0000\u0000\u0000' },
      { stream: label, ts: now - 2, value: 'A\u0000B' },
      // JSON.stringify writes a lone surrogate as its escape, as an agent's JSON may carry it.
      { stream: label, ts: now - 1, value: '\ud800 low' },
    ]);
    expect(ack).toMatchObject({ status: 'stored', stored: 3, refused: [] });
    const texts = ['READY', 'A\ufffdB', '\ufffd low'];
    expect((await values(label, now - 100)).map((p) => p[1])).toEqual(texts);
    const ours = () =>
      live.flatMap((m) =>
        m.values
          .filter((v) => v.stream === label)
          .flatMap((v) => v.points.filter(([ts]) => ts >= now - 3)),
      );
    await until(() => ours().length >= 3, 10_000);
    expect(ours().map((p) => p[1])).toEqual(texts);
    await browser.endAsync(true);
  });

  it("refuses points of another machine's streams: only the gateway whose datapoints feed a stream writes it", async () => {
    const now = Date.now();
    const ids = await server.demoAccountIds();
    // The same account's second gateway: its machine's streams are fed by its own datapoints.
    const other = await demoGateway(server, ids.root, 1);
    const foreign = other.streams['Motor temperature'];
    if (foreign === undefined) throw new Error('no foreign stream');
    const before = await values(foreign);
    const ack = await send([
      { stream: foreign, ts: now - 3, value: 4_242 },
      { stream: stream('Motor temperature'), ts: now - 3, value: 42 },
    ]);
    expect(ack).toMatchObject({
      status: 'stored',
      stored: 1,
      refused: [{ index: 0, reason: POINT_REFUSALS.notFed }],
    });
    expect(await values(foreign)).toEqual(before);
  });

  it('never replaces a stored point: a batch under another buffer id re-sending its time is refused there', async () => {
    // Half a minute back: the tests before store this stream's points a few ms before their now,
    // which a point 20 ms before this one's hit once (kept, so not stored).
    const now = Date.now() - 30_000;
    const temp = stream('Motor temperature');
    expect(await send([{ stream: temp, ts: now - 20, value: 20.5 }])).toMatchObject({
      status: 'stored',
      stored: 1,
    });
    // Another buffer (a reinstalled agent, or a hostile one) at the same time, and a new point.
    const n = (seq += 1);
    const ack = await send([], {
      raw: JSON.stringify({
        gateway: gw.gatewayId,
        buffer: 'another-buffer',
        seq: n,
        points: [
          { stream: temp, ts: now - 19, value: 21 },
          { stream: temp, ts: now - 20, value: -999 },
        ],
      }),
    });
    expect(ack).toMatchObject({
      seq: n,
      status: 'stored',
      stored: 1,
      refused: [{ index: 1, reason: POINT_REFUSALS.stored }],
    });
    expect(await values(temp, now - 20, now - 19)).toEqual([
      [now - 20, 20.5],
      [now - 19, 21],
    ]);
  });

  it('refuses whole batches that are not JSON, not valid, too big or not its own', async () => {
    const temp = stream('Motor temperature');
    const before = await values(temp);
    // NaN is not JSON; neither is half a message.
    const nan = await send([], {
      seq: 0,
      raw: `{"gateway":"${gw.gatewayId}","buffer":"${BUFFER}","seq":900,"points":[{"stream":"${temp}","ts":1,"value":NaN}]}`,
    });
    expect(nan).toMatchObject({ status: 'refused', message: 'The batch is not valid JSON.' });
    const tooMany = await send(
      Array.from({ length: 5_001 }, (_, i) => ({ stream: temp, ts: Date.now() - i - 1, value: i })),
    );
    expect(tooMany.status).toBe('refused');
    expect(tooMany.message).toContain('at most 5000 points');
    const otherGateway = await send([], {
      raw: JSON.stringify({
        gateway: 'someone-else',
        buffer: BUFFER,
        seq: 901,
        points: [{ stream: temp, ts: Date.now(), value: 1 }],
      }),
    });
    expect(otherGateway).toMatchObject({
      status: 'refused',
      message: 'The batch names another gateway.',
    });
    expect(await values(temp)).toEqual(before);
  });

  it('closes a link that sends a message past the size limit (100,000 points), storing nothing', async () => {
    const made = await makeGatewayCredentials(server, admin, gw.gatewayId);
    // The rotation closed the old link: the rest of this file uses the new one.
    await agent.endAsync(true);
    agent = await connectGateway(server, gw.gatewayId, made.secret);
    const temp = stream('Motor temperature');
    const before = await values(temp);
    const huge = JSON.stringify({
      gateway: gw.gatewayId,
      buffer: BUFFER,
      seq: 1_000,
      points: Array.from({ length: 100_000 }, (_, i) => ({
        stream: temp,
        ts: Date.now() - i,
        value: i,
      })),
    });
    const closed = closing(agent);
    agent.publish(gatewayTopics.data(gw.gatewayId), huge, { qos: 1 });
    await closed;
    expect(await values(temp)).toEqual(before);
  });

  it('publishes stored points as live values to the browsers of the account, once a second at most', async () => {
    const made = await makeGatewayCredentials(server, admin, gw.gatewayId);
    agent = await connectGateway(server, gw.gatewayId, made.secret);
    agent.on('message', (topic, payload) => {
      if (topic === gatewayTopics.ack(gw.gatewayId))
        acks.push(gatewayAckSchema.parse(JSON.parse(payload.toString())));
    });
    await agent.subscribeAsync(gatewayTopics.ack(gw.gatewayId), { qos: 1 });
    const { creds } = await browsers.session(DEMO_USERS.admin);
    const browser = await browsers.connect(creds);
    const ids = await server.demoAccountIds();
    const live: LiveValues[] = [];
    const listening = Date.now();
    browser.on('message', (_t, payload) =>
      live.push(liveValuesSchema.parse(JSON.parse(payload.toString()))),
    );
    await browser.subscribeAsync(topics.assetValues(ids.root, gw.assetId));
    // Another account's values topic is refused.
    await expect(browser.subscribeAsync(topics.assetValues(ids.north, '+'))).rejects.toThrow();
    const now = Date.now();
    const temp = stream('Motor temperature');
    for (let i = 0; i < 5; i++) await send([{ stream: temp, ts: now + i, value: 70 + i }]);
    // Points of the earlier tests may still be on their way (a second's batching): only ours count.
    const ours = () =>
      live.flatMap((m) =>
        m.values
          .filter((v) => v.stream === temp)
          .flatMap((v) => v.points.filter(([ts]) => ts >= now)),
      );
    await until(() => ours().length >= 5, 10_000);
    const points = ours();
    expect(points).toEqual([0, 1, 2, 3, 4].map((i) => [now + i, 70 + i]));
    // At most one message a second for the asset, however many batches came meanwhile (five
    // here; on an idle machine within a second or two, so fewer messages than batches).
    const seconds = Math.ceil((Date.now() - listening) / LIVE_INTERVAL_MS);
    expect(live.length).toBeLessThanOrEqual(seconds + 1);
    expect(live.every((m) => m.asset === gw.assetId)).toBe(true);
  });

  it("runs the stream's pre-processing code; an endless loop is stopped and others are served", async () => {
    const temp = stream('Motor temperature');
    const speed = stream('Spindle speed');
    for (const [id, code] of [
      [temp, 'let $f = $value * 9 / 5 + 32;\nreturn $f;'],
      [speed, 'while (true) {}\nreturn $value;'],
    ] as const) {
      const answer = await server.call('PUT', apiPaths.model(datastreamModel.collection, id), {
        token: admin,
        json: { preprocessing: code },
      });
      expect(answer.status).toBe(200);
    }
    const now = Date.now();
    const ack = await send([
      { stream: speed, ts: now + 100, value: 1200 },
      { stream: temp, ts: now + 100, value: 100 },
    ]);
    expect(ack.stored).toBe(1);
    expect(ack.refused).toHaveLength(1);
    expect(ack.refused[0]?.index).toBe(0);
    expect((await values(temp, now + 50)).map((p) => p[1])).toEqual([212]);
    // The server still answers others.
    expect((await server.call('GET', apiPaths.user(), { token: admin })).status).toBe(200);
  });
});

describe("ingest at a gateway's rate", () => {
  it('defers a batch past the rate in its ack, stores nothing of it, and takes it when sent again later', async () => {
    // A frozen clock: the bucket refills only when the test says, whatever the machine's load.
    const clock = new ManualClock(Date.now());
    const limited = await startTestServer({
      clock,
      ingestRate: { pointsPerSecond: 1_000, burstPoints: 5_000 },
    });
    try {
      const token = await limited.signIn(DEMO_USERS.admin);
      const g = await demoGateway(limited, (await limited.demoAccountIds()).root);
      const temp = g.streams['Motor temperature'];
      if (temp === undefined) throw new Error('no stream');
      const agent = await linkedAgent(limited, token, g.gatewayId, 'rate-buffer');
      const t0 = clock.now() - 60_000;
      const points = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({ stream: temp, ts: t0 + from + i, value: i }));
      const read = async () =>
        dataOf<StreamValues>(
          await limited.call('GET', apiPaths.streamValues(temp, t0 + 5_000, t0 + 5_999, 1_000), {
            token,
          }),
        ).points;

      expect(await agent.send(points(0, 5_000))).toMatchObject({ status: 'stored', stored: 5_000 });
      // The burst is spent: 500 more points wait half a second at 1,000 a second.
      const later = points(5_000, 500);
      const deferred = await agent.send(later);
      expect(deferred).toMatchObject({
        seq: 2,
        status: 'deferred',
        stored: 0,
        refused: [],
        retry_after_ms: 500,
      });
      expect(await read()).toEqual([]);
      // Sent again before its time: deferred again, for what is left of the wait.
      clock.advance(200);
      expect(await agent.send(later, true)).toMatchObject({
        status: 'deferred',
        retry_after_ms: 300,
      });
      clock.advance(300);
      expect(await agent.send(later, true)).toMatchObject({
        seq: 2,
        status: 'stored',
        stored: 500,
      });
      expect(await read()).toHaveLength(500);
      await agent.close();
    } finally {
      await limited.close();
    }
  });
});
