import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type {
  AccessTokensTable,
  OAuthAuthCodesTable,
  OAuthClientsTable,
  OAuthRefreshTokensTable,
} from '../db/types';

export type ClientRow = Selectable<OAuthClientsTable>;
export type TokenRow = Selectable<AccessTokensTable>;
export type RefreshRow = Selectable<OAuthRefreshTokensTable>;
export type AuthCodeRow = Selectable<OAuthAuthCodesTable>;

/**
 * The developer area's queries: users' clients, their scoped tokens, authorization codes and
 * refresh tokens. Every read of a user's things names the user (another user's id is not found).
 */
export class OAuthRepository {
  constructor(private readonly db: Db) {}

  /** Several writes as one: in the caller's transaction when there is one, else in their own. */
  private atomically(work: (db: Db) => Promise<void>): Promise<void> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  personalAccessClient(): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('personal_access', '=', 1)
      .where('revoked', '=', 0)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  async insertClient(row: Insertable<OAuthClientsTable>): Promise<void> {
    await this.db.insertInto('oauth_clients').values(row).execute();
  }

  client(id: string): Promise<ClientRow | undefined> {
    return this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  clientsOf(userId: string): Promise<ClientRow[]> {
    return this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  ownClient(userId: string, id: string): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked', '=', 0)
      .executeTakeFirst();
  }

  async updateClient(id: string, name: string, redirect: string, at: string): Promise<void> {
    await this.db
      .updateTable('oauth_clients')
      .set({ name, redirect, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Ends the secrets of the user's clients that mint tokens acting as the user without the user
   * present (client credentials: confidential, with a role); answers those clients. They stay
   * (name, redirect, role) and take a new secret from their owner.
   */
  async endActingSecretsOf(userId: string, at: string): Promise<{ id: string; name: string }[]> {
    const rows = await this.db
      .selectFrom('oauth_clients')
      .select(['id', 'name'])
      .where('user_id', '=', userId)
      .where('revoked', '=', 0)
      .where('confidential', '=', 1)
      .where('role_id', 'is not', null)
      .where('secret_hash', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('oauth_clients')
      .set({ secret_hash: null, updated_at: at })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows;
  }

  /** The user's authorization codes not exchanged yet (a new password: they give nothing more). */
  async dropOpenCodesOf(userId: string): Promise<void> {
    await this.db
      .deleteFrom('oauth_auth_codes')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  /**
   * A client's new secret (hash); the tokens the old one minted by client credentials (no
   * family: not a user's grant) end with it.
   */
  async setSecret(id: string, secretHash: string, at: string): Promise<void> {
    await this.atomically(async (trx) => {
      await trx
        .updateTable('oauth_clients')
        .set({ secret_hash: secretHash, updated_at: at })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: at, updated_at: at })
        .where('client_id', '=', id)
        .where('family_id', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
    });
  }

  /** A deleted client is revoked, and every token it was given with it. */
  async revokeClient(id: string, at: string): Promise<void> {
    await this.atomically(async (trx) => {
      await trx
        .updateTable('oauth_clients')
        .set({ revoked: 1, updated_at: at })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('oauth_refresh_tokens')
        .set({ revoked_at: at })
        .where('revoked_at', 'is', null)
        .where('access_token_id', 'in', (eb) =>
          eb.selectFrom('access_tokens').select('id').where('client_id', '=', id),
        )
        .execute();
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: at, updated_at: at })
        .where('client_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    });
  }

  async insertToken(row: Insertable<AccessTokensTable>): Promise<void> {
    await this.db.insertInto('access_tokens').values(row).execute();
  }

  /** A user's live tokens of one client (the personal access client). */
  liveTokensOf(userId: string, clientId: string, nowIso: string): Promise<TokenRow[]> {
    return this.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('scoped', '=', 1)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * The tokens a user gave applications (authorization-code grants), one per family: the latest
   * access token of a grant that lives on, by that token or by a refresh token not yet expired.
   */
  applicationTokensOf(userId: string, nowIso: string): Promise<TokenRow[]> {
    return this.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .where('family_id', 'is not', null)
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('expires_at', '>', nowIso),
          eb.exists(
            eb
              .selectFrom('oauth_refresh_tokens')
              .select('oauth_refresh_tokens.id')
              .whereRef('oauth_refresh_tokens.access_token_id', '=', 'access_tokens.id')
              .where('oauth_refresh_tokens.revoked_at', 'is', null)
              .where('oauth_refresh_tokens.expires_at', '>', nowIso),
          ),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  ownToken(userId: string, id: string): Promise<TokenRow | undefined> {
    return this.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('scoped', '=', 1)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async revokeToken(id: string, at: string): Promise<void> {
    await this.atomically(async (trx) => {
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: at, updated_at: at })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('oauth_refresh_tokens')
        .set({ revoked_at: at })
        .where('access_token_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    });
  }

  /** Every access and refresh token of a grant's family: revocation, or a reused refresh token. */
  async revokeFamily(familyId: string, at: string): Promise<void> {
    await this.atomically(async (trx) => {
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: at, updated_at: at })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('oauth_refresh_tokens')
        .set({ revoked_at: at })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    });
  }

  async insertAuthCode(row: Insertable<OAuthAuthCodesTable>): Promise<void> {
    await this.db.insertInto('oauth_auth_codes').values(row).execute();
  }

  authCode(codeHash: string): Promise<AuthCodeRow | undefined> {
    return this.db
      .selectFrom('oauth_auth_codes')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
  }

  /** Takes a code for one exchange: false when another exchange took it first. */
  async useAuthCode(id: string, familyId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_auth_codes')
      .set({ used_at: at, family_id: familyId })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async insertRefresh(row: Insertable<OAuthRefreshTokensTable>): Promise<void> {
    await this.db.insertInto('oauth_refresh_tokens').values(row).execute();
  }

  refreshToken(tokenHash: string) {
    return this.db
      .selectFrom('oauth_refresh_tokens')
      .innerJoin('access_tokens', 'access_tokens.id', 'oauth_refresh_tokens.access_token_id')
      .select([
        'oauth_refresh_tokens.id',
        'oauth_refresh_tokens.family_id',
        'oauth_refresh_tokens.expires_at',
        'oauth_refresh_tokens.used_at',
        'oauth_refresh_tokens.revoked_at',
        'oauth_refresh_tokens.access_token_id',
        'access_tokens.client_id',
        'access_tokens.user_id',
        'access_tokens.role_id',
        'access_tokens.scopes',
        'access_tokens.revoked_at as access_revoked_at',
      ])
      .where('oauth_refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Takes a refresh token for one rotation: false when it was used (or revoked) already. */
  async useRefresh(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Codes and refresh tokens that expired before `beforeIso`: rows that only grow otherwise. */
  async pruneEnded(beforeIso: string): Promise<number> {
    const codes = await this.db
      .deleteFrom('oauth_auth_codes')
      .where('expires_at', '<', beforeIso)
      .executeTakeFirst();
    const refresh = await this.db
      .deleteFrom('oauth_refresh_tokens')
      .where('expires_at', '<', beforeIso)
      .executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(refresh.numDeletedRows);
  }
}
