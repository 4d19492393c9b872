import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountTreeSchema,
  apiPaths,
  DISABLE_INTERNAL_FEATURES_HEADER,
  envelopeSchema,
  type AccountTree,
  type AccountTreeNode,
} from '@plant/shared-schema';
import { isoAt } from '../lib/clock';
import { RoleRepository } from '../repositories/role.repository';
import { DEMO_USERS } from '../seed/demo';
import { createAccount } from '../services/account.service';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
const ids = { root: '', north: '', south: '' };

beforeAll(async () => {
  s = await startTestServer();
  Object.assign(ids, await s.demoAccountIds());
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
});
afterAll(() => s.close());

/** GET user/accounts, checked against the shared schema. */
async function tree(token: string, headers: Record<string, string> = {}): Promise<AccountTree> {
  const res = await s.call('GET', apiPaths.userAccounts(), { token, headers });
  expect(res.status, res.text).toBe(200);
  return envelopeSchema(accountTreeSchema).parse(res.json).data;
}

const names = (nodes: AccountTree) => nodes.map((n) => n.text);
const node = (nodes: AccountTree, name: string): AccountTreeNode => {
  const found = nodes.find((n) => n.text === name);
  if (found === undefined) throw new Error(`no node ${name} in ${names(nodes).join(', ')}`);
  return found;
};

/** A user made through POST register (admin of an account of its own); answers its token and id. */
async function register(firstname: string) {
  const res = await s.call('POST', apiPaths.register(), {
    json: {
      firstname,
      lastname: 'Tester',
      email: `${firstname.toLowerCase()}@tree.test`,
      password: 'tree-pass-1',
    },
  });
  expect(res.status, res.text).toBe(201);
  const data = (res.json as { data: { access_token: string; user: { id: string } } }).data;
  return { token: data.access_token, id: data.user.id };
}

