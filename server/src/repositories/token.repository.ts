import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { AccessTokensTable, OAuthClientsTable } from '../db/types';

export type OAuthClientRow = Selectable<OAuthClientsTable>;

/** OAuth clients and access tokens. Tokens are looked up only by their SHA-256. */
export class TokenRepository {
  constructor(private readonly db: Db) {}

  firstPartyClient(): Promise<OAuthClientRow | undefined> {
    return this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('first_party', '=', 1)
      .where('revoked', '=', 0)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  findClient(id: string): Promise<OAuthClientRow | undefined> {
    return this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertClient(row: Insertable<OAuthClientsTable>): Promise<void> {
    await this.db.insertInto('oauth_clients').values(row).execute();
  }

  async insertToken(row: Insertable<AccessTokensTable>): Promise<void> {
    await this.db.insertInto('access_tokens').values(row).execute();
  }

  /** A token that is neither revoked nor expired at `nowIso`. */
  findLive(tokenHash: string, nowIso: string) {
    return (
      this.db
        .selectFrom('access_tokens')
        // A deleted (revoked) client's tokens die with it, whenever they were issued.
        .innerJoin('oauth_clients', 'oauth_clients.id', 'access_tokens.client_id')
        .select([
          'access_tokens.id',
          'access_tokens.user_id',
          'access_tokens.client_id',
          'access_tokens.expires_at',
          'access_tokens.scoped',
          'access_tokens.role_id',
          'access_tokens.scopes',
        ])
        .where('access_tokens.token_hash', '=', tokenHash)
        .where('access_tokens.revoked_at', 'is', null)
        .where('access_tokens.expires_at', '>', nowIso)
        .where('oauth_clients.revoked', '=', 0)
        .executeTakeFirst()
    );
  }

  async revoke(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Every token of the user (a password reset): sign-ins, personal and applications' tokens. */
  async revokeAllOfUser(userId: string, at: string): Promise<void> {
    await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked_at: at })
      .where('revoked_at', 'is', null)
      .where('access_token_id', 'in', (eb) =>
        eb.selectFrom('access_tokens').select('id').where('user_id', '=', userId),
      )
      .execute();
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
