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
    // Only while the access token they were issued under lives too (a password reset revokes
    // every token, and with them every browser's broker access).
    return this.db
      .selectFrom('browser_credentials')
      .innerJoin('access_tokens', 'access_tokens.id', 'browser_credentials.token_id')
      .select([
        'browser_credentials.id',
        'browser_credentials.user_id',
        'browser_credentials.account_id',
        'browser_credentials.token_id',
        'browser_credentials.clientid',
        'browser_credentials.password_hash',
      ])
      .where('browser_credentials.username', '=', username)
      .where('browser_credentials.revoked_at', 'is', null)
      .where('browser_credentials.expires_at', '>', nowIso)
      .where('access_tokens.revoked_at', 'is', null)
      .where('access_tokens.expires_at', '>', nowIso)
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
