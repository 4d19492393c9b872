import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  topics,
  type RoleAdmin,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS, TECHNICIAN_MACHINES } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, collect, until } from '../testing/mqtt-client';

/*
 * The roles of an account (spec 001 §6, DESIGN.md §10) through the API: list, make, rename,
 * delete (never admin or norole), permissions from the product's list, the key button, assets
 * given with or without edit rights, and the fields shown; who may; and the open browsers of a
 * role's users told at once when its access changes.
 */
let s: TestServer;
let admin = '';
let tech = '';
const { session, connect, closeAll } = brokerClients(() => s);

const call = (method: string, path: string, json?: unknown, token = admin) =>
  s.call(method, path, json === undefined ? { token } : { token, json });
const roles = async () => dataOf<RoleAdmin[]>(await call('GET', apiPaths.roles()));
const bySlug = async (slug: string) => {
  const found = (await roles()).find((r) => r.slug === slug);
  if (found === undefined) throw new Error(`no role ${slug}`);
  return found;
};

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
});
afterEach(() => closeAll());
afterAll(() => s.close());

describe('roles', () => {
  it('lists the demo roles with their members, permissions and access', async () => {
    const list = await roles();
    expect(list.map((r) => r.slug).sort()).toEqual(['admin', 'norole', 'supervisor', 'technician']);
    expect(
      list
        .filter((r) => r.fixed)
        .map((r) => r.slug)
        .sort(),
    ).toEqual(['admin', 'norole']);
    const technician = await bySlug('technician');
    expect(technician.members).toBe(1);
    expect(technician.permissions).toContain('asset::view');
    expect(technician.all_assets).toBe(false);
    expect(technician.assets).toHaveLength(TECHNICIAN_MACHINES);
    expect(technician.assets.filter((a) => a.edit)).toHaveLength(1);
    expect(technician.fields.find((f) => f.type === 'asset')?.fields).not.toContain('description');
    expect((await bySlug('supervisor')).all_assets).toBe(true);
  });

  it('makes, renames and deletes a role; names are checked; admin and norole stay as they are', async () => {
    expect((await call('POST', apiPaths.roles(), { name: '' })).json).toMatchObject({
      errors: { name: ['Name is required'] },
    });
    const made = await call('POST', apiPaths.roles(), { name: 'Service partner' });
    expect(made.status).toBe(201);
    const role = dataOf<RoleAdmin>(made);
    expect(role).toMatchObject({ slug: 'service-partner', name: 'Service partner', fixed: false });
    // A new role sees no asset until given some.
    expect(role.all_assets).toBe(false);
    const again = await call('POST', apiPaths.roles(), { name: 'service PARTNER' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ message: ROLE_NAME_TAKEN });

    const renamed = await call('PUT', apiPaths.role(role.id), { name: 'Field service' });
    expect(dataOf<RoleAdmin>(renamed).name).toBe('Field service');
    expect((await call('PUT', apiPaths.role(role.id), { name: 'Technician' })).status).toBe(409);

    const adminRole = await bySlug('admin');
    for (const answer of [
      await call('PUT', apiPaths.role(adminRole.id), { name: 'Boss' }),
      await call('DELETE', apiPaths.role(adminRole.id)),
      await call('PUT', apiPaths.rolePermissions((await bySlug('norole')).id), {
        permissions: ['asset::view'],
      }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ message: ROLE_IS_FIXED });
    }
    const held = await call('DELETE', apiPaths.role((await bySlug('technician')).id));
    expect(held.status).toBe(409);
    expect(held.json).toMatchObject({ message: ROLE_HAS_MEMBERS });

    expect((await call('DELETE', apiPaths.role(role.id))).status).toBe(204);
    expect((await roles()).map((r) => r.id)).not.toContain(role.id);
    expect((await call('DELETE', apiPaths.role(role.id))).status).toBe(404);
  });

  it('sets permissions from the product list only, and access per asset and field', async () => {
    const role = dataOf<RoleAdmin>(await call('POST', apiPaths.roles(), { name: 'Auditor' }));
    const unknown = await call('PUT', apiPaths.rolePermissions(role.id), {
      permissions: ['asset::view', 'root::everything'],
    });
    expect(unknown.status).toBe(422);
    const set = await call('PUT', apiPaths.rolePermissions(role.id), {
      permissions: ['asset::view', 'datastream::view', 'asset::view'],
    });
    expect(dataOf<RoleAdmin>(set).permissions).toEqual(['asset::view', 'datastream::view']);

    const closed = await call('PUT', apiPaths.roleAccess(role.id), { all_assets: false });
    expect(dataOf<RoleAdmin>(closed).all_assets).toBe(false);
    const models = dataOf<{ models: SyncedModel[] }>(
      await call('GET', apiPaths.snapshot(undefined, 2000)),
    ).models;
    const asset = models.find((m) => m.type === 'asset');
    if (asset === undefined) throw new Error('no asset');
    const given = await call('PUT', apiPaths.roleAsset(role.id, asset.id), { edit: true });
    expect(dataOf<RoleAdmin>(given).assets).toEqual([{ asset_id: asset.id, edit: true }]);
    const viewOnly = await call('PUT', apiPaths.roleAsset(role.id, asset.id), { edit: false });
    expect(dataOf<RoleAdmin>(viewOnly).assets).toEqual([{ asset_id: asset.id, edit: false }]);
    // Not an asset (a gateway), or none at all: 404.
    const gateway = models.find((m) => m.type === 'gateway');
    expect(
      (await call('PUT', apiPaths.roleAsset(role.id, gateway?.id ?? ''), { edit: false })).status,
    ).toBe(404);
    expect((await call('PUT', apiPaths.roleAsset(role.id, 'nope'), { edit: false })).status).toBe(
      404,
    );
    // Another account's asset cannot be given to a role of this one.
    const south = (await s.demoAccountIds()).south;
    const southAsset = await s.db
      .selectFrom('models')
      .select('id')
      .where('account_id', '=', south)
      .where('type', '=', 'asset')
      .executeTakeFirstOrThrow();
    expect(
      (await call('PUT', apiPaths.roleAsset(role.id, southAsset.id), { edit: true })).status,
    ).toBe(404);
    const taken = await call('DELETE', apiPaths.roleAsset(role.id, asset.id));
    expect(dataOf<RoleAdmin>(taken).assets).toEqual([]);

    const fields = await call('PUT', apiPaths.roleFields(role.id, 'asset'), {
      fields: ['name', 'status'],
    });
    expect(dataOf<RoleAdmin>(fields).fields).toEqual([
      { type: 'asset', fields: ['name', 'status'] },
    ]);
    expect(
      (await call('PUT', apiPaths.roleFields(role.id, 'asset'), { fields: ['password'] })).status,
    ).toBe(422);
    expect(
      (await call('PUT', apiPaths.roleFields(role.id, 'gateway'), { fields: ['name'] })).status,
    ).toBe(422);
    const all = await call('PUT', apiPaths.roleFields(role.id, 'asset'), { fields: null });
    expect(dataOf<RoleAdmin>(all).fields).toEqual([]);
  });

  it('needs account::view to read and role::edit to change; another account is not found', async () => {
    expect((await call('GET', apiPaths.roles(), undefined, tech)).status).toBe(403);
    expect((await call('POST', apiPaths.roles(), { name: 'Mine' }, tech)).status).toBe(403);
    const technician = await bySlug('technician');
    expect(
      (await call('PUT', apiPaths.roleAccess(technician.id), { all_assets: true }, tech)).status,
    ).toBe(403);
    // The South account's admin: the root account's roles are not its own.
    const south = await s.signIn(DEMO_USERS.south);
    expect(
      (await call('PUT', apiPaths.role(technician.id), { name: 'Stolen' }, south)).status,
    ).toBe(404);
    expect((await bySlug('technician')).name).toBe('Technician');
  });

  it("a change of a role's access tells its users' open browsers at once", async () => {
    const techSession = await session(DEMO_USERS.tech);
    const client = await connect(techSession.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.accessChanged(techSession.user.account));
    const technician = await bySlug('technician');
    const models = dataOf<{ models: SyncedModel[] }>(
      await call('GET', apiPaths.snapshot(undefined, 2000)),
    ).models;
    const notGiven = models.find(
      (m) => m.type === 'asset' && !technician.assets.some((a) => a.asset_id === m.id),
    );
    if (notGiven === undefined) throw new Error('every asset is given');
    await call('PUT', apiPaths.roleAsset(technician.id, notGiven.id), { edit: false });
    await until(() => got.length === 1, 10_000);
    expect(got[0]?.payload).toEqual({ reason: 'access' });
    await call('DELETE', apiPaths.roleAsset(technician.id, notGiven.id));
    await until(() => got.length === 2, 10_000);
  });
});
