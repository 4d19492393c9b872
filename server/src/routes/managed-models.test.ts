import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  mqttlogsAnswerSchema,
  ROLE_IS_FIXED,
  ACCOUNTS_ARE_NOT_DELETED,
  MEMBERS_JOIN_BY_INVITATION,
  TAG_TAKEN,
  TAGS_ARE_INTERNAL,
  topics,
  uuidv7,
  type ModelUpdate,
  type SyncedModel,
  type UpdateMessage,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, collect, until } from '../testing/mqtt-client';

/*
 * Roles, members and accounts as synced models (models/managed.ts): written through the generic
 * routes (what the worker's outbox sends, offline writes included), with the same rules as the
 * administration routes, and logged as whole states, so another admin's open screen follows on
 * the live topic and in mqttlogs, and who may not see them gets stand-ins.
 */
let s: TestServer;
let admin = '';
let tech = '';
let internal = '';
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;
const { session, connect, closeAll } = brokerClients(() => s);

const call = (method: string, path: string, json?: unknown, token = admin) =>
  s.call(method, path, json === undefined ? { token } : { token, json });
const snapshot = async (token = admin) =>
  dataOf<{ models: SyncedModel[] }>(
    await call('GET', apiPaths.snapshot(undefined, 2000), undefined, token),
  ).models;
const logs = async (fromTs: number, token = admin) =>
  mqttlogsAnswerSchema
    .parse((await call('GET', apiPaths.mqttlogs(fromTs), undefined, token)).json)
    .data.map((d) => d.msg);
const clockOf = async (token = admin) =>
  dataOf<{ watermark: { ts: number } }>(
    await call('GET', apiPaths.snapshot(undefined, 1), undefined, token),
  ).watermark.ts;
const updatesOf = (msgs: readonly UpdateMessage[], type: string, id: string) =>
  msgs.filter((m): m is ModelUpdate => m.action !== 'hidden' && m.type === type && m.id === id);

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  internal = await s.signIn(DEMO_USERS.internal);
  ids = await s.demoAccountIds();
});
afterEach(() => closeAll());
afterAll(() => s.close());

