import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { AccessRepository } from './repositories/access.repository';
import { DEMO_USERS } from './seed/demo';
import { startTestServer, type TestServer } from './testing/harness';

/**
 * DESIGN.md invariant 7: signed in to one account, the ids of another account get 403 or 404 on
 * every route, and no answer carries the other account's data. Each route built so far that takes
 * an id is listed here; a new route with an id joins this table.
 */
let s: TestServer;
/** One demo asset (and a stream of it) per account name. */
const assets: Record<string, { asset: string; stream: string; gateway: string }> = {};
/** Every role id per account name (the roles routes, issue 15). */
const roleIds: Record<string, string[]> = {};
/** One tag of each account (the synced tag model's writes). */
const tagIds: Record<string, string> = {};
const ids = { root: '', north: '', south: '', admin: '', tech: '', south_user: '', internal: '' };

beforeAll(async () => {
  s = await startTestServer();
  Object.assign(ids, await s.demoAccountIds());
  const users = await s.db.selectFrom('users').select(['id', 'email']).execute();
  const byEmail = (email: string) => users.find((u) => u.email === email)?.id ?? '';
  ids.admin = byEmail(DEMO_USERS.admin);
  ids.tech = byEmail(DEMO_USERS.tech);
  ids.south_user = byEmail(DEMO_USERS.south);
  ids.internal = byEmail(DEMO_USERS.internal);
  for (const [name, id] of [
    ['root', ids.root],
    ['north', ids.north],
    ['south', ids.south],
  ] as const) {
    const of = (type: string) =>
      s.db
        .selectFrom('models')
        .select('id')
        .where('account_id', '=', id)
        .where('type', '=', type)
        .executeTakeFirstOrThrow();
    roleIds[name] = (
      await s.db.selectFrom('roles').select('id').where('account_id', '=', id).execute()
    ).map((r) => r.id);
    tagIds[name] = await new AccessRepository(s.db).addTag(`matrix-${name}`, id);
    assets[name] = {
      asset: (await of('asset')).id,
      stream: (await of('datastream')).id,
      gateway: (await of('gateway')).id,
    };
  }
  // A renamed seed row would leave an id empty and turn every case below into a vacuous 404.
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
});
afterAll(() => s.close());

type Case = [method: string, path: (self: string) => string];

/** Roles, their permissions and their access, as stored. */
async function accessRows() {
  return Promise.all([
    s.db.selectFrom('accounts').selectAll().orderBy('id').execute(),
    s.db.selectFrom('roles').selectAll().orderBy('id').execute(),
    s.db.selectFrom('tags').selectAll().orderBy('id').execute(),
    s.db.selectFrom('user_tags').selectAll().orderBy('tag_id').orderBy('user_id').execute(),
    s.db
      .selectFrom('memberships')
      .select(['user_id', 'account_id', 'role_id'])
      .orderBy('user_id')
      .orderBy('role_id')
      .execute(),
    s.db
      .selectFrom('permissions')
      .select(['name', 'role_id'])
      .orderBy('role_id')
      .orderBy('name')
      .execute(),
    s.db.selectFrom('role_assets').selectAll().orderBy('role_id').orderBy('asset_id').execute(),
    s.db.selectFrom('role_fields').selectAll().orderBy('role_id').orderBy('type').execute(),
  ]);
}

interface Intruder {
  email: string;
  self: () => string;
  /** Ids of accounts and users it must never reach. */
  foreignAccounts: () => string[];
  foreignUsers: () => string[];
  /** Demo accounts whose models it must never reach. */
  foreignModels: () => { asset: string; stream: string; gateway: string }[];
  /** Names that must never show up in any answer it gets. */
  foreignNames: string[];
  /** Roles of accounts it is not in. */
  foreignRoles: () => string[];
  /** Tags of accounts it is not in. */
  foreignTags: () => string[];
  /** Accounts neither its own nor below its own. */
  outsideSubtree: () => string[];
  /**
   * Ids and names of accounts below its own that its snapshot names (the synced account tree of
   * account::view, spec 000 §3): their names only, never their members or models.
   */
  tree: () => string[];
}

