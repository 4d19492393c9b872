import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  INTEGRATION_TEXTS,
  integrationSecretSchema,
  WEBHOOK_HEADERS,
  webhookAlarmBodySchema,
  webhookDeliveriesSchema,
  webhookValuesBodySchema,
  type IntegrationSecret,
  type WebhookAlarmBody,
} from '@plant/shared-schema';
import { systemClock } from '../lib/clock';
import { DEMO_USERS } from '../seed/demo';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';
import { demoGateway, linkedAgent, type SentPoint } from '../testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { startWebhookReceiver, type ReceivedPost } from '../testing/webhook-receiver';
import { verifyWebhookSignature } from './webhook-signing';

/*
 * Webhook integrations (issue 37 item 6) through the real server: values ingested by a linked
 * gateway raise and clear an alarm, and a receiver on a loopback port gets each alarm event once,
 * signed with the integration's secret; a receiver answering 500 twice gets it on the third try;
 * another account's events never reach a webhook; a private address is refused unless the
 * server's flag allows it.
 */
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let admin: string;
let rootId: string;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: Awaited<ReturnType<typeof linkedAgent>>;
let t = Date.now() - 3_600_000;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_BASE_MS: '150' },
  });
  admin = await server.signIn(DEMO_USERS.admin);
  rootId = (await server.demoAccountIds()).root;
  gw = await demoGateway(server, rootId);
  agent = await linkedAgent(server, admin, gw.gatewayId, 'webhook-test');
});
afterAll(async () => {
  await agent.close();
  await server.close();
  await receiver.close();
});

const spindle = () => gw.streams['Spindle speed'] ?? '';

/** Sends points a second apart, after the last ones sent, as the gateway's agent does. */
async function send(values: readonly number[]) {
  const points: SentPoint[] = values.map((value) => {
    t += 1_000;
    return { stream: spindle(), ts: t, value };
  });
  const ack = await agent.send(points);
  expect(ack.stored).toBe(points.length);
}

