import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_LIMITS } from '@plant/shared-schema';
import { AlarmRepository } from '../repositories/alarm.repository';
import { DEMO_USERS } from '../seed/demo';
import { demoGateway, linkedAgent } from '../testing/gateway-client';
import type { AlarmDispatcher } from './dispatcher';
import { notifyFixture, type NotifyFixture } from './notify-fixture';

/*
 * Issue 30 item 2: a limit alarm with a delay and a hysteresis of 0 on a noisy value sent one
 * recipient 185 mails in 20 minutes. Here a value flutters across its limit every second for ten
 * minutes of simulated time (the server's clock is moved by hand; the points go through the real
 * ingest and evaluator, a transition a second): each recipient gets at most one message per
 * alarm per its message interval, and the messages together count every transition, also when
 * the dispatcher is restarted in the middle (the held deliveries are rows in the database).
 */
let f: NotifyFixture;
let dispatcher: AlarmDispatcher;
let agent: Awaited<ReturnType<typeof linkedAgent>>;
let gw: Awaited<ReturnType<typeof demoGateway>>;

beforeAll(async () => {
  f = await notifyFixture();
  // A machine without the demo's own alarms (those are on the first two).
  gw = await demoGateway(f.server, f.accountId, 2);
  agent = await linkedAgent(f.server, f.adminToken, gw.gatewayId, 'flapping-test');
  dispatcher = f.dispatcher();
  await dispatcher.round();
  await f.setNotifications('admin', { channels: ['mail'], window: null });
  await f.setNotifications('tech', { channels: ['mail'], window: null });
});
afterAll(async () => {
  await dispatcher.stop();
  await agent.close();
  await f.close();
});

/** "(+N state changes)" in a subject: how many transitions one message stands for. */
const standsFor = (subject: string) =>
  1 + Number(/\(\+(\d+) state changes?\)/.exec(subject)?.[1] ?? 0);

describe('a value fluttering across its limit for ten minutes', () => {
  it('reaches each recipient at most once per message interval, and the rest counted in a summary', async () => {
    const stream = gw.streams['Motor temperature'] ?? '';
    const alarm = (name: string, user: 'admin' | 'tech', every?: number) =>
      f.createAlarm({
        asset_id: gw.assetId,
        datastream_id: stream,
        name,
        upper_limit: 80,
        delay_s: 0,
        hysteresis: 0,
        recipients: [{ user_id: f.userIds[user], channels: ['mail'] }],
        ...(every === undefined ? {} : { notify_interval_min: every }),
      });
    // The default interval (15 minutes) for the admin, 4 minutes for the technician.
    const fifteen = await alarm('Flutter default', 'admin');
    const four = await alarm('Flutter four', 'tech', 4);
    const mailsOf = (email: string, name: string) =>
      f.channels.mail.to(email).filter((m) => m.text.includes(name));

    // A point a second, 81 and 79 in turn, sent in batches of ten seconds; the dispatcher runs
    // a round after each, and is replaced by a new one (a restart) at five minutes.
    const t0 = f.clock.now();
    for (let s = 0; s < 600; s += 10) {
      const points = Array.from({ length: 10 }, (_, i) => ({
        stream,
        ts: t0 + (s + i + 1) * 1000,
        value: (s + i) % 2 === 0 ? 81 : 79,
      }));
      f.clock.advance(t0 + (s + 10) * 1000 - f.clock.now());
      const ack = await agent.send(points);
      expect(ack.stored).toBe(10);
      await dispatcher.round();
      if (s === 300) {
        await dispatcher.stop();
        dispatcher = f.dispatcher();
      }
    }
    const events = new AlarmRepository(f.server.db);
    const transitions = async (id: string) =>
      (await events.events(f.accountId, id)).filter((e) => e.kind !== 'acknowledged').length;
    // Every second a transition: what a mail each would have been.
    expect(await transitions(fifteen)).toBe(600);
    expect(await transitions(four)).toBe(600);

    // Ten minutes: the admin was told once (the first round), the technician at 0, 4 and 8.
    expect(ALARM_LIMITS.defaultNotifyIntervalMin).toBe(15);
    expect(mailsOf(DEMO_USERS.admin, 'Flutter default')).toHaveLength(1);
    const tech = mailsOf(DEMO_USERS.tech, 'Flutter four');
    expect(tech).toHaveLength(3);
    // A round's transitions of one alarm are one message: its latest state, with the count.
    expect(tech[0]?.subject).toMatch(/^Cleared: \u2068Flutter four\u2069 .*\(\+9 state changes\)$/);
    expect(standsFor(tech[1]?.subject ?? '')).toBeGreaterThan(200);

    // The intervals end while the value stands still: the summary carries the count of the rest.
    f.clock.advance(t0 + 16 * 60_000 - f.clock.now());
    await dispatcher.round();
    const admin = mailsOf(DEMO_USERS.admin, 'Flutter default');
    expect(admin).toHaveLength(2);
    expect(admin[1]?.subject).toMatch(
      /^Cleared: \u2068Flutter default\u2069 .*\(\+589 state changes\)$/,
    );
    expect(admin[1]?.text).toContain('589 earlier state changes not sent on their own since');
    expect(admin[1]?.text).toContain('at most one message per 15 min');
    const techAll = mailsOf(DEMO_USERS.tech, 'Flutter four');
    expect(techAll).toHaveLength(4);
    // Nothing lost: the messages together stand for every transition.
    expect(admin.reduce((n, m) => n + standsFor(m.subject), 0)).toBe(600);
    expect(techAll.reduce((n, m) => n + standsFor(m.subject), 0)).toBe(600);
    expect(
      (await f.deliveries(fifteen)).filter((r) => r.channel === 'mail' && r.state !== 'sent'),
    ).toEqual([]);

    // Quiet from now on: nothing more, however many rounds.
    f.clock.advance(30 * 60_000);
    await dispatcher.round();
    expect(mailsOf(DEMO_USERS.admin, 'Flutter default')).toHaveLength(2);
  });
});
