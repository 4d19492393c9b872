import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALARM_TEXTS,
  apiPaths,
  uuidv7,
  type AlarmAttributes,
  type AlarmHistoryPage,
  type AlarmSettings,
  type AlarmInput,
  type NotificationTrigger,
} from '@plant/shared-schema';
import { systemClock } from '../lib/clock';
import { DEMO_USERS } from '../seed/demo';
import { ModelService } from '../services/model.service';
import { demoGateway, linkedAgent, type SentPoint } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * What an alarm shows and what people do with it (issue 17 items 2 and 6), through the real
 * server: the status the evaluator writes on the synced model, an acknowledgement (a model of its
 * own, so that one given offline lands once), a disabled alarm standing down, the history and
 * GET user/{id}/notificationtrigger, each only for who may see them.
 */
let server: TestServer;
let admin: string;
let adminId: string;
/** A user of another account (Customer South). */
let tech: string;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: Awaited<ReturnType<typeof linkedAgent>>;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  tech = await server.signIn(DEMO_USERS.south);
  adminId = dataOf<{ id: string }>(await server.call('GET', apiPaths.user(), { token: admin })).id;
  const rootId = (await server.demoAccountIds()).root;
  gw = await demoGateway(server, rootId);
  agent = await linkedAgent(server, admin, gw.gatewayId, 'status-test');
});
afterAll(async () => {
  await agent.close();
  await server.close();
});

const speed = () => {
  const id = gw.streams['Spindle speed'];
  if (id === undefined) throw new Error('no stream Spindle speed');
  return id;
};

/**
 * Each stream's point times sent so far. The store keeps the first value at a stream's time and
 * refuses another (ingest's `existing: 'keep'`), unevaluated: a test whose points lay before its
 * `Date.now()` could meet an earlier test's (its `t - 2_500` on that one's `t`, 2.5 s later).
 */
const sentAt = new Set<string>();

/** Sends points as the gateway's agent does and waits until they are stored and evaluated. */
async function send(points: readonly SentPoint[]) {
  const ack = await agent.send(points);
  expect(ack).toMatchObject({ status: 'stored', stored: points.length, refused: [] });
  for (const p of points) sentAt.add(`${p.stream} ${p.ts}`);
  return ack;
}

/** Now, or the latest time before it where no point of a test (`offsets` from it) meets one sent. */
function freeTime(offsets: readonly number[], stream = speed()): number {
  let t = Date.now();
  while (offsets.some((o) => sentAt.has(`${stream} ${t + o}`))) t -= 1;
  return t;
}

async function makeAlarm(body: Partial<AlarmInput> = {}) {
  const answer = await server.call('POST', apiPaths.collection('alarms'), {
    token: admin,
    json: { asset_id: gw.assetId, datastream_id: speed(), name: 'Too fast', ...body },
  });
  expect(answer.status, answer.text).toBe(201);
  return dataOf<{ id: string }>(answer).id;
}

/** The alarm as the admin's browser gets it (the snapshot of its store). */
async function alarm(id: string): Promise<AlarmAttributes> {
  const found = (await server.snapshot(admin)).find((m) => m.type === 'alarm' && m.id === id);
  if (found === undefined) throw new Error(`alarm ${id} not in the snapshot`);
  return found.attributes as AlarmAttributes;
}

const acknowledge = (alarmId: string, note: string, token = admin, id = uuidv7()) =>
  server.call('POST', apiPaths.collection('alarm_acks'), {
    token,
    json: { id, mutation_id: `ack-${id}`, alarm_id: alarmId, asset_id: gw.assetId, note },
  });

