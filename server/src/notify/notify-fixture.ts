import {
  apiPaths,
  type AlarmChannel,
  type AlarmInput,
  type AlarmStatus,
  type NotificationSettings,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { createLogger } from '../logger';
import { AlarmRepository } from '../repositories/alarm.repository';
import { DEMO_USERS } from '../seed/demo';
import { ModelService } from '../services/model.service';
import { demoGateway } from '../testing/gateway-client';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { AlarmDeliveryRepository } from './alarm-delivery.repository';
import { readAlarm } from './alarm-facts';
import type { Channel, OutgoingMessage, Recipient, SendOutcome } from './contract';
import { AlarmDispatcher } from './dispatcher';

/*
 * The dispatcher's tests' world (test-only): the real server on the project's database with the
 * demo accounts, alarms made through the real API, transitions recorded as the evaluator records
 * them (its repository, and the status on the synced model), a hand-moved clock, and channels
 * that record what they were given (the seam; the real channels are tested on their own).
 */

export const APP_URL = 'https://plant.example';

/** A channel that records every message; `fail` makes it throw for a recipient. */
export class RecordingChannel implements Channel {
  readonly sent: { to: Recipient; message: OutgoingMessage }[] = [];
  fail: ((to: Recipient) => Error | undefined) | undefined;
  outcome: SendOutcome = { kind: 'sent' };

  constructor(readonly name: AlarmChannel) {}

  send(to: Recipient, message: OutgoingMessage): Promise<SendOutcome> {
    const err = this.fail?.(to);
    if (err !== undefined) return Promise.reject(err);
    this.sent.push({ to, message });
    return Promise.resolve(this.outcome);
  }

  /** What went to this address (mail) or user. */
  to(who: string): OutgoingMessage[] {
    return this.sent.filter((s) => s.to.email === who || s.to.userId === who).map((s) => s.message);
  }
}

export interface NotifyFixture {
  readonly server: TestServer;
  readonly clock: ManualClock;
  readonly accountId: string;
  readonly adminToken: string;
  readonly assetId: string;
  readonly streamId: string;
  readonly userIds: Record<keyof typeof DEMO_USERS, string>;
  readonly channels: { mail: RecordingChannel; sms: RecordingChannel; push: RecordingChannel };
  /** A dispatcher on this database connection (default: the server's). */
  dispatcher(db?: Db, everyMs?: number): AlarmDispatcher;
  createAlarm(body: Partial<AlarmInput>): Promise<string>;
  /** Records a raise as the evaluator does: its event, and the alarm's status. */
  raise(alarmId: string, value?: number): Promise<number>;
  clear(alarmId: string): Promise<void>;
  acknowledge(alarmId: string): Promise<void>;
  status(alarmId: string): Promise<AlarmStatus | null>;
  deliveries(alarmId: string): Promise<Awaited<ReturnType<AlarmDeliveryRepository['ofEvents']>>>;
  setNotifications(
    user: keyof typeof DEMO_USERS,
    settings: NotificationSettings,
    phone?: string,
  ): Promise<void>;
  close(): Promise<void>;
}

export async function notifyFixture(): Promise<NotifyFixture> {
  // The server's clock too: acknowledgements and model writes are stamped in the same time.
  const clock = new ManualClock(Date.parse('2026-12-01T10:00:00Z'));
  // The server's own dispatcher stays still: the tests' dispatchers take every round.
  const server = await startTestServer({ clock, dispatch: false });
  const adminToken = await server.signIn(DEMO_USERS.admin);
  const accountId = (await server.demoAccountIds()).root;
  // The first demo machine with a motor temperature (ids made in one clock millisecond do not
  // say which gateway was made first).
  let gw = await demoGateway(server, accountId);
  for (let i = 1; gw.streams['Motor temperature'] === undefined; i += 1)
    gw = await demoGateway(server, accountId, i);
  const streamId = gw.streams['Motor temperature'] ?? '';
  const users = await server.db.selectFrom('users').select(['id', 'email']).execute();
  const userIds = Object.fromEntries(
    Object.entries(DEMO_USERS).map(([key, email]) => [
      key,
      users.find((u) => u.email === email)?.id ?? '',
    ]),
  ) as Record<keyof typeof DEMO_USERS, string>;
  const models = new ModelService(server.db, clock, server.feed);
  const channels = {
    mail: new RecordingChannel('mail'),
    sms: new RecordingChannel('sms'),
    push: new RecordingChannel('push'),
  };
  const log = createLogger('silent');
  const opened: Db[] = [];
  const repo = new AlarmRepository(server.db);

  const statusOf = async (alarmId: string) =>
    (await readAlarm(server.db, accountId, alarmId))?.status ?? null;

  const record = async (
    alarmId: string,
    kind: 'raised' | 'cleared',
    status: (previous: AlarmStatus | null, ts: number) => AlarmStatus,
    value: number,
  ) => {
    clock.advance(1_000);
    const ts = clock.now();
    await repo.addEvents(
      accountId,
      [
        {
          alarm_id: alarmId,
          asset_id: gw.assetId,
          kind,
          ts,
          value,
          count: 1,
          by_user: null,
          note: null,
        },
      ],
      ts,
    );
    await models.serverUpdate(accountId, 'alarms', alarmId, {
      status: status(await statusOf(alarmId), ts),
    });
    return ts;
  };

  return {
    server,
    clock,
    accountId,
    adminToken,
    assetId: gw.assetId,
    streamId,
    userIds,
    channels,
    dispatcher: (db = server.db, everyMs?: number) => {
      if (db !== server.db) opened.push(db);
      return new AlarmDispatcher({
        db,
        clock,
        log,
        channels: [channels.mail, channels.sms, channels.push],
        models: new ModelService(db, clock, server.feed),
        config: { appUrl: APP_URL },
        feed: server.feed,
        ...(everyMs === undefined ? {} : { everyMs }),
      });
    },
    createAlarm: async (body) => {
      const answer = await server.call('POST', apiPaths.collection('alarms'), {
        token: adminToken,
        json: {
          asset_id: gw.assetId,
          datastream_id: streamId,
          name: 'Motor too hot',
          upper_limit: 80,
          unit: '°C',
          ...body,
        },
      });
      if (answer.status !== 201) throw new Error(`alarm not made: ${answer.text}`);
      return dataOf<{ id: string }>(answer).id;
    },
    raise: (alarmId, value = 93.5) =>
      record(
        alarmId,
        'raised',
        (_, ts) => ({
          state: 'active',
          since: ts,
          value,
          count: 1,
          raised_at: ts,
          cleared_at: null,
          acknowledged: false,
          acknowledged_by: null,
          acknowledged_at: null,
          note: null,
          delivery: { state: 'none', attempts: 0, error: null },
        }),
        value,
      ),
    clear: async (alarmId) => {
      await record(
        alarmId,
        'cleared',
        (previous, ts) => {
          if (previous === null) throw new Error('clear without a raise');
          return { ...previous, state: 'normal', since: null, value: 70, cleared_at: ts };
        },
        70,
      );
    },
    acknowledge: async (alarmId) => {
      const answer = await server.call('POST', apiPaths.collection('alarm_acks'), {
        token: adminToken,
        json: { alarm_id: alarmId, asset_id: gw.assetId, note: 'On it' },
      });
      if (answer.status !== 201) throw new Error(`not acknowledged: ${answer.text}`);
    },
    status: statusOf,
    deliveries: async (alarmId) => {
      const events = await repo.events(accountId, alarmId);
      return new AlarmDeliveryRepository(server.db).ofEvents(
        accountId,
        events.map((e) => e.id),
      );
    },
    setNotifications: async (user, settings, phone) => {
      await server.db
        .updateTable('users')
        .set({ notifications: JSON.stringify(settings), ...(phone === undefined ? {} : { phone }) })
        .where('id', '=', userIds[user])
        .execute();
    },
    close: async () => {
      for (const db of opened) await db.destroy();
      await server.close();
    },
  };
}
