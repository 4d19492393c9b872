import { expect } from 'vitest';
import { apiPaths, type RoleAdmin } from '@plant/shared-schema';
import { isoAt } from '../lib/clock';
import { RoleRepository } from '../repositories/role.repository';
import { dataOf, type TestServer } from './harness';

/** A test user: its id and a signed-in token. */
export interface RoleMember {
  readonly id: string;
  readonly token: string;
}

/**
 * A new user, member of `accountId` with a role of its own holding these permissions (made
 * through the roles API as the account's admin), signed in there. `assets`: the role's asset
 * access (every asset, none, or as the roles API made it).
 */
export async function roleMember(
  s: TestServer,
  options: {
    readonly adminToken: string;
    readonly accountId: string;
    readonly name: string;
    readonly permissions: readonly string[];
    /** The e-mail's domain (a file's users apart from another's). */
    readonly domain: string;
    readonly assets?: 'all' | 'none';
  },
): Promise<RoleMember> {
  const { adminToken: token, accountId, name } = options;
  const role = await s.call('POST', apiPaths.roles(), { token, json: { name } });
  expect(role.status, role.text).toBe(201);
  const roleId = dataOf<RoleAdmin>(role).id;
  const given = await s.call('PUT', apiPaths.rolePermissions(roleId), {
    token,
    json: { permissions: options.permissions },
  });
  expect(given.status, given.text).toBe(200);
  if (options.assets !== undefined)
    await s.db
      .updateTable('roles')
      .set({ all_assets: options.assets === 'all' ? 1 : 0 })
      .where('id', '=', roleId)
      .execute();
  const email = `${name.toLowerCase()}@${options.domain}`;
  const password = 'member-pass-1';
  const made = await s.call('POST', apiPaths.register(), {
    json: { firstname: name, lastname: 'Tester', email, password },
  });
  expect(made.status, made.text).toBe(201);
  const id = (made.json as { data: { user: { id: string } } }).data.user.id;
  await new RoleRepository(s.db).addMemberships(
    accountId,
    [{ userId: id, roleId }],
    isoAt(Date.now()),
  );
  await s.db
    .updateTable('users')
    .set({ active_account_id: accountId })
    .where('id', '=', id)
    .execute();
  return { id, token: await s.signIn(email, password) };
}