const intruders: Intruder[] = [
  {
    email: DEMO_USERS.south,
    self: () => ids.south_user,
    foreignAccounts: () => [ids.root, ids.north],
    foreignUsers: () => [ids.admin, ids.tech, ids.internal],
    foreignModels: () => [assets.root, assets.north].flatMap((a) => (a === undefined ? [] : [a])),
    foreignNames: ['Demo Machine Builder', 'Customer North', DEMO_USERS.admin, DEMO_USERS.tech],
    foreignRoles: () => [...(roleIds.root ?? []), ...(roleIds.north ?? [])],
    foreignTags: () => [tagIds.root ?? '', tagIds.north ?? ''],
    outsideSubtree: () => [ids.root, ids.north],
    tree: () => [],
  },
  {
    // A supervisor (user::view) of the root account is still a stranger to Customer South.
    email: DEMO_USERS.internal,
    self: () => ids.internal,
    foreignAccounts: () => [ids.south, ids.north],
    foreignUsers: () => [ids.south_user],
    foreignModels: () => [assets.south, assets.north].flatMap((a) => (a === undefined ? [] : [a])),
    foreignNames: ['Customer South', DEMO_USERS.south],
    foreignRoles: () => [...(roleIds.south ?? []), ...(roleIds.north ?? [])],
    foreignTags: () => [tagIds.south ?? '', tagIds.north ?? ''],
    outsideSubtree: () => [],
    tree: () => [ids.south, 'Customer South', ids.north, 'Customer North'],
  },
  {
    // Admin of root and North, never of South.
    email: DEMO_USERS.admin,
    self: () => ids.admin,
    foreignAccounts: () => [ids.south],
    foreignUsers: () => [ids.south_user],
    foreignModels: () => [assets.south].flatMap((a) => (a === undefined ? [] : [a])),
    foreignNames: ['Customer South', DEMO_USERS.south],
    foreignRoles: () => roleIds.south ?? [],
    foreignTags: () => [tagIds.south ?? ''],
    outsideSubtree: () => [],
    tree: () => [ids.south, 'Customer South'],
  },
];

