import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, pushKeySchema } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
let tech: string;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  [tech, admin] = await Promise.all([s.signIn(DEMO_USERS.tech), s.signIn(DEMO_USERS.admin)]);
});
afterAll(() => s.close());

/** What a browser's PushSubscription.toJSON() gives, in spec 000 §7's field names. */
function browserSubscription(
  endpoint = `https://push.example.com/send/${randomBytes(8).toString('hex')}`,
) {
  const ecdh = createECDH('prime256v1');
  return {
    endpoint,
    publicKey: ecdh.generateKeys().toString('base64url'),
    authToken: randomBytes(16).toString('base64url'),
    contentEncoding: 'aes128gcm',
    deviceType: 'tablet',
    deviceBrand: 'Acme',
  };
}

const rowsOf = (endpoint: string) =>
  s.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).execute();

async function userId(token: string): Promise<string> {
  const res = await s.call('GET', apiPaths.user(), { token });
  return (res.json as { data: { id: string } }).data.id;
}

describe('POST and DELETE subscriptions, GET push/key', () => {
  it('stores the browser for the signed-in user; the same browser under another user moves', async () => {
    const sub = browserSubscription();
    const first = await s.call('POST', apiPaths.subscriptions(), { token: tech, json: sub });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ success: true });
    expect(await rowsOf(sub.endpoint)).toMatchObject([
      {
        user_id: await userId(tech),
        public_key: sub.publicKey,
        auth_token: sub.authToken,
        content_encoding: 'aes128gcm',
        device_type: 'tablet',
        device_brand: 'Acme',
      },
    ]);

    // Another user signs in on the same browser: the tablet now tells the admin, not the tech.
    const again = { ...browserSubscription(sub.endpoint), deviceBrand: undefined };
    const moved = await s.call('POST', apiPaths.subscriptions(), { token: admin, json: again });
    expect(moved.status).toBe(201);
    const rows = await rowsOf(sub.endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: await userId(admin),
      public_key: again.publicKey,
      device_brand: null,
    });
  });

  it("DELETE ends the caller's own subscription and leaves another user's alone", async () => {
    const sub = browserSubscription();
    expect(
      (await s.call('POST', apiPaths.subscriptions(), { token: tech, json: sub })).status,
    ).toBe(201);
    const byOther = await s.call('DELETE', apiPaths.subscriptions(), {
      token: admin,
      json: { endpoint: sub.endpoint },
    });
    expect(byOther.status).toBe(200);
    expect(await rowsOf(sub.endpoint)).toHaveLength(1);

    const own = await s.call('DELETE', apiPaths.subscriptions(), {
      token: tech,
      json: { endpoint: sub.endpoint },
    });
    expect(own.status).toBe(200);
    expect(own.json).toEqual({ success: true });
    expect(await rowsOf(sub.endpoint)).toHaveLength(0);
  });

  it('signing out ends the subscriptions sent with that sign-in, not those of another', async () => {
    const tablet = await s.signIn(DEMO_USERS.tech);
    const laptop = await s.signIn(DEMO_USERS.tech);
    const onTablet = browserSubscription();
    const onLaptop = browserSubscription();
    for (const [token, sub] of [
      [tablet, onTablet],
      [laptop, onLaptop],
    ] as const) {
      const res = await s.call('POST', apiPaths.subscriptions(), { token, json: sub });
      expect(res.status).toBe(201);
    }
    expect(await rowsOf(onTablet.endpoint)).toHaveLength(1);
    const out = await s.call('POST', apiPaths.logout(), { token: tablet });
    expect(out.status).toBeLessThan(300);
    // The shared tablet no longer gets the technician's alarms; its laptop still does.
    expect(await rowsOf(onTablet.endpoint)).toHaveLength(0);
    expect(await rowsOf(onLaptop.endpoint)).toHaveLength(1);
  });

  it('GET push/key answers the VAPID public key kept in DATA_DIR/vapid.json', async () => {
    const res = await s.call('GET', apiPaths.pushKey(), { token: tech });
    expect(res.status).toBe(200);
    const { publicKey, subscribeTimeoutMs } = pushKeySchema.parse(res.json);
    // How long a browser waits for its push service: PUSH_SUBSCRIBE_TIMEOUT_S, 20 s by default.
    expect(subscribeTimeoutMs).toBe(20_000);
    const kept = JSON.parse(await fs.readFile(path.join(s.dataDir, 'vapid.json'), 'utf8')) as {
      publicKey: string;
    };
    expect(publicKey).toBe(kept.publicKey);
    // An uncompressed P-256 point, as pushManager.subscribe's applicationServerKey takes it.
    const point = Buffer.from(publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
  });

  it.each([
    ['an http endpoint', { endpoint: 'http://push.example.com/send/1' }, 'endpoint'],
    ['a javascript: endpoint', { endpoint: 'javascript:alert(1)' }, 'endpoint'],
    [
      'an endpoint of 5,000 characters',
      { endpoint: `https://p.example/${'a'.repeat(5000)}` },
      'endpoint',
    ],
    ['a huge public key', { publicKey: 'A'.repeat(10_000) }, 'publicKey'],
    ['a public key that is not base64url', { publicKey: 'BPk3 <script>' }, 'publicKey'],
    ['a huge device type', { deviceType: 'x'.repeat(1000) }, 'deviceType'],
    ['an unknown content encoding', { contentEncoding: 'gzip' }, 'contentEncoding'],
    ['no endpoint', { endpoint: undefined }, 'endpoint'],
    ['no auth token', { authToken: undefined }, 'authToken'],
    ['a number for the endpoint', { endpoint: 42 }, 'endpoint'],
  ])('POST refuses %s with 422 and stores nothing', async (_, change, field) => {
    const before = await s.contentHashes();
    const res = await s.call('POST', apiPaths.subscriptions(), {
      token: tech,
      json: { ...browserSubscription(), ...change },
    });
    expect(res.status).toBe(422);
    const body = res.json as { message: unknown; errors: Record<string, unknown> };
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body.errors)).toContain(field);
    expect(await s.contentHashes()).toEqual(before);
  });

  it.each([
    ['an http endpoint', { endpoint: 'http://push.example.com/send/1' }],
    ['no endpoint', {}],
    ['a huge endpoint', { endpoint: `https://p.example/${'a'.repeat(5000)}` }],
  ])('DELETE refuses %s with 422', async (_, json) => {
    const res = await s.call('DELETE', apiPaths.subscriptions(), { token: tech, json });
    expect(res.status).toBe(422);
    expect(Object.keys((res.json as { errors: object }).errors)).toEqual(['endpoint']);
  });

  it('each one needs a signed-in user (401)', async () => {
    const sub = browserSubscription();
    expect((await s.call('POST', apiPaths.subscriptions(), { json: sub })).status).toBe(401);
    expect(
      (await s.call('POST', apiPaths.subscriptions(), { json: sub, token: 'nope' })).status,
    ).toBe(401);
    const del = await s.call('DELETE', apiPaths.subscriptions(), {
      json: { endpoint: sub.endpoint },
    });
    expect(del.status).toBe(401);
    expect((await s.call('GET', apiPaths.pushKey())).status).toBe(401);
    expect(await rowsOf(sub.endpoint)).toHaveLength(0);
  });
});
