import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/**
 * Invitations. Written in the inviting account's scope; read by token hash across accounts on
 * purpose: the person answering the link is not signed in to the account yet, and the token
 * (32 random bytes, stored hashed) is what proves the invitation.
 */
export class InvitationRepository {
  constructor(private readonly db: Db) {}

  async insert(
    accountId: string,
    row: {
      id: string;
      role_id: string;
      email: string;
      token_hash: string;
      invited_by: string;
      created_at: string;
      expires_at: string;
    },
  ): Promise<void> {
    await scopeTo(this.db, accountId).insertInto('invitations', [row]).execute();
  }

  /** A usable invitation by its token: not accepted, not expired. */
  usable(tokenHash: string, nowIso: string) {
    return (
      this.db
        .selectFrom('invitations')
        .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
        .innerJoin('roles', 'roles.id', 'invitations.role_id')
        .select([
          'invitations.id',
          'invitations.account_id',
          'invitations.role_id',
          'invitations.email',
          'accounts.name as account',
          'roles.name as role',
        ])
        .where('invitations.token_hash', '=', tokenHash)
        // A deactivated account takes no one new.
        .where('accounts.active', '=', 1)
        .where('invitations.accepted_at', 'is', null)
        .where('invitations.expires_at', '>', nowIso)
        .executeTakeFirst()
    );
  }

  /**
   * Marks a usable invitation accepted; answers whether this call did it. One UPDATE with the
   * conditions in its WHERE: the same link answered twice at once joins once.
   */
  async consume(accountId: string, id: string, nowIso: string): Promise<boolean> {
    const row = await scopeTo(this.db, accountId)
      .updateTable('invitations')
      .set({ accepted_at: nowIso })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