async function roleId(accountId: string, slug: string): Promise<string> {
  const row = await s.db
    .selectFrom('roles')
    .select('id')
    .where('account_id', '=', accountId)
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function join(userId: string, accountId: string, slug: string) {
  await new RoleRepository(s.db).addMemberships(
    accountId,
    [{ userId, roleId: await roleId(accountId, slug) }],
    isoAt(Date.now()),
  );
}

describe('GET user/accounts', () => {
  it('admin: its two accounts and, through account::view, Customer South; counts and flags', async () => {
    const nodes = await tree(await s.signIn(DEMO_USERS.admin));
    // Tree order: the root, then its children by name.
    expect(names(nodes)).toEqual(['Demo Machine Builder', 'Customer North', 'Customer South']);
    expect(node(nodes, 'Demo Machine Builder')).toEqual({
      id: ids.root,
      text: 'Demo Machine Builder',
      parent_id: null,
      // admin, tech, norole and internal are members; twelve demo machines and the demo smartphone.
      value: { root: true, active: true, userCount: 4, assetCount: 13, hasChildren: true },
      current: true,
      switchable: true,
    });
    expect(node(nodes, 'Customer North')).toEqual({
      id: ids.north,
      text: 'Customer North',
      parent_id: ids.root,
      value: { root: false, active: true, userCount: 1, assetCount: 3, hasChildren: false },
      current: false,
      switchable: true,
    });
    // Seen as the root's admin, but the admin holds no role there: not switchable.
    expect(node(nodes, 'Customer South')).toEqual({
      id: ids.south,
      text: 'Customer South',
      parent_id: ids.root,
      value: { root: false, active: false, userCount: 1, assetCount: 2, hasChildren: false },
      current: false,
      switchable: false,
    });
  });

  it('switchable says exactly what setActiveAccount accepts', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const nodes = await tree(token);
    const adminId = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token })).id;
    for (const n of nodes) {
      const res = await s.call('POST', apiPaths.setActiveAccount(adminId, n.id), { token });
      expect(res.status, n.text).toBe(n.switchable ? 200 : 404);
    }
    // The last successful switch moved `current` along.
    const lastSwitchable = nodes.filter((n) => n.switchable).at(-1);
    expect((await tree(token)).filter((n) => n.current).map((n) => n.id)).toEqual([
      lastSwitchable?.id,
    ]);
    await s.call('POST', apiPaths.setActiveAccount(adminId, ids.root), { token });
  });

  it('technician (no account::view): only its own account, with no children shown', async () => {
    const nodes = await tree(await s.signIn(DEMO_USERS.tech));
    expect(nodes).toEqual([
      {
        id: ids.root,
        text: 'Demo Machine Builder',
        parent_id: null,
        value: { root: true, active: true, userCount: 4, assetCount: 13, hasChildren: false },
        current: true,
        switchable: true,
      },
    ]);
  });

  it('supervisor with account::view sees the customers below, switches to none of them', async () => {
    for (const headers of [{}, { [DISABLE_INTERNAL_FEATURES_HEADER]: '1' }]) {
      const nodes = await tree(await s.signIn(DEMO_USERS.internal), headers);
      expect(names(nodes)).toEqual(['Demo Machine Builder', 'Customer North', 'Customer South']);
      expect(nodes.map((n) => n.switchable)).toEqual([true, false, false]);
    }
  });

  it('a customer sees its account as a root, and nothing of the machine builder above it', async () => {
    const token = await s.signIn(DEMO_USERS.south);
    const res = await s.call('GET', apiPaths.userAccounts(), { token });
    expect(envelopeSchema(accountTreeSchema).parse(res.json).data).toEqual([
      {
        id: ids.south,
        text: 'Customer South',
        parent_id: null,
        value: { root: true, active: false, userCount: 1, assetCount: 2, hasChildren: false },
        current: true,
        switchable: true,
      },
    ]);
    for (const secret of [ids.root, ids.north, 'Demo Machine Builder', 'Customer North']) {
      expect(res.text).not.toContain(secret);
    }
  });

  it('never reaches beyond the user’s accounts and their subtrees', async () => {
    const at = isoAt(Date.now());
    // Another machine builder with a customer; a plant below Customer North.
    const { other, plant } = await s.db.transaction().execute(async (trx) => {
      const o = await createAccount(trx, { name: 'Other Builder' }, at);
      await createAccount(trx, { name: 'Other Customer', parentId: o.id }, at);
      const p = await createAccount(trx, { name: 'North Plant', parentId: ids.north }, at);
      return { other: o, plant: p };
    });

    // The admin reaches the plant through both of its accounts, and lists it once, under North.
    const admin = await tree(await s.signIn(DEMO_USERS.admin));
    expect(names(admin)).toEqual([
      'Demo Machine Builder',
      'Customer North',
      'North Plant',
      'Customer South',
    ]);
    expect(node(admin, 'North Plant')).toMatchObject({
      parent_id: ids.north,
      switchable: false,
      value: { root: false, userCount: 0, assetCount: 0, hasChildren: false },
    });
    expect(node(admin, 'Customer North').value.hasChildren).toBe(true);

    // Admin of North only (and of its own registered account): North is a root of its tree.
    const nils = await register('Nils');
    await join(nils.id, ids.north, 'admin');
    // norole in South and in the other builder: not its accounts, and no subtree opens there.
    await join(nils.id, ids.south, 'norole');
    await join(nils.id, other.id, 'norole');
    const nodes = await tree(nils.token);
    expect(names(nodes)).toEqual(['Customer North', 'North Plant', 'Nils Tester']);
    expect(node(nodes, 'Customer North')).toMatchObject({
      parent_id: null,
      switchable: true,
      current: false,
      value: { root: true, userCount: 2, hasChildren: true },
    });
    expect(node(nodes, 'North Plant')).toMatchObject({ id: plant.id, parent_id: ids.north });
    expect(node(nodes, 'Nils Tester')).toMatchObject({ current: true, switchable: true });

    // No demo user ever sees the other builder.
    for (const email of Object.values(DEMO_USERS).filter((e) => e !== DEMO_USERS.norole)) {
      const res = await s.call('GET', apiPaths.userAccounts(), { token: await s.signIn(email) });
      expect(res.status).toBe(200);
      expect(res.text, email).not.toContain('Other ');
      expect(res.text, email).not.toContain(other.id);
    }
  });

  it('a member without account::view in the parent sees no children there', async () => {
    const tina = await register('Tina');
    // Technician of the root (no account::view): the root alone, not North, South or the plant.
    await join(tina.id, ids.root, 'technician');
    const nodes = await tree(tina.token);
    expect(names(nodes)).toEqual(['Demo Machine Builder', 'Tina Tester']);
    expect(node(nodes, 'Demo Machine Builder').value.hasChildren).toBe(false);
  });

  it('without a token: 401', async () => {
    const res = await s.call('GET', apiPaths.userAccounts());
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});
