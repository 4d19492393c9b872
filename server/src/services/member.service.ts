import {
  can,
  LAST_ROLE,
  NOT_YOURSELF,
  RESET_LINK_SENT,
  ROLE_SLUGS,
  USER_EDIT_PERMISSION,
  type Member,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { RoleRepository } from '../repositories/role.repository';
import { UserRepository } from '../repositories/user.repository';
import { AccessRepository } from '../repositories/access.repository';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { administers, LAST_ADMIN, NOT_YOURS_TO_GIVE } from './account-access';
import { ManagedLog, tagModels } from './managed-log';
import { mergeList } from './role-ops';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, notFound } from './domain-error';
import type { PasswordService } from './password.service';
import type { Session } from './user.service';

/**
 * The members of the active account (spec 000 §2 /app/users, spec 001 §6): listed with their
 * roles (user::view); roles given and taken, members removed and reset links sent (user::edit).
 * A change of roles moves what the member may see: the broker re-checks at once.
 */
export class MemberService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
    private readonly passwords: PasswordService,
  ) {}

  private account(session: Session, permission: string): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    return accountId;
  }

  async list(session: Session): Promise<Member[]> {
    const accountId = this.account(session, 'user::view');
    const users = new UserRepository(this.db);
    const [members, roles] = await Promise.all([
      users.membersOf(accountId),
      users.rolesOf(accountId),
    ]);
    const byId = new Map(roles.map((r) => [r.id, { id: r.id, slug: r.slug, name: r.name }]));
    return members.map((m) => ({
      id: m.id,
      firstname: m.firstname,
      lastname: m.lastname,
      email: m.email,
      roles: m.role_ids.flatMap((id) => {
        const role = byId.get(id);
        return role === undefined ? [] : [role];
      }),
    }));
  }

  async giveRole(session: Session, userId: string, roleId: string): Promise<Member> {
    await this.change(session, userId, (ops) => ops.giveRole(userId, roleId));
    return this.one(session, userId);
  }

  async takeRole(session: Session, userId: string, roleId: string): Promise<Member> {
    await this.change(session, userId, (ops) => ops.takeRole(userId, roleId));
    return this.one(session, userId);
  }

  async remove(session: Session, userId: string): Promise<void> {
    await this.change(session, userId, (ops) => ops.remove(userId), true);
  }

  /** One change of one member, logged (the member and the roles it touched) in its transaction. */
  private async change(
    session: Session,
    userId: string,
    work: (ops: MemberOps) => Promise<readonly string[]>,
    leaves = false,
  ): Promise<void> {
    const accountId = this.account(session, USER_EDIT_PERMISSION);
    const updates = await this.db.transaction().execute(async (trx) => {
      await new ChangeLogRepository(trx).lock(accountId);
      const roles = await work(new MemberOps(trx, this.clock, session, accountId));
      const log = new ManagedLog(trx);
      await log.members(accountId, [userId]);
      await log.roles(accountId, roles);
      // A member who leaves no longer holds the account's tags.
      if (leaves)
        await log.tags(
          accountId,
          (await tagModels(trx, accountId)).map((t) => t.id),
        );
      return log.commit(this.clock.now());
    });
    for (const [account, list] of updates) this.feed.publish(account, list);
    this.feed.accessChanged(accountId);
  }

  async sendResetLink(session: Session, userId: string): Promise<string> {
    const accountId = this.account(session, USER_EDIT_PERMISSION);
    await this.heldIn(this.db, accountId, userId);
    const user = await new UserRepository(this.db).findById(userId);
    if (user === undefined) throw notFound('User');
    this.passwords.sendResetLink(user.email);
    return RESET_LINK_SENT;
  }

  /** The member's roles in the account; 404 for someone who is not a member. */
  private async heldIn(db: Db, accountId: string, userId: string) {
    const held = await new UserRepository(db).rolesIn(accountId, userId);
    if (held.length === 0) throw notFound('User');
    return held;
  }

  private async one(session: Session, userId: string): Promise<Member> {
    const found = (await this.list(session)).find((m) => m.id === userId);
    if (found === undefined) throw notFound('User');
    return found;
  }
}

/**
 * The changes of an account's members, inside the caller's transaction: roles given (only what
 * the giver may hand out) and taken (a member keeps one; the account keeps an admin), members
 * removed (never oneself). The members routes and the synced `user` model's writes come here.
 * Each answers the roles it touched (their member counts moved).
 */
