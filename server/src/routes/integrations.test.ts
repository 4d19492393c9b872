import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  INTEGRATION_TEXTS,
  integrationSecretSchema,
  roleAdminSchema,
  webhookDeliveriesSchema,
} from '@plant/shared-schema';
import { attributeText } from '../db/database';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { startWebhookReceiver } from '../testing/webhook-receiver';

/*
 * The webhook routes (issue 37 item 6): the delivery log shows each delivery only to who sees
 * its asset by the server's access decision (a technician who sees 4 of the machines gets their
 * deliveries only, and 404 for another machine's filter), needs integration::view; the signing
 * secret needs integration::edit; a writer who does not see every asset may not make a webhook
 * send what it does not see.
 */
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let admin: string;
let tech: string;
let rootId: string;
let techRole: { id: string; permissions: string[] };
/** A machine the technician sees, and one it does not, each with a stream. */
let seen: { asset: string; stream: string };
let hidden: { asset: string; stream: string };
let hook: string;

async function streamOf(asset: string): Promise<string> {
  const row = await server.db
    .selectFrom('models')
    .select('id')
    .where('account_id', '=', rootId)
    .where('type', '=', 'datastream')
    .where(attributeText(server.db, 'asset_id'), '=', asset)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function givePermissions(names: readonly string[]) {
  const answer = await server.call('PUT', apiPaths.rolePermissions(techRole.id), {
    token: admin,
    json: { permissions: [...techRole.permissions, ...names] },
  });
  expect(answer.status, answer.text).toBe(200);
}

const log = (token: string, assetId?: string) =>
  server.call('GET', apiPaths.integrationDeliveries(hook, assetId), { token });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_RETRY_BASE_MS: '100' },
  });
  admin = await server.signIn(DEMO_USERS.admin);
  tech = await server.signIn(DEMO_USERS.tech);
  rootId = (await server.demoAccountIds()).root;
  const roles = roleAdminSchema
    .array()
    .parse(dataOf(await server.call('GET', apiPaths.roles(), { token: admin })));
  const role = roles.find((r) => r.slug === 'technician');
  if (role === undefined) throw new Error('no technician role');
  techRole = role;
  const techAssets = new Set(
    (await server.snapshot(tech)).filter((m) => m.type === 'asset').map((m) => m.id),
  );
  const machines = (await server.snapshot(admin)).filter(
    (m) => m.type === 'asset' && m.attributes.gateway_id !== null,
  );
  const inSight = machines.find((m) => techAssets.has(m.id));
  const outOfSight = machines.find((m) => !techAssets.has(m.id));
  if (inSight === undefined || outOfSight === undefined) throw new Error('demo machines');
  seen = { asset: inSight.id, stream: await streamOf(inSight.id) };
  hidden = { asset: outOfSight.id, stream: await streamOf(outOfSight.id) };

  // A webhook of every asset and an alarm on each machine.
  const made = await server.call('POST', apiPaths.collection('integrations'), {
    token: admin,
    json: {
      name: 'Every machine',
      kind: 'webhook',
      slug: 'every-machine',
      webhook: { url: `${receiver.origin}/all`, all_assets: true },
    },
  });
  expect(made.status, made.text).toBe(201);
  hook = dataOf<{ id: string }>(made).id;
  for (const machine of [seen, hidden]) {
    const alarm = await server.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: { asset_id: machine.asset, datastream_id: machine.stream, name: 'A', upper_limit: 1 },
    });
    expect(alarm.status, alarm.text).toBe(201);
  }
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('GET integrations/{id}/deliveries', () => {
  it('lists the posts of a raise on each machine', async () => {
    await server.machineData.alarms.evaluate(rootId, [
      { stream: seen.stream, ts: Date.now(), value: 5 },
      { stream: hidden.stream, ts: Date.now(), value: 5 },
    ]);
    await expect.poll(() => receiver.to('/all').length, { timeout: 20_000 }).toBe(2);
    // Each is settled once the receiver has answered it (after it recorded the post): waited
    // for, so the tests below read both sent.
    await expect
      .poll(async () => webhookDeliveriesSchema.parse(dataOf(await log(admin))).map((d) => d.state))
      .toEqual(['sent', 'sent']);
  });

  it('needs integration::view', async () => {
    expect((await log(tech)).status).toBe(403);
  });

  it('gives an admin every delivery, newest first, with its tries', async () => {
    const answer = await log(admin);
    expect(answer.status, answer.text).toBe(200);
    const deliveries = webhookDeliveriesSchema.parse(dataOf(answer));
    expect(deliveries.map((d) => d.asset_id).sort()).toEqual([seen.asset, hidden.asset].sort());
    expect(deliveries.every((d) => d.state === 'sent' && d.event_type === 'alarm.raised')).toBe(
      true,
    );
    expect(deliveries[0]?.attempts[0]?.status).toBe(200);
    const one = webhookDeliveriesSchema.parse(dataOf(await log(admin, hidden.asset)));
    expect(one.map((d) => d.asset_id)).toEqual([hidden.asset]);
  });

  it("shows a technician only its machines' deliveries, and no other machine's by filter", async () => {
    await givePermissions(['integration::view']);
    const all = webhookDeliveriesSchema.parse(dataOf(await log(tech)));
    expect(all.map((d) => d.asset_id)).toEqual([seen.asset]);
    const own = webhookDeliveriesSchema.parse(dataOf(await log(tech, seen.asset)));
    expect(own.map((d) => d.asset_id)).toEqual([seen.asset]);
    // Another machine is told like one that does not exist.
    expect((await log(tech, hidden.asset)).status).toBe(404);
    expect((await log(tech, 'no-such-asset')).status).toBe(404);
  });

  it('answers 404 for an integration of another account, 422 for a bad filter', async () => {
    const south = await server.signIn(DEMO_USERS.south);
    expect((await log(south)).status).toBe(404);
    const bad = await server.call(
      'GET',
      `${apiPaths.integrationDeliveries(hook)}?asset_id=${encodeURIComponent('../x')}`,
      { token: admin },
    );
    expect(bad.status).toBe(422);
  });
});

