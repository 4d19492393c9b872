import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolate, type NotificationSettings } from '@plant/shared-schema';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../seed/demo';
import { PermanentDeliveryError } from './contract';
import {
  ESCALATION_AFTER_MS,
  LEASE_MS,
  MAX_ATTEMPTS,
  RETRY_BACKOFF_MS,
  type AlarmDispatcher,
} from './dispatcher';
import { APP_URL, notifyFixture, type NotifyFixture } from './notify-fixture';
import { SKIP_REASONS } from './recipients';

/*
 * The alarm dispatcher (issue 17 items 4 and 5) on the real server's database: who is told of
 * a transition, once, when their window lets it through, in one digest when several are due,
 * escalated while nobody acknowledges, retried and then shown as failed on the alarm. Rounds
 * are driven by hand with a hand-moved clock: nothing waits for a timer.
 */
let f: NotifyFixture;
let dispatcher: AlarmDispatcher;
const mails = () => f.channels.mail;

/** A window that opens two hours from the clock's now (UTC), for an hour. */
function closedWindow(): NotificationSettings {
  const hour = new Date(f.clock.now()).getUTCHours();
  const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
  return {
    channels: ['mail'],
    window: { days: [0, 1, 2, 3, 4, 5, 6], from: at(hour + 2), to: at(hour + 3), timezone: 'UTC' },
  };
}

beforeAll(async () => {
  f = await notifyFixture();
  dispatcher = f.dispatcher();
  // The first round invites the outside addresses already on alarms and expands nothing old.
  await dispatcher.round();
});
afterAll(async () => {
  await dispatcher.stop();
  await f.close();
});

describe('a raise', () => {
  it('is told once per recipient and channel, even with two dispatchers racing', async () => {
    await f.setNotifications(
      'admin',
      { channels: ['mail', 'sms'], window: null },
      '+49 170 1234567',
    );
    const alarmId = await f.createAlarm({
      recipients: [
        { user_id: f.userIds.admin, channels: ['mail', 'sms', 'push'] },
        { user_id: f.userIds.tech, channels: ['mail'] },
      ],
    });
    await f.raise(alarmId);
    // A second process on its own connection (Postgres: its own pool) runs rounds at the same time.
    const other = f.dispatcher(f.server.openDatabase());
    const before = { mail: mails().sent.length, sms: f.channels.sms.sent.length };
    await Promise.all([dispatcher.round(), other.round(), dispatcher.round(), other.round()]);

    expect(
      mails()
        .to(DEMO_USERS.admin)
        .filter((m) => m.url.endsWith(alarmId)),
    ).toHaveLength(1);
    expect(
      mails()
        .to(DEMO_USERS.tech)
        .filter((m) => m.url.endsWith(alarmId)),
    ).toHaveLength(1);
    expect(mails().sent.length - before.mail).toBe(2);
    expect(f.channels.sms.sent.length - before.sms).toBe(1);
    expect(f.channels.sms.sent.at(-1)?.to.phone).toBe('+49 170 1234567');
    // Push is not among the admin's own channels: recorded as skipped, nothing sent.
    expect(f.channels.push.sent).toHaveLength(0);
    const rows = await f.deliveries(alarmId);
    expect(rows.map((r) => [r.recipient_key, r.channel, r.state]).sort()).toEqual(
      [
        [`u:${f.userIds.admin}`, 'mail', 'sent'],
        [`u:${f.userIds.admin}`, 'push', 'skipped'],
        [`u:${f.userIds.admin}`, 'sms', 'sent'],
        [`u:${f.userIds.tech}`, 'mail', 'sent'],
      ].sort(),
    );
    const message = mails().to(DEMO_USERS.tech).at(-1);
    expect(message?.subject).toMatch(/^Warning: \u2068Motor too hot\u2069 on \u2068/);
    expect(message?.text).toContain('Value: 93.5 °C');
    expect(message?.text).toContain('Limit: above 80 °C');
    expect(message?.url).toBe(`${APP_URL}/app/alarms/${alarmId}`);
    expect((await f.status(alarmId))?.delivery).toEqual({
      state: 'sent',
      attempts: 1,
      error: null,
    });

    // Nothing changes: no repeats, however many rounds.
    await Promise.all([dispatcher.round(), other.round()]);
    expect(mails().sent.length - before.mail).toBe(2);
    await other.stop();
  });

  it('reaches neither a user who is not a member nor an address that has not confirmed', async () => {
    const alarmId = await f.createAlarm({
      recipients: [
        { user_id: f.userIds.south, channels: ['mail'] },
        { email: 'night-shift@example.com', channels: ['mail'] },
      ],
    });
    await dispatcher.round();
    // The address is asked once, before any raise: the invitation mail, with its link.
    const invitation = mails().to('night-shift@example.com');
    expect(invitation).toHaveLength(1);
    expect(invitation[0]?.subject).toContain('please confirm');
    expect(invitation[0]?.url).toMatch(/\/api\/v1\/alarm-recipients\/confirm\?token=/);

    await f.raise(alarmId);
    await dispatcher.round();
    expect(mails().to(DEMO_USERS.south)).toHaveLength(0);
    expect(mails().to('night-shift@example.com')).toHaveLength(1);
    const rows = await f.deliveries(alarmId);
    expect(rows.map((r) => [r.recipient_key, r.state, r.last_error]).sort()).toEqual(
      [
        [`u:${f.userIds.south}`, 'skipped', SKIP_REASONS.notMember],
        ['e:night-shift@example.com', 'skipped', SKIP_REASONS.unconfirmed],
      ].sort(),
    );
    expect((await f.status(alarmId))?.delivery.state).toBe('none');
  });

  it('is not sent while the alarm is shelved, and says so', async () => {
    const alarmId = await f.createAlarm({
      recipients: [{ user_id: f.userIds.tech, channels: ['mail'] }],
      shelved_until: f.clock.now() + 3_600_000,
    });
    const before = mails().sent.length;
    await f.raise(alarmId);
    await dispatcher.round();
    expect(mails().sent.length).toBe(before);
    const rows = await f.deliveries(alarmId);
    expect(rows.map((r) => [r.state, r.last_error])).toEqual([['skipped', SKIP_REASONS.shelved]]);
  });
});

