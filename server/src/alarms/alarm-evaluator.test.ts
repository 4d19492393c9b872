import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_TEXTS, apiPaths, type AlarmInput } from '@plant/shared-schema';
import { systemClock } from '../lib/clock';
import { createLogger } from '../logger';
import { AlarmRepository } from '../repositories/alarm.repository';
import { AlarmEvaluator } from './alarm-evaluator';
import { DEMO_USERS } from '../seed/demo';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';
import { demoGateway, linkedAgent, type SentPoint } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { testsOnPostgres } from '../testing/test-database';

/*
 * Alarms as values arrive (issue 17 item 2), through the real server: the model's rules on
 * write, one event per transition for a value crossing its limit or fluttering at it with a
 * delay and a hysteresis, the state kept across a restart, and no alarm of another account ever
 * seeing a point.
 */
let server: TestServer;
let admin: string;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let rootId: string;
let agent: Awaited<ReturnType<typeof linkedAgent>>;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  rootId = (await server.demoAccountIds()).root;
  gw = await demoGateway(server, rootId);
  agent = await linkedAgent(server, admin, gw.gatewayId, 'alarm-test');
});
afterAll(async () => {
  await agent.close();
  await server.close();
});

const stream = (name: string) => {
  const id = gw.streams[name];
  if (id === undefined) throw new Error(`no stream ${name}`);
  return id;
};

/** Sends a batch as the gateway's agent does and waits until it is stored and evaluated. */
async function send(points: SentPoint[]) {
  const ack = await agent.send(points);
  expect(ack.stored).toBe(points.length);
}

async function createAlarm(body: Partial<AlarmInput> & { datastream_id: string }) {
  const answer = await server.call('POST', apiPaths.collection('alarms'), {
    token: admin,
    json: { asset_id: gw.assetId, name: 'Alarm', ...body },
  });
  return answer;
}

async function alarmId(body: Partial<AlarmInput> & { datastream_id: string }) {
  const answer = await createAlarm(body);
  expect(answer.status, answer.text).toBe(201);
  return dataOf<{ id: string }>(answer).id;
}

const events = (s: TestServer, account: string, id: string) =>
  new AlarmRepository(s.db).events(account, id);

