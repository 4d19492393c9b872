import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { BrowserCredentialsTable } from '../db/types';
import { scopeTo } from './account-scope';

/** Broker credentials per browser; looked up by username, checked by password hash. */
export class BrowserCredentialRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<BrowserCredentialsTable>): Promise<void> {
    const { account_id, ...rest } = row;
    await scopeTo(this.db, account_id).insertInto('browser_credentials', [rest]).execute();
  }

  /** Live credentials (not revoked, not expired) by username. */
  findLive(username: string, nowIso: string) {
    return this.db
      .selectFrom('browser_credentials')
      .select(['id', 'user_id', 'account_id', 'token_id', 'clientid', 'password_hash'])
      .where('username', '=', username)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
  }

  /** Revokes and answers the ids revoked: a token's, or a user's browser's earlier ones. */
  async revoke(where: { tokenId: string } | { userId: string; browserId: string }, at: string) {
    let q = this.db
      .updateTable('browser_credentials')
      .set({ revoked_at: at })
      .where('revoked_at', 'is', null);
    q =
      'tokenId' in where
        ? q.where('token_id', '=', where.tokenId)
        : q.where('user_id', '=', where.userId).where('browser_id', '=', where.browserId);
    const rows = await q.returning('id').execute();
    return rows.map((r) => r.id);
  }
}
