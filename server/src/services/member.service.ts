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
import { administers, LAST_ADMIN, NOT_YOURS_TO_GIVE } from './account-access';
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
    const accountId = this.account(session, USER_EDIT_PERMISSION);
    await this.db.transaction().execute(async (trx) => {
      const held = await this.heldIn(trx, accountId, userId);
      if (held.some((r) => r.id === roleId)) return;
      const role = await new RoleRepository(trx).find(accountId, roleId);
      if (role === undefined) throw notFound('Role');
      await mayHandOut(trx, session, accountId, role);
      await new RoleRepository(trx).addMemberships(
        accountId,
        [{ userId, roleId }],
        isoAt(this.clock.now()),
      );
    });
    this.feed.accessChanged(accountId);
    return this.one(session, userId);
  }

  async takeRole(session: Session, userId: string, roleId: string): Promise<Member> {
    const accountId = this.account(session, USER_EDIT_PERMISSION);
    await this.db.transaction().execute(async (trx) => {
      const held = await this.heldIn(trx, accountId, userId);
      const role = held.find((r) => r.id === roleId);
      if (role === undefined) throw notFound('Role');
      if (held.length === 1) throw new DomainError('conflict', LAST_ROLE);
      if (role.slug === ROLE_SLUGS.admin) await keepAnAdmin(trx, accountId, userId);
      await new RoleRepository(trx).removeMembership(accountId, userId, roleId);
    });
    this.feed.accessChanged(accountId);
    return this.one(session, userId);
  }

  async remove(session: Session, userId: string): Promise<void> {
    const accountId = this.account(session, USER_EDIT_PERMISSION);
    if (userId === session.user.id) throw new DomainError('conflict', NOT_YOURSELF);
    await this.db.transaction().execute(async (trx) => {
      const held = await this.heldIn(trx, accountId, userId);
      if (held.some((r) => r.slug === ROLE_SLUGS.admin)) await keepAnAdmin(trx, accountId, userId);
      await new RoleRepository(trx).removeMember(accountId, userId);
    });
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