describe('alarm models', () => {
  it('refuses an alarm without a limit, on a stream of no numbers, of another unit or asset', async () => {
    const temp = stream('Motor temperature');
    const errorsOf = async (body: Partial<AlarmInput> & { datastream_id: string }) => {
      const answer = await createAlarm(body);
      expect(answer.status, answer.text).toBe(422);
      return (answer.json as { errors: Record<string, string[]> }).errors;
    };
    expect(await errorsOf({ datastream_id: temp })).toMatchObject({
      upper_limit: [ALARM_TEXTS.limitRequired],
    });
    expect(
      await errorsOf({ datastream_id: temp, condition: 'less', upper_limit: 3 }),
    ).toMatchObject({ lower_limit: [ALARM_TEXTS.lowerRequired] });
    expect(
      await errorsOf({ datastream_id: stream('Running'), condition: 'exact', upper_limit: 1 }),
    ).toMatchObject({ datastream_id: [ALARM_TEXTS.streamType] });
    expect(await errorsOf({ datastream_id: temp, upper_limit: 80, unit: 'bar' })).toMatchObject({
      unit: [ALARM_TEXTS.unitMismatch],
    });
    expect(await errorsOf({ datastream_id: temp, upper_limit: 80, delay_s: -1 })).toMatchObject({
      delay_s: [ALARM_TEXTS.notNegative],
    });
    const other = await demoGateway(server, rootId, 1);
    const foreign = Object.values(other.streams)[0] ?? '';
    expect(await errorsOf({ datastream_id: foreign, upper_limit: 80 })).toMatchObject({
      datastream_id: [ALARM_TEXTS.streamOfOtherAsset],
    });
    // An update that takes the only limit away is refused too.
    const id = await alarmId({ datastream_id: temp, upper_limit: 80, unit: '°C' });
    const update = await server.call('PUT', apiPaths.model('alarms', id), {
      token: admin,
      json: { upper_limit: null },
    });
    expect(update.status).toBe(422);
    // Its stream keeps a type and a unit the alarm can watch.
    const retype = await server.call('PUT', apiPaths.model('datastreams', temp), {
      token: admin,
      json: { type: 'text' },
    });
    expect(retype.status).toBe(422);
    expect((retype.json as { errors: Record<string, string[]> }).errors).toEqual({
      type: [ALARM_TEXTS.streamHasAlarms],
    });
    const reunit = await server.call('PUT', apiPaths.model('datastreams', temp), {
      token: admin,
      json: { unit: 'K' },
    });
    expect(reunit.status).toBe(422);
    const removed = await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
    expect(removed.status).toBe(200);
  });

  it("a stream's delete takes its alarms with it", async () => {
    const group = await server.call('POST', apiPaths.collection('datastreamgroups'), {
      token: admin,
      json: { asset_id: gw.assetId, name: 'Alarm group' },
    });
    const made = await server.call('POST', apiPaths.collection('datastreams'), {
      token: admin,
      json: {
        asset_id: gw.assetId,
        group_id: dataOf<{ id: string }>(group).id,
        name: 'Level',
        unit: '%',
      },
    });
    expect(made.status, made.text).toBe(201);
    const streamId = dataOf<{ id: string }>(made).id;
    const id = await alarmId({ datastream_id: streamId, lower_limit: 10, condition: 'less' });
    const gone = await server.call('DELETE', apiPaths.model('datastreams', streamId), {
      token: admin,
    });
    expect(gone.status).toBe(200);
    const left = await server.db.selectFrom('models').select('id').where('id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('junk in any field is refused or stored as given, never a 500', async () => {
    const valid = {
      asset_id: gw.assetId,
      datastream_id: stream('Oil pressure'),
      name: 'Junk',
      upper_limit: 180,
      lower_limit: null,
      condition: 'greater',
      severity: 'info',
      unit: 'bar',
      delay_s: 10,
      hysteresis: 1,
      recipients: [{ email: 'someone@example.com', channels: ['mail'] }],
      enabled: true,
    };
    const junk: unknown[] = [
      -1.5,
      true,
      null,
      [],
      {},
      ['a'],
      { $ne: null },
      'x'.repeat(10_000),
      "' OR 1=1 --",
      [{ user_id: 'u', email: 'a@b.cd', channels: ['mail'] }],
      [{ email: 'a@b.cd', channels: [] }],
    ];
    const made: string[] = [];
    for (const field of Object.keys(valid)) {
      for (const value of junk) {
        const answer = await server.call('POST', apiPaths.collection('alarms'), {
          token: admin,
          json: { ...valid, [field]: value },
        });
        expect([201, 422], `${field} ${JSON.stringify(value).slice(0, 40)}`).toContain(
          answer.status,
        );
        if (answer.status === 201) made.push(dataOf<{ id: string }>(answer).id);
      }
    }
    for (const id of made)
      await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('alarm evaluation on ingest', () => {
  it('a value crossing its limit records one raise, and its return one clear', async () => {
    const speed = stream('Spindle speed');
    const id = await alarmId({ datastream_id: speed, upper_limit: 5_000, severity: 'critical' });
    const now = Date.now();
    await send([
      { stream: speed, ts: now - 3_000, value: 4_000 },
      { stream: speed, ts: now - 2_000, value: 5_500 },
      { stream: speed, ts: now - 1_000, value: 5_600 },
    ]);
    expect(await events(server, rootId, id)).toMatchObject([
      { kind: 'raised', ts: now - 2_000, value: 5_500, count: 1, asset_id: gw.assetId },
    ]);
    await send([{ stream: speed, ts: now, value: 4_900 }]);
    const list = await events(server, rootId, id);
    expect(list.map((e) => e.kind)).toEqual(['raised', 'cleared']);
    // The history of the asset and of the account, newest first; none of another asset.
    const alarms = new AlarmRepository(server.db);
    const ofAsset = await alarms.history(rootId, { assetId: gw.assetId, limit: 10 });
    expect(ofAsset.filter((e) => e.alarm_id === id).map((e) => e.kind)).toEqual([
      'cleared',
      'raised',
    ]);
    const older = await alarms.history(rootId, { before: now, limit: 10 });
    expect(older.filter((e) => e.alarm_id === id).map((e) => e.kind)).toEqual(['raised']);
    const other = await demoGateway(server, rootId, 1);
    expect(await alarms.history(rootId, { assetId: other.assetId, limit: 10 })).toEqual([]);
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });

  it('a value fluttering at its limit: hundreds of raises plain, one with a delay and a hysteresis', async () => {
    const pressure = stream('Oil pressure');
    const plain = await alarmId({ datastream_id: pressure, upper_limit: 180 });
    const damped = await alarmId({
      datastream_id: pressure,
      upper_limit: 180,
      delay_s: 60,
      hysteresis: 2,
    });
    // Three hours, a point every 3 s: over the limit by up to 2 for two hours, then back under,
    // with ±1.5 of noise on every reading (a fixed sequence: the same on every run).
    let noise = 12345;
    const start = Date.now() - 3 * 3_600_000;
    const points = Array.from({ length: 3_600 }, (_, i) => {
      noise = (noise * 1_103_515_245 + 12_345) % 2_147_483_648;
      const drift = 2 * Math.sin((2 * Math.PI * i * 3) / (4 * 3_600));
      return {
        stream: pressure,
        ts: start + i * 3_000,
        value: 180 + drift + (noise / 2 ** 31) * 3 - 1.5,
      };
    });
    await send(points);
    const raisedPlain = (await events(server, rootId, plain)).filter((e) => e.kind === 'raised');
    const dampedEvents = await events(server, rootId, damped);
    expect(raisedPlain.length).toBeGreaterThan(100);
    expect(dampedEvents.map((e) => e.kind)).toEqual(['raised', 'cleared']);
    // The repeat count: the plain alarm, never acknowledged, counts up instead of starting over.
    expect(raisedPlain.at(-1)?.count).toBe(raisedPlain.length);
    for (const id of [plain, damped])
      await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });

  it('never evaluates an alarm of another account, nor for the wrong account', async () => {
    const ids = await server.demoAccountIds();
    const north = await demoGateway(server, ids.north);
    const northStream = Object.entries(north.streams).find(([n]) => n === 'Spindle speed')?.[1];
    if (northStream === undefined) throw new Error('no north stream');
    const made = await server.db.transaction().execute((trx) =>
      new ModelService(trx, systemClock, new ChangeFeed()).applyIn(trx, ids.north, {
        kind: 'create',
        collection: 'alarms',
        body: { asset_id: north.assetId, datastream_id: northStream, name: 'N', upper_limit: 1 },
      }),
    );
    const northAlarm = made.answer.body.data?.id ?? '';
    expect(northAlarm).not.toBe('');
    // North's stream named in the root gateway's batch: refused by ingest, seen by no alarm.
    await agent.send([{ stream: northStream, ts: Date.now(), value: 99 }]);
    // And the evaluator asked for the root account with north's stream finds nothing.
    expect(
      await server.machineData.alarms.evaluate(rootId, [
        { stream: northStream, ts: Date.now(), value: 99 },
      ]),
    ).toEqual([]);
    expect(await events(server, ids.north, northAlarm)).toEqual([]);
    expect(await events(server, rootId, northAlarm)).toEqual([]);
    expect(
      await server.db
        .selectFrom('alarm_states')
        .selectAll()
        .where('alarm_id', '=', northAlarm)
        .execute(),
    ).toEqual([]);
    // Its own account's points do reach it.
    const recorded = await server.machineData.alarms.evaluate(ids.north, [
      { stream: northStream, ts: Date.now(), value: 99 },
    ]);
    expect(recorded.map((r) => [r.kind, r.accountId, r.alarmId])).toEqual([
      ['raised', ids.north, northAlarm],
    ]);
  });
});

describe('alarm evaluation by several processes, and in time', () => {
  it('two processes evaluating the same points at once record each transition once', async () => {
    const speed = stream('Spindle speed');
    const id = await alarmId({ datastream_id: speed, upper_limit: 5_000 });
    // Two alarms on the stream: the processes' transactions write both rows.
    const low = await alarmId({ datastream_id: speed, condition: 'less', lower_limit: 4_500 });
    // A second process: its own evaluator and cache, and on Postgres its own connections (the
    // real race). Several processes need Postgres (DESIGN.md §11): on SQLite, the one connection
    // runs the evaluators' transactions one after the other.
    const other = testsOnPostgres() ? server.openDatabase() : server.db;
    const feed = new ChangeFeed();
    const second = new AlarmEvaluator(
      other,
      feed,
      systemClock,
      createLogger('silent'),
      new ModelService(other, systemClock, feed),
    );
    try {
      const t = Date.now();
      for (let round = 0; round < 5; round += 1) {
        const ts = t + round * 10_000;
        const points = [
          { stream: speed, ts, value: 6_000 },
          { stream: speed, ts: ts + 5_000, value: 4_000 },
        ];
        await Promise.all([
          server.machineData.alarms.evaluate(rootId, points),
          second.evaluate(rootId, points),
          server.machineData.alarms.evaluate(rootId, points),
        ]);
      }
      const rounds = [1, 2, 3, 4, 5];
      const list = await events(server, rootId, id);
      expect(list.map((e) => [e.kind, e.count])).toEqual(
        rounds.flatMap((n) => [
          ['raised', n],
          ['cleared', n],
        ]),
      );
      // The low one: raised at each 4,000, cleared at the next round's 6,000.
      const lows = await events(server, rootId, low);
      expect(lows.map((e) => [e.kind, e.count])).toEqual(
        rounds.flatMap((n) =>
          n < 5
            ? [
                ['raised', n],
                ['cleared', n],
              ]
            : [['raised', n]],
        ),
      );
    } finally {
      await server.call('DELETE', apiPaths.model('alarms', low), { token: admin });
      second.close();
      if (other !== server.db) await other.destroy();
      await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
    }
  });

  it('a delay runs out without a new point: the timer raises the pending alarm', async () => {
    const temp = stream('Motor temperature');
    const id = await alarmId({ datastream_id: temp, upper_limit: 80, delay_s: 3 });
    // An hour old, as in a backlog delivered after an outage: its delay runs from when it
    // arrived, not from the server's now (the next batch could still show it cleared).
    const ts = Date.now() - 3_600_000;
    await send([{ stream: temp, ts, value: 95 }]);
    const states = () => new AlarmRepository(server.db).states(rootId, [id]);
    expect((await states()).get(id)?.state.state).toBe('pending');
    expect(await server.machineData.alarms.tickAccount(rootId)).toEqual([]);
    // No further point: the evaluator's timer (every 5 s) lets the 3 seconds run out.
    const end = Date.now() + 20_000;
    let list = await events(server, rootId, id);
    while (list.length === 0 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      list = await events(server, rootId, id);
    }
    expect(list).toMatchObject([{ kind: 'raised', ts: ts + 3_000, value: 95, count: 1 }]);
    expect((await states()).get(id)?.state.state).toBe('active');
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('alarm state across a restart', () => {
  it('keeps where each alarm stands: a clear after the restart, then a repeat counted on', async () => {
    const first = await startTestServer();
    const dir = first.dataDir;
    const token = await first.signIn(DEMO_USERS.admin);
    const account = (await first.demoAccountIds()).root;
    const g = await demoGateway(first, account);
    const temp = g.streams['Motor temperature'] ?? '';
    const created = await first.call('POST', apiPaths.collection('alarms'), {
      token,
      json: { asset_id: g.assetId, datastream_id: temp, name: 'Hot', upper_limit: 80 },
    });
    expect(created.status, created.text).toBe(201);
    const id = dataOf<{ id: string }>(created).id;
    const identity = { credentialId: 'test', gatewayId: g.gatewayId, accountId: account };
    const batch = (n: number, ts: number, value: number) =>
      Buffer.from(
        JSON.stringify({
          gateway: g.gatewayId,
          buffer: 'restart',
          seq: n,
          points: [{ stream: temp, ts, value }],
        }),
      );
    const now = Date.now();
    await first.machineData.ingest.received(identity, batch(1, now - 3_000, 90));
    expect((await events(first, account, id)).map((e) => e.kind)).toEqual(['raised']);
    await first.stop();

    const second = await startTestServer({ dataDir: dir });
    try {
      await second.machineData.ingest.received(identity, batch(2, now - 2_000, 70));
      await second.machineData.ingest.received(identity, batch(3, now - 1_000, 95));
      const list = await events(second, account, id);
      expect(list.map((e) => [e.kind, e.count])).toEqual([
        ['raised', 1],
        ['cleared', 1],
        ['raised', 2],
      ]);
    } finally {
      await second.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
