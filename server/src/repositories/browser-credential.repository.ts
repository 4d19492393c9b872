import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { BrowserCredentialsTable } from '../db/types';
import { scopeTo } from './account-scope';

/** Which credentials to revoke: a token's, a user's browser's earlier ones, or all of a user's. */
export type RevokeWhere =
  | { readonly tokenId: string }
  | { readonly userId: string; readonly browserId: string }
  | { readonly userId: string };

/**
 * Broker credentials per browser; looked up by username, checked by password hash. Lookups by
 * username, id, token or user are not per account (the broker and sign-out know no account yet),
 * so they read the table directly; inserts go through the account's scope.
 */
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
    return this.live(nowIso)
      .select([
        'browser_credentials.id',
        'browser_credentials.user_id',
        'browser_credentials.account_id',
        'browser_credentials.token_id',
        'browser_credentials.clientid',
        'browser_credentials.password_hash',
      ])
      .where('browser_credentials.username', '=', username)
      .executeTakeFirst();
  }

  /** Which of these credential ids are still live (the broker's periodic re-check). */
  async liveAmong(ids: readonly string[], nowIso: string): Promise<Set<string>> {
    const live = new Set<string>();
    // In chunks: SQLite takes at most 32,766 bound values a statement.
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.live(nowIso)
        .select('browser_credentials.id')
        .where('browser_credentials.id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of rows) live.add(row.id);
    }
    return live;
  }

  private live(nowIso: string) {
    return this.db
      .selectFrom('browser_credentials')
      .innerJoin('access_tokens', 'access_tokens.id', 'browser_credentials.token_id')
      .where('browser_credentials.revoked_at', 'is', null)
      .where('browser_credentials.expires_at', '>', nowIso)
      .where('access_tokens.revoked_at', 'is', null)
      .where('access_tokens.expires_at', '>', nowIso);
  }

  /** Revokes and answers the ids revoked. */
  async revoke(where: RevokeWhere, at: string) {
    let q = this.db
      .updateTable('browser_credentials')
      .set({ revoked_at: at })
      .where('revoked_at', 'is', null);
    if ('tokenId' in where) q = q.where('token_id', '=', where.tokenId);
    else {
      q = q.where('user_id', '=', where.userId);
      if ('browserId' in where) q = q.where('browser_id', '=', where.browserId);
    }
    const rows = await q.returning('id').execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes credentials that were revoked, or that expired, before `beforeIso`. Across every
   * account: a retention sweep by age, not a read or write on an account's behalf.
   */
  async pruneEnded(beforeIso: string): Promise<number> {
    const result = await this.db
      .deleteFrom('browser_credentials')
      .where((eb) => eb.or([eb('revoked_at', '<', beforeIso), eb('expires_at', '<', beforeIso)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
