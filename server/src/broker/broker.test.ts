import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  hiddenUpdateOf,
  topics,
  updateSubjectType,
  uuidv7,
  type ModelUpdate,
  type UpdateMessage,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { AuthService } from '../services/auth.service';
import { BrowserCredentialService } from '../services/browser-credential.service';
import { UserService } from '../services/user.service';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { testsOnPostgres } from '../testing/test-database';
import { openEveryAsset } from '../testing/access';
import {
  asOptions,
  brokerClients,
  closing,
  collect,
  fixedHeader,
  rawBrokerSocket,
  settle,
  until,
  within,
  type Creds,
} from '../testing/mqtt-client';
import { mayBrowserSubscribe } from './broker';

let s: TestServer;
const clock = new ManualClock(Date.now());
const { session, connect, refused, closeAll } = brokerClients(() => s);

beforeAll(async () => {
  s = await startTestServer({ clock });
});
afterEach(() => closeAll());
afterAll(() => s.close());

describe('the embedded broker at /mqtt', () => {
  it('a change through the API arrives on the account topic with the next seq; mqttlogs has the same', async () => {
    const admin = await session(DEMO_USERS.admin);
    const client = await connect(admin.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.modelUpdates(admin.user.account));
    const before = (
      await s.db
        .selectFrom('account_clocks')
        .select('seq')
        .where('account_id', '=', admin.user.account)
        .executeTakeFirstOrThrow()
    ).seq;
    const res = await s.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Broadcast' },
    });
    const events = (res.json as { _events: ModelUpdate[] })._events;
    await until(() => got.length === 2);
    expect(got.map((g) => g.payload)).toEqual(events);
    expect(events.map((e) => e.seq)).toEqual([before + 1, before + 2]);
    const fromTs = (events[0]?.ts ?? 0) - 1;
    const logs = await s.call('GET', apiPaths.mqttlogs(fromTs), { token: admin.token });
    expect((logs.json as { data: { msg: unknown }[] }).data.map((d) => d.msg)).toEqual(
      got.map((g) => g.payload),
    );
  });

  it('two accounts never see each other’s messages', async () => {
    const admin = await session(DEMO_USERS.admin);
    const south = await session(DEMO_USERS.south);
    const a = await connect(admin.creds);
    const b = await connect(south.creds);
    const gotA = collect(a);
    const gotB = collect(b);
    await a.subscribeAsync(topics.modelUpdates(admin.user.account));
    await b.subscribeAsync(topics.modelUpdates(south.user.account));
    await s.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Root only' },
    });
    await s.call('POST', apiPaths.collection('assets'), {
      token: south.token,
      json: { name: 'South only' },
    });
    await until(() => gotA.length === 2 && gotB.length === 2);
    await settle();
    expect(gotA.every((g) => g.topic === topics.modelUpdates(admin.user.account))).toBe(true);
    expect(gotB.every((g) => g.topic === topics.modelUpdates(south.user.account))).toBe(true);
    expect(JSON.stringify(gotB)).not.toContain('Root only');
    expect(JSON.stringify(gotA)).not.toContain('South only');
  });

  it('subscriptions to another account or wide wildcards are refused and deliver nothing', async () => {
    const admin = await session(DEMO_USERS.admin);
    const south = await session(DEMO_USERS.south);
    const b = await connect(south.creds);
    const got = collect(b);
    for (const topic of [
      topics.modelUpdates(admin.user.account),
      '#',
      'account/+/_modelupdates',
      'account/#',
      `account/${south.user.account}/#`,
    ]) {
      // MQTT 3.1.1: a refused subscription is granted 0x80, which mqtt.js reports as an error;
      // the connection stays up.
      await expect(b.subscribeAsync(topic), topic).rejects.toThrow(/Subscribe error/);
      expect(b.connected, topic).toBe(true);
    }
    await s.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Secret' },
    });
    await settle();
    expect(got).toEqual([]);
  });

  it('updates of types the user may not view arrive as stand-ins: every seq in order, nothing about them', async () => {
    const admin = await session(DEMO_USERS.admin);
    const techUser = await session(DEMO_USERS.tech);
    await s.db
      .deleteFrom('permissions')
      .where('name', '=', 'gateway::view')
      .where('account_id', '=', techUser.user.account)
      .execute();
    // Type permissions alone decide here: the technician's role opened to every asset.
    await openEveryAsset(s.db, techUser.user.account, 'technician');
    const tech = await session(DEMO_USERS.tech);
    // The one who may not see comes first: its stand-in must not become what the next one gets.
    const techClient = await connect(tech.creds);
    const got = collect(techClient);
    await techClient.subscribeAsync(topics.modelUpdates(tech.user.account));
    const adminClient = await connect(admin.creds);
    const gotByAdmin = collect(adminClient);
    await adminClient.subscribeAsync(topics.modelUpdates(admin.user.account));
    const events: ModelUpdate[] = [];
    for (const [collection, name] of [
      ['gateways', 'Hidden gateway'],
      ['assets', 'Visible asset'],
      ['gateways', 'Another hidden gateway'],
    ] as const) {
      const res = await s.call('POST', apiPaths.collection(collection), {
        token: admin.token,
        json: { name },
      });
      events.push(...(res.json as { _events: ModelUpdate[] })._events);
    }
    await until(() => got.length === events.length && gotByAdmin.length === events.length);
    await settle();
    const messages = got.map((g) => g.payload as UpdateMessage);
    const first = events[0]?.seq ?? 0;
    expect(messages.map((m) => m.seq)).toEqual(events.map((_, i) => first + i));
    expect(messages).toEqual(
      events.map((e) => (updateSubjectType(e) === 'gateway' ? hiddenUpdateOf(e) : e)),
    );
    const hidden = messages.filter((m) => m.action === 'hidden');
    expect(hidden.length).toBeGreaterThanOrEqual(4);
    for (const m of hidden) expect(Object.keys(m).sort()).toEqual(['action', 'muid', 'seq', 'ts']);
    const gatewayIds = events.filter((e) => e.type === 'gateway').map((e) => e.id);
    expect(gatewayIds).toHaveLength(2);
    for (const text of ['Hidden gateway', '"gateway"', ...gatewayIds])
      expect(JSON.stringify(got)).not.toContain(text);
    expect(gotByAdmin.map((g) => g.payload)).toEqual(events);
  });

  it('a browser reconnecting with its client id (old socket not yet gone) still gets its updates', async () => {
    const admin = await session(DEMO_USERS.admin);
    const first = await connect(admin.creds);
    first.on('error', () => undefined);
    await first.subscribeAsync(topics.modelUpdates(admin.user.account));
    const second = await connect(admin.creds);
    const got = collect(second);
    await second.subscribeAsync(topics.modelUpdates(admin.user.account));
    await settle();
    await s.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'After reconnect' },
    });
    await until(() => got.length === 2);
    expect(JSON.stringify(got)).toContain('After reconnect');
  });

  it('broker credentials end with their access token (a password reset revokes every token)', async () => {
    const tech = await session(DEMO_USERS.tech);
    await s.db.updateTable('access_tokens').set({ revoked_at: new Date().toISOString() }).execute();
    await refused({
      clientId: tech.creds.clientid,
      username: tech.creds.username,
      password: tech.creds.password,
    });
  });

  it('a browser’s publish reaches no one', async () => {
    const admin = await session(DEMO_USERS.admin);
    const listener = await session(DEMO_USERS.admin);
    const sub = await connect(listener.creds);
    const got = collect(sub);
    await sub.subscribeAsync(topics.modelUpdates(admin.user.account));
    const pub = await connect(admin.creds);
    pub.on('error', () => undefined);
    pub.publish(
      topics.modelUpdates(admin.user.account),
      JSON.stringify({ action: 'item_deleted', type: 'asset', id: 'x' }),
    );
    await settle(500);
    expect(got).toEqual([]);
  });

  it('wrong credentials, a client id that is not theirs, revoked and expired credentials are refused', async () => {
    const tech = await session(DEMO_USERS.tech);
    expect(
      (
        await refused({
          clientId: tech.creds.clientid,
          username: tech.creds.username,
          password: 'wrong',
        })
      ).message,
    ).toMatch(/Bad username or password|Not authorized/i);
    expect(
      (
        await refused({
          clientId: 'someone-else',
          username: tech.creds.username,
          password: tech.creds.password,
        })
      ).message,
    ).toMatch(/Bad username or password|Not authorized/i);

    // Logout revokes: the open connection is closed, a new one refused.
    const live = await connect(tech.creds);
    const closed = new Promise<void>((resolve) => live.once('close', () => resolve()));
    await s.call('POST', apiPaths.logout(), { token: tech.token });
    await closed;
    await refused({
      clientId: tech.creds.clientid,
      username: tech.creds.username,
      password: tech.creds.password,
    });

    // New credentials for the same browser replace the old ones.
    const again = await session(DEMO_USERS.tech);
    const browser = `browser-${uuidv7()}`;
    const first = dataOf<Creds>(
      await s.call('GET', apiPaths.browserMqtt(browser), { token: again.token }),
    );
    const second = dataOf<Creds>(
      await s.call('GET', apiPaths.browserMqtt(browser), { token: again.token }),
    );
    await refused({ clientId: first.clientid, username: first.username, password: first.password });
    await connect(second);

    // They end with the access token's lifetime.
    const later = await session(DEMO_USERS.tech);
    clock.advance(31 * 24 * 60 * 60 * 1000);
    await refused({
      clientId: later.creds.clientid,
      username: later.creds.username,
      password: later.creds.password,
    });
  });

  it('an account switch revokes the browser’s credentials', async () => {
    const admin = await session(DEMO_USERS.admin);
    const live = await connect(admin.creds);
    const closed = new Promise<void>((resolve) => live.once('close', () => resolve()));
    const me = dataOf<{ id: string; roles: { account_id: string }[]; account: string }>(
      await s.call('GET', apiPaths.user(), { token: admin.token }),
    );
    const north = me.roles.find((r) => r.account_id !== me.account)?.account_id ?? '';
    expect(
      (await s.call('POST', apiPaths.setActiveAccount(me.id, north), { token: admin.token }))
        .status,
    ).toBe(200);
    await closed;
    await refused({
      clientId: admin.creds.clientid,
      username: admin.creds.username,
      password: admin.creds.password,
    });
    await s.call('POST', apiPaths.setActiveAccount(me.id, me.account), { token: admin.token });
  });

  it('an account switch closes and revokes every browser of the user, on every token', async () => {
    // Two sign-ins (two tokens), each with a browser of its own.
    const here = await session(DEMO_USERS.admin);
    const there = await session(DEMO_USERS.admin);
    expect(here.creds.clientid).not.toBe(there.creds.clientid);
    const a = await connect(here.creds);
    const b = await connect(there.creds);
    const closed = Promise.all([closing(a), closing(b)]);
    const me = dataOf<{ id: string; roles: { account_id: string }[]; account: string }>(
      await s.call('GET', apiPaths.user(), { token: here.token }),
    );
    const north = me.roles.find((r) => r.account_id !== me.account)?.account_id ?? '';
    expect(
      (await s.call('POST', apiPaths.setActiveAccount(me.id, north), { token: here.token })).status,
    ).toBe(200);
    await within(closed, 10_000);
    await refused(asOptions(here.creds));
    await refused(asOptions(there.creds));
    await s.call('POST', apiPaths.setActiveAccount(me.id, me.account), { token: here.token });
  });

  it('a CONNECT asking keepalive 0 (never time out) or more than 300 s is refused', async () => {
    const admin = await session(DEMO_USERS.admin);
    for (const keepalive of [0, 301, 3600]) {
      const err = await refused({ ...asOptions(admin.creds), keepalive });
      expect(err.message, String(keepalive)).toMatch(/Not authorized/);
    }
    // The same credentials, with a keepalive in range, are taken (at both ends of it).
    await (await connect(admin.creds, 300)).endAsync();
    const client = await connect(admin.creds, 1);
    expect(client.connected).toBe(true);
  });

  it('a CONNECT with a will is refused (a will is published past every ACL when its link dies)', async () => {
    const admin = await session(DEMO_USERS.admin);
    const will = {
      topic: 'gateway/x/down/request',
      payload: Buffer.from('{}'),
      qos: 0 as const,
      retain: false,
    };
    const err = await refused({ ...asOptions(admin.creds), will });
    expect(err.message).toMatch(/Not authorized/);
    const client = await connect(admin.creds, 60);
    expect(client.connected).toBe(true);
  });

  it('a packet announcing more than its link may send is cut off at its header, before the rest', async () => {
    // Unauthenticated: a CONNECT announcing 150 MB, its header and protocol name only. aedes
    // alone would buffer it as it came; the WebSocket's 1 MiB bounds one message, not a packet.
    const raw = await rawBrokerSocket(s);
    const rawClosed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.send(
      Buffer.concat([fixedHeader(0x10, 150 * 1024 * 1024), Buffer.from([0, 4, 77, 81, 84, 84])]),
    );
    await within(rawClosed, 5_000);
    // An admitted browser: a PUBLISH announcing 512 KiB (a gateway's batch may, no browser's).
    const admin = await session(DEMO_USERS.admin);
    const browser = await connect(admin.creds);
    browser.on('error', () => undefined);
    const cut = closing(browser);
    browser.stream.write(fixedHeader(0x30, 512 * 1024));
    await within(cut, 5_000);
    // The server goes on answering, and a browser within the limits keeps its link.
    expect((await s.call('GET', apiPaths.user(), { token: admin.token })).status).toBe(200);
    const other = await connect((await session(DEMO_USERS.admin)).creds);
    await other.subscribeAsync(topics.modelUpdates(admin.user.account));
    expect(other.connected).toBe(true);
  });

  it('credentials asked for one browser many times at once leave exactly one that works', async () => {
    // Through the service on the server's database: over HTTP, request parsing spaces the calls
    // out so that they hardly ever interleave; here every revoke can run before any insert.
    const admin = await session(DEMO_USERS.admin);
    const auth = await new AuthService(s.db, clock, 60_000).authenticate(admin.token);
    if (auth === undefined) throw new Error('the token is not live');
    const signedIn = await new UserService(s.db, clock).session(auth.userId, false);
    const service = new BrowserCredentialService(s.db, clock);
    const browser = `browser-${uuidv7()}`;
    const issued = await Promise.all(
      Array.from({ length: 6 }, () => service.issue(signedIn, auth, browser)),
    );
    const accepted: number[] = [];
    for (const [i, creds] of issued.entries()) {
      try {
        await connect(creds);
        accepted.push(i);
      } catch {
        // refused: replaced by a later one
      }
    }
    // The one that works is the one issued last: in call order on SQLite (one transaction at
    // a time), in lock order on Postgres (the calls run at once, one at a time per browser).
    const live = await s.db
      .selectFrom('browser_credentials')
      .select('username')
      .where('browser_id', '=', browser)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    expect(accepted.map((i) => issued[i]?.username)).toEqual([live[0]?.username]);
    if (!testsOnPostgres()) expect(accepted).toEqual([issued.length - 1]);
  });

  /** A demo machine's id by name. */
  const machine = async (name: string) => {
    const rows = await s.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .where('type', '=', 'asset')
      .execute();
    const found = rows.find((r) => (JSON.parse(r.attributes) as { name: string }).name === name);
    if (found === undefined) throw new Error(`no ${name}`);
    return found.id;
  };

  it('upload progress goes to the account’s notify topic', async () => {
    const admin = await session(DEMO_USERS.admin);
    const client = await connect(admin.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.uploadProgress(admin.user.account));
    s.broker.publishUploadProgress(admin.user.account, await machine('Press line 1'), {
      id: 'up-1',
      message: 'Converting model',
      progress: 0.4,
    });
    await until(() => got.length === 1);
    expect(got[0]).toEqual({
      topic: topics.uploadProgress(admin.user.account),
      payload: { id: 'up-1', message: 'Converting model', progress: 0.4 },
    });
  });

  it('upload progress outside 0..1 is refused before anyone gets it', async () => {
    const admin = await session(DEMO_USERS.admin);
    const client = await connect(admin.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.uploadProgress(admin.user.account));
    const press = await machine('Press line 1');
    for (const progress of [-0.1, 1.01, Number.NaN]) {
      expect(
        () =>
          s.broker.publishUploadProgress(admin.user.account, press, {
            id: 'up-2',
            message: 'Converting model',
            progress,
          }),
        String(progress),
      ).toThrow();
    }
    s.broker.publishUploadProgress(admin.user.account, press, {
      id: 'up-2',
      message: 'Done',
      progress: 1,
    });
    await until(() => got.length === 1);
    await settle();
    expect(got.map((g) => g.payload)).toEqual([{ id: 'up-2', message: 'Done', progress: 1 }]);
  });

  it('with the broker gone between commit and publish, the write stands and the log has it', async () => {
    const admin = await session(DEMO_USERS.admin);
    await s.broker.stop();
    const res = await s.call('POST', apiPaths.collection('assets'), {
      token: admin.token,
      json: { name: 'Written while the broker is down' },
    });
    expect(res.status).toBe(201);
    const event = (res.json as { _events: ModelUpdate[] })._events[0];
    const logs = await s.call('GET', apiPaths.mqttlogs((event?.ts ?? 0) - 1), {
      token: admin.token,
    });
    expect((logs.json as { data: { msg: ModelUpdate }[] }).data[0]?.msg).toEqual(event);
  });
});

describe('mayBrowserSubscribe', () => {
  it.each([
    ['account/a1/_modelupdates', true],
    ['account/a1/_notify/upload', true],
    ['account/a1/_notify/+', true],
    ['account/a1/_notify/#', true],
    ['account/a2/_modelupdates', false],
    ['account/+/_modelupdates', false],
    ['account/a1/#', false],
    ['#', false],
    ['account/a1/_notify/upload/#/x', false],
    ['account/a1/_modelupdates/#', false],
  ])('%s -> %s', (topic, allowed) => {
    expect(mayBrowserSubscribe('a1', topic)).toBe(allowed);
  });
});
