import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  appPaths,
  envelopeSchema,
  GATEWAY_REF_MESSAGE,
  linkGatewayResultSchema,
  uuidv7,
  type LinkGatewayResult,
} from '@plant/shared-schema';
import { isoAt } from '../lib/clock';
import { RoleRepository } from '../repositories/role.repository';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
const ids = { root: '', north: '', south: '' };
/** Demo gateways per account: id by serial (every demo account has GW-1000, GW-1001, …). */
const gateways: Record<keyof typeof ids, Map<string, string>> = {
  root: new Map(),
  north: new Map(),
  south: new Map(),
};

beforeAll(async () => {
  s = await startTestServer();
  Object.assign(ids, await s.demoAccountIds());
  for (const key of ['root', 'north', 'south'] as const) {
    const rows = await s.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .where('account_id', '=', ids[key])
      .where('type', '=', 'gateway')
      .execute();
    for (const r of rows) {
      gateways[key].set((JSON.parse(r.attributes) as { serial: string }).serial, r.id);
    }
  }
  // The twelve machines' gateways and the demo smartphone's.
  expect(gateways.root.size).toBe(13);
  expect(gateways.north.size).toBe(3);
  expect(gateways.south.size).toBe(2);
});
afterAll(() => s.close());

const gw = (account: keyof typeof ids, serial: string) => gateways[account].get(serial) ?? '';

async function link(token: string, ref: string) {
  const res = await s.call('GET', apiPaths.linkGateway(ref), { token });
  return { res, data: res.status === 200 ? linkOf(res.json) : undefined };
}
const linkOf = (json: unknown): LinkGatewayResult =>
  envelopeSchema(linkGatewayResultSchema).parse(json).data;

async function userId(token: string) {
  return dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token })).id;
}

