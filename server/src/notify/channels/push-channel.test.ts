import fs from 'node:fs/promises';
import { Agent } from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, pushKeySchema } from '@plant/shared-schema';
import { createLogger } from '../../logger';
import { DEMO_USERS } from '../../seed/demo';
import { Mailer } from '../../services/mail.service';
import { startTestServer, type TestServer } from '../../testing/harness';
import { browserKeys, decryptAes128gcm, startPushService } from '../../testing/push-service';
import { PermanentDeliveryError, type OutgoingMessage, type Recipient } from '../contract';
import { createChannels, type Channels } from './index';

const log = createLogger('silent');
let s: TestServer;
let push: Awaited<ReturnType<typeof startPushService>>;
let channels: Channels;
let mailer: Mailer;
let agent: Agent;
/** What the push service answers per path (201 when not listed). */
const answers = new Map<string, number>();
let techToken: string;
let tech: Recipient;

const message: OutgoingMessage = {
  accountId: 'acc',
  subject: 'Alarm: Oven 3 temperature above 80 °C',
  text: 'Oven 3: 91.5 °C since 02:14 (limit 80 °C).',
  url: 'https://plant.example/app/alarms/alarm-1',
  tag: 'alarm-1:raised:1',
  severity: 'critical',
};

beforeAll(async () => {
  s = await startTestServer();
  push = await startPushService((p) => answers.get(p) ?? 201);
  agent = new Agent({ ca: push.ca });
  mailer = new Mailer(
    { smtpUrl: undefined, from: 'Plant <no-reply@plant.example>', dataDir: s.dataDir },
    log,
  );
  channels = await createChannels({
    config: { smsUrl: undefined, smsToken: undefined, vapidSubject: 'mailto:ops@plant.example' },
    db: s.db,
    mailer,
    log,
    dataDir: s.dataDir,
    pushAgent: agent,
    allowPrivatePushEndpoints: true,
  });
  techToken = await s.signIn(DEMO_USERS.tech);
  const me = await s.call('GET', apiPaths.user(), { token: techToken });
  const id = (me.json as { data: { id: string } }).data.id;
  tech = { userId: id, email: DEMO_USERS.tech, phone: null, name: 'Tech', language: 'en' };
});
afterAll(async () => {
  agent.destroy();
  mailer.close();
  await push.close();
  await s.close();
});

/** Subscribes a browser of the signed-in user to `path` on the push service, as a page would. */
async function subscribe(token: string, endpointPath: string) {
  const keys = browserKeys();
  const endpoint = `${push.origin}${endpointPath}`;
  const res = await s.call('POST', apiPaths.subscriptions(), {
    token,
    json: {
      endpoint,
      publicKey: keys.publicKey,
      authToken: keys.authSecret,
      contentEncoding: 'aes128gcm',
    },
  });
  expect(res.status, res.text).toBe(201);
  return { keys, endpoint };
}

const rowOf = (endpoint: string) =>
  s.db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();

async function clearSubscriptions(userId: string) {
  await s.db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
}