async function createWebhook(
  body: { name: string; slug: string; url: string; all_assets?: boolean; asset_ids?: string[] },
  token = admin,
): Promise<string> {
  const answer = await server.call('POST', apiPaths.collection('integrations'), {
    token,
    json: {
      name: body.name,
      kind: 'webhook',
      slug: body.slug,
      webhook: {
        url: body.url,
        send_values: false,
        all_assets: body.all_assets ?? false,
        asset_ids: body.asset_ids ?? [gw.assetId],
      },
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return dataOf<{ id: string }>(answer).id;
}

async function secretOf(integrationId: string): Promise<IntegrationSecret> {
  const answer = await server.call('GET', apiPaths.integrationSecret(integrationId), {
    token: admin,
  });
  expect(answer.status, answer.text).toBe(200);
  return integrationSecretSchema.parse(dataOf(answer));
}

async function deliveries(integrationId: string, token = admin) {
  const answer = await server.call('GET', apiPaths.integrationDeliveries(integrationId), {
    token,
  });
  expect(answer.status, answer.text).toBe(200);
  return webhookDeliveriesSchema.parse(dataOf(answer));
}

/** The post's body, once its signature and headers hold (else the test fails). */
function checked(post: ReceivedPost, secret: string): WebhookAlarmBody {
  const header = (name: string) => {
    const value = post.headers[name.toLowerCase()];
    return typeof value === 'string' ? value : '';
  };
  expect(
    verifyWebhookSignature(
      secret,
      header(WEBHOOK_HEADERS.timestamp),
      post.body,
      header(WEBHOOK_HEADERS.signature),
      Date.now(),
    ),
  ).toBe(true);
  const body = webhookAlarmBodySchema.parse(JSON.parse(post.body));
  expect(header(WEBHOOK_HEADERS.delivery)).toBe(body.id);
  expect(header(WEBHOOK_HEADERS.event)).toBe(body.type);
  expect(post.headers['content-type']).toBe('application/json');
  return body;
}

describe('a webhook integration', () => {
  let hook: string;
  let alarm: string;

  it('posts each alarm event of its asset once, signed with its secret', async () => {
    hook = await createWebhook({
      name: 'Alarm hook',
      slug: 'alarm-hook',
      url: `${receiver.origin}/ok`,
    });
    const { secret } = await secretOf(hook);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    // Never part of the synced model: no reader of the integration gets it.
    const synced = (await server.snapshot(admin)).find((m) => m.id === hook);
    expect(JSON.stringify(synced)).not.toContain(secret);
    expect(synced?.attributes).toMatchObject({ slug: 'alarm-hook', kind: 'webhook' });

    const made = await server.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: {
        asset_id: gw.assetId,
        datastream_id: spindle(),
        name: 'Spindle overspeed',
        upper_limit: 5_000,
        severity: 'critical',
      },
    });
    expect(made.status, made.text).toBe(201);
    alarm = dataOf<{ id: string }>(made).id;
    // Normal, over the limit (raised), back under it (cleared).
    await send([4_000, 4_100, 5_200, 5_300, 4_000]);
    await expect.poll(() => receiver.to('/ok').length, { timeout: 20_000 }).toBe(2);

    const bodies = receiver.to('/ok').map((post) => checked(post, secret));
    expect(bodies.map((b) => b.type).sort()).toEqual(['alarm.cleared', 'alarm.raised']);
    const raised = bodies.find((b) => b.type === 'alarm.raised');
    expect(raised).toMatchObject({
      account_id: rootId,
      integration_id: hook,
      asset: { id: gw.assetId },
      alarm: { id: alarm, name: 'Spindle overspeed', severity: 'critical' },
      event: { kind: 'raised', value: 5_200, count: 1 },
    });
    // Each event once: rounds again find nothing new to post. Through `wake`, after the round
    // the alarm's changes woke (it may still be settling the second post, answered already).
    await server.webhooks.wake();
    await server.webhooks.wake();
    expect(receiver.to('/ok')).toHaveLength(2);
    expect(new Set(bodies.map((b) => b.event.id)).size).toBe(2);
    const log = await deliveries(hook);
    expect(log.map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual([
      ['sent', [200]],
      ['sent', [200]],
    ]);
  });

  it('signs with the new secret once it was made anew', async () => {
    const old = await secretOf(hook);
    const made = await server.call('POST', apiPaths.integrationSecret(hook), { token: admin });
    expect(made.status, made.text).toBe(200);
    const fresh = integrationSecretSchema.parse(dataOf(made));
    expect(fresh.secret).not.toBe(old.secret);
    expect((await secretOf(hook)).secret).toBe(fresh.secret);

    await send([5_500, 4_000]);
    await expect.poll(() => receiver.to('/ok').length, { timeout: 20_000 }).toBe(4);
    for (const post of receiver.to('/ok').slice(2)) {
      checked(post, fresh.secret);
      const header = post.headers[WEBHOOK_HEADERS.signature.toLowerCase()];
      const timestamp = post.headers[WEBHOOK_HEADERS.timestamp.toLowerCase()];
      expect(
        verifyWebhookSignature(
          old.secret,
          String(timestamp),
          post.body,
          String(header),
          Date.now(),
        ),
      ).toBe(false);
    }
  });

  it('tries again with backoff: a receiver answering 500 twice gets the event on the third try', async () => {
    receiver.answer('/flaky', [500, 500]);
    const flaky = await createWebhook({
      name: 'Flaky hook',
      slug: 'flaky-hook',
      url: `${receiver.origin}/flaky`,
    });
    const { secret } = await secretOf(flaky);
    await send([5_600]);
    await expect
      .poll(async () => (await deliveries(flaky)).map((d) => d.state), { timeout: 20_000 })
      .toEqual(['sent']);
    const posts = receiver.to('/flaky');
    expect(posts.map((p) => p.status)).toEqual([500, 500, 200]);
    // The same delivery three times, each try signed anew.
    const ids = posts.map((p) => checked(p, secret).id);
    expect(new Set(ids).size).toBe(1);
    const [log] = await deliveries(flaky);
    expect(log?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    // Backoff: the second wait is longer than the first (150 ms, then 300 ms).
    const at = log?.attempts.map((a) => a.at) ?? [];
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(150);
    expect((at[2] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(300);
    // The first webhook got the raise too; then both get the clear.
    await send([4_000]);
    await expect.poll(() => receiver.to('/ok').length, { timeout: 20_000 }).toBe(6);
    await expect.poll(() => receiver.to('/flaky').length, { timeout: 20_000 }).toBe(4);
  });

  it("never posts another account's events, nor its own to another account's webhook", async () => {
    const ids = await server.demoAccountIds();
    const north = await demoGateway(server, ids.north);
    const northStream = north.streams['Spindle speed'] ?? '';
    // North's own webhook and alarm, written as north's admin would (the server's write here).
    const apply = (body: { kind: 'create'; collection: string; body: Record<string, unknown> }) =>
      server.db
        .transaction()
        .execute((trx) =>
          new ModelService(trx, systemClock, new ChangeFeed()).applyIn(trx, ids.north, body),
        );
    const northHook = (
      await apply({
        kind: 'create',
        collection: 'integrations',
        body: {
          name: 'North hook',
          kind: 'webhook',
          slug: 'alarm-hook',
          webhook: { url: `${receiver.origin}/north`, all_assets: true },
        },
      })
    ).answer.body.data?.id;
    expect(northHook).toBeDefined();
    await apply({
      kind: 'create',
      collection: 'alarms',
      body: { asset_id: north.assetId, datastream_id: northStream, name: 'N', upper_limit: 1 },
    });
    // A raise in each account.
    await server.machineData.alarms.evaluate(ids.north, [
      { stream: northStream, ts: Date.now(), value: 99 },
    ]);
    await send([5_700]);
    await expect.poll(() => receiver.to('/north').length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => receiver.to('/ok').length, { timeout: 20_000 }).toBe(7);
    await server.webhooks.round();
    const northBodies = receiver
      .to('/north')
      .map((p) => webhookAlarmBodySchema.parse(JSON.parse(p.body)));
    expect(northBodies.map((b) => [b.account_id, b.asset.id])).toEqual([
      [ids.north, north.assetId],
    ]);
    const rootBodies = receiver.received
      .filter((p) => p.path !== '/north')
      .map((p) => webhookAlarmBodySchema.parse(JSON.parse(p.body)));
    expect(rootBodies.every((b) => b.account_id === rootId && b.asset.id === gw.assetId)).toBe(
      true,
    );
    await send([4_000]);
  });
});

describe('a webhook that sends values', () => {
  it("posts the covered asset's stored values in signed batches", async () => {
    const made = await server.call('POST', apiPaths.collection('integrations'), {
      token: admin,
      json: {
        name: 'Values hook',
        kind: 'webhook',
        slug: 'values-hook',
        webhook: {
          url: `${receiver.origin}/values`,
          send_values: true,
          all_assets: false,
          asset_ids: [gw.assetId],
        },
      },
    });
    expect(made.status, made.text).toBe(201);
    const hook = dataOf<{ id: string }>(made).id;
    const { secret } = await secretOf(hook);
    const from = t;
    await send([4_201, 4_202, 4_203]);
    await send([4_204, 4_205]);
    const batches = () =>
      receiver
        .to('/values')
        .filter((p) => p.headers[WEBHOOK_HEADERS.event.toLowerCase()] === 'values');
    const points = () =>
      batches().flatMap((p) => webhookValuesBodySchema.parse(JSON.parse(p.body)).points);
    await expect.poll(() => points().length, { timeout: 20_000 }).toBe(5);
    expect(points().map((p) => [p.stream, p.ts - from, p.value])).toEqual(
      [4_201, 4_202, 4_203, 4_204, 4_205].map((value, i) => [spindle(), (i + 1) * 1_000, value]),
    );
    for (const post of batches()) {
      const header = (name: string) => String(post.headers[name.toLowerCase()]);
      expect(
        verifyWebhookSignature(
          secret,
          header(WEBHOOK_HEADERS.timestamp),
          post.body,
          header(WEBHOOK_HEADERS.signature),
          Date.now(),
        ),
      ).toBe(true);
      expect(webhookValuesBodySchema.parse(JSON.parse(post.body))).toMatchObject({
        integration_id: hook,
        asset: { id: gw.assetId },
        dropped: 0,
      });
    }
  });
});

/**
 * Waits for `count` posts to `path`. A wait that ends without them says what the server had: the
 * alarm's history (was the event made?) and the webhook's deliveries (was it queued, tried?).
 */
async function postsArrive(
  at: TestServer,
  token: string,
  ids: { readonly hook: string; readonly alarm: string },
  path: string,
  count: number,
): Promise<void> {
  try {
    await expect.poll(() => receiver.to(path).length, { timeout: 20_000 }).toBe(count);
  } catch (err) {
    const history = await at.call('GET', apiPaths.alarmHistory(ids.alarm), { token });
    const log = await at.call('GET', apiPaths.integrationDeliveries(ids.hook), { token });
    throw new Error(
      `${String(err)}\nalarm history: ${history.status} ${history.text}\ndeliveries: ${log.status} ${log.text}`,
      { cause: err },
    );
  }
}

/** The settings of the tests' own servers: posts to loopback, tried again soon. */
const OWN_ENV = { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_BASE_MS: '150' };

/** A limit alarm (over 10) on the demo gateway's spindle speed, on a server of a test's own. */
async function spindleAlarm(at: TestServer, name: string) {
  const token = await at.signIn(DEMO_USERS.admin);
  const { root } = await at.demoAccountIds();
  const own = await demoGateway(at, root);
  const stream = own.streams['Spindle speed'] ?? '';
  const answer = await at.call('POST', apiPaths.collection('alarms'), {
    token,
    json: { asset_id: own.assetId, datastream_id: stream, name, upper_limit: 10 },
  });
  expect(answer.status, answer.text).toBe(201);
  return { token, root, stream, alarm: dataOf<{ id: string }>(answer).id };
}

/** A webhook of every asset of a server of a test's own, posting to `path`: its id. */
async function webhookOn(at: TestServer, token: string, slug: string, path: string) {
  const answer = await at.call('POST', apiPaths.collection('integrations'), {
    token,
    json: {
      name: slug,
      kind: 'webhook',
      slug,
      webhook: { url: `${receiver.origin}${path}`, all_assets: true },
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return dataOf<{ id: string }>(answer).id;
}

/** The kinds of the alarm events posted to `path`, in order. */
const kindsPostedTo = (path: string) =>
  receiver.to(path).map((p) => webhookAlarmBodySchema.parse(JSON.parse(p.body)).event.kind);

describe('a webhook across a restart', () => {
  it('gets an event made before the restart once, and those after it', async () => {
    const first = await startTestServer({ env: OWN_ENV });
    const dir = first.dataDir;
    const { token, root, stream, alarm } = await spindleAlarm(first, 'R');
    const restarted = { hook: await webhookOn(first, token, 'restarted', '/restart'), alarm };
    const now = Date.now();
    await first.machineData.alarms.evaluate(root, [{ stream, ts: now - 3_000, value: 20 }]);
    await postsArrive(first, token, restarted, '/restart', 1);
    await first.stop();

    const second = await startTestServer({ env: OWN_ENV, dataDir: dir });
    try {
      await second.machineData.alarms.evaluate(root, [{ stream, ts: now - 2_000, value: 5 }]);
      await postsArrive(second, await second.signIn(DEMO_USERS.admin), restarted, '/restart', 2);
      await second.webhooks.round();
      await second.webhooks.round();
      expect(kindsPostedTo('/restart')).toEqual(['raised', 'cleared']);
    } finally {
      await second.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a webhook made after an alarm event', () => {
  it('is not posted the events made before it existed, only those after', async () => {
    const fresh = await startTestServer({ env: OWN_ENV });
    try {
      const { token, root, stream, alarm } = await spindleAlarm(fresh, 'L');
      const evaluate = (ts: number, value: number) =>
        fresh.machineData.alarms.evaluate(root, [{ stream, ts, value }]);
      const now = Date.now();
      expect((await evaluate(now - 3_000, 20)).map((r) => r.kind)).toEqual(['raised']);
      // A round after the event, with no webhook anywhere: it passes over the event.
      await fresh.webhooks.round();
      const posted = { hook: await webhookOn(fresh, token, 'later', '/later'), alarm };
      await evaluate(now - 2_000, 5);
      await postsArrive(fresh, token, posted, '/later', 1);
      await fresh.webhooks.round();
      await fresh.webhooks.round();
      expect(kindsPostedTo('/later')).toEqual(['cleared']);
    } finally {
      await fresh.close();
    }
  });
});

describe('a webhook to a private address', () => {
  it('is refused while WEBHOOK_ALLOW_PRIVATE is off, and the log says why', async () => {
    const plain = await startTestServer();
    try {
      const token = await plain.signIn(DEMO_USERS.admin);
      const ids = await plain.demoAccountIds();
      const own = await demoGateway(plain, ids.root);
      const stream = own.streams['Spindle speed'] ?? '';
      const made = await plain.call('POST', apiPaths.collection('integrations'), {
        token,
        json: {
          name: 'Inside',
          kind: 'webhook',
          slug: 'inside',
          webhook: { url: `${receiver.origin}/private`, all_assets: true },
        },
      });
      expect(made.status, made.text).toBe(201);
      const hook = dataOf<{ id: string }>(made).id;
      const alarm = await plain.call('POST', apiPaths.collection('alarms'), {
        token,
        json: { asset_id: own.assetId, datastream_id: stream, name: 'A', upper_limit: 1 },
      });
      expect(alarm.status, alarm.text).toBe(201);
      await plain.machineData.alarms.evaluate(ids.root, [{ stream, ts: Date.now(), value: 9 }]);
      const log = async () =>
        webhookDeliveriesSchema.parse(
          dataOf(await plain.call('GET', apiPaths.integrationDeliveries(hook), { token })),
        );
      await expect
        .poll(async () => (await log()).map((d) => d.state), { timeout: 20_000 })
        .toEqual(['failed']);
      const [failed] = await log();
      expect(failed?.attempts.map((a) => a.error)).toEqual([INTEGRATION_TEXTS.notPublic]);
      expect(receiver.to('/private')).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