describe('the signing secret', () => {
  it('is read and made anew by who edits integrations only', async () => {
    expect(
      (await server.call('GET', apiPaths.integrationSecret(hook), { token: tech })).status,
    ).toBe(403);
    const read = await server.call('GET', apiPaths.integrationSecret(hook), { token: admin });
    expect(read.status, read.text).toBe(200);
    const first = integrationSecretSchema.parse(dataOf(read));
    const again = integrationSecretSchema.parse(
      dataOf(await server.call('GET', apiPaths.integrationSecret(hook), { token: admin })),
    );
    expect(again).toEqual(first);
    const made = await server.call('POST', apiPaths.integrationSecret(hook), { token: admin });
    expect(made.status, made.text).toBe(200);
    expect(integrationSecretSchema.parse(dataOf(made)).secret).not.toBe(first.secret);
  });

  it('belongs to webhooks only', async () => {
    const other = await server.call('POST', apiPaths.collection('integrations'), {
      token: admin,
      json: { name: 'ERP', kind: 'erp' },
    });
    expect(other.status, other.text).toBe(201);
    const id = dataOf<{ id: string }>(other).id;
    const answer = await server.call('GET', apiPaths.integrationSecret(id), { token: admin });
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ message: INTEGRATION_TEXTS.notWebhook });
  });
});

describe('writing a webhook', () => {
  const write = (token: string, webhook: Record<string, unknown>, slug = 'tech-hook') =>
    server.call('POST', apiPaths.collection('integrations'), {
      token,
      json: { name: 'Mine', kind: 'webhook', slug, webhook: { url: receiver.origin, ...webhook } },
    });

  it('sends only what its writer sees', async () => {
    await givePermissions(['integration::view', 'integration::create', 'integration::edit']);
    expect((await write(tech, { all_assets: true })).status).toBe(403);
    const hiddenOne = await write(tech, { all_assets: false, asset_ids: [hidden.asset] });
    expect(hiddenOne.status).toBe(422);
    expect(hiddenOne.json).toMatchObject({
      errors: { webhook: [INTEGRATION_TEXTS.unknownAsset] },
    });
    const own = await write(tech, { all_assets: false, asset_ids: [seen.asset] });
    expect(own.status, own.text).toBe(201);
  });

  it('keeps slugs unique in the account and addresses http or https', async () => {
    const taken = await write(admin, { all_assets: true }, 'every-machine');
    expect(taken.status).toBe(422);
    expect(taken.json).toMatchObject({ errors: { slug: [INTEGRATION_TEXTS.slugTaken] } });
    for (const url of ['ftp://example.com/x', 'https://user:pw@example.com/x', 'example.com'])
      expect((await write(admin, { url }, 'other')).status).toBe(422);
    // A webhook not set up yet (typed by hand, as before the webhook part) is kept, and posts nothing.
    const bare = await server.call('POST', apiPaths.collection('integrations'), {
      token: admin,
      json: { name: 'Empty', kind: 'webhook', settings: { url: 'https://erp.example/hook' } },
    });
    expect(bare.status, bare.text).toBe(201);
  });
});
