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
      sent_at: string;
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
        .where('invitations.revoked_at', 'is', null)
        .where('invitations.expires_at', '>', nowIso)
        .executeTakeFirst()
    );
  }

  /** Whether a token is a revoked invitation's (its link then says so). */
  async isRevoked(tokenHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('invitations')
      .select('id')
      .where('token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The account's sent invitations with their role's name, newest first. */
  list(accountId: string, limit: number) {
    return this.selected(accountId)
      .orderBy('invitations.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** One of the account's invitations. */
  find(accountId: string, id: string) {
    return this.selected(accountId).where('invitations.id', '=', id).executeTakeFirst();
  }

  private selected(accountId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('invitations')
      .innerJoin('roles', 'roles.id', 'invitations.role_id')
      .select([
        'invitations.id',
        'invitations.email',
        'invitations.role_id',
        'roles.name as role',
        'roles.slug as role_slug',
        'invitations.created_at',
        'invitations.sent_at',
        'invitations.expires_at',
        'invitations.accepted_at',
        'invitations.revoked_at',
      ]);
  }

  /**
   * A new link for an open invitation (not accepted, not revoked): the old token's hash is
   * replaced, so the old link dies. Answers whether it was open.
   */
  async renew(
    accountId: string,
    id: string,
    next: { token_hash: string; sent_at: string; expires_at: string },
  ): Promise<boolean> {
    return this.updateOpen(accountId, id, next);
  }

  /** Revokes an open invitation; answers whether it was open. */
  async revoke(accountId: string, id: string, nowIso: string): Promise<boolean> {
    return this.updateOpen(accountId, id, { revoked_at: nowIso });
  }

  /**
   * Marks a usable invitation accepted; answers whether this call did it. One UPDATE with the
   * conditions in its WHERE: the same link answered twice at once joins once.
   */
  async consume(accountId: string, id: string, nowIso: string): Promise<boolean> {
    return this.updateOpen(accountId, id, { accepted_at: nowIso }, nowIso);
  }

  /**
   * One UPDATE of an invitation neither accepted nor revoked (and, with `unexpiredAt`, not
   * expired then); answers whether it changed one. The conditions in the WHERE decide races.
   */
  private async updateOpen(
    accountId: string,
    id: string,
    set: Partial<{
      token_hash: string;
      sent_at: string;
      expires_at: string;
      revoked_at: string;
      accepted_at: string;
    }>,
    unexpiredAt?: string,
  ): Promise<boolean> {
    let update = scopeTo(this.db, accountId)
      .updateTable('invitations')
      .set(set)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null);
    if (unexpiredAt !== undefined) update = update.where('expires_at', '>', unexpiredAt);
    const row = await update.returning('id').executeTakeFirst();
    return row !== undefined;
  }
}