describe('the status on the alarm', () => {
  it('a raise shows on the synced alarm: active since the point, its value, unacknowledged', async () => {
    const id = await makeAlarm({ upper_limit: 5_000, severity: 'critical' });
    expect((await alarm(id)).status).toBeNull();
    const t = Date.now();
    await send([
      { stream: speed(), ts: t - 2_000, value: 4_000 },
      { stream: speed(), ts: t - 1_000, value: 5_500 },
    ]);
    expect((await alarm(id)).status).toMatchObject({
      state: 'active',
      since: t - 1_000,
      value: 5_500,
      count: 1,
      raised_at: t - 1_000,
      cleared_at: null,
      acknowledged: false,
    });
    // A client cannot write the status: it is the server's.
    const forged = await server.call('PUT', apiPaths.model('alarms', id), {
      token: admin,
      json: { status: { state: 'normal' }, name: 'Too fast!' },
    });
    expect(forged.status, forged.text).toBe(200);
    expect(await alarm(id)).toMatchObject({ name: 'Too fast!', status: { state: 'active' } });
    // Back under the limit: normal, the clear's time kept with the raise's.
    await send([{ stream: speed(), ts: t, value: 4_000 }]);
    expect((await alarm(id)).status).toMatchObject({
      state: 'normal',
      since: null,
      raised_at: t - 1_000,
      cleared_at: t,
      acknowledged: false,
    });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });

  it('a pending alarm shows as pending while its delay runs', async () => {
    const id = await makeAlarm({ upper_limit: 5_000, delay_s: 3_600 });
    const t = Date.now();
    await send([{ stream: speed(), ts: t, value: 6_000 }]);
    expect((await alarm(id)).status).toMatchObject({ state: 'pending', since: t, raised_at: null });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('acknowledging', () => {
  it('marks the raise acknowledged by that user with the note, once; the next raise counts 1', async () => {
    const id = await makeAlarm({ upper_limit: 5_000 });
    const nothing = await acknowledge(id, 'too early');
    expect(nothing.status, nothing.text).toBe(422);
    expect(nothing.text).toContain(ALARM_TEXTS.nothingToAcknowledge);

    const t = freeTime([-3_000, -2_500, -2_000, -1_000, 0]);
    await send([
      { stream: speed(), ts: t - 3_000, value: 6_000 },
      { stream: speed(), ts: t - 2_500, value: 4_000 },
      { stream: speed(), ts: t - 2_000, value: 6_000 },
    ]);
    expect((await alarm(id)).status).toMatchObject({ count: 2, acknowledged: false });

    const ackId = uuidv7();
    const given = await acknowledge(id, 'Belt replaced', admin, ackId);
    expect(given.status, given.text).toBe(201);
    const ack = dataOf<{ attributes: Record<string, unknown> }>(given).attributes;
    expect(ack).toMatchObject({ by_user: adminId, raised_at: t - 2_000, note: 'Belt replaced' });
    expect((await alarm(id)).status).toMatchObject({
      state: 'active',
      acknowledged: true,
      acknowledged_by: adminId,
      note: 'Belt replaced',
    });
    // The same write again (an outbox sending it twice): the same answer, nothing more.
    const again = await server.call('POST', apiPaths.collection('alarm_acks'), {
      token: admin,
      json: { id: ackId, mutation_id: `ack-${ackId}`, alarm_id: id, asset_id: gw.assetId },
    });
    expect(again.status, again.text).toBe(201);
    // A second acknowledgement of the same raise (another user's, given offline): refused.
    const second = await acknowledge(id, 'me too');
    expect(second.status, second.text).toBe(422);

    const history = await server.call('GET', apiPaths.alarmHistory(id), { token: admin });
    expect(history.status, history.text).toBe(200);
    const kinds = dataOf<AlarmHistoryPage>(history).events.map((e) => [e.kind, e.by_user, e.note]);
    expect(kinds).toEqual([
      ['acknowledged', adminId, 'Belt replaced'],
      ['raised', null, null],
      ['cleared', null, null],
      ['raised', null, null],
    ]);

    // Cleared and raised again: a new story, counted from 1, unacknowledged.
    await send([
      { stream: speed(), ts: t - 1_000, value: 4_000 },
      { stream: speed(), ts: t, value: 6_000 },
    ]);
    expect((await alarm(id)).status).toMatchObject({
      count: 1,
      acknowledged: false,
      acknowledged_by: null,
      note: null,
    });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });

  it("another account's user can neither acknowledge nor read the history", async () => {
    const id = await makeAlarm({ upper_limit: 5_000 });
    await send([{ stream: speed(), ts: Date.now(), value: 6_000 }]);
    const refused = await acknowledge(id, 'not mine', tech);
    // Its references name nothing in the user's account (as for any model of another one).
    expect([403, 404, 422], refused.text).toContain(refused.status);
    expect((await alarm(id)).status).toMatchObject({ acknowledged: false });
    const history = await server.call('GET', apiPaths.alarmHistory(id), { token: tech });
    expect([403, 404], history.text).toContain(history.status);
    const ofAccount = await server.call('GET', apiPaths.accountAlarmHistory(), { token: tech });
    if (ofAccount.status === 200)
      expect(dataOf<AlarmHistoryPage>(ofAccount).events.map((e) => e.alarm_id)).not.toContain(id);
    else expect(ofAccount.status).toBe(403);
    for (const path of [apiPaths.alarmHistory(id), apiPaths.accountAlarmHistory()])
      expect((await server.call('GET', path)).status).toBe(401);
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('standing down', () => {
  it('a disabled active alarm reads normal and starts afresh when enabled again', async () => {
    const id = await makeAlarm({ upper_limit: 5_000 });
    const t = freeTime([-1_000, 0]);
    await send([{ stream: speed(), ts: t - 1_000, value: 6_000 }]);
    expect((await alarm(id)).status).toMatchObject({ state: 'active' });
    const off = await server.call('PUT', apiPaths.model('alarms', id), {
      token: admin,
      json: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);
    const after = (await alarm(id)).status;
    expect(after).toMatchObject({ state: 'normal', since: null, raised_at: t - 1_000 });
    expect(after?.cleared_at).toBeGreaterThanOrEqual(t);
    // Disabled, values pass it by.
    await send([{ stream: speed(), ts: t, value: 7_000 }]);
    expect((await alarm(id)).status).toMatchObject({ state: 'normal' });
    await server.call('PUT', apiPaths.model('alarms', id), {
      token: admin,
      json: { enabled: true },
    });
    await send([{ stream: speed(), ts: Date.now(), value: 7_000 }]);
    expect((await alarm(id)).status).toMatchObject({
      state: 'active',
      count: 1,
      acknowledged: false,
    });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('history and notification trigger', () => {
  it("lists what wants the user's attention, worst first, and pages the history", async () => {
    const warn = await makeAlarm({ name: 'Fast', upper_limit: 5_000, severity: 'warning' });
    const crit = await makeAlarm({
      name: 'Far too fast',
      upper_limit: 6_000,
      severity: 'critical',
    });
    const quiet = await makeAlarm({ name: 'Never', upper_limit: 90_000 });
    const t = Date.now();
    await send([{ stream: speed(), ts: t, value: 7_000 }]);
    const trigger = async () => {
      const answer = await server.call('GET', apiPaths.notificationTrigger(adminId), {
        token: admin,
      });
      expect(answer.status, answer.text).toBe(200);
      return dataOf<NotificationTrigger>(answer);
    };
    const mine = (await trigger()).alarms.filter((a) => [warn, crit, quiet].includes(a.id));
    expect(mine.map((a) => [a.id, a.severity])).toEqual([
      [crit, 'critical'],
      [warn, 'warning'],
    ]);
    expect((await acknowledge(crit, '')).status).toBe(201);
    expect((await trigger()).alarms.map((a) => a.id)).not.toContain(crit);
    // Another user's trigger is not found; a bad id is refused.
    expect(
      (await server.call('GET', apiPaths.notificationTrigger(uuidv7()), { token: admin })).status,
    ).toBe(404);
    expect(
      (await server.call('GET', 'user/..%2F..%2Fx/notificationtrigger', { token: admin })).status,
    ).toBeGreaterThanOrEqual(400);

    // The asset's history, newest first, a page at a time.
    const first = dataOf<AlarmHistoryPage>(
      await server.call('GET', `${apiPaths.accountAlarmHistory()}?asset_id=${gw.assetId}&limit=2`, {
        token: admin,
      }),
    );
    expect(first.events).toHaveLength(2);
    expect(first.before).not.toBeNull();
    const next = dataOf<AlarmHistoryPage>(
      await server.call(
        'GET',
        `${apiPaths.accountAlarmHistory()}?asset_id=${gw.assetId}&limit=2&before=${first.before}`,
        { token: admin },
      ),
    );
    expect(next.events.every((e) => e.ts < (first.before ?? 0))).toBe(true);
    for (const bad of ['limit=0', 'limit=100000', 'before=-3', 'asset_id=%27%3B--', 'x=1']) {
      const answer = await server.call('GET', `${apiPaths.accountAlarmHistory()}?${bad}`, {
        token: admin,
      });
      expect(answer.status, bad).toBe(422);
    }
    for (const id of [warn, crit, quiet])
      await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe('no data and offline alarms', () => {
  it('no data for a minute raises at the minute, and the next point clears it', async () => {
    const rootId = (await server.demoAccountIds()).root;
    // A stream no other test here sends to.
    const pressure = gw.streams['Oil pressure'] ?? '';
    const id = await makeAlarm({
      name: 'Silent',
      kind: 'no_data',
      after_s: 60,
      datastream_id: pressure,
    });
    const t = Date.now();
    // The stream's latest point is two minutes old.
    await send([{ stream: pressure, ts: t - 120_000, value: 1 }]);
    await server.machineData.alarmWatch.account(rootId);
    expect((await alarm(id)).status).toMatchObject({
      state: 'active',
      raised_at: t - 60_000,
      value: null,
    });
    await send([{ stream: pressure, ts: Date.now(), value: 1 }]);
    await server.machineData.alarmWatch.account(rootId);
    expect((await alarm(id)).status).toMatchObject({ state: 'normal', raised_at: t - 60_000 });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });

  it('a gateway offline for the minutes raises, and its return clears', async () => {
    const rootId = (await server.demoAccountIds()).root;
    const other = await demoGateway(server, rootId, 1);
    const stream = Object.values(other.streams)[0];
    if (stream === undefined) throw new Error('the demo gateway has no stream');
    const made = await server.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: {
        asset_id: other.assetId,
        datastream_id: stream,
        name: 'Gateway away',
        kind: 'offline',
        after_s: 300,
        severity: 'critical',
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = dataOf<{ id: string }>(made).id;
    // Limits make no sense for it, and the minutes are needed.
    const bad = await server.call('PUT', apiPaths.model('alarms', id), {
      token: admin,
      json: { upper_limit: 3, after_s: null },
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain(ALARM_TEXTS.limitsUnused);
    expect(bad.text).toContain(ALARM_TEXTS.afterRequired);

    // Seen four minutes ago, then gone (what presence writes): not yet.
    const models = new ModelService(server.db, systemClock, server.feed);
    const gone = (ago: number) =>
      models.serverUpdate(rootId, 'gateways', other.gatewayId, {
        connection: 'offline',
        last_seen: new Date(Date.now() - ago).toISOString(),
      });
    await gone(240_000);
    await server.machineData.alarmWatch.account(rootId);
    expect((await alarm(id)).status?.state ?? 'normal').toBe('normal');
    // Six minutes: raised.
    await gone(360_000);
    await server.machineData.alarmWatch.account(rootId);
    expect((await alarm(id)).status).toMatchObject({ state: 'active', acknowledged: false });
    await models.serverUpdate(rootId, 'gateways', other.gatewayId, { connection: 'online' });
    await server.machineData.alarmWatch.account(rootId);
    expect((await alarm(id)).status).toMatchObject({ state: 'normal' });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});

describe("the account's alarm settings", () => {
  it('critical alarms through closed windows: off until the account says so, by who may edit it', async () => {
    const technician = await server.signIn(DEMO_USERS.tech);
    const read = async (token: string) => {
      const answer = await server.call('GET', apiPaths.alarmSettings(), { token });
      expect(answer.status, answer.text).toBe(200);
      return dataOf<AlarmSettings>(answer);
    };
    expect(await read(admin)).toEqual({ critical_overrides_window: false });
    const on = await server.call('PUT', apiPaths.alarmSettings(), {
      token: admin,
      json: { critical_overrides_window: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(await read(technician)).toEqual({ critical_overrides_window: true });
    const refused = await server.call('PUT', apiPaths.alarmSettings(), {
      token: technician,
      json: { critical_overrides_window: false },
    });
    expect(refused.status).toBe(403);
    for (const json of [
      {},
      { critical_overrides_window: 'yes' },
      { x: 1, critical_overrides_window: true },
    ]) {
      const bad = await server.call('PUT', apiPaths.alarmSettings(), { token: admin, json });
      expect(bad.status, JSON.stringify(json)).toBe(422);
    }
    expect((await server.call('GET', apiPaths.alarmSettings())).status).toBe(401);
    expect(await read(admin)).toEqual({ critical_overrides_window: true });
    await server.call('PUT', apiPaths.alarmSettings(), {
      token: admin,
      json: { critical_overrides_window: false },
    });
  });
});

describe('who acknowledges', () => {
  it('a technician acknowledges on a machine it sees without edit rights, not on one it does not see', async () => {
    const rootId = (await server.demoAccountIds()).root;
    const technician = await server.signIn(DEMO_USERS.tech);
    const techId = dataOf<{ id: string }>(
      await server.call('GET', apiPaths.user(), { token: technician }),
    ).id;
    // The technician's machines: one it sees only, and (through the admin) one it does not see.
    const seen = await server.db
      .selectFrom('role_assets')
      .select(['asset_id', 'edit'])
      .where('account_id', '=', rootId)
      .execute();
    const viewOnly = seen.find((r) => r.edit === 0)?.asset_id;
    if (viewOnly === undefined) throw new Error('the technician has no machine it only sees');
    const visible = new Set(seen.map((r) => r.asset_id));
    const models = new ModelService(server.db, systemClock, server.feed);
    /** An offline alarm on the machine's first stream, raised by its gateway gone 10 minutes. */
    const raisedOn = async (assetId: string) => {
      const rows = await server.db
        .selectFrom('models')
        .select(['id', 'type', 'attributes'])
        .where('account_id', '=', rootId)
        .where('type', 'in', ['datastream', 'asset'])
        .execute();
      const stream = rows.find(
        (r) =>
          r.type === 'datastream' &&
          (JSON.parse(r.attributes) as { asset_id: string; type: string }).asset_id === assetId &&
          (JSON.parse(r.attributes) as { type: string }).type === 'number',
      );
      const asset = rows.find((r) => r.id === assetId);
      const gatewayId = (JSON.parse(asset?.attributes ?? '{}') as { gateway_id?: string })
        .gateway_id;
      if (stream === undefined || gatewayId === undefined) throw new Error('no stream or gateway');
      const made = await server.call('POST', apiPaths.collection('alarms'), {
        token: admin,
        json: {
          asset_id: assetId,
          datastream_id: stream.id,
          name: 'Gateway away',
          kind: 'offline',
          after_s: 300,
        },
      });
      expect(made.status, made.text).toBe(201);
      await models.serverUpdate(rootId, 'gateways', gatewayId, {
        connection: 'offline',
        last_seen: new Date(Date.now() - 600_000).toISOString(),
      });
      await server.machineData.alarmWatch.account(rootId);
      const id = dataOf<{ id: string }>(made).id;
      expect((await alarm(id)).status).toMatchObject({ state: 'active', acknowledged: false });
      return id;
    };
    const ackBy = (alarmId: string, assetId: string) => {
      const ackId = uuidv7();
      return server.call('POST', apiPaths.collection('alarm_acks'), {
        token: technician,
        json: { id: ackId, alarm_id: alarmId, asset_id: assetId, note: 'On my way' },
      });
    };
    const mine = await raisedOn(viewOnly);
    const given = await ackBy(mine, viewOnly);
    expect(given.status, given.text).toBe(201);
    expect((await alarm(mine)).status).toMatchObject({
      acknowledged: true,
      acknowledged_by: techId,
      note: 'On my way',
    });
    // It may still not change the alarm itself there.
    const edit = await server.call('PUT', apiPaths.model('alarms', mine), {
      token: technician,
      json: { name: 'Renamed' },
    });
    expect(edit.status).toBe(403);

    const hiddenAsset = (
      await server.db
        .selectFrom('models')
        .select(['id', 'attributes'])
        .where('account_id', '=', rootId)
        .where('type', '=', 'asset')
        .execute()
    ).find((r) => {
      const gatewayId = (JSON.parse(r.attributes) as { gateway_id?: string | null }).gateway_id;
      return !visible.has(r.id) && typeof gatewayId === 'string';
    })?.id;
    if (hiddenAsset === undefined) throw new Error('no machine hidden from the technician');
    const theirs = await raisedOn(hiddenAsset);
    const unseen = await ackBy(theirs, hiddenAsset);
    expect(unseen.status, unseen.text).toBe(404);
    // Naming a machine it sees beside the hidden alarm reaches nothing either (the asset is the
    // stored alarm's), alone or in a batch: no raise time in the answer, the raise stays
    // unacknowledged (so its escalation goes on), nothing in its history.
    const raisedAt = (await alarm(theirs)).status?.raised_at;
    expect(raisedAt).toEqual(expect.any(Number));
    const claimed = await ackBy(theirs, viewOnly);
    expect(claimed.status, claimed.text).toBe(404);
    const batch = await server.call('POST', apiPaths.collection('alarm_acks'), {
      token: technician,
      json: [{ batch_id: 1, data: { id: uuidv7(), alarm_id: theirs, asset_id: viewOnly } }],
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.json).toMatchObject({ success: false, data: [{ data: { success: false } }] });
    for (const answer of [claimed, batch]) expect(answer.text).not.toContain(String(raisedAt));
    expect((await alarm(theirs)).status).toMatchObject({ acknowledged: false });
    const history = await server.call('GET', apiPaths.alarmHistory(theirs), { token: admin });
    expect(dataOf<AlarmHistoryPage>(history).events.map((e) => e.kind)).not.toContain(
      'acknowledged',
    );
  });
});

describe('a dead source (issue 30 item 1)', () => {
  it('a no-data alarm goes active once its connection reports failing, without a fixed age, and clears on recovery', async () => {
    const rootId = (await server.demoAccountIds()).root;
    const temperature = gw.streams['Motor temperature'] ?? '';
    const connection = (await server.snapshot(admin)).find(
      (m) =>
        m.type === 'connection' &&
        (m.attributes as { gateway_id: string }).gateway_id === gw.gatewayId,
    );
    if (connection === undefined) throw new Error('the demo gateway has no connection');
    const report = (state: 'connected' | 'failed', error: string | null = null) =>
      agent.status([{ id: connection.id, state, error, last_read: Date.now() }]);
    const judged = async () => {
      await server.machineData.alarmWatch.account(rootId);
      return (await alarm(id)).status;
    };

    // Healthy but unchanged: the only value is 20 minutes old (beyond the alarm's 10), and the
    // connection reads it fine (the agent sends an unchanged value no more): no data missing.
    // The good read is reported before the old value comes and the alarm is made: the alarm
    // timer's round may judge at any moment in between (on the old value alone it would raise).
    await report('connected');
    await send([{ stream: temperature, ts: Date.now() - 20 * 60_000, value: 50 }]);
    const id = await makeAlarm({
      name: 'Temperature silent',
      kind: 'no_data',
      after_s: 600,
      datastream_id: temperature,
    });
    expect((await judged())?.state ?? 'normal').toBe('normal');

    // The device stops answering: the agent says so, and the alarm is raised at once (the
    // change of state has it judged, without waiting for the alarm timer's round).
    const failedAt = Date.now();
    await report('failed', 'Connection refused');
    const raised = (await alarm(id)).status;
    expect(raised).toMatchObject({ state: 'active', value: null });
    expect(raised?.raised_at).toBeGreaterThanOrEqual(failedAt);
    expect(await judged()).toMatchObject({ state: 'active', raised_at: raised?.raised_at });

    // It answers again: cleared as soon.
    await report('connected');
    expect((await alarm(id)).status).toMatchObject({ state: 'normal' });
    await server.call('DELETE', apiPaths.model('alarms', id), { token: admin });
  });
});