describe('GET linkGateway?id=', () => {
  it('a gateway of the active account, by id or by serial: its path, no account', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    for (const ref of [gw('root', 'GW-1004'), 'GW-1004', '  GW-1004  ']) {
      const { res, data } = await link(token, ref);
      expect(res.status, ref).toBe(200);
      expect(data).toEqual({
        path: `/app/gateways/${gw('root', 'GW-1004')}/details`,
        account: null,
      });
    }
    expect(appPaths.gatewayDetails(gw('root', 'GW-1004'))).toBe(
      `/app/gateways/${gw('root', 'GW-1004')}/details`,
    );
  });

  it('a gateway of another of the user’s accounts: its path and that account to switch to', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const { res, data } = await link(token, gw('north', 'GW-1001'));
    expect(res.status).toBe(200);
    expect(data).toEqual({
      path: appPaths.gatewayDetails(gw('north', 'GW-1001')),
      account: { id: ids.north, name: 'Customer North' },
    });
    // Nothing switched by itself: the client does that.
    expect(dataOf<{ id: string }>(await s.call('GET', apiPaths.userAccount(), { token })).id).toBe(
      ids.root,
    );
  });

  it('a serial in several accounts: the active account’s gateway first', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    const me = await userId(token);
    expect((await link(token, 'GW-1000')).data).toEqual({
      path: appPaths.gatewayDetails(gw('root', 'GW-1000')),
      account: null,
    });
    expect((await s.call('POST', apiPaths.setActiveAccount(me, ids.north), { token })).status).toBe(
      200,
    );
    try {
      expect((await link(token, 'GW-1000')).data).toEqual({
        path: appPaths.gatewayDetails(gw('north', 'GW-1000')),
        account: null,
      });
      // Only the root has a GW-1005.
      expect((await link(token, 'GW-1005')).data).toEqual({
        path: appPaths.gatewayDetails(gw('root', 'GW-1005')),
        account: { id: ids.root, name: 'Demo Machine Builder' },
      });
    } finally {
      await s.call('POST', apiPaths.setActiveAccount(me, ids.root), { token });
    }
  });

  it('unknown, or in an account out of reach: 404 Gateway not found.', async () => {
    const admin = await s.signIn(DEMO_USERS.admin);
    const tech = await s.signIn(DEMO_USERS.tech);
    const south = await s.signIn(DEMO_USERS.south);
    const cases: [string, string][] = [
      [admin, uuidv7()],
      [admin, 'GW-9999'],
      // account::view over Customer South shows it in the tree, but the admin works only in its own.
      [admin, gw('south', 'GW-1000')],
      [tech, gw('north', 'GW-1000')],
      [tech, gw('south', 'GW-1001')],
      [south, gw('root', 'GW-1000')],
      [south, 'GW-1005'],
      // A gateway's id is not a serial of another type of model, nor the other way round.
      [
        admin,
        (
          await s.db
            .selectFrom('models')
            .select('id')
            .where('type', '=', 'asset')
            .executeTakeFirstOrThrow()
        ).id,
      ],
    ];
    for (const [token, ref] of cases) {
      const { res } = await link(token, ref);
      expect(res.status, ref).toBe(404);
      expect(res.json).toEqual({ success: false, message: 'Gateway not found.' });
    }
    // The technician has gateway::view in the root: its own gateways are found.
    expect((await link(tech, gw('root', 'GW-1000'))).res.status).toBe(200);
    // The customer finds its own.
    expect((await link(south, 'GW-1001')).data).toEqual({
      path: appPaths.gatewayDetails(gw('south', 'GW-1001')),
      account: null,
    });
  });

  it('no gateway::view in the account, or only norole there: 404', async () => {
    const admin = await s.signIn(DEMO_USERS.admin);
    const adminId = await userId(admin);
    const at = isoAt(Date.now());
    // A viewer role in the root that sees assets but not gateways; a registered user holds it.
    const viewerRoleId = uuidv7();
    const roles = new RoleRepository(s.db);
    await roles.addRoles(ids.root, [{ id: viewerRoleId, slug: 'viewer', name: 'Viewer' }]);
    await roles.addPermissions(ids.root, [
      { id: uuidv7(), name: 'asset::view', roleId: viewerRoleId },
    ]);
    const reg = await s.call('POST', apiPaths.register(), {
      json: {
        firstname: 'Vera',
        lastname: 'Viewer',
        email: 'vera@link.test',
        password: 'link-pass-1',
      },
    });
    expect(reg.status).toBe(201);
    const vera = dataOf<{ access_token: string; user: { id: string } }>(reg);
    await roles.addMemberships(ids.root, [{ userId: vera.user.id, roleId: viewerRoleId }], at);
    const { res } = await link(vera.access_token, gw('root', 'GW-1000'));
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ success: false, message: 'Gateway not found.' });

    // norole in Customer South: not an account the user may switch to, so nothing is found there;
    // not even for the internal user, whose global tag grants everything inside its accounts.
    const internal = await s.signIn(DEMO_USERS.internal);
    const internalId = await userId(internal);
    const southNorole = await s.db
      .selectFrom('roles')
      .select('id')
      .where('account_id', '=', ids.south)
      .where('slug', '=', 'norole')
      .executeTakeFirstOrThrow();
    await roles.addMemberships(
      ids.south,
      [
        { userId: adminId, roleId: southNorole.id },
        { userId: internalId, roleId: southNorole.id },
      ],
      at,
    );
    try {
      for (const token of [admin, internal]) {
        const { res } = await link(token, gw('south', 'GW-1000'));
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ success: false, message: 'Gateway not found.' });
      }
    } finally {
      await s.db
        .deleteFrom('memberships')
        .where('user_id', 'in', [adminId, internalId])
        .where('account_id', '=', ids.south)
        .execute();
    }
  });

  it('a missing, empty or malformed id: 422 from the shared schema', async () => {
    const token = await s.signIn(DEMO_USERS.admin);
    for (const path of [
      'linkGateway',
      'linkGateway?id=',
      apiPaths.linkGateway('   '),
      apiPaths.linkGateway('x'.repeat(101)),
      apiPaths.linkGateway('GW-1000\u0000'),
      apiPaths.linkGateway('GW\n1000'),
    ]) {
      const res = await s.call('GET', path, { token });
      expect(res.status, path).toBe(422);
      expect(res.json, path).toEqual({
        success: false,
        message: GATEWAY_REF_MESSAGE,
        errors: { id: [GATEWAY_REF_MESSAGE] },
      });
    }
  });

  it('without a token: 401', async () => {
    const res = await s.call('GET', apiPaths.linkGateway('GW-1000'));
    expect(res.status).toBe(401);
  });
});
