import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { UsersTable } from '../db/types';
import { ownMemberships, scopeTo } from './account-scope';

export type UserRow = Selectable<UsersTable>;
/** A user without its password hash: what everything but the password check gets. */
export type UserRecord = Omit<UserRow, 'password_hash' | 'phone' | 'notifications'>;

const RECORD_COLUMNS = [
  'id',
  'firstname',
  'lastname',
  'email',
  'language',
  'active_account_id',
  'created_at',
  'updated_at',
] as const;

export interface RoleRow {
  id: string;
  slug: string;
  name: string;
  account_id: string;
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<UserRecord | undefined> {
    return this.db
      .selectFrom('users')
      .select(RECORD_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** With the password hash: for checking a password, and nothing else. */
  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insert(row: Insertable<UsersTable>): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async setPassword(id: string, passwordHash: string, at: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async setActiveAccount(id: string, accountId: string, at: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ active_account_id: accountId, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Every role the user holds, in every account it belongs to. */
  allRoles(userId: string): Promise<RoleRow[]> {
    return ownMemberships(this.db, userId)
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .select(['roles.id', 'roles.slug', 'roles.name', 'roles.account_id'])
      .orderBy('roles.account_id')
      .orderBy('roles.slug')
      .execute();
  }

  /** Every member of an account, with the ids of the roles it holds there. */
  async membersOf(accountId: string) {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select([
        'users.id',
        'users.firstname',
        'users.lastname',
        'users.email',
        'users.language',
        'memberships.role_id',
      ])
      .orderBy('users.lastname')
      .orderBy('users.id')
      .execute();
    const byUser = new Map<
      string,
      {
        id: string;
        firstname: string;
        lastname: string;
        email: string;
        language: string;
        role_ids: string[];
      }
    >();
    for (const r of rows) {
      const entry = byUser.get(r.id) ?? {
        id: r.id,
        firstname: r.firstname,
        lastname: r.lastname,
        email: r.email,
        language: r.language,
        role_ids: [],
      };
      entry.role_ids.push(r.role_id);
      byUser.set(r.id, entry);
    }
    return [...byUser.values()];
  }

  /** Whether the user holds a role in the account. */
  async isMember(accountId: string, userId: string): Promise<boolean> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .select('memberships.user_id')
      .where('memberships.user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The members of an account whose roles hold `permission` as a stored permission row (an
   * admin's role holds none: it is allowed everything without them); `onlyUser` asks of one.
   */
  async holdersOf(accountId: string, permission: string, onlyUser?: string): Promise<Set<string>> {
    let query = scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('permissions', 'permissions.role_id', 'memberships.role_id')
      .select('memberships.user_id')
      .where('permissions.name', '=', permission);
    if (onlyUser !== undefined) query = query.where('memberships.user_id', '=', onlyUser);
    const rows = await query.execute();
    return new Set(rows.map((r) => r.user_id));
  }

  /** How many users are members of an account (through any role). */
  async countMembers(accountId: string): Promise<number> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .select((eb) => eb.fn.count<number>('memberships.user_id').distinct().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The roles defined in an account. */
  rolesOf(accountId: string): Promise<RoleRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('roles')
      .select(['id', 'slug', 'name', 'account_id'])
      .orderBy('slug')
      .execute();
  }

  /** The roles a user holds in one account; empty when it is not a member there. */
  rolesIn(accountId: string, userId: string): Promise<RoleRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .where('memberships.user_id', '=', userId)
      .select(['roles.id', 'roles.slug', 'roles.name', 'roles.account_id'])
      .orderBy('roles.slug')
      .execute();
  }
}