describe('the web push channel', () => {
  it('pushes to the browser, signed with the served VAPID key, encrypted for its keys only', async () => {
    await clearSubscriptions(tech.userId ?? '');
    const browser = await subscribe(techToken, '/push/tech-tablet');
    const before = push.received.length;

    expect(await channels.push.send(tech, message)).toEqual({ kind: 'sent' });
    await push.requests(before + 1);
    expect(push.refused).toEqual([]);
    const got = push.received[before];
    expect(got?.path).toBe('/push/tech-tablet');

    // The JWT verified with k (the service checks it); k is the key browsers subscribed with.
    const served = pushKeySchema.parse(
      (await s.call('GET', apiPaths.pushKey(), { token: techToken })).json,
    );
    expect(got?.vapid.key).toBe(served.publicKey);
    expect(got?.vapid.claims.aud).toBe(push.origin);
    expect(got?.vapid.claims.sub).toBe('mailto:ops@plant.example');
    expect(got?.headers.ttl).toBe('86400');
    expect(got?.headers.urgency).toBe('high');
    expect(got?.headers['content-encoding']).toBe('aes128gcm');

    const payload = JSON.parse(
      decryptAes128gcm(got?.body ?? Buffer.alloc(0), browser.keys),
    ) as unknown;
    expect(payload).toEqual({
      title: message.subject,
      body: message.text,
      url: message.url,
      tag: message.tag,
      severity: 'critical',
    });
    // Another browser's keys cannot read it.
    expect(() => decryptAes128gcm(got?.body ?? Buffer.alloc(0), browserKeys())).toThrow();
    expect((await rowOf(browser.endpoint))?.last_used_at).not.toBeNull();
  });

  it('a warning goes with normal urgency; a long text is cut to fit a push, the link kept', async () => {
    await clearSubscriptions(tech.userId ?? '');
    const browser = await subscribe(techToken, '/push/tech-phone');
    const before = push.received.length;
    const long = { ...message, severity: 'warning' as const, text: 'Ofen überhitzt. '.repeat(400) };
    expect(await channels.push.send(tech, long)).toEqual({ kind: 'sent' });
    await push.requests(before + 1);
    const got = push.received[before];
    expect(got?.headers.urgency).toBe('normal');
    const payload = JSON.parse(decryptAes128gcm(got?.body ?? Buffer.alloc(0), browser.keys)) as {
      body: string;
      url: string;
    };
    expect(payload.url).toBe(message.url);
    expect(payload.body.endsWith('…')).toBe(true);
    expect(payload.body.length).toBeLessThan(long.text.length);
  });

  it('a subscription the push service calls gone (410, 404) is deleted; the others still get it', async () => {
    await clearSubscriptions(tech.userId ?? '');
    answers.set('/push/gone-410', 410);
    answers.set('/push/gone-404', 404);
    const gone410 = await subscribe(techToken, '/push/gone-410');
    const gone404 = await subscribe(techToken, '/push/gone-404');
    const alive = await subscribe(techToken, '/push/alive');
    const before = push.received.length;

    expect(await channels.push.send(tech, message)).toEqual({ kind: 'sent' });
    expect(push.received.length - before).toBe(3);
    expect(await rowOf(gone410.endpoint)).toBeUndefined();
    expect(await rowOf(gone404.endpoint)).toBeUndefined();
    expect(await rowOf(alive.endpoint)).toBeDefined();
  });

  it('when every subscription is gone the failure is final; another failure is retried', async () => {
    await clearSubscriptions(tech.userId ?? '');
    answers.set('/push/only-gone', 410);
    const gone = await subscribe(techToken, '/push/only-gone');
    await expect(channels.push.send(tech, message)).rejects.toBeInstanceOf(PermanentDeliveryError);
    expect(await rowOf(gone.endpoint)).toBeUndefined();

    answers.set('/push/busy', 500);
    const busy = await subscribe(techToken, '/push/busy');
    const failed = channels.push.send(tech, message);
    await expect(failed).rejects.toThrow(/500 from the push service/);
    await expect(failed).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    expect(await rowOf(busy.endpoint)).toBeDefined();
  });

  it('a subscription with keys no browser makes is deleted without a push', async () => {
    await clearSubscriptions(tech.userId ?? '');
    const endpoint = `${push.origin}/push/bad-keys`;
    // The schema takes any base64url; only a 65-byte P-256 point can be encrypted for.
    const res = await s.call('POST', apiPaths.subscriptions(), {
      token: techToken,
      json: {
        endpoint,
        publicKey: 'BPk3Q_VnJk2s0mZ-1234',
        authToken: 'aGVsbG8td29ybGQ',
        contentEncoding: 'aes128gcm',
      },
    });
    expect(res.status).toBe(201);
    const before = push.received.length;
    await expect(channels.push.send(tech, message)).rejects.toBeInstanceOf(PermanentDeliveryError);
    expect(await rowOf(endpoint)).toBeUndefined();
    expect(push.received.length).toBe(before);
  });

  it('a push service whose certificate is not trusted is a failure to retry, not a send', async () => {
    await clearSubscriptions(tech.userId ?? '');
    await subscribe(techToken, '/push/untrusted');
    const plain = await createChannels({
      config: { smsUrl: undefined, smsToken: undefined, vapidSubject: 'mailto:ops@plant.example' },
      db: s.db,
      mailer,
      log,
      dataDir: s.dataDir,
      allowPrivatePushEndpoints: true,
    });
    const failed = plain.push.send(tech, message);
    await expect(failed).rejects.toThrow(/certificate/);
    await expect(failed).rejects.not.toBeInstanceOf(PermanentDeliveryError);
  });

  it('refuses endpoints on loopback or private addresses: deleted, never requested', async () => {
    await clearSubscriptions(tech.userId ?? '');
    const guarded = await createChannels({
      config: { smsUrl: undefined, smsToken: undefined, vapidSubject: 'mailto:ops@plant.example' },
      db: s.db,
      mailer,
      log,
      dataDir: s.dataDir,
      pushAgent: agent,
    });
    const port = new URL(push.origin).port;
    const endpoints = [
      `${push.origin}/push/internal`,
      `https://localhost:${port}/push/internal`,
      `https://[::1]:${port}/push/internal`,
    ];
    for (const endpoint of endpoints) {
      const keys = browserKeys();
      const res = await s.call('POST', apiPaths.subscriptions(), {
        token: techToken,
        json: {
          endpoint,
          publicKey: keys.publicKey,
          authToken: keys.authSecret,
          contentEncoding: 'aes128gcm',
        },
      });
      expect(res.status).toBe(201);
    }
    const before = push.received.length + push.refused.length;
    await expect(guarded.push.send(tech, message)).rejects.toBeInstanceOf(PermanentDeliveryError);
    for (const endpoint of endpoints) expect(await rowOf(endpoint)).toBeUndefined();
    expect(push.received.length + push.refused.length).toBe(before);
  });

  it('skips a recipient who is not a user, and a user without a subscription', async () => {
    await clearSubscriptions(tech.userId ?? '');
    const before = push.received.length;
    expect(await channels.push.send({ ...tech, userId: null }, message)).toMatchObject({
      kind: 'skipped',
    });
    expect(await channels.push.send(tech, message)).toMatchObject({ kind: 'skipped' });
    expect(push.received.length).toBe(before);
  });
});

describe('the VAPID keys', () => {
  it('are made once, kept 0600 in DATA_DIR/vapid.json and served again after a restart', async () => {
    const first = await startTestServer({ seed: 'demo' });
    const dir = first.dataDir;
    const keyOf = async (server: TestServer) => {
      const token = await server.signIn(DEMO_USERS.tech);
      const res = await server.call('GET', apiPaths.pushKey(), { token });
      return pushKeySchema.parse(res.json).publicKey;
    };
    const before = await keyOf(first);
    await first.stop();
    const file = path.join(dir, 'vapid.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);

    const second = await startTestServer({ dataDir: dir });
    try {
      expect(await keyOf(second)).toBe(before);
      // Another installation has keys of its own: nothing comes from code.
      expect(await keyOf(s)).not.toBe(before);
      const kept = JSON.parse(await fs.readFile(file, 'utf8')) as { publicKey: string };
      expect(kept.publicKey).toBe(before);
    } finally {
      await second.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
