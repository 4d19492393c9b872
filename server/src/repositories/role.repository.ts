import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

export interface NewRole {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

/** Roles, memberships and permission records: always written into one account's scope. */
export class RoleRepository {
  constructor(private readonly db: Db) {}

  async addRoles(accountId: string, roles: readonly NewRole[]): Promise<void> {
    await scopeTo(this.db, accountId).insertInto('roles', roles).execute();
  }

  async addMemberships(
    accountId: string,
    memberships: readonly { userId: string; roleId: string }[],
    at: string,
  ): Promise<void> {
    if (memberships.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto(
        'memberships',
        memberships.map((m) => ({ user_id: m.userId, role_id: m.roleId, created_at: at })),
      )
      .execute();
  }

  async addPermissions(
    accountId: string,
    records: readonly { id: string; name: string; roleId: string }[],
  ): Promise<void> {
    if (records.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto(
        'permissions',
        records.map((r) => ({
          id: r.id,
          name: r.name,
          role_id: r.roleId,
          user_id: null,
          guard_name: 'api',
        })),
      )
      .execute();
  }

  /** The account's roles with how many users hold each. */
  async listWithMembers(accountId: string) {
    const scope = scopeTo(this.db, accountId);
    const [roles, members] = await Promise.all([
      scope
        .selectFrom('roles')
        .select(['id', 'slug', 'name', 'all_assets'])
        .orderBy('name')
        .execute(),
      scope
        .selectFrom('memberships')
        .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('role_id')
        .execute(),
    ]);
    const counts = new Map(members.map((m) => [m.role_id, Number(m.n)]));
    return roles.map((r) => ({ ...r, members: counts.get(r.id) ?? 0 }));
  }

  find(accountId: string, roleId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('roles')
      .select(['id', 'slug', 'name', 'all_assets'])
      .where('id', '=', roleId)
      .executeTakeFirst();
  }

  async rename(accountId: string, roleId: string, name: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('roles')
      .set({ name })
      .where('id', '=', roleId)
      .execute();
  }

  async remove(accountId: string, roleId: string): Promise<void> {
    await scopeTo(this.db, accountId).deleteFrom('roles').where('id', '=', roleId).execute();
  }

  /** The permission names of the account's roles, by role. */
  async permissionsByRole(accountId: string): Promise<Map<string, string[]>> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('permissions')
      .select(['role_id', 'name'])
      .orderBy('name')
      .execute();
    const byRole = new Map<string, string[]>();
    for (const r of rows) byRole.set(r.role_id, [...(byRole.get(r.role_id) ?? []), r.name]);
    return byRole;
  }

  /** Replaces the role's permission records with these names. */
  async setPermissions(
    accountId: string,
    roleId: string,
    records: readonly { id: string; name: string }[],
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('permissions')
      .where('role_id', '=', roleId)
      .execute();
    await this.addPermissions(
      accountId,
      records.map((r) => ({ ...r, roleId })),
    );
  }

  async removeMembership(accountId: string, userId: string, roleId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('memberships')
      .where('user_id', '=', userId)
      .where('role_id', '=', roleId)
      .execute();
  }

  /** Removes the user from the account: every role it holds there. */
  async removeMember(accountId: string, userId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('memberships')
      .where('user_id', '=', userId)
      .execute();
  }
}