describe('wake', () => {
  it('runs a round soon after it is asked, once started', async () => {
    // Its timer's rounds an hour apart: what comes sooner came from the wake.
    const started = f.dispatcher(f.server.db, 3_600_000);
    started.start();
    try {
      await started.round();
      const alarmId = await f.createAlarm({
        name: 'Spindle load',
        recipients: [{ user_id: f.userIds.admin, channels: ['mail'] }],
      });
      await f.raise(alarmId);
      started.wake();
      await vi.waitFor(
        () =>
          expect(
            mails()
              .to(DEMO_USERS.admin)
              .filter((m) => m.url.endsWith(alarmId)),
          ).toHaveLength(1),
        { timeout: 10_000 },
      );
    } finally {
      await started.stop();
    }
  });
});

describe('windows and digests', () => {
  it('delivers at the opening of a closed window, not before, with what waited as one digest', async () => {
    // The technician is told from 12:00 to 13:00 UTC only; it is 10:00 and a bit.
    await f.setNotifications('tech', {
      channels: ['mail'],
      window: { days: [0, 1, 2, 3, 4, 5, 6], from: '12:00', to: '13:00', timezone: 'UTC' },
    });
    const first = await f.createAlarm({
      name: 'Oil pressure low',
      recipients: [{ user_id: f.userIds.tech, channels: ['mail'] }],
    });
    const second = await f.createAlarm({
      name: 'Belt slipping',
      recipients: [{ user_id: f.userIds.tech, channels: ['mail'] }],
    });
    const before = mails().to(DEMO_USERS.tech).length;
    await f.raise(first);
    await f.raise(second);
    await dispatcher.round();
    expect(mails().to(DEMO_USERS.tech)).toHaveLength(before);
    expect((await f.status(first))?.delivery.state).toBe('waiting');

    const opening = Date.parse('2026-12-01T12:00:00Z');
    f.clock.advance(opening - 60_000 - f.clock.now());
    await dispatcher.round();
    expect(mails().to(DEMO_USERS.tech)).toHaveLength(before);

    f.clock.advance(60_000);
    await dispatcher.round();
    const got = mails().to(DEMO_USERS.tech).slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]?.subject).toBe(`2 alarms in ${isolate(DEMO_ACCOUNTS.root)}`);
    expect(got[0]?.text).toContain('Oil pressure low');
    expect(got[0]?.text).toContain('Belt slipping');
    expect(got[0]?.url).toBe(`${APP_URL}/app/alarms`);
    expect((await f.status(first))?.delivery.state).toBe('sent');
    expect((await f.status(second))?.delivery.state).toBe('sent');
    await f.setNotifications('tech', { channels: ['mail'], window: null });
  });

  it('sends many alarms raised at once as one digest, and each clear to who got the raise', async () => {
    const ids = [];
    for (const name of ['Pump 1 hot', 'Pump 2 hot', 'Pump 3 hot'])
      ids.push(
        await f.createAlarm({
          name,
          recipients: [{ user_id: f.userIds.admin, channels: ['mail'] }],
        }),
      );
    const before = mails().to(DEMO_USERS.admin).length;
    for (const id of ids) await f.raise(id);
    await dispatcher.round();
    const got = mails().to(DEMO_USERS.admin).slice(before);
    expect(got.map((m) => m.subject)).toEqual([`3 alarms in ${isolate(DEMO_ACCOUNTS.root)}`]);

    // One clears: one message to the admin, who got its raise, once the alarm's message
    // interval (15 minutes by default) since that raise's message ran out.
    const [one] = ids;
    if (one === undefined) throw new Error('no alarm');
    await f.clear(one);
    await dispatcher.round();
    expect(
      mails()
        .to(DEMO_USERS.admin)
        .slice(before + 1),
    ).toEqual([]);
    f.clock.advance(15 * 60_000);
    await dispatcher.round();
    const cleared = mails()
      .to(DEMO_USERS.admin)
      .slice(before + 1);
    expect(cleared.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Cleared: \u2068Pump 1 hot\u2069 on \u2068/),
    ]);
  });
});