export class MemberOps {
  constructor(
    private readonly trx: Db,
    private readonly clock: Clock,
    private readonly session: Session,
    private readonly accountId: string,
  ) {}

  /** The member's roles here; 404 for someone who is not a member. */
  async heldIn(userId: string) {
    const held = await new UserRepository(this.trx).rolesIn(this.accountId, userId);
    if (held.length === 0) throw notFound('User');
    return held;
  }

  async giveRole(userId: string, roleId: string): Promise<string[]> {
    const held = await this.heldIn(userId);
    if (held.some((r) => r.id === roleId)) return [];
    const roles = new RoleRepository(this.trx);
    const role = await roles.find(this.accountId, roleId);
    if (role === undefined) throw notFound('Role');
    await mayHandOut(this.trx, this.session, this.accountId, role);
    await roles.addMemberships(this.accountId, [{ userId, roleId }], isoAt(this.clock.now()));
    return [roleId];
  }

  async takeRole(userId: string, roleId: string): Promise<string[]> {
    const held = await this.heldIn(userId);
    const role = held.find((r) => r.id === roleId);
    if (role === undefined) throw notFound('Role');
    if (held.length === 1) throw new DomainError('conflict', LAST_ROLE);
    if (role.slug === ROLE_SLUGS.admin) await keepAnAdmin(this.trx, this.accountId, userId);
    await new RoleRepository(this.trx).removeMembership(this.accountId, userId, roleId);
    return [roleId];
  }

  async remove(userId: string): Promise<string[]> {
    if (userId === this.session.user.id) throw new DomainError('conflict', NOT_YOURSELF);
    const held = await this.heldIn(userId);
    if (held.some((r) => r.slug === ROLE_SLUGS.admin)) {
      await keepAnAdmin(this.trx, this.accountId, userId);
    }
    await new RoleRepository(this.trx).removeMember(this.accountId, userId);
    // Invited back later, it must not find the account's features open again.
    await new AccessRepository(this.trx).untagMember(this.accountId, userId);
    return held.map((r) => r.id);
  }

  /**
   * The member's roles become these (the synced model's whole list): given, then taken. Absent:
   * nothing changes (its other attributes are its own, not the admin's).
   */
  async setRolesIfGiven(
    userId: string,
    roleIds: readonly string[] | undefined,
    base?: readonly string[],
  ): Promise<string[]> {
    const held = await this.heldIn(userId);
    if (roleIds === undefined) return [];
    const wanted = mergeList(
      held.map((h) => h.id),
      roleIds,
      base,
      (id) => id,
    );
    if (wanted.length === 0) throw new DomainError('conflict', LAST_ROLE);
    const touched: string[] = [];
    for (const id of wanted.filter((r) => !held.some((h) => h.id === r))) {
      touched.push(...(await this.giveRole(userId, id)));
    }
    for (const role of held.filter((h) => !wanted.includes(h.id))) {
      touched.push(...(await this.takeRole(userId, role.id)));
    }
    return touched;
  }
}

/**
 * A role may be handed out by an admin of the account; by others only when it is not admin and
 * grants no permission they lack themselves (no one raises itself or a friend above its own rights).
 */
export async function mayHandOut(
  db: Db,
  session: Session,
  accountId: string,
  role: { readonly id: string; readonly slug: string },
): Promise<void> {
  if (administers(session)) return;
  if (role.slug === ROLE_SLUGS.admin) throw forbidden(NOT_YOURS_TO_GIVE);
  const names = (await new RoleRepository(db).permissionsByRole(accountId)).get(role.id) ?? [];
  if (names.some((name) => !can(session.ctx, name))) throw forbidden(NOT_YOURS_TO_GIVE);
}

/** Refuses a change that leaves the account without any admin but `userId`. */
async function keepAnAdmin(db: Db, accountId: string, userId: string): Promise<void> {
  const others = (await new UserRepository(db).membersOf(accountId)).filter((m) => m.id !== userId);
  const roles = await new UserRepository(db).rolesOf(accountId);
  const adminRole = roles.find((r) => r.slug === ROLE_SLUGS.admin)?.id;
  if (!others.some((m) => adminRole !== undefined && m.role_ids.includes(adminRole))) {
    throw new DomainError('conflict', LAST_ADMIN);
  }
}