describe('roles as synced models', () => {
  it('a role written through the generic route reaches another admin live and in mqttlogs; others get stand-ins', async () => {
    const supervisor = await session(DEMO_USERS.internal);
    const watcher = await connect(supervisor.creds);
    const got = collect(watcher);
    await watcher.subscribeAsync(topics.modelUpdates(supervisor.user.account));
    const from = await clockOf();

    const id = uuidv7();
    const mutation = uuidv7();
    const made = await call('POST', apiPaths.collection('roles'), {
      id,
      mutation_id: mutation,
      name: 'Night shift',
      permissions: ['asset::view'],
    });
    expect(made.status).toBe(201);
    expect(dataOf<SyncedModel>(made)).toMatchObject({
      type: 'role',
      id,
      attributes: { name: 'Night shift', slug: 'night-shift', permissions: ['asset::view'] },
    });
    // The same mutation id again: the first answer, nothing logged twice.
    const again = await call('POST', apiPaths.collection('roles'), {
      id,
      mutation_id: mutation,
      name: 'Night shift',
    });
    expect(again.status).toBe(201);

    const assets = (await snapshot()).filter((m) => m.type === 'asset');
    const asset = assets[0];
    if (asset === undefined) throw new Error('no asset');
    const changed = await call('PUT', apiPaths.model('roles', id), {
      mutation_id: uuidv7(),
      assets: [{ asset_id: asset.id, edit: true }],
      fields: [{ type: 'asset', fields: ['name'] }],
    });
    expect(changed.status).toBe(200);
    const attrs = dataOf<SyncedModel>(changed).attributes;
    // What the write did not name stays as it was.
    expect(attrs).toMatchObject({
      name: 'Night shift',
      permissions: ['asset::view'],
      assets: [{ asset_id: asset.id, edit: true }],
      fields: [{ type: 'asset', fields: ['name'] }],
    });

    // The other admin (account::view) follows live, whole states in order.
    await until(() => got.filter((g) => (g.payload as ModelUpdate).id === id).length === 2, 10_000);
    const live = got.map((g) => g.payload as ModelUpdate).filter((u) => u.id === id);
    expect(live.map((u) => u.action)).toEqual(['updated', 'updated']);
    expect(live[1]?.attributes).toMatchObject({ assets: [{ asset_id: asset.id, edit: true }] });

    const logged = updatesOf(await logs(from, internal), 'role', id);
    expect(logged).toHaveLength(2);
    // The technician may view neither accounts nor users: the same seqs arrive as stand-ins.
    const techLog = await logs(from, tech);
    expect(updatesOf(techLog, 'role', id)).toHaveLength(0);
    const seqs = techLog.map((m) => m.seq);
    for (const u of logged) expect(seqs).toContain(u.seq);

    // A role with members cannot go; an empty one can, and its delete is logged.
    const gone = await call('DELETE', apiPaths.model('roles', id), { mutation_id: uuidv7() });
    expect(gone.status).toBe(200);
    const deleted = updatesOf(await logs(from), 'role', id).at(-1);
    expect(deleted?.action).toBe('item_deleted');
    expect((await snapshot()).some((m) => m.type === 'role' && m.id === id)).toBe(false);
  });

  it('the administration rules hold on the generic route', async () => {
    const roles = (await snapshot()).filter((m) => m.type === 'role');
    const adminRole = roles.find((r) => r.attributes.slug === 'admin');
    const technician = roles.find((r) => r.attributes.slug === 'technician');
    if (adminRole === undefined || technician === undefined) throw new Error('demo roles');
    const fixed = await call('PUT', apiPaths.model('roles', adminRole.id), { name: 'Boss' });
    expect(fixed.status).toBe(403);
    expect(fixed.json).toMatchObject({ message: ROLE_IS_FIXED });
    // Without role::edit: refused.
    expect(
      (await call('PUT', apiPaths.model('roles', technician.id), { name: 'Me' }, tech)).status,
    ).toBe(403);
    // An unknown permission: refused as bad input, nothing changed.
    const unknown = await call('PUT', apiPaths.model('roles', technician.id), {
      permissions: ['root::everything'],
    });
    expect(unknown.status).toBe(422);
    // The technician's own snapshot has no role models (no account::view, no user::view), but
    // its own member model.
    const own = await snapshot(tech);
    expect(own.some((m) => m.type === 'role')).toBe(false);
    expect(own.filter((m) => m.type === 'user').map((m) => m.id)).toHaveLength(1);
  });
});

describe('members and accounts as synced models', () => {
  it("a member's roles change through its model; the member sees its own model change", async () => {
    const techSession = await session(DEMO_USERS.tech);
    const client = await connect(techSession.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.modelUpdates(techSession.user.account));
    const models = await snapshot();
    const member = models.find((m) => m.type === 'user' && m.id === techSession.user.id);
    const supervisor = models.find((m) => m.type === 'role' && m.attributes.slug === 'supervisor');
    if (member === undefined || supervisor === undefined) throw new Error('demo member');
    const held = member.attributes.role_ids as string[];

    const given = await call('PUT', apiPaths.model('members', member.id), {
      mutation_id: uuidv7(),
      role_ids: [...held, supervisor.id],
    });
    expect(given.status).toBe(200);
    expect(dataOf<SyncedModel>(given).attributes.role_ids).toEqual(
      expect.arrayContaining([...held, supervisor.id]),
    );
    // The technician's browser gets its own member model, whole.
    await until(
      () =>
        got.some(
          (g) =>
            (g.payload as ModelUpdate).type === 'user' &&
            (g.payload as ModelUpdate).id === member.id,
        ),
      10_000,
    );
    const back = await call('PUT', apiPaths.model('members', member.id), { role_ids: held });
    expect(back.status).toBe(200);
    // Members join by invitation (it needs the network); an account is never deleted.
    const join = await call('POST', apiPaths.collection('members'), { firstname: 'X' });
    expect(join.status).toBe(422);
    expect(join.json).toMatchObject({ message: MEMBERS_JOIN_BY_INVITATION });
    const del = await call('DELETE', apiPaths.model('accounts', ids.north), {});
    expect(del.status).toBe(422);
    expect(del.json).toMatchObject({ message: ACCOUNTS_ARE_NOT_DELETED });
  });

  it("a subaccount's rename is logged in its own log and in the logs above it", async () => {
    const from = await clockOf();
    const renamed = await call('PUT', apiPaths.model('accounts', ids.north), {
      mutation_id: uuidv7(),
      name: 'Customer North AG',
    });
    expect(renamed.status).toBe(200);
    // The root's admins see their tree follow.
    const inRoot = updatesOf(await logs(from), 'account', ids.north).at(-1);
    expect(inRoot?.attributes).toMatchObject({ name: 'Customer North AG', parent_id: ids.root });
    expect(
      (await snapshot()).find((m) => m.type === 'account' && m.id === ids.north)?.attributes,
    ).toMatchObject({ name: 'Customer North AG' });
    // A user of the technician's kind (no account::view) gets a stand-in for it.
    expect(updatesOf(await logs(from, tech), 'account', ids.north)).toHaveLength(0);
    await call('PUT', apiPaths.model('accounts', ids.north), { name: 'Customer North' });
  });
});

