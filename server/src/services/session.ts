import type { CurrentUser, PermissionContext } from '@plant/shared-schema';
import type { AccountRow } from '../repositories/account.repository';
import type { RoleRow, UserRecord } from '../repositories/user.repository';
import type { AccessDecision } from './access-decision';

/*
 * The session's shape lives apart from UserService, which loads it: the helpers that read a
 * session (account-access.ts, account.service.ts) are used by UserService in turn, and importing
 * the type from user.service.ts tied the three into an import circle.
 */

/** What a scoped token narrows its user's session to. */
export interface TokenNarrowing {
  readonly roleId: string;
  readonly scopes: readonly string[];
}

/** Everything known about the signed-in user in its active account, loaded once per request. */
export interface Session {
  readonly user: UserRecord;
  readonly activeAccount: AccountRow | null;
  readonly roles: RoleRow[];
  readonly activeRoles: RoleRow[];
  /** Ids of every account the user belongs to. */
  readonly memberOf: ReadonlySet<string>;
  readonly view: CurrentUser;
  /** GET user's whole answer, serialised once per session load (sessions are cached). */
  readonly viewJson: string;
  readonly ctx: PermissionContext;
  /** What the user sees and edits in the active account (DESIGN.md §10). */
  readonly access: AccessDecision;
}
