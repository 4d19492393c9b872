import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DEACTIVATED_FROM_ABOVE,
  ACCOUNT_MOVE_CYCLE,
  ACCOUNT_REACTIVATED_FROM_ABOVE,
  apiPaths,
  type AccountTreeNode,
  type AccountView,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * Accounts an admin manages (spec 000 §3, issue 15 item 2): subaccounts made, renamed, moved
 * (never under themselves), deactivated ('Deactivated' in the tree), and their theme, whose
 * design the account's style serves; only within the admin's subtree, only with account::edit.
 */
let s: TestServer;
let admin = '';
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  ids = await s.demoAccountIds();
});
afterAll(() => s.close());

const tree = async () =>
  dataOf<AccountTreeNode[]>(await s.call('GET', apiPaths.userAccounts(), { token: admin }));
const change = (id: string, json: object, token = admin) =>
  s.call('PUT', apiPaths.accountById(id), { token, json });

describe('account administration', () => {
  it('makes a subaccount, renames, deactivates and moves it, never under itself', async () => {
    const made = await s.call('POST', apiPaths.subaccounts(), {
      token: admin,
      json: { name: 'Customer West' },
    });
    expect(made.status).toBe(201);
    const west = dataOf<AccountView>(made);
    expect(west).toMatchObject({ name: 'Customer West', parent_id: ids.root, active: true });
    // The maker is its admin: it may switch to it.
    const node = (await tree()).find((n) => n.id === west.id);
    expect(node).toMatchObject({ text: 'Customer West', switchable: true });

    // Renames, moves and (de)activation are writes of the synced `account` model.
    const attrs = async (res: ReturnType<typeof change>) =>
      dataOf<SyncedModel>(await res).attributes;
    expect((await attrs(change(west.id, { name: 'Customer West GmbH' }))).name).toBe(
      'Customer West GmbH',
    );
    expect((await attrs(change(west.id, { active: false }))).active).toBe(false);
    expect((await tree()).find((n) => n.id === west.id)?.value.active).toBe(false);

    expect((await attrs(change(west.id, { parent_id: ids.north }))).parent_id).toBe(ids.north);
    const moved = dataOf<AccountView>(
      await s.call('GET', apiPaths.accountById(west.id), { token: admin }),
    );
    expect(moved).toMatchObject({ parent_id: ids.north, name: 'Customer West GmbH' });
    const cycle = await change(ids.north, { parent_id: west.id });
    expect(cycle.status).toBe(422);
    expect(cycle.json).toMatchObject({ message: ACCOUNT_MOVE_CYCLE });
    expect((await change(ids.north, { parent_id: ids.north })).status).toBe(422);
    // The active account itself stays where it is.
    expect((await change(ids.root, { parent_id: ids.north })).status).toBe(403);
    expect((await change(west.id, { name: '' })).status).toBe(422);
    expect((await change(west.id, { parent_id: null })).status).toBe(422);
  });

  it("picks a theme, whose colours the account's style serves", async () => {
    const theme = uuidv7();
    const made = await s.call('POST', apiPaths.collection('themes'), {
      token: admin,
      json: { id: theme, title: 'North Plant', color1: '#112233' },
    });
    expect(made.status).toBe(201);
    const picked = await change(ids.north, { theme_id: theme });
    expect(picked.status).toBe(200);
    const view = dataOf<AccountView>(
      await s.call('GET', apiPaths.accountById(ids.north), { token: admin }),
    );
    expect(view.theme_id).toBe(theme);
    expect(view.theme).toMatchObject({ themeId: theme, color1: '#112233', title: 'North Plant' });
    const style = await s.call('GET', apiPaths.style(ids.north), { token: admin });
    expect(style.text).toContain('#112233');
    // Unpicked, North shows the theme of the account above it again.
    expect((await change(ids.north, { theme_id: null })).status).toBe(200);
    const again = dataOf<AccountView>(
      await s.call('GET', apiPaths.accountById(ids.north), { token: admin }),
    );
    const root = dataOf<AccountView>(
      await s.call('GET', apiPaths.accountById(ids.root), { token: admin }),
    );
    expect(again.theme).toEqual(root.theme);
  });

  it('refuses colours that are not #rrggbb, images that are not files, and a theme that is none', async () => {
    const post = (json: object) =>
      s.call('POST', apiPaths.collection('themes'), {
        token: admin,
        json: { id: uuidv7(), title: 'Checked', ...json },
      });
    for (const color of ['#12345', '#1234567', '336699', 'blue', '#12345g', ' #123456']) {
      const bad = await post({ color2: color });
      expect(bad.status, color).toBe(422);
      expect(bad.json, color).toMatchObject({ errors: { color2: ['Valid hex code for colours'] } });
    }
    for (const image of ['javascript:alert(1)', 'https://a.example/a.png', '/a b.png']) {
      const bad = await post({ logo_desktop: image });
      expect(bad.status, image).toBe(422);
    }
    expect((await post({ color1: '#0B5394' })).status).toBe(201);
    const none = await change(ids.north, { theme_id: uuidv7() });
    expect(none.status).toBe(422);
  });

  it('a deactivated account is turned back on from above, never by its own admin', async () => {
    // Customer South is deactivated; south@demo.local is its admin, working in it.
    const south = await s.signIn(DEMO_USERS.south);
    const isActive = async () =>
      dataOf<AccountView>(await s.call('GET', apiPaths.accountById(ids.south), { token: admin }))
        .active;
    expect(await isActive()).toBe(false);
    const own = await change(ids.south, { active: true }, south);
    expect(own.status).toBe(403);
    expect(own.json).toMatchObject({ success: false, message: ACCOUNT_REACTIVATED_FROM_ABOVE });
    expect(await isActive()).toBe(false);
    // Its other changes stay its admin's to make.
    expect((await change(ids.south, { name: 'Customer South' }, south)).status).toBe(200);

    // The admin of the account above reactivates it.
    const back = await change(ids.south, { active: true });
    expect(back.status).toBe(200);
    expect(dataOf<SyncedModel>(back).attributes.active).toBe(true);
    expect(await isActive()).toBe(true);
    expect((await change(ids.south, { active: false })).status).toBe(200);

    // Nor is an account deactivated from inside it: the root's admin, working in the root (which
    // nobody could turn back on), and North's admin working in North.
    const adminId = (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.admin)
        .executeTakeFirstOrThrow()
    ).id;
    for (const id of [ids.root, ids.north]) {
      const self = await s.call('POST', apiPaths.setActiveAccount(adminId, id), { token: admin });
      expect(self.status).toBe(200);
      const off = await change(id, { active: false });
      expect(off.status, id).toBe(403);
      expect(off.json).toMatchObject({ success: false, message: ACCOUNT_DEACTIVATED_FROM_ABOVE });
    }
    await s.call('POST', apiPaths.setActiveAccount(adminId, ids.root), { token: admin });
    expect((await change(ids.north, { name: 'Customer North' })).status).toBe(200);
  });

  it('only with account::edit, only within the subtree', async () => {
    const tech = await s.signIn(DEMO_USERS.tech);
    expect(
      (await s.call('POST', apiPaths.subaccounts(), { token: tech, json: { name: 'Mine' } }))
        .status,
    ).toBe(403);
    expect((await change(ids.north, { name: 'Taken' }, tech)).status).toBe(403);
    const south = await s.signIn(DEMO_USERS.south);
    expect((await change(ids.root, { name: 'Taken' }, south)).status).toBe(404);
    expect((await s.call('GET', apiPaths.accountById(ids.root), { token: south })).status).toBe(
      404,
    );
    expect(
      (
        await s.call('POST', apiPaths.subaccounts(), {
          token: south,
          json: { name: 'Under root', parent_id: ids.root },
        })
      ).status,
    ).toBe(404);
  });
});