describe('tags as synced models', () => {
  it("internal users hand out the account's tags; holders get them at once, admins see them", async () => {
    const from = await clockOf();
    const techUser = dataOf<{ id: string }>(await call('GET', apiPaths.user(), undefined, tech));
    const id = uuidv7();
    const body = { id, slug: 'early-access', user_ids: [techUser.id] };
    // Even an account's admin may not: a tag opens features the machine builder sells.
    const byAdmin = await call('POST', apiPaths.collection('tags'), body);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json).toMatchObject({ message: TAGS_ARE_INTERNAL });
    const made = await call('POST', apiPaths.collection('tags'), body, internal);
    expect(made.status).toBe(201);
    expect(dataOf<SyncedModel>(made).attributes).toMatchObject({
      slug: 'early-access',
      user_ids: [techUser.id],
    });
    // The holder's session has it now.
    const tags = dataOf<{ tags: { slug: string }[] }>(
      await call('GET', apiPaths.user(), undefined, tech),
    ).tags.map((t) => t.slug);
    expect(tags).toContain('early-access');
    // The admin (user::view) sees it in its snapshot and its log.
    expect((await snapshot()).some((m) => m.type === 'tag' && m.id === id)).toBe(true);
    expect(updatesOf(await logs(from), 'tag', id)).toHaveLength(1);

    const taken = await call(
      'POST',
      apiPaths.collection('tags'),
      { id: uuidv7(), slug: 'early-access' },
      internal,
    );
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ message: TAG_TAKEN });
    const stranger = await call(
      'PUT',
      apiPaths.model('tags', id),
      { user_ids: [uuidv7()] },
      internal,
    );
    expect(stranger.status).toBe(422);
    expect(
      (await call('PUT', apiPaths.model('tags', id), { slug: 'Bad Slug' }, internal)).status,
    ).toBe(422);

    expect((await call('DELETE', apiPaths.model('tags', id), {}, internal)).status).toBe(200);
    expect(updatesOf(await logs(from), 'tag', id).at(-1)?.action).toBe('item_deleted');
    const after = dataOf<{ tags: { slug: string }[] }>(
      await call('GET', apiPaths.user(), undefined, tech),
    ).tags.map((t) => t.slug);
    expect(after).not.toContain('early-access');
  });
});

