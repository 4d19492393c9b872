import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

export interface GatewayCredentialRow {
  readonly id: string;
  readonly account_id: string;
  readonly gateway_id: string;
  readonly secret_hash: string;
  readonly created_at: string;
}

/**
 * A gateway's broker credentials. Made, listed and revoked within the gateway's account (the
 * scope); the broker's check at CONNECT knows only the gateway id the agent names, so it reads by
 * gateway id across accounts and the caller compares the account with the gateway's own.
 */
export class GatewayCredentialRepository {
  constructor(private readonly db: Db) {}

  async insert(
    accountId: string,
    row: Omit<GatewayCredentialRow, 'account_id'> & { created_by: string | null },
  ) {
    await scopeTo(this.db, accountId)
      .insertInto('gateway_credentials', [{ ...row, revoked_at: null }])
      .execute();
  }

  /** Revokes the gateway's live credentials; answers their ids (the broker closes their links). */
  async revokeAll(accountId: string, gatewayId: string, nowIso: string): Promise<string[]> {
    const scope = scopeTo(this.db, accountId);
    const live = await scope
      .selectFrom('gateway_credentials')
      .select('id')
      .where('gateway_id', '=', gatewayId)
      .where('revoked_at', 'is', null)
      .execute();
    if (live.length === 0) return [];
    await scope
      .updateTable('gateway_credentials')
      .set({ revoked_at: nowIso })
      .where('gateway_id', '=', gatewayId)
      .where('revoked_at', 'is', null)
      .execute();
    return live.map((r) => r.id);
  }

  /** The gateway's live credentials, newest first (no secrets: only their hashes exist). */
  listLive(accountId: string, gatewayId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('gateway_credentials')
      .select(['id', 'created_at', 'created_by'])
      .where('gateway_id', '=', gatewayId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** The broker's lookup at CONNECT: every live credential of the gateway the agent names. */
  findLiveByGateway(gatewayId: string): Promise<GatewayCredentialRow[]> {
    // Across accounts on purpose: the agent names only its gateway; the caller checks that the
    // credential's account is the gateway's own.
    return this.db
      .selectFrom('gateway_credentials')
      .select(['id', 'account_id', 'gateway_id', 'secret_hash', 'created_at'])
      .where('gateway_id', '=', gatewayId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** The account's live credential ids, of all its gateways (their links close on deactivation). */
  async liveOfAccount(accountId: string): Promise<string[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('gateway_credentials')
      .select('id')
      .where('revoked_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Which of these credential ids are still usable (the broker's re-check): not revoked, and of
   * an active account, so that a link the deactivation's broadcast missed (another process, a
   * CONNECT that raced it) closes at the next re-check. The credentials themselves stay: the
   * agents come back with them when the account is reactivated.
   */
  async liveAmong(ids: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('gateway_credentials')
        .innerJoin('accounts', 'accounts.id', 'gateway_credentials.account_id')
        .select('gateway_credentials.id')
        .where('gateway_credentials.id', 'in', ids.slice(i, i + 500))
        .where('gateway_credentials.revoked_at', 'is', null)
        .where('accounts.active', '=', 1)
        .execute();
      for (const row of rows) live.add(row.id);
    }
    return live;
  }
}
