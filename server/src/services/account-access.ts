import { isInternal, mayUseApp, ROLE_SLUGS, type PermissionContext } from '@plant/shared-schema';
import { AccessRepository } from '../repositories/access.repository';
import type { Db } from '../db/database';
import type { Session } from './session';

const NOTHING_GRANTED: PermissionContext = {
  activeRoles: [],
  permissions: [],
  tags: [],
  featureFlags: [],
  internalFeaturesDisabled: true,
};

/** The slugs of the roles the user holds in one account (from its session). */
export function roleSlugsIn(session: Session, accountId: string): string[] {
  return session.roles.filter((r) => r.account_id === accountId).map((r) => r.slug);
}

/**
 * Whether the user may work in the account: it holds a role other than norole there. The same
 * rule as POST user/{id}/setActiveAccount/{accountid}: these are the accounts it may switch to.
 */
export function mayWorkIn(session: Session, accountId: string): boolean {
  return mayUseApp(roleSlugsIn(session, accountId));
}

/**
 * The permission context the user would have in one of its accounts if it were the active one:
 * its roles there, their permission records, its tags there, the feature flags. For the active
 * account it is the session's own. Decide with `can()`, the one permission function. In an
 * account where the user may not work (norole only, or no role at all) it grants nothing, not even
 * through the internal tag: the tag widens rights inside one's accounts, never the set of them.
 */
export async function permissionContextIn(
  db: Db,
  session: Session,
  accountId: string,
): Promise<PermissionContext> {
  if (!mayWorkIn(session, accountId)) return NOTHING_GRANTED;
  if (accountId === session.activeAccount?.id) return session.ctx;
  const activeRoles = session.roles.filter((r) => r.account_id === accountId);
  const access = new AccessRepository(db);
  const [permissions, tags] = await Promise.all([
    access.permissionsOfRoles(
      accountId,
      activeRoles.map((r) => r.id),
    ),
    access.tagsOf(accountId, session.user.id),
  ]);
  return {
    activeRoles,
    permissions,
    tags,
    featureFlags: session.ctx.featureFlags,
    internalFeaturesDisabled: session.ctx.internalFeaturesDisabled,
  };
}

/**
 * Whether the session's user administers its active account (an admin role there, or the
 * global internal tag): only such a user hands out the admin role, or rights it lacks itself.
 */
export function administers(session: Session): boolean {
  return isInternal(session.ctx) || session.activeRoles.some((r) => r.slug === ROLE_SLUGS.admin);
}

/** The account keeps someone who can administer it. */
export const LAST_ADMIN = 'The account keeps at least one admin.';
/** What a non-admin may not hand out: a right it does not hold itself. */
export const NOT_YOURS_TO_GIVE = 'You can only give rights you have yourself.';