describe.each(intruders)('$email against other accounts', (who) => {
  const cases = (): Case[] => [
    ...who.foreignUsers().map((u): Case => ['GET', () => apiPaths.userById(u)]),
    ...who
      .foreignAccounts()
      .map((a): Case => ['POST', (self) => apiPaths.setActiveAccount(self, a)]),
    ...who.foreignAccounts().map((a): Case => ['GET', () => apiPaths.style(a)]),
    // Another account through the account administration routes. Accounts below one's own are
    // in reach of its admins by design (a machine builder manages its customers' accounts).
    ...who.outsideSubtree().flatMap((a): Case[] => [
      ['GET', () => apiPaths.accountById(a)],
      // PUT accounts/{id} is the synced account model's generic write.
      ['PUT', () => apiPaths.model('accounts', a)],
      ['DELETE', () => apiPaths.model('accounts', a)],
    ]),
    // Another account's tags, through the synced tag model's writes.
    ...who.foreignTags().flatMap((t): Case[] => [
      ['PUT', () => apiPaths.model('tags', t)],
      ['DELETE', () => apiPaths.model('tags', t)],
    ]),
    // Acting as another user, even into one's own account.
    ...who.foreignUsers().map((u): Case => ['POST', () => apiPaths.setActiveAccount(u, ids.root)]),
    // Another account's models, through every model route.
    ...who.foreignModels().flatMap((m): Case[] => [
      ['PUT', () => apiPaths.model('assets', m.asset)],
      ['DELETE', () => apiPaths.model('assets', m.asset)],
      ['PUT', () => apiPaths.model('datastreams', m.stream)],
      ['DELETE', () => apiPaths.model('datastreams', m.stream)],
      ['GET', () => apiPaths.graph('asset', m.asset)],
      ['GET', () => apiPaths.graph('datastream', m.stream)],
      // A scanned QR code of another account's gateway.
      ['GET', () => apiPaths.linkGateway(m.gateway)],
    ]),
    // Members of another account, through every members route.
    ...who.foreignUsers().flatMap((u): Case[] => [
      ['DELETE', () => apiPaths.member(u)],
      ['PUT', () => apiPaths.memberRole(u, who.foreignRoles()[0] ?? 'x')],
      ['DELETE', () => apiPaths.memberRole(u, who.foreignRoles()[0] ?? 'x')],
      ['POST', () => apiPaths.memberPasswordReset(u)],
      ['GET', () => apiPaths.userProfile(u)],
      ['GET', () => apiPaths.userNotifications(u)],
      ['PUT', () => apiPaths.model('members', u)],
      ['DELETE', () => apiPaths.model('members', u)],
    ]),
    // Another account's roles, through every roles route.
    ...who.foreignRoles().flatMap((r): Case[] => [
      ['PUT', () => apiPaths.role(r)],
      ['DELETE', () => apiPaths.role(r)],
      ['PUT', () => apiPaths.rolePermissions(r)],
      ['PUT', () => apiPaths.roleAccess(r)],
      ['PUT', () => apiPaths.roleAsset(r, who.foreignModels()[0]?.asset ?? 'x')],
      ['DELETE', () => apiPaths.roleAsset(r, who.foreignModels()[0]?.asset ?? 'x')],
      ['PUT', () => apiPaths.roleFields(r, 'asset')],
      ['PUT', () => apiPaths.model('roles', r)],
      ['DELETE', () => apiPaths.model('roles', r)],
    ]),
  ];

  it('every route with another account’s ids answers 403 or 404 and leaks nothing', async () => {
    const token = await s.signIn(who.email);
    const before = await s.db.selectFrom('users').select(['id', 'active_account_id']).execute();
    const list = cases();
    expect(list.length).toBeGreaterThan(3);
    const accessBefore = await accessRows();
    const modelsBefore = await s.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .orderBy('id')
      .execute();
    for (const [method, path] of list) {
      const res = await s.call(method, path(who.self()), {
        token,
        ...(method === 'PUT'
          ? {
              json: {
                name: 'Taken over',
                permissions: ['asset::view'],
                all_assets: true,
                edit: true,
                fields: ['name'],
              },
            }
          : {}),
      });
      expect([403, 404], `${method} ${path(who.self())}`).toContain(res.status);
      for (const secret of [...who.foreignNames, ...who.foreignAccounts(), ...who.foreignUsers()]) {
        expect(res.text).not.toContain(secret);
      }
    }
    expect(
      await s.db.selectFrom('models').select(['id', 'attributes']).orderBy('id').execute(),
    ).toEqual(modelsBefore);
    // No account, role, membership, permission or access of another account changed.
    expect(await accessRows()).toEqual(accessBefore);
    // Nobody's active account moved.
    expect(await s.db.selectFrom('users').select(['id', 'active_account_id']).execute()).toEqual(
      before,
    );
  });

  it('the routes about oneself carry only one’s own accounts', async () => {
    const token = await s.signIn(who.email);
    const foreignModelIds = who.foreignModels().flatMap((m) => [m.asset, m.stream, m.gateway]);
    expect(foreignModelIds.length).toBeGreaterThan(0);
    for (const path of [
      apiPaths.user(),
      apiPaths.userAccount(),
      apiPaths.style(),
      apiPaths.snapshot(undefined, 2000),
      apiPaths.mqttlogs(0),
    ]) {
      const res = await s.call('GET', path, { token });
      expect(res.status).toBe(200);
      const tree = path === apiPaths.snapshot(undefined, 2000) ? who.tree() : [];
      for (const secret of [
        ...who.foreignNames,
        ...who.foreignAccounts(),
        ...who.foreignUsers(),
        ...foreignModelIds,
      ].filter((x) => !tree.includes(x))) {
        expect(res.text, path).not.toContain(secret);
      }
    }
  });
});