describe('the account setting for critical alarms', () => {
  it('lets a critical alarm through a closed window when the account says so, else it waits', async () => {
    await f.setNotifications('tech', closedWindow());
    const setOverride = (on: boolean) =>
      f.server.db
        .updateTable('accounts')
        .set({ alarm_critical_override: on ? 1 : 0 })
        .where('id', '=', f.accountId)
        .execute();
    const critical = (name: string) =>
      f.createAlarm({
        name,
        severity: 'critical',
        recipients: [{ user_id: f.userIds.tech, channels: ['mail'] }],
      });
    const about = (id: string) =>
      mails()
        .to(DEMO_USERS.tech)
        .filter((m) => m.url.endsWith(id));
    try {
      const waits = await critical('Gas leak (default)');
      await f.raise(waits);
      await dispatcher.round();
      expect(about(waits)).toHaveLength(0);

      await setOverride(true);
      const through = await critical('Gas leak (override)');
      await f.raise(through);
      await dispatcher.round();
      expect(about(through)).toHaveLength(1);
      expect(about(waits)).toHaveLength(0);
    } finally {
      await setOverride(false);
      await f.setNotifications('tech', { channels: ['mail'], window: null });
    }
  });
});

describe('escalation of a critical alarm', () => {
  it('repeats after the set minutes, then tells the next recipient, and stops once acknowledged', async () => {
    const alarmId = await f.createAlarm({
      name: 'Boiler pressure',
      severity: 'critical',
      recipients: [
        { user_id: f.userIds.admin, channels: ['mail'] },
        { user_id: f.userIds.tech, channels: ['mail'] },
        { user_id: f.userIds.internal, channels: ['mail'] },
      ],
    });
    const about = (who: string) =>
      mails()
        .to(who)
        .filter((m) => m.url.endsWith(alarmId));
    await f.raise(alarmId);
    await dispatcher.round();
    expect(about(DEMO_USERS.admin).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Critical: \u2068Boiler pressure\u2069/),
    ]);
    expect(about(DEMO_USERS.tech)).toHaveLength(0);

    f.clock.advance(ESCALATION_AFTER_MS - 1_000);
    await dispatcher.round();
    expect(about(DEMO_USERS.admin)).toHaveLength(1);

    f.clock.advance(1_000);
    await dispatcher.round();
    expect(about(DEMO_USERS.admin).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Critical: /),
      expect.stringMatching(/^Still active, not acknowledged: /),
    ]);
    expect(about(DEMO_USERS.tech)).toHaveLength(0);

    f.clock.advance(ESCALATION_AFTER_MS);
    await dispatcher.round();
    expect(about(DEMO_USERS.tech).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Escalated to you: \u2068Boiler pressure\u2069/),
    ]);
    expect(about(DEMO_USERS.internal)).toHaveLength(0);
    expect(about(DEMO_USERS.admin)).toHaveLength(2);

    await f.acknowledge(alarmId);
    await dispatcher.round();
    for (let i = 0; i < 3; i += 1) {
      f.clock.advance(ESCALATION_AFTER_MS);
      await dispatcher.round();
    }
    expect(about(DEMO_USERS.admin)).toHaveLength(2);
    expect(about(DEMO_USERS.tech)).toHaveLength(1);
    expect(about(DEMO_USERS.internal)).toHaveLength(0);
  });
});