describe('review: concurrent admins, restricted readers, partial writes', () => {
  const roleOf = async (id: string) =>
    (await snapshot()).find((m) => m.type === 'role' && m.id === id)?.attributes;

  it('a list write made against an older list applies only its own change', async () => {
    const assets = (await snapshot()).filter((m) => m.type === 'asset');
    const [a0, a1] = assets;
    if (a0 === undefined || a1 === undefined) throw new Error('assets');
    const id = uuidv7();
    await call('POST', apiPaths.collection('roles'), {
      id,
      name: 'Merge check',
      permissions: ['asset::view'],
      assets: [{ asset_id: a0.id, edit: false }],
    });
    // Another admin takes a0 away and the permission.
    await call('PUT', apiPaths.model('roles', id), { assets: [], permissions: [] }, internal);
    // A write queued earlier, against the old lists, adds a1 and dashboard::view.
    const late = await call('PUT', apiPaths.model('roles', id), {
      assets: [
        { asset_id: a0.id, edit: false },
        { asset_id: a1.id, edit: false },
      ],
      permissions: ['asset::view', 'dashboard::view'],
      base: { assets: [{ asset_id: a0.id, edit: false }], permissions: ['asset::view'] },
    });
    expect(late.status).toBe(200);
    const now = await roleOf(id);
    // What the other admin took away stays away.
    expect(now?.assets).toEqual([{ asset_id: a1.id, edit: false }]);
    expect(now?.permissions).toEqual(['dashboard::view']);
    expect(now).not.toHaveProperty('base');
    await call('PUT', apiPaths.model('roles', id), { assets: [] });
    await call('DELETE', apiPaths.model('roles', id), {});
  });

  it("a reader who sees only some assets gets roles' lists without the others", async () => {
    const models = await snapshot();
    const techRole = models.find((m) => m.type === 'role' && m.attributes.slug === 'technician');
    if (techRole === undefined) throw new Error('technician');
    const given = new Set(
      (techRole.attributes.assets as { asset_id: string }[]).map((a) => a.asset_id),
    );
    const unseen = models.find((m) => m.type === 'asset' && !given.has(m.id));
    if (unseen === undefined) throw new Error('every asset given');
    const id = uuidv7();
    await call('POST', apiPaths.collection('roles'), {
      id,
      name: 'Sees the unseen',
      assets: [{ asset_id: unseen.id, edit: false }],
    });
    // The technician's role may now view users (and so roles), not more assets.
    const perms = techRole.attributes.permissions as string[];
    await call('PUT', apiPaths.model('roles', techRole.id), {
      permissions: [...perms, 'user::view'],
    });
    const from = await clockOf();
    await call('PUT', apiPaths.model('roles', id), { name: 'Sees the unseen (2)' });
    const techModels = await snapshot(tech);
    const seenRole = techModels.find((m) => m.type === 'role' && m.id === id);
    expect(seenRole?.attributes.assets).toEqual([]);
    expect(JSON.stringify(techModels)).not.toContain(unseen.id);
    expect(JSON.stringify(await logs(from, tech))).not.toContain(unseen.id);
    await call('PUT', apiPaths.model('roles', techRole.id), { permissions: perms });
    await call('PUT', apiPaths.model('roles', id), { assets: [] });
    await call('DELETE', apiPaths.model('roles', id), {});
  });

  it("the design an account shows is the server's; a rename keeps the theme; another account's id answers 409", async () => {
    const before = (await snapshot()).find((m) => m.type === 'account' && m.id === ids.north);
    await call('PUT', apiPaths.model('accounts', ids.north), {
      name: 'Customer North',
      theme: { title: 'Written by a client', color1: '#000000' },
    });
    const north = (await snapshot()).find((m) => m.type === 'account' && m.id === ids.north);
    expect(north?.attributes.theme).toEqual(before?.attributes.theme);
    expect(north?.attributes.theme_id).toBe(before?.attributes.theme_id);
    expect(north?.attributes.theme).toMatchObject({ title: 'Customer North', color1: '#38761d' });

    const south = await s.signIn(DEMO_USERS.south);
    const southRole = (await snapshot(south)).find((m) => m.type === 'role');
    if (southRole === undefined) throw new Error('south role');
    const clash = await call('POST', apiPaths.collection('roles'), {
      id: southRole.id,
      name: 'Clash',
    });
    expect(clash.status).toBe(409);
  });

  it('a member who leaves holds none of the account’s tags any more', async () => {
    const techUser = dataOf<{ id: string }>(await call('GET', apiPaths.user(), undefined, tech));
    const tag = uuidv7();
    await call(
      'POST',
      apiPaths.collection('tags'),
      { id: tag, slug: 'leavers-check', user_ids: [techUser.id] },
      internal,
    );
    // Removed from the account (the last test here: the others need the technician).
    const removed = await call('DELETE', apiPaths.model('members', techUser.id), {});
    expect(removed.status).toBe(200);
    const rows = await s.db
      .selectFrom('user_tags')
      .select('tag_id')
      .where('user_id', '=', techUser.id)
      .where('tag_id', '=', tag)
      .execute();
    expect(rows).toHaveLength(0);
  });
});
