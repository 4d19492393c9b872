import {
  can,
  LANGUAGES,
  mayUseApp,
  type CurrentUser,
  type Language,
  type PermissionContext,
  type UserPublic,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { isoAt } from '../lib/clock';
import { AccessRepository } from '../repositories/access.repository';
import { AccountRepository } from '../repositories/account.repository';
import { UserRepository } from '../repositories/user.repository';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { AccessDecision } from './access-decision';
import { accountView } from './account.service';
import { DomainError, forbidden, notFound } from './domain-error';
import type { Session, TokenNarrowing } from './session';

// The session's type has its own module (see session.ts); most services still name it from here.
export type { Session, TokenNarrowing } from './session';

const asLanguage = (value: string): Language =>
  (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : 'en';

export class UserService {
  private readonly users: UserRepository;
  private readonly accounts: AccountRepository;
  private readonly access: AccessRepository;
  private readonly grants: AssetAccessRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.users = new UserRepository(db);
    this.accounts = new AccountRepository(db);
    this.access = new AccessRepository(db);
    this.grants = new AssetAccessRepository(db);
  }

  /**
   * The session of a user: its active account and roles there. A scoped token (`narrowed`) acts
   * in its role's account with that role alone, its scopes narrowing every permission, and never
   * as an internal user: effective access = scopes ∩ role ∩ the user's membership today. A user
   * who no longer holds the role has no session with that token.
   */
  async session(
    userId: string,
    internalFeaturesDisabled: boolean,
    narrowed?: TokenNarrowing,
    /** Another account than the user's active one (a report made for a recipient there). */
    inAccountId?: string,
  ): Promise<Session> {
    const user = await this.users.findById(userId);
    if (user === undefined) throw new DomainError('unauthenticated', 'Unauthenticated.');
    // The app's own sign-in reads its active account beside the roles, as before tokens had roles;
    // a scoped token's account is its role's, known once the roles are read.
    const activeId = narrowed === undefined ? (inAccountId ?? user.active_account_id) : null;
    const [allRoles, featureFlags, ownAccount] = await Promise.all([
      this.users.allRoles(user.id),
      this.access.featureFlags(),
      activeId === null ? undefined : this.accounts.findForMember(user.id, activeId),
    ]);
    const tokenRole =
      narrowed === undefined ? undefined : allRoles.find((r) => r.id === narrowed.roleId);
    if (narrowed !== undefined && (tokenRole === undefined || !mayUseApp([tokenRole.slug]))) {
      throw new DomainError('unauthenticated', 'Unauthenticated.');
    }
    const roles = tokenRole === undefined ? allRoles : [tokenRole];
    const activeAccount =
      tokenRole === undefined
        ? ownAccount
        : await this.accounts.findForMember(user.id, tokenRole.account_id);
    if (narrowed !== undefined && activeAccount === undefined) {
      throw new DomainError('unauthenticated', 'Unauthenticated.');
    }
    const inAccount = activeAccount ?? null;
    const activeRoles =
      inAccount === null ? [] : roles.filter((r) => r.account_id === inAccount.id);
    const [permissions, tags] =
      inAccount === null
        ? [[], []]
        : await Promise.all([
            this.access.permissionsOfRoles(
              inAccount.id,
              activeRoles.map((r) => r.id),
            ),
            this.access.tagsOf(inAccount.id, user.id),
          ]);
    const memberOf = new Set(roles.map((r) => r.account_id));
    const ctx: PermissionContext = {
      activeRoles,
      permissions,
      tags,
      featureFlags,
      internalFeaturesDisabled: internalFeaturesDisabled || narrowed !== undefined,
      ...(narrowed === undefined ? {} : { scopes: narrowed.scopes }),
    };
    const grants =
      inAccount === null
        ? { allAssets: [], assets: [], fields: [] }
        : await this.grants.grantsOf(
            inAccount.id,
            activeRoles.map((r) => r.id),
            user.id,
          );
    const access = AccessDecision.of(ctx, grants, {
      userId: user.id,
      accountId: inAccount?.id ?? null,
    });
    const view: CurrentUser = {
      id: user.id,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      language: asLanguage(user.language),
      account: inAccount?.id ?? null,
      activeAccount: inAccount === null ? null : await accountView(this.db, inAccount, memberOf),
      roles,
      activeRoles,
      permissions,
      tags,
      featureFlags,
      access: access.assetAccessView,
    };
    const viewJson = JSON.stringify({ data: view });
    return {
      user,
      activeAccount: inAccount,
      roles,
      activeRoles,
      memberOf,
      view,
      viewJson,
      ctx,
      access,
    };
  }

  /**
   * The user's session in an account of its choosing (not its active one), as if it worked there:
   * what a report made for that user may show (DESIGN.md §10: the same decision). Undefined when
   * the user is not a member there.
   */
  async sessionIn(userId: string, accountId: string): Promise<Session | undefined> {
    const session = await this.session(userId, false, undefined, accountId);
    return session.activeAccount?.id === accountId ? session : undefined;
  }

  /** A user as the caller may see it: itself, or a member of its active account with user::view. */
  async visibleUser(session: Session, id: string): Promise<UserPublic> {
    if (id !== session.user.id && !can(session.ctx, 'user::view')) throw forbidden();
    if (session.activeAccount === null) throw notFound('User');
    const roles = await this.users.rolesIn(session.activeAccount.id, id);
    const user = roles.length > 0 ? await this.users.findById(id) : undefined;
    if (user === undefined) throw notFound('User');
    return {
      id: user.id,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      language: asLanguage(user.language),
      roles,
    };
  }

  /** POST user/{id}/setActiveAccount/{accountid}: only for oneself, only into one's own accounts. */
  async setActiveAccount(session: Session, userId: string, accountId: string) {
    if (userId !== session.user.id) throw forbidden();
    const account = await this.accounts.findForMember(session.user.id, accountId);
    if (account === undefined) throw notFound('Account');
    const roles = await this.users.rolesIn(accountId, session.user.id);
    if (!mayUseApp(roles.map((r) => r.slug))) {
      throw forbidden('You have no role in this account. Please ask its administrator for access.');
    }
    await this.users.setActiveAccount(session.user.id, accountId, isoAt(this.clock.now()));
    const next = await this.session(session.user.id, session.ctx.internalFeaturesDisabled);
    return { user: next.view, account: await accountView(this.db, account, next.memberOf) };
  }
}
