import { createServer, type Server } from 'node:http';
import { Agent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type UserProfile } from '@plant/shared-schema';
import { AlarmRepository } from '../repositories/alarm.repository';
import { DEMO_USERS } from '../seed/demo';
import { demoGateway, linkedAgent } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { browserKeys, decryptAes128gcm, startPushService } from '../testing/push-service';
import { decoded, startSmtp } from '../testing/smtp';

/*
 * Issue 17's first test, through the whole server with real channels: a value crossing its limit
 * at the gateway becomes one alarm, one mail to an SMTP server on loopback, one SMS to an HTTP
 * sink, one web push to an HTTPS push service that checks the VAPID signature and whose body the
 * browser's keys decrypt; then the value flutters at the limit for minutes: still one of each,
 * while a plain threshold on the same stream is raised over and over.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let push: Awaited<ReturnType<typeof startPushService>>;
let pushAgent: Agent;
let sms: Server;
const texts: { auth: string | undefined; body: { to: string; text: string } }[] = [];
let admin: string;
let adminId: string;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: Awaited<ReturnType<typeof linkedAgent>>;
const SMS_TOKEN = 'sms-token-for-the-test';

beforeAll(async () => {
  smtp = await startSmtp();
  push = await startPushService();
  pushAgent = new Agent({ ca: push.ca });
  sms = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      texts.push({
        auth: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string; text: string },
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMS_URL: `http://127.0.0.1:${(sms.address() as AddressInfo).port}/send`,
      SMS_TOKEN,
    },
    pushAgent,
  });
  admin = await server.signIn(DEMO_USERS.admin);
  adminId = dataOf<{ id: string }>(await server.call('GET', apiPaths.user(), { token: admin })).id;
  const rootId = (await server.demoAccountIds()).root;
  gw = await demoGateway(server, rootId);
  agent = await linkedAgent(server, admin, gw.gatewayId, 'end-to-end');
});
afterAll(async () => {
  await agent.close();
  await server.close();
  pushAgent.destroy();
  await push.close();
  await smtp.close();
  await new Promise<void>((resolve) => sms.close(() => resolve()));
});

/** Sends the spindle's points as the gateway's agent does; resolves once they are evaluated. */
const send = (points: { ts: number; value: number }[]) =>
  agent.send(points.map((p) => ({ stream: gw.streams['Spindle speed'] ?? '', ...p })));

/** Waits (real time, for the dispatcher's rounds) until `check` holds. */
async function eventually(check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a value over its limit at the gateway', () => {
  it('reaches the admin once by mail, SMS and push; a value fluttering at the limit, still once', async () => {
    // The admin: a phone number, every channel, no window.
    const profile = dataOf<UserProfile>(
      await server.call('GET', apiPaths.userProfile(adminId), { token: admin }),
    );
    const changed = await server.call('PUT', apiPaths.userProfile(adminId), {
      token: admin,
      json: { ...profile, phone: '+49 170 1234567' },
    });
    expect(changed.status, changed.text).toBe(200);
    const settings = await server.call('PUT', apiPaths.userNotifications(adminId), {
      token: admin,
      json: { channels: ['mail', 'sms', 'push'], window: null },
    });
    expect(settings.status, settings.text).toBe(200);
    // Its browser subscribed to push, as a page does.
    const keys = browserKeys();
    const subscribed = await server.call('POST', apiPaths.subscriptions(), {
      token: admin,
      json: {
        endpoint: `${push.origin}/push/admin-tablet`,
        publicKey: keys.publicKey,
        authToken: keys.authSecret,
        contentEncoding: 'aes128gcm',
      },
    });
    expect(subscribed.status, subscribed.text).toBe(201);

    const stream = gw.streams['Spindle speed'] ?? '';
    const alarm = await server.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: {
        asset_id: gw.assetId,
        datastream_id: stream,
        name: 'Spindle overspeed',
        upper_limit: 5_000,
        delay_s: 60,
        hysteresis: 2,
        severity: 'warning',
        recipients: [{ user_id: adminId, channels: ['mail', 'sms', 'push'] }],
      },
    });
    expect(alarm.status, alarm.text).toBe(201);
    const alarmId = dataOf<{ id: string }>(alarm).id;
    // The same limit plainly, telling nobody: what a threshold alone would have done.
    const plain = await server.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: {
        asset_id: gw.assetId,
        datastream_id: stream,
        name: 'Plain threshold',
        upper_limit: 5_000,
      },
    });
    expect(plain.status, plain.text).toBe(201);
    const plainId = dataOf<{ id: string }>(plain).id;

    // Ten minutes ago: normal, then over the limit for 90 s (once past the delay: raised).
    const t0 = Date.now() - 600_000;
    const seconds = (from: number, to: number, value: (s: number) => number) =>
      Array.from({ length: to - from }, (_, i) => ({
        ts: t0 + (from + i) * 1000,
        value: value(from + i),
      }));
    await send([...seconds(0, 30, () => 4_000), ...seconds(30, 120, () => 5_003)]);
    await eventually(
      () => smtp.inbox.length >= 1 && texts.length >= 1 && push.received.length >= 1,
    );

    const mail = smtp.inbox[0];
    expect(mail?.to).toEqual([DEMO_USERS.admin]);
    const body = decoded(mail?.raw ?? '');
    expect(body).toContain('Spindle overspeed');
    expect(body).toContain(`/app/alarms/${alarmId}`);
    expect(texts[0]).toMatchObject({
      auth: `Bearer ${SMS_TOKEN}`,
      body: { to: '+49 170 1234567' },
    });
    expect(texts[0]?.body.text).toContain('Spindle overspeed');
    // The push: signed for the service's origin, and readable only with the browser's keys.
    expect(push.refused).toEqual([]);
    const received = push.received[0];
    expect(received?.vapid.claims.aud).toBe(push.origin);
    const message = JSON.parse(decryptAes128gcm(received?.body ?? Buffer.alloc(0), keys)) as {
      title: string;
      url: string;
      tag: string;
    };
    expect(message.title).toContain('Spindle overspeed');
    expect(message.url).toContain(`/app/alarms/${alarmId}`);

    // Then five minutes of a value fluttering at the limit, a point a second.
    await send(seconds(120, 420, (s) => (s % 2 === 0 ? 5_001 : 4_999)));
    // Whatever the dispatcher had to do, it did: two rounds after the last transition.
    await server.dispatcher.round();
    await server.dispatcher.round();
    expect(smtp.inbox).toHaveLength(1);
    expect(texts).toHaveLength(1);
    expect(push.received).toHaveLength(1);

    const events = new AlarmRepository(server.db);
    const rootId = (await server.demoAccountIds()).root;
    const ours = (await events.events(rootId, alarmId)).filter((e) => e.kind === 'raised');
    const plainly = (await events.events(rootId, plainId)).filter((e) => e.kind === 'raised');
    expect(ours).toHaveLength(1);
    expect(plainly.length).toBeGreaterThan(100);
    // The plain one counts its repeats on one raise instead of adding alarms.
    expect(plainly[plainly.length - 1]?.count).toBe(plainly.length);

    // The alarm shows how its notifications went.
    const shown = (await server.snapshot(admin)).find((m) => m.id === alarmId);
    expect(shown?.attributes).toMatchObject({
      status: { state: 'active', count: 1, delivery: { state: 'sent' } },
    });
  });
});
