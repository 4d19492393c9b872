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
}