describe('failures', () => {
  it('takes a send over once the lease of a process that died with it ran out', async () => {
    const alarmId = await f.createAlarm({
      name: 'Hydraulic oil',
      recipients: [{ user_id: f.userIds.internal, channels: ['mail'] }],
    });
    await f.raise(alarmId);
    // A process claimed the delivery and died before it sent (its lease is what it left).
    const other = f.dispatcher(f.server.openDatabase());
    const sending = mails().send.bind(mails());
    let hang: (() => void) | undefined;
    mails().send = () =>
      new Promise((resolve) => {
        hang = () => resolve({ kind: 'sent' });
      });
    const dying = other.round();
    // Until its send hangs (its claim alone is not enough: on a busy machine the send could
    // otherwise start after the channel is given back below, and really send).
    await vi.waitFor(
      async () => {
        expect(hang).toBeDefined();
        const rows = await f.deliveries(alarmId);
        expect(rows.map((r) => r.state)).toEqual(['sending']);
      },
      { timeout: 10_000 },
    );
    mails().send = sending;
    const about = () =>
      mails()
        .to(DEMO_USERS.internal)
        .filter((m) => m.url.endsWith(alarmId));
    await dispatcher.round();
    expect(about()).toHaveLength(0);
    f.clock.advance(LEASE_MS + 1_000);
    await dispatcher.round();
    expect(about()).toHaveLength(1);
    expect((await f.deliveries(alarmId)).map((r) => [r.state, r.attempts])).toEqual([['sent', 2]]);
    // The stale send's end changes nothing: the row is the other send's now.
    hang?.();
    await dying;
    expect((await f.deliveries(alarmId)).map((r) => r.state)).toEqual(['sent']);
    await other.stop();
  });

  it('retries with backoff, then gives up, and shows it on the alarm', async () => {
    const alarmId = await f.createAlarm({
      name: 'Cooling water',
      recipients: [{ user_id: f.userIds.internal, channels: ['mail'] }],
    });
    let tries = 0;
    mails().fail = (to) => {
      if (to.email !== DEMO_USERS.internal) return undefined;
      tries += 1;
      return new Error('SMTP server unreachable');
    };
    try {
      await f.raise(alarmId);
      await dispatcher.round();
      expect(tries).toBe(1);
      expect((await f.status(alarmId))?.delivery).toEqual({
        state: 'retrying',
        attempts: 1,
        error: 'SMTP server unreachable',
      });
      for (const [i, backoff] of RETRY_BACKOFF_MS.entries()) {
        f.clock.advance(backoff - 1_000);
        await dispatcher.round();
        expect(tries).toBe(i + 1);
        f.clock.advance(1_000);
        await dispatcher.round();
        expect(tries).toBe(i + 2);
      }
      expect(tries).toBe(MAX_ATTEMPTS);
      expect((await f.status(alarmId))?.delivery).toEqual({
        state: 'failed',
        attempts: MAX_ATTEMPTS,
        error: 'SMTP server unreachable',
      });
      f.clock.advance(24 * 3_600_000);
      await dispatcher.round();
      expect(tries).toBe(MAX_ATTEMPTS);
    } finally {
      mails().fail = undefined;
    }
  });

  it('gives up at once on a permanent failure, and records a skip as a skip', async () => {
    const alarmId = await f.createAlarm({
      name: 'Door open',
      recipients: [{ user_id: f.userIds.internal, channels: ['mail'] }],
    });
    mails().fail = (to) =>
      to.email === DEMO_USERS.internal ? new PermanentDeliveryError('550 No such user') : undefined;
    try {
      await f.raise(alarmId);
      await dispatcher.round();
      expect((await f.status(alarmId))?.delivery).toEqual({
        state: 'failed',
        attempts: 1,
        error: '550 No such user',
      });
    } finally {
      mails().fail = undefined;
    }

    const other = await f.createAlarm({
      name: 'Door ajar',
      recipients: [{ user_id: f.userIds.internal, channels: ['mail'] }],
    });
    mails().outcome = { kind: 'skipped', reason: 'No address to send to.' };
    try {
      await f.raise(other);
      await dispatcher.round();
    } finally {
      mails().outcome = { kind: 'sent' };
    }
    const rows = await f.deliveries(other);
    expect(rows.map((r) => [r.state, r.last_error])).toEqual([
      ['skipped', 'No address to send to.'],
    ]);
    expect((await f.status(other))?.delivery.state).toBe('none');
  });
});
