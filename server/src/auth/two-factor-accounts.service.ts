import {
  can,
  isInternal,
  ROLE_SLUGS,
  TWO_FACTOR_LOG_ACTIONS,
  TWO_FACTOR_LOG_LIMIT,
  TWO_FACTOR_TEXTS,
  USER_EDIT_PERMISSION,
  type AccountTwoFactor,
  type MemberTwoFactor,
  type SecondFactorRequirement,
  type TwoFactorLogEntry,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { UserRepository } from '../repositories/user.repository';
import { permissionContextIn } from '../services/account-access';
import { AccountOps } from '../services/account-admin.service';
import { forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/session';
import { TwoFactorRepository } from './two-factor.repository';
import { entry } from './two-factor.service';

/**
 * Two-factor sign-in's accounts part (issue 38 item 2): an account's rule of who must have a
 * second factor, its members' factors and their history, and an admin's reset of a member's
 * factors. The user's own factors and the sign-in's second step are `TwoFactorService`'s, which
 * enforces the rule kept here; both write the same `two_factor_log`.
 */
export class TwoFactorAccountsService {
  private readonly repo: TwoFactorRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.repo = new TwoFactorRepository(db);
  }

  /** GET accounts/{id}/two-factor (account::view, the account in reach). */
  async rule(session: Session, accountId: string): Promise<AccountTwoFactor> {
    await new AccountOps(this.db, this.clock, session).inReach(accountId, 'account::view');
    return { required: await this.repo.requirement(accountId) };
  }

  /** PUT accounts/{id}/two-factor (account::edit, the account in reach); logged. */
  async setRule(
    session: Session,
    accountId: string,
    required: SecondFactorRequirement,
  ): Promise<AccountTwoFactor> {
    await new AccountOps(this.db, this.clock, session).inReach(accountId, 'account::edit');
    const now = this.clock.now();
    await this.repo.setRequirement(accountId, required);
    const actor = session.user.id;
    await this.repo.log(this.db, entry(actor, actor, accountId, `rule_${required}`, now));
    this.log.info('two-factor rule set', { account: accountId, by: actor, required });
    return { required };
  }

  /** GET account/users/two-factor: the active account's members and their factors (user::view). */
  async members(session: Session): Promise<MemberTwoFactor[]> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, 'user::view')) throw forbidden();
    const [rows, rule, admins] = await Promise.all([
      this.repo.membersWithFactors(accountId),
      this.repo.requirement(accountId),
      this.repo.adminsOf(accountId),
    ]);
    return rows.map((r) => ({
      ...r,
      required: rule === 'everyone' || (rule === 'admins' && admins.has(r.id)),
    }));
  }

  /**
   * GET account/users/two-factor/log: who changed which second factor when, in the active
   * account (user::view, as its members' factors are shown).
   */
  async history(session: Session): Promise<TwoFactorLogEntry[]> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, 'user::view')) throw forbidden();
    const rows = await this.repo.logOf(accountId, TWO_FACTOR_LOG_LIMIT);
    return rows.flatMap((r) => {
      const action = TWO_FACTOR_LOG_ACTIONS.find((a) => a === r.action);
      if (action === undefined) return [];
      return [
        {
          id: r.id,
          at: Number(r.at),
          action,
          actor: {
            id: r.actor_id,
            firstname: r.actor_firstname,
            lastname: r.actor_lastname,
            email: r.actor_email,
          },
          member: {
            id: r.member_id,
            firstname: r.member_firstname,
            lastname: r.member_lastname,
            email: r.member_email,
          },
        },
      ];
    });
  }

  /**
   * DELETE account/users/{id}/two-factor: an admin resets a member who lost its factors. Allowed
   * with user::edit in EVERY account the stored member belongs to (an admin of one customer may
   * not weaken the sign-in of someone who also works in an account it does not manage), and a
   * member who is an admin somewhere only by an admin there. Logged with who, whom and where.
   */
  async resetMember(session: Session, memberId: string): Promise<void> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, USER_EDIT_PERMISSION)) throw forbidden();
    if (memberId === session.user.id) throw forbidden();
    const held = await new UserRepository(this.db).rolesIn(accountId, memberId);
    if (held.length === 0) throw notFound('User');
    const memberships = await this.repo.rulesOf(memberId);
    for (const accountOf of new Set(memberships.map((m) => m.accountId))) {
      const ctx = await permissionContextIn(this.db, session, accountOf);
      if (!can(ctx, USER_EDIT_PERMISSION)) throw forbidden(TWO_FACTOR_TEXTS.resetOutsideReach);
      const isAdmin = memberships.some(
        (m) => m.accountId === accountOf && m.slug === ROLE_SLUGS.admin,
      );
      const actorAdmin =
        isInternal(ctx) || ctx.activeRoles.some((r) => r.slug === ROLE_SLUGS.admin);
      if (isAdmin && !actorAdmin) throw forbidden(TWO_FACTOR_TEXTS.resetAdminOnly);
    }
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepository(trx);
      await repo.deleteTotp(trx, memberId);
      await repo.replaceRecoveryCodes(trx, memberId, [], now);
      await repo.deletePasskeys(trx, memberId);
      await repo.log(trx, entry(memberId, session.user.id, accountId, 'admin_reset', now));
    });
    this.log.info('second factor reset by an admin', {
      account: accountId,
      member: memberId,
      by: session.user.id,
    });
  }
}
